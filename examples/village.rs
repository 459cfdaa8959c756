//! Villagers with needs choosing what to do by utility: hunger, fatigue and
//! loneliness rise; each villager's tree scores eating, sleeping, chatting at
//! the square and working, and does the best, switching only when another
//! choice beats it by a margin of 0.15. Prints the first villager's day, then
//! the criteria for the whole village, and the same village without the margin.
//!
//! ```text
//! cargo run --example village
//! cargo run --example village -- --studio   # and watch each villager choose at http://127.0.0.1:7878/
//! ```
//!
//! With `--studio` the twenty minutes run in real time and every villager's
//! tree is served to behaved-studio's live view: follow one, select its
//! `utility` node, and the inspector shows each choice's score at the cursor
//! and a lane of the scores over time; its needs are the context values.

use behaved_scenarios::village::{Fickle, Report, Village, VillageEvent, Villager};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut village = Village::new(8, |_| Villager::new());
    if std::env::args().any(|a| a == "--studio") {
        watched(&mut village)?;
    } else {
        village.run_for(1200.0);
    }
    let (_, first) = &village.folk[0];
    println!("Villager 0's first five minutes:");
    for e in first.log.iter().take_while(|e| at(e) < 300.0) {
        let line = match e {
            VillageEvent::Chose { place, .. } => format!("heads for the {place:?}"),
            VillageEvent::Abandoned { place, .. } => format!("gives up on the {place:?} for something better"),
            VillageEvent::Satisfied { place, .. } => format!("is done at the {place:?}"),
        };
        println!("[{:6.1}s] {line}", at(e));
    }
    println!("\n8 villagers, 20 minutes, margin 0.15:");
    print_report(&village.report());
    let mut fickle = Village::new(8, |_| Fickle::new());
    fickle.run_for(1200.0);
    println!("\nThe same village without the margin:");
    print_report(&fickle.report());
    Ok(())
}

/// Runs the village's twenty minutes in real time, each villager an agent of
/// behaved-studio's live view, its needs recorded beside its tree.
fn watched(village: &mut Village<Villager>) -> Result<(), Box<dyn std::error::Error>> {
    let studio = behaved_studio::Studio::serve("127.0.0.1:7878")?;
    let mut agents = Vec::new();
    for i in 0..village.folk.len() {
        agents.push(studio.agent(&format!("villager#{i}"), Villager::NODES)?);
    }
    println!(
        "behaved-studio: watch the villagers at {} (twenty minutes in real time)\n",
        studio.url()
    );
    let started = std::time::Instant::now();
    while village.now < 1200.0 {
        for (agent, (_, folk)) in agents.iter_mut().zip(&village.folk) {
            agent.record_context_with(|| {
                serde_json::json!({ "hunger": folk.hunger, "fatigue": folk.fatigue, "loneliness": folk.loneliness, "company": folk.company, "cell": folk.at })
            })?;
        }
        village.step_observed(&mut agents);
        let due = started + std::time::Duration::from_secs_f64(village.now);
        if let Some(wait) = due.checked_duration_since(std::time::Instant::now()) {
            std::thread::sleep(wait);
        }
    }
    Ok(())
}

fn at(e: &VillageEvent) -> f64 {
    match *e {
        VillageEvent::Chose { at, .. } | VillageEvent::Abandoned { at, .. } | VillageEvent::Satisfied { at, .. } => at,
    }
}

fn print_report(r: &Report) {
    let line = |what: &str, value: String, ok: Option<bool>| {
        let verdict = ok.map_or("", |ok| if ok { "ok" } else { "MISSED" });
        println!("{}", format!("  {what:<24}{value:<36}{verdict}").trim_end());
    };
    line(
        "highest need reached",
        format!("{:.2} (below 1: nobody starves)", r.max_need),
        Some(r.max_need < 1.0),
    );
    line("choices made", r.choices.to_string(), None);
    line(
        "back and forth in 2 s",
        format!("{} (no flicker)", r.flickers),
        Some(r.flickers == 0),
    );
    line("needs met", r.satisfied.to_string(), None);
    line(
        "time at work",
        format!("{:.0}% (at least 40%)", r.work_share * 100.0),
        Some(r.work_share >= 0.4),
    );
}

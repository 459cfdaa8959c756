//! Villagers with needs choosing what to do by utility: hunger, fatigue and
//! loneliness rise; each villager's tree scores eating, sleeping, chatting at
//! the square and working, and does the best, switching only when another
//! choice beats it by a margin of 0.15. Prints the first villager's day, then
//! the criteria for the whole village, and the same village without the margin.
//!
//! ```text
//! cargo run --example village
//! ```

use behaved_scenarios::village::{Fickle, Report, Village, VillageEvent, Villager};

fn main() {
    let mut village = Village::new(8, |_| Villager::new());
    village.run_for(1200.0);
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

//! The Wild Dogs of ADR-006/ADR-012: four dogs and five players on a hex
//! grid, one minute of game time at 60 frames per second. Prints who locked
//! on whom, the bites, full queues, dodges, deaths, and a summary of the
//! measured validation criteria.
//!
//! ```text
//! cargo run --example wild_dogs
//! cargo run --example wild_dogs -- --studio   # and watch every dog live at http://127.0.0.1:7878/
//! ```
//!
//! With `--studio` the minute runs in real time and every dog's tree is served
//! to behaved-studio's live view; the studio stays up afterwards (Ctrl-C ends it).

use std::time::Instant;

use behaved_scenarios::actor::Dodge;
use behaved_scenarios::clock::FPS;
use behaved_scenarios::combat::Ability;
use behaved_scenarios::dog::WildDog;
use behaved_scenarios::event::{Event, EventKind, ReleaseReason};
use behaved_scenarios::hex::Hex;
use behaved_scenarios::id::PlayerId;
use behaved_scenarios::metrics::Metrics;
use behaved_scenarios::reaction::{ReactionQueue, ResolveReason};
use behaved_scenarios::world::World;

/// Game time simulated, in seconds.
const DURATION: f64 = 60.0;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world: World<WildDog> = World::new(2025);
    let mut names = Vec::new();
    let mut spawn = |world: &mut World, name: &'static str, at: Hex| -> Result<PlayerId, Box<dyn std::error::Error>> {
        let id = world.spawn_player(name, at)?;
        names.push(name);
        Ok(id)
    };
    let ana = spawn(&mut world, "Ana", Hex::new(0, 0))?;
    let bo = spawn(&mut world, "Bo", Hex::new(9, -4))?;
    let cy = spawn(&mut world, "Cy", Hex::new(-22, 6))?;
    let dee = spawn(&mut world, "Dee", Hex::new(4, 6))?;
    let eli = spawn(&mut world, "Eli", Hex::new(-6, -3))?;
    world.set_dodge(ana, Some(Dodge::new(2, 2.0)))?;
    world.set_max_health(ana, 800)?;
    world.wander_player(bo, 4)?;
    world.set_dodge(eli, Some(Dodge::new(3, 3.0)))?;
    for at in [Hex::new(-9, -2), Hex::new(13, 1), Hex::new(-3, 11), Hex::new(9, -12)] {
        world.spawn_dog(at)?;
    }

    println!("Wild Dogs: 4 dogs, 5 players, {DURATION} s of game time at {FPS} fps.");
    println!("Ana (800 HP) stands and dodges, Bo wanders, Cy crosses the field from 8 s, Eli recalls far away");
    println!("at 12 s, Dee logs out at 20 s.\n");

    // --studio: one live-view observer per dog.
    let studio = match std::env::args().any(|a| a == "--studio") {
        true => Some(behaved_studio::Studio::serve("127.0.0.1:7878")?),
        false => None,
    };
    let mut agents = Vec::new();
    if let Some(studio) = &studio {
        for dog in world.dogs() {
            agents.push(studio.agent(&format!("dog#{}", dog.id.0), WildDog::NODES)?);
        }
        println!(
            "behaved-studio: watch the dogs at {} (the minute runs in real time)\n",
            studio.url()
        );
    }

    let started = Instant::now();
    let mut frames = 0u64;
    while world.now() < DURATION {
        let t = world.now();
        if at(t, 8.0) {
            world.walk_player(cy, Some(Hex::new(14, -5)))?;
        }
        if at(t, 12.0)
            && let Err(e) = world.teleport_player(eli, Hex::new(-60, 0))
        {
            println!("[{t:6.2}s] Eli cannot recall: {e}");
        }
        if at(t, 20.0) {
            world.despawn_player(dee);
        }
        if studio.is_some() {
            world.step_each_observed(&mut agents);
            // What the page's inspector shows next to each dog's tree (made only for a followed dog).
            for (agent, dog) in agents.iter_mut().zip(world.dogs()) {
                agent.record_context_with(|| {
                    serde_json::json!({
                        "hex": { "q": dog.loc.q, "r": dog.loc.r },
                        "health": dog.health.current,
                        "target": dog.target.and_then(|p| names.get(p.0 as usize)),
                    })
                })?;
            }
            let due = started + std::time::Duration::from_secs_f64(world.now());
            std::thread::sleep(due.saturating_duration_since(Instant::now()));
        } else {
            world.step();
        }
        frames += 1;
        let events = world.take_events();
        let mut events = events.iter().peekable();
        while let Some(e) = events.next() {
            let line = match e.kind {
                EventKind::AbilityUsed { .. } => bite(e, &mut events, &names),
                _ => describe(e, &names),
            };
            if let Some(line) = line {
                println!("[{:6.2}s] {line}", e.at);
            }
        }
    }
    let wall = started.elapsed();
    summary(world.metrics(), frames, wall.as_secs_f64());
    if let Some(studio) = studio {
        println!("\nbt-studio: still serving {}; Ctrl-C to stop", studio.url());
        loop {
            std::thread::park();
        }
    }
    Ok(())
}

/// `true` in the frame at time `t` that crosses `mark`.
fn at(t: f64, mark: f64) -> bool {
    t <= mark && mark < t + 1.0 / FPS
}

/// A bite and what it did to the target's queue, in one line (the server
/// emits the queue events right after the bite).
fn bite<'e>(
    e: &Event,
    rest: &mut std::iter::Peekable<impl Iterator<Item = &'e Event>>,
    names: &[&str],
) -> Option<String> {
    let EventKind::AbilityUsed { dog, target, .. } = e.kind else {
        return None;
    };
    let name = names.get(target.0 as usize).copied().unwrap_or("?");
    let mut line = format!("dog#{} bites {name}", dog.0);
    if let Some(EventKind::ThreatQueued { queued, .. }) = rest.peek().map(|e| e.kind) {
        rest.next();
        line += &format!(": queue {queued}/{}", ReactionQueue::DEFAULT_CAPACITY);
    }
    if let Some(EventKind::QueueFull { .. }) = rest.peek().map(|e| e.kind) {
        rest.next();
        line += ", full";
    }
    if let Some(EventKind::ThreatResolved {
        source,
        damage,
        reason: ResolveReason::QueueOverflow,
        ..
    }) = rest.peek().map(|e| e.kind)
    {
        rest.next();
        line += &format!(", overflowing: dog#{}'s older bite lands for {damage}", source.0);
    }
    Some(line)
}

/// One log line, or `None` for events only the summary counts.
fn describe(e: &Event, names: &[&str]) -> Option<String> {
    let name = |p: PlayerId| names.get(p.0 as usize).copied().unwrap_or("?");
    Some(match e.kind {
        EventKind::LockAcquired { dog, target } => format!("dog#{} locks on {}", dog.0, name(target)),
        EventKind::LockReleased { dog, target, reason } => {
            let why = match reason {
                ReleaseReason::Died => "died",
                ReleaseReason::Despawned => "left the world",
                ReleaseReason::Leash => "is beyond the leash",
            };
            format!("dog#{} lets go of {}: {why}", dog.0, name(target))
        }
        EventKind::AbilityUsed {
            dog,
            target,
            ability: Ability::BasicAttack,
        } => {
            format!("dog#{} bites {}", dog.0, name(target))
        }
        EventKind::AbilityFailed { dog, reason, .. } => format!("server refuses dog#{}'s bite: {reason:?}", dog.0),
        EventKind::QueueFull { player } => format!("{}'s reaction queue is full", name(player)),
        EventKind::ThreatResolved {
            player,
            source,
            damage,
            reason: ResolveReason::QueueOverflow,
        } => {
            format!("{} takes {damage} from dog#{} (queue overflow)", name(player), source.0)
        }
        EventKind::Dodged { player, cleared } => format!("{} dodges, clearing {cleared} threats", name(player)),
        EventKind::PlayerDied { player } => format!("{} dies", name(player)),
        EventKind::PlayerDespawned { player } => format!("{} logs out", name(player)),
        EventKind::Recalled { player, to, .. } => format!("{} recalls to {to}", name(player)),
        EventKind::ThreatQueued { .. } | EventKind::ThreatResolved { .. } | EventKind::CheckFailed { .. } => {
            return None;
        }
    })
}

fn summary(m: &Metrics, frames: u64, wall: f64) {
    let pct = |x: Option<f64>| x.map_or("n/a".to_string(), |x| format!("{:.1}%", 100.0 * x));
    let s = &m.sequences;
    println!(
        "\n== Summary: {:.0} s of game time, {frames} frames, {:.0} ms of wall time ==",
        DURATION,
        wall * 1e3
    );
    let h = &m.attack_intervals;
    println!(
        "attacks: {}; interval between a dog's bites: min {:.3} s, median {:.3} s, max {:.3} s, {} of {} within 1.1 s",
        m.attacks,
        m.attack_interval.min,
        h.median().unwrap_or(0.0),
        m.attack_interval.max,
        h.at_most(1.1),
        m.attack_interval.count
    );
    println!("  (ADR-006: about once per second, never faster than the 0.5 s GCD; longer gaps are chases)");
    println!(
        "sequence runs: {} started, {} completed, {} restarted ({} with nobody in range)",
        s.started, s.completed, s.failed, s.no_target
    );
    println!(
        "completion rate (ADR-006: completed vs restarted, target > 80%): {} of the {} runs with a target",
        pct(s.engaged_completion_rate()),
        s.completed + s.failed - s.no_target
    );
    println!(
        "  ({} counting idle scans too: a dog with nobody within 20 hexes retries every frame)",
        pct(s.completion_rate())
    );
    println!(
        "reaction queues: {} filled; from a player's first threat to its first full queue: {:.2} s fastest, {:.2} s slowest",
        m.queues_filled, m.queue_fill.min, m.queue_fill.max
    );
    println!(
        "threats: {} expired, {} overflowed, {} damage dealt, {} dodges, {} deaths, {} logouts",
        m.expired, m.overflows, m.damage, m.dodges, m.deaths, m.despawns
    );
    println!(
        "target locks: {} acquired, released {} (died) / {} (despawned) / {} (leash), switched while valid: {}",
        m.locks_acquired, m.locks_released.died, m.locks_released.despawned, m.locks_released.leash, m.lock_switches
    );
    let c = &m.checks_failed;
    println!(
        "failed attack checks: {} facing (after the second FaceTarget), {} GCD, {} not adjacent; server refusals: {}",
        c.not_facing, c.gcd, c.not_adjacent, m.refusals
    );
}

//! The plugin with many Wild Dogs (`bt-scenarios`' tree and leaves): four
//! dogs around each standing player, two simulated seconds of warm-up so
//! that every dog has locked on and closed in, then the median time of one
//! `app.update()` (the behavior systems: due dogs ticked with their leaves,
//! sleeping dogs skipped), as a share of a 60 Hz frame. The same run
//! measures the same app with sleeping off (every dog ticked every frame).
//!
//! ```text
//! cargo bench -p bt-bevy --bench bevy_dogs -- [dogs] [threads] [frames]
//! ```
//!
//! `threads` is the size of bevy's compute pool (1 by default: one core).

#[path = "../examples/support/pack.rs"]
mod pack;

use std::time::Instant;

use bevy_ecs::prelude::*;
use bt_bevy::Behavior;

const FRAME_MS: f64 = 1000.0 / 60.0;

/// Median milliseconds of one update over `frames` updates, and the ticks
/// per frame, after a two-second warm-up.
fn measure(dogs: usize, sleep: bool, frames: usize) -> (f64, f64) {
    let mut app = pack::arena(dogs / 4, sleep);
    let mut outboxes = app.world_mut().query::<&mut pack::DogOut>();
    let mut clear = |app: &mut bevy_app::App| {
        for mut out in outboxes.iter_mut(app.world_mut()) {
            out.tries.clear();
            out.events.clear();
        }
    };
    for _ in 0..120 {
        app.update();
        clear(&mut app);
    }
    let mut brains = app.world_mut().query::<&Behavior<pack::DogBrain>>();
    let before: u64 = brains.iter(app.world()).map(|b| b.ticks()).sum();
    let mut times = Vec::with_capacity(frames);
    for _ in 0..frames {
        let start = Instant::now();
        app.update();
        times.push(start.elapsed().as_secs_f64() * 1e3);
        clear(&mut app);
    }
    let after: u64 = brains.iter(app.world()).map(|b| b.ticks()).sum();
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], (after - before) as f64 / frames as f64)
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let dogs = *args.first().unwrap_or(&100_000);
    let threads = *args.get(1).unwrap_or(&1);
    let frames = *args.get(2).unwrap_or(&120);
    bevy_tasks::ComputeTaskPool::get_or_init(|| bevy_tasks::TaskPoolBuilder::new().num_threads(threads).build());
    println!("{dogs} Wild Dogs, {threads} compute thread(s), median of {frames} updates after 2 s of warm-up:");
    let (all, all_ticks) = measure(dogs, false, frames);
    let (sleeping, sleeping_ticks) = measure(dogs, true, frames);
    for (name, ms, ticks) in [
        ("every dog every frame", all, all_ticks),
        ("sleeping dogs skipped", sleeping, sleeping_ticks),
    ] {
        println!(
            "  {name}: {ms:.3} ms per update ({:.1}% of a 60 Hz frame), {ticks:.0} ticks per frame",
            100.0 * ms / FRAME_MS
        );
    }
    println!("  ratio: {:.1}x cheaper", all / sleeping);
}

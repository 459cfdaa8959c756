//! The Wild Dog combat loop under load (ADR-006: "100 Dogs attacking, CPU < 10%
//! (behavior tree processing)"): 100 and 100,000 dogs, four per player, in a
//! steady fight. Measures a whole simulation frame and the AI pass alone (every
//! dog's tree ticked once, with its leaves: target search, movement, attack
//! checks), then reports the AI pass as a share of a 60 Hz frame (16.67 ms).
//!
//! ```text
//! cargo bench --bench combat -- --warm-up-time 1 --measurement-time 3
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use behaved_scenarios::clock::FPS;
use behaved_scenarios::world::World;
use criterion::{BenchmarkId, Criterion};

/// One frame at 60 Hz.
const FRAME_BUDGET: Duration = Duration::from_nanos(16_666_667);

/// One whole frame; the log is emptied as a game would after sending it.
fn frame(world: &mut World) {
    world.step();
    world.clear_events();
}

fn bench(c: &mut Criterion) {
    for dogs in [100, 100_000] {
        let mut group = c.benchmark_group("combat");
        if dogs > 1000 {
            group.sample_size(10);
        }
        let mut world: World = World::arena(dogs);
        group.bench_function(BenchmarkId::new("frame", dogs), |b| {
            b.iter(|| frame(black_box(&mut world)))
        });
        group.bench_function(BenchmarkId::new("dog_ai", dogs), |b| {
            b.iter_custom(|iters| (0..iters).map(|_| black_box(&mut world).step_timing_ai()).sum())
        });
        group.finish();
    }
}

/// The AI pass and the whole frame per simulated frame, averaged over `frames`
/// frames after the criterion runs, as shares of a 60 Hz frame.
fn report(dogs: usize, frames: u32) {
    let mut world: World = World::arena(dogs);
    let (mut ai, mut all) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..frames {
        let start = Instant::now();
        ai += world.step_timing_ai();
        all += start.elapsed();
    }
    let (ai, all) = (ai / frames, all / frames);
    let share = |d: Duration| 100.0 * d.as_secs_f64() / FRAME_BUDGET.as_secs_f64();
    let m = world.metrics();
    println!(
        "{dogs:>7} dogs: AI pass {:>10.1} us/frame = {:6.2}% of a 60 Hz frame ({:.1} ns per dog); whole frame {:>10.1} us = {:6.2}%",
        ai.as_secs_f64() * 1e6,
        share(ai),
        ai.as_secs_f64() * 1e9 / dogs as f64,
        all.as_secs_f64() * 1e6,
        share(all),
    );
    println!(
        "         ({frames} frames = {:.1} s of game time after 2 s of warm-up; {} bites, {} deaths, sequence completion {:.1}%)",
        f64::from(frames) / FPS,
        m.attacks,
        m.deaths,
        100.0 * m.sequences.completion_rate().unwrap_or(0.0)
    );
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
    if std::env::args().any(|a| a == "--bench") && !std::env::args().any(|a| a == "--list" || a == "--test") {
        println!("\nShare of a 60 Hz frame (16.67 ms), measured directly:");
        report(100, 600);
        report(100_000, 60);
    }
}

//! Once constructed, the snapshot, the recorder (also when its ring buffer is
//! full and drops ticks), the tee and a logger writing to an `io::Write` that
//! does not allocate make no heap allocation while a tree ticks.
mod support;

use behaved::prelude::*;
use behaved_observe::{ConsoleLogger, StatusSnapshot, Tee, TraceRecorder};
use support::*;

#[global_allocator]
static ALLOCATOR: behaved_testkit::Counting = behaved_testkit::Counting;

#[test]
fn observing_never_allocates_per_tick() {
    let mut guard = Guard::new();
    let mut world = World::new(LEAVES);
    let mut dice = Dice::new(5);
    let mut watch = Tee(
        StatusSnapshot::new(Guard::NODES).unwrap(),
        Tee(
            TraceRecorder::new(Guard::NODES, 500).unwrap(),
            ConsoleLogger::io(Guard::NODES, std::io::sink()).unwrap(),
        ),
    );
    // Warm-up outside the measured region (nothing is expected to allocate here either).
    guard.tick_observed(&mut world, 0.0, &mut watch);

    let allocations = behaved_testkit::allocations_during(|| {
        for _ in 0..2000 {
            shake(&mut world, &mut dice);
            let now = world.now;
            guard.tick_observed(&mut world, now, &mut watch);
            if dice.chance(2) {
                guard.reset_observed(&mut world, &mut watch);
            }
        }
    });

    // The run really filled the buffer and dropped ticks, and really logged.
    let recorder = &watch.1.0;
    assert!(
        recorder.dropped_events() > 10_000,
        "dropped {}",
        recorder.dropped_events()
    );
    assert!(recorder.events().len() > 400);
    assert!(watch.1.1.error().is_none());
    assert_eq!(allocations, 0);
}

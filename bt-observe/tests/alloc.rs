//! Once constructed, the snapshot, the recorder (also when its ring buffer is
//! full and drops ticks), the tee and a logger writing to an `io::Write` that
//! does not allocate make no heap allocation while a tree ticks.
// A global allocator is an `unsafe` trait; this test needs one to count.
#![allow(unsafe_code)]
mod support;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use bt::observe::{ConsoleLogger, StatusSnapshot, Tee, TraceRecorder};
use bt::prelude::*;
use support::*;

/// Counts the allocations (reallocations included) made by the thread that
/// asked to be counted, so the test harness's own threads cannot disturb it.
struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    if COUNTING.get() {
        ALLOCATIONS.set(ALLOCATIONS.get() + 1);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

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

    COUNTING.set(true);
    for _ in 0..2000 {
        shake(&mut world, &mut dice);
        let now = world.now;
        guard.tick_observed(&mut world, now, &mut watch);
        if dice.chance(2) {
            guard.reset_observed(&mut world, &mut watch);
        }
    }
    COUNTING.set(false);
    let allocations = ALLOCATIONS.get();

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

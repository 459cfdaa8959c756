//! What each form of the benchmark trees costs in memory: heap allocations per
//! tick (counted by a counting global allocator over 10,000 ticks after 1,000
//! warm-up ticks), bytes of the instance itself (`size_of`) and heap bytes it
//! holds (allocated by its construction and still live). The compiled and
//! hand-written forms must allocate nothing, ever, the interpreter nothing
//! after load, and T1's compiled state must fit in 24 bytes (the
//! project's target; BENCHMARKS.md lists them all).
//!
//! `cargo test --test footprint -- --nocapture` prints the table in BENCHMARKS.md.
// A global allocator is an `unsafe` trait; this test needs one to count.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use behaved_bench_trees as trees;

use trees::forms::{self, Form, T1, T2, T3, T4, Workload};
use trees::interp_forms;
use trees::{bonsai_forms, btlite_forms};

use behaved_interp::Agent;

/// Counts the allocations and live bytes of the current thread (the test
/// harness's own threads do not disturb the counts).
struct Counting;

thread_local! {
    /// (allocations, live bytes) made by this thread.
    static COUNTS: Cell<(usize, isize)> = const { Cell::new((0, 0)) };
}

fn count(allocations: usize, bytes: isize) {
    let _ = COUNTS.try_with(|c| {
        let (a, b) = c.get();
        c.set((a + allocations, b + bytes));
    });
}

fn allocations() -> usize {
    COUNTS.with(|c| c.get().0)
}

fn live_bytes() -> isize {
    COUNTS.with(|c| c.get().1)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(1, layout.size() as isize);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(0, -(layout.size() as isize));
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(1, new_size as isize - layout.size() as isize);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// One row of the table.
#[derive(Debug, Clone)]
struct Row {
    tree: &'static str,
    form: &'static str,
    size_of: usize,
    heap_bytes: isize,
    allocs_per_tick: f64,
}

const WARM_UP: u32 = 1_000;
const TICKS: u32 = 10_000;

/// Builds a form with `make`, then measures it on workload `W`.
fn measure<W: Workload, F: Form<W::Ctx>>(form: &'static str, make: impl FnOnce() -> F) -> Row {
    let mut ctx = W::context();
    let before = live_bytes();
    let mut f = make();
    let heap_bytes = live_bytes() - before;
    forms::run::<W, F>(&mut f, &mut ctx, 0, WARM_UP);
    let allocs = allocations();
    forms::run::<W, F>(&mut f, &mut ctx, WARM_UP, TICKS);
    let allocs = allocations() - allocs;
    Row {
        tree: W::NAME,
        form,
        size_of: size_of::<F>(),
        heap_bytes,
        allocs_per_tick: allocs as f64 / f64::from(TICKS),
    }
}

#[test]
fn allocations_per_tick_and_bytes_per_instance() {
    // The interpreter's definitions are loaded once and shared: an agent's
    // heap bytes are its own running state only.
    let (d1, d2, d3, d4) = (
        interp_forms::definition_t1(),
        interp_forms::definition_t2(),
        interp_forms::definition_t3(),
        interp_forms::definition_t4(),
    );
    // Each tree's compiled, hand-written and interpreted forms, then its peers.
    macro_rules! ours {
        ($w:ident, $compiled:expr, $by_hand:expr, $def:ident) => {
            [
                measure::<$w, _>("compiled", $compiled),
                measure::<$w, _>("hand_written", $by_hand),
                measure::<$w, _>("interpreted", || Agent::new($def.clone())),
            ]
        };
    }
    let rows: Vec<Row> = [
        &ours!(T1, forms::compiled_t1, trees::wild_dog::WildDogByHand::default, d1)[..],
        &[
            measure::<T1, _>("bonsai", bonsai_forms::t1),
            measure::<T1, _>("bt_lite", btlite_forms::t1),
        ],
        &ours!(T2, forms::compiled_t2, trees::guard::GuardByHand::default, d2),
        &[
            measure::<T2, _>("bonsai", bonsai_forms::t2),
            measure::<T2, _>("bt_lite", btlite_forms::t2),
        ],
        &ours!(T3, forms::compiled_t3, trees::synthetic::SyntheticByHand::default, d3),
        &[
            measure::<T3, _>("bonsai", bonsai_forms::t3),
            measure::<T3, _>("bt_lite", btlite_forms::t3),
        ],
        &ours!(T4, forms::compiled_t4, trees::squad::SquadByHand::default, d4),
    ]
    .concat();
    println!("| tree | form | allocations per tick | size_of (bytes) | heap bytes per instance |");
    println!("|---|---|---:|---:|---:|");
    for r in &rows {
        println!(
            "| {} | {} | {:.2} | {} | {} |",
            r.tree, r.form, r.allocs_per_tick, r.size_of, r.heap_bytes
        );
    }
    println!();
    println!("| tree | interpreter: state_bytes() per agent | action leaves per agent |");
    println!("|---|---:|---:|");
    println!("| t1_wild_dog | {} | {} |", d1.state_bytes(), d1.action_count());
    println!("| t2_guard | {} | {} |", d2.state_bytes(), d2.action_count());
    println!("| t3_synthetic | {} | {} |", d3.state_bytes(), d3.action_count());
    println!("| t4_squad | {} | {} |", d4.state_bytes(), d4.action_count());
    for r in rows.iter().filter(|r| matches!(r.form, "compiled" | "hand_written")) {
        assert_eq!((r.allocs_per_tick, r.heap_bytes), (0.0, 0), "{r:?}");
    }
    for r in rows.iter().filter(|r| r.form == "interpreted") {
        assert_eq!(r.allocs_per_tick, 0.0, "the interpreter after load: {r:?}");
    }
    assert!(rows[0].size_of <= 24, "T1 compiled: {} bytes", rows[0].size_of);
    // The peers really are measured: bonsai allocates while it ticks.
    let bonsai = rows.iter().find(|r| r.form == "bonsai").unwrap();
    assert!(bonsai.allocs_per_tick > 0.0 && bonsai.heap_bytes > 0, "{bonsai:?}");
}

#[test]
fn control_state_is_a_resume_point_per_composite_and_a_timestamp_per_wait() {
    // T1: __running + loop flag + sequence resume point, the wait's f64 start,
    // and the f64 time of its last tick (its saved state's `savedAt`).
    assert_eq!(size_of::<trees::wild_dog::WildDog>(), 24);
    // T2: __running + six resume points (six composites); the leaves hold 4 lines (1 byte each).
    assert_eq!(size_of::<trees::guard::Guard>(), 1 + 6 + 4);
    // T3: __running + 341 resume points: one byte per composite.
    assert_eq!(size_of::<trees::synthetic::Synthetic>(), 1 + 341);
}

#[test]
fn the_benchmark_trees_are_far_within_the_default_work_bound() {
    // The loader's most leaf ticks per tick (SEMANTICS.md#work-per-tick):
    // T1 is a loop (twice its six leaves), T3 a tree of 1,024 leaves, T4's
    // repeats multiply their bodies and its 12 hooks count one each.
    let figures = [
        interp_forms::definition_t1().tick_work(),
        interp_forms::definition_t2().tick_work(),
        interp_forms::definition_t3().tick_work(),
        interp_forms::definition_t4().tick_work(),
    ];
    assert_eq!(figures, [12, 9, 1024, 47]);
    assert!(
        figures
            .iter()
            .all(|&w| w < behaved_interp::Registry::<()>::DEFAULT_MAX_TICK_WORK / 1000)
    );
}

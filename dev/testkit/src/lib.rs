//! Test support shared by the workspace's crates.
//!
//! [`script`] holds the scripted fixtures of the behaviour tests: a context
//! whose leaves return what a script says and log what happens to them, and
//! observers that record events as text. [`camp`] is the context and leaves
//! of the `for` and `pick` tests. [`pick`], [`utility`] and [`rules`] hold
//! rules that both forms keep, as scripts the compiled and the interpreted
//! tests run on their twin trees. [`countdown`] is a future that is pending
//! for a number of polls. [`endless`] is an action of any context that runs
//! until halted.
//!
//! [`Counting`] is a global allocator that counts the allocations of the
//! threads that ask it to, so a test can prove a loop allocates nothing
//! without the test harness's own threads disturbing the count:
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOCATOR: behaved_testkit::Counting = behaved_testkit::Counting;
//!
//! let allocations = behaved_testkit::allocations_during(|| { /* tick 10,000 times */ });
//! assert_eq!(allocations, 0);
//! ```
//!
//! [`usage_during`] also gives the most heap bytes a thread held at once
//! meanwhile, beyond what it held before: the memory bound of a load.
// A global allocator is an `unsafe` trait; this crate is the only place that implements one.
#![allow(unsafe_code)]

pub mod camp;
pub mod countdown;
pub mod endless;
pub mod pick;
pub mod rules;
pub mod script;
pub mod utility;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Forwards to the system allocator, counting allocations and reallocations
/// made by a thread inside [`allocations_during`].
pub struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    /// Bytes allocated less bytes freed while counting (negative when
    /// memory allocated before is freed).
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// Counts an allocation (`allocated` true) of `bytes` bytes more, or a
/// release of `bytes` (`allocated` false), if this thread is counting.
fn count(allocated: bool, bytes: isize) {
    // `try_with`: the allocator may run while this thread's locals are torn down.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            if allocated {
                ALLOCATIONS.with(|n| n.set(n.get() + 1));
            }
            let live = LIVE.get() + bytes;
            LIVE.set(live);
            PEAK.set(PEAK.get().max(live));
        }
    });
}

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(true, layout.size() as isize);
        // SAFETY: forwarded unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(false, -(layout.size() as isize));
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(true, new_size as isize - layout.size() as isize);
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `f` and returns how many allocations this thread made meanwhile
/// (counted only if [`Counting`] is the global allocator).
pub fn allocations_during(f: impl FnOnce()) -> usize {
    usage_during(f).allocations
}

/// What a closure cost this thread on the heap ([`usage_during`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// Allocations and reallocations made: the work it did, counted.
    pub allocations: usize,
    /// The most heap bytes held at once beyond what was held when it
    /// started: what it cost in memory at its peak, whatever it freed
    /// before it returned.
    pub peak_bytes: usize,
}

/// Runs `f` and returns what it cost this thread on the heap (counted only
/// if [`Counting`] is the global allocator).
pub fn usage_during(f: impl FnOnce()) -> Usage {
    let before = ALLOCATIONS.get();
    LIVE.set(0);
    PEAK.set(0);
    COUNTING.set(true);
    f();
    COUNTING.set(false);
    Usage {
        allocations: ALLOCATIONS.get() - before,
        peak_bytes: PEAK.get() as usize,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[global_allocator]
    static ALLOCATOR: Counting = Counting;

    #[test]
    fn counts_this_threads_allocations_only_inside_the_closure() {
        let mut kept = Vec::with_capacity(3);
        let n = allocations_during(|| {
            kept.push(Box::new(1u8));
            kept.push(Box::new(2u8));
        });
        assert_eq!(n, 2);
        let other = std::thread::spawn(|| allocations_during(|| drop(vec![1u8; 10])));
        assert_eq!(allocations_during(|| kept.push(Box::new(3))), 1);
        assert_eq!(other.join().unwrap(), 1);
        assert_eq!(allocations_during(|| ()), 0);
    }

    #[test]
    fn the_peak_is_the_most_held_at_once() {
        let held = vec![0u8; 1000];
        let usage = usage_during(|| {
            let a = vec![0u8; 300];
            let b = vec![0u8; 200];
            drop((a, b));
            drop(std::hint::black_box(vec![0u8; 400]));
            // Memory held before counts against what follows.
            drop(held);
            drop(std::hint::black_box(vec![0u8; 1200]));
        });
        assert_eq!(
            usage,
            Usage {
                allocations: 4,
                peak_bytes: 500
            }
        );
    }
}

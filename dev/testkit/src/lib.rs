//! Test support shared by the workspace's crates.
//!
//! [`script`] holds the scripted fixtures of the behaviour tests: a context
//! whose leaves return what a script says and log what happens to them, and
//! observers that record events as text.
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
// A global allocator is an `unsafe` trait; this crate is the only place that implements one.
#![allow(unsafe_code)]

pub mod script;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Forwards to the system allocator, counting allocations and reallocations
/// made by a thread inside [`allocations_during`].
pub struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: the allocator may run while this thread's locals are torn down.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            ALLOCATIONS.with(|n| n.set(n.get() + 1));
        }
    });
}

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `f` and returns how many allocations this thread made meanwhile
/// (counted only if [`Counting`] is the global allocator).
pub fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.get();
    COUNTING.set(true);
    f();
    COUNTING.set(false);
    ALLOCATIONS.get() - before
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
}

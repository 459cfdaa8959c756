//! A tree file (optionally followed by a NUL byte and a subtree library):
//! loaded within bounded memory and work, and an input under 64 KB within
//! 100 ms (`difftest::fuzzing::bounded_load`; a fuzz assertion, never a
//! test's); then loaded, round-tripped through the model, ticked within its
//! work figure, saved and loaded mid-run (`difftest::fuzzing::load_tick_save`).
#![no_main]

use std::time::{Duration, Instant};

use difftest::fuzzing::{FUZZ_MAX_INPUT, bounded_load, load_tick_save};

// What a load costs on the heap is counted (`bounded_load`).
#[global_allocator]
static ALLOCATOR: behaved_testkit::Counting = behaved_testkit::Counting;

/// The longest one load of an input under `FUZZ_MAX_INPUT` may take.
const MAX_LOAD_TIME: Duration = Duration::from_millis(100);

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let start = Instant::now();
    let cost = bounded_load(data);
    let took = start.elapsed();
    assert!(
        data.len() >= FUZZ_MAX_INPUT || took <= MAX_LOAD_TIME,
        "a {}-byte input took {took:?} to load ({cost:?})",
        data.len()
    );
    load_tick_save(data);
});

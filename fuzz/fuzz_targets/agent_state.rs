//! A saved agent of the fuzzing tree: rejected with an error, or run from
//! (`difftest::fuzzing::saved_state`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    difftest::fuzzing::saved_state(data);
});

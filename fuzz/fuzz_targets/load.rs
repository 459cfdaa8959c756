//! A tree file (optionally followed by a NUL byte and a subtree library):
//! loaded, round-tripped through the model, ticked within its work figure,
//! saved and loaded mid-run (`difftest::fuzzing::load_tick_save`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    difftest::fuzzing::load_tick_save(data);
});

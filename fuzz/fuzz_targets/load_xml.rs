//! A BehaviorTree.CPP v4 document: loaded through the registry (problems at
//! their line and column), written back and read to the same trees, ticked
//! within its work figure, saved and loaded mid-run
//! (`difftest::fuzzing::load_xml`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    difftest::fuzzing::load_xml(data);
});

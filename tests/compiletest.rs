//! Compile-fail cases: every malformed tree is an error at the offending
//! token, with a message that says what would be right. One folder per family.
//! Refresh with `TRYBUILD=overwrite cargo test --test compiletest` and review the diff.
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*/*.rs");
    // Cases whose message is the one the `json` feature gives.
    #[cfg(feature = "json")]
    t.compile_fail("tests/ui-json/*.rs");
}

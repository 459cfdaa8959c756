//! `behaved-bench-trees` (not published): the benchmark trees (T1-T4) and the forms that
//! tick them, shared by the benches (`benches/*.rs`) and the tests that check
//! them (`tests/peers.rs`, `tests/twin*.rs`, `tests/footprint.rs`). A crate of
//! its own, so the 1,365-node T3 is compiled once, not once per test binary.

pub mod bonsai_forms;
pub mod btlite_forms;
pub mod forms;
pub mod guard;
pub mod interp_forms;
pub mod squad;
pub mod synthetic;
pub mod synthetic_gen;
pub mod wild_dog;

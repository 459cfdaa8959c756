//! The benchmark trees and the forms that tick them, shared by the benches
//! (`benches/*.rs`) and the differential tests (`tests/peers.rs`).
//! Include with `#[path = "trees/mod.rs"] mod trees;` (adjust the path).
#![allow(dead_code)]

pub mod bonsai_forms;
pub mod btlite_forms;
pub mod forms;
pub mod guard;
pub mod interp_forms;
pub mod synthetic;
pub mod synthetic_gen;
pub mod wild_dog;

use behaved::prelude::*;
// `Camp` (targets by id, each with a health) and its list `Targets`.
include!("shared/camp.rs");

behave! {
    // `max` is a positive integer: not 0, not a string.
    tree Hunt for Camp = json("pick_bad_max.json") {
        "targets" => Targets,
        "health" => |c: &Camp| c.health[c.target as usize],
    }
}
fn main() {}

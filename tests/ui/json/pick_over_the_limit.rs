use behaved::prelude::*;
// `Camp` (targets by id, each with a health) and its list `Targets`.
include!("shared/camp.rs");

behave! {
    // 40,000 + 30,000 candidates: above the limit of 65,536 items, as the loader says.
    tree Hunt for Camp = json("pick_over_the_limit.json") {
        "targets" => Targets,
        "health" => |c: &Camp| c.health[c.target as usize],
    }
}
fn main() {}

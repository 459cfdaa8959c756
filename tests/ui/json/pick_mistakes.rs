use behaved::prelude::*;
// `Camp` (targets by id, each with a health) and its list `Targets`.
include!("shared/camp.rs");

behave! {
    // An unknown list, an unknown consideration, and a consideration that
    // takes the candidate (the DSL's `pick .. by |c, t|`): a JSON pick's
    // considerations read the candidate its list selected in the context.
    tree Hunt for Camp = json("pick_mistakes.json") {
        "targets" => Targets,
        "health" => |c: &Camp| c.health[c.target as usize],
        "near" => |c: &Camp, t: &u32| c.health[*t as usize],
    }
}
fn main() {}

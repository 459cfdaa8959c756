use behaved::prelude::*;
use behaved::utility::CandidateConsideration;
// `Camp` (targets by id, each with a health) and its list `Targets`.
include!("shared/camp.rs");
/// A DSL pick's score (it sees the candidate), not a consideration of the context.
struct Healthiest;
impl CandidateConsideration<Camp, u32> for Healthiest {
    fn score(&self, c: &Camp, t: &u32) -> f32 { c.health[*t as usize] }
}

behave! {
    tree Hunt for Camp = json("pick_not_a_consideration.json") {
        "targets" => Targets,
        "healthiest" => Healthiest,
    }
}
fn main() {}

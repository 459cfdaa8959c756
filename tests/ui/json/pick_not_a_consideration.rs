use behaved::prelude::*;
use behaved::utility::CandidateConsideration;
struct Camp { targets: Vec<u32>, target: u32, health: [f32; 8] }
struct Targets;
impl ItemList<Camp> for Targets {
    type Item = u32;
    fn items<'c>(&'c self, c: &'c Camp) -> impl Iterator<Item = u32> + 'c { c.targets.iter().copied() }
    fn select(&self, c: &mut Camp, t: &u32) { c.target = *t; }
}
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

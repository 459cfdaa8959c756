use behaved::prelude::*;
struct Camp { targets: Vec<u32>, target: u32, health: [f32; 8] }
struct Targets;
impl ItemList<Camp> for Targets {
    type Item = u32;
    fn items<'c>(&'c self, c: &'c Camp) -> impl Iterator<Item = u32> + 'c { c.targets.iter().copied() }
    fn select(&self, c: &mut Camp, t: &u32) { c.target = *t; }
}

behave! {
    // 40,000 + 30,000 candidates: above the limit of 65,536 items, as the loader says.
    tree Hunt for Camp = json("pick_over_the_limit.json") {
        "targets" => Targets,
        "health" => |c: &Camp| c.health[c.target as usize],
    }
}
fn main() {}

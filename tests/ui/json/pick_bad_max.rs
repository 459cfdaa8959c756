use behaved::prelude::*;
struct Camp { targets: Vec<u32>, target: u32, health: [f32; 8] }
struct Targets;
impl ItemList<Camp> for Targets {
    type Item = u32;
    fn items<'c>(&'c self, c: &'c Camp) -> impl Iterator<Item = u32> + 'c { c.targets.iter().copied() }
    fn select(&self, c: &mut Camp, t: &u32) { c.target = *t; }
}

behave! {
    // `max` is a positive integer: not 0, not a string.
    tree Hunt for Camp = json("pick_bad_max.json") {
        "targets" => Targets,
        "health" => |c: &Camp| c.health[c.target as usize],
    }
}
fn main() {}

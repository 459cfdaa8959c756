use behaved::prelude::*;
struct Camp { targets: Vec<u32>, target: u32, health: [f32; 8] }
struct Targets;
impl ItemList<Camp> for Targets {
    type Item = u32;
    fn items<'c>(&'c self, c: &'c Camp) -> impl Iterator<Item = u32> + 'c { c.targets.iter().copied() }
    fn select(&self, c: &mut Camp, t: &u32) { c.target = *t; }
}

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

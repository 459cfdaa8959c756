// The camp of the JSON `pick` and `forEach` cases, shared by `include!`:
// targets by id, each with a health, and the list `Targets` that selects the
// one being scored into `target` (where a consideration reads it).
struct Camp { targets: Vec<u32>, target: u32, health: [f32; 8] }
struct Targets;
impl ItemList<Camp> for Targets {
    type Item = u32;
    fn items<'c>(&'c self, c: &'c Camp) -> impl Iterator<Item = u32> + 'c { c.targets.iter().copied() }
    fn select(&self, c: &mut Camp, t: &u32) { c.target = *t; }
}

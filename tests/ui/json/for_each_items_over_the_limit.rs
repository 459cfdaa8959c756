use behaved::prelude::*;
struct Ctx { cells: Vec<u64>, cell: u64 }
struct Cells;
impl ItemList<Ctx> for Cells {
    type Item = u64;
    fn items<'c>(&'c self, c: &'c Ctx) -> impl Iterator<Item = u64> + 'c { c.cells.iter().copied() }
    fn select(&self, c: &mut Ctx, cell: &u64) { c.cell = *cell; }
}

behave! {
    // 60,000 + 6,000 items: above the limit of 65,536, as the loader says.
    tree TooMany for Ctx = json("for_each_items.json") {
        "cells" => Cells,
    }
}
fn main() {}

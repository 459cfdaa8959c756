use behaved::prelude::*;
// `World` and its action `Dialogue` (with a parameter).
include!("shared/world.rs");

behave! {
    tree Broken for World = json("bad_tree.json") {
        "dialogue" => Dialogue,
    }
}
fn main() {}

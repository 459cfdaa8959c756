use behaved::prelude::*;
// `World` and its action `Dialogue` (with a parameter).
include!("shared/world.rs");

behave! {
    tree Broken for World = xml("bad_tree.xml") {
        "dialogue" => Dialogue,
    }
}
fn main() {}

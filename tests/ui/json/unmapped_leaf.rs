use behaved::prelude::*;
// `World` and its action `Dialogue` (with a parameter).
include!("shared/world.rs");

behave! {
    tree Talk for World = json("leaves.json") {
        "dialogue" => Dialogue,
    }
}
fn main() {}

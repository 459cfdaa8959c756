use behaved::prelude::*;
struct World;

behave! {
    tree Gone for World = json("no/such/tree.json") {}
}
fn main() {}

use behaved::prelude::*;
struct World;

behave! {
    tree Cut for World = json("truncated.json") {}
}
fn main() {}

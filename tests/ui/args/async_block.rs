use behaved::prelude::*;
struct Ctx;

behave! {
    tree T for Ctx {
        act(async { 42 })
    }
}
fn main() {}

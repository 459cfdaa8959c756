use behaved::prelude::*;
use core::future::{Ready, ready};
struct Ctx;
struct Other;

/// An async action, but on another context than the tree's.
struct Ask;
impl Task for Ask {
    type Future = Ready<u32>;
}
impl AsyncAction<Other> for Ask {
    fn start(&mut self, _: &mut Other) -> Ready<u32> {
        ready(1)
    }
    fn finish(&mut self, _: &mut Other, _: u32) -> Status {
        Status::Success
    }
}

behave! {
    tree T for Ctx {
        act(async Ask)
    }
}
fn main() {}

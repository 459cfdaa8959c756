use behaved::prelude::*;
use core::future::{Ready, ready};
struct Ctx;

/// An async action: its future cannot be saved.
struct Ask;
impl Task for Ask {
    type Future = Ready<bool>;
}
impl AsyncAction<Ctx> for Ask {
    fn start(&mut self, _: &mut Ctx) -> Ready<bool> {
        ready(true)
    }
    fn finish(&mut self, _: &mut Ctx, ok: bool) -> Status {
        Status::from(ok)
    }
}

behave! {
    tree T for Ctx {
        #[persist]
        act(async Ask)
    }
}
fn main() {}

use behaved::prelude::*;
struct Ctx;

/// An ordinary action: it has no future to await.
struct Walk;
impl Action<Ctx> for Walk {
    fn tick(&mut self, _: &mut Ctx) -> Status {
        Status::Success
    }
}

behave! {
    tree T for Ctx {
        act(async Walk)
    }
}
fn main() {}

use behaved::prelude::*;
trait World { fn ready(&self) -> bool; }
struct Ctx;

behave! {
    tree T for dyn World {
        cond(|c| c.ready())
    }
    tree U for impl World {
        success
    }
    // The other trees are generated.
    tree V for Ctx {
        success
    }
}
fn main() {
    let _ = V::new();
}

use behaved::prelude::*;
trait World { fn ready(&self) -> bool; }

behave! {
    tree T<W: World> for W {
        cond(|c| c.ready())
    }
}
fn main() {}

use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree T for Ctx {
        wait(1.0, 2.0)
    }
}
fn main() {}

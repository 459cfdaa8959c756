use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree T for Ctx {
        cond(|c| c.hp + 1)
    }
}
fn main() {}

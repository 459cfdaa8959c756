use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree T for Ctx {
        repeat(-1) { success }
    }
}
fn main() {}

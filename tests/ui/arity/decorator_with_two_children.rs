use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree T for Ctx {
        repeat(3) { success, failure }
    }
}
fn main() {}

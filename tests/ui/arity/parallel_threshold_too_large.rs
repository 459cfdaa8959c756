use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree T for Ctx {
        parallel(success = 3, failure = 1) { success, running }
    }
}
fn main() {}

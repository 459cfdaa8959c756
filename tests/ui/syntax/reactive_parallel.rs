use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree T for Ctx {
        reactive parallel(all) { success }
    }
}
fn main() {}

use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree T for Ctx {
        sequence(3) { success }
    }
}
fn main() {}

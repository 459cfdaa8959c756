use behaved::prelude::*;
struct Ctx { hp: u32 }

struct Bark;
behave! {
    tree T for Ctx {
        sequence { success, Bark }
    }
}
fn main() {}

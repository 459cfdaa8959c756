use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree T for Ctx {
        sequence {
            selecter { success },
            invert { },
            repeat(-1) { success },
        }
    }
}
fn main() {}

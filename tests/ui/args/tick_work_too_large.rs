use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree Literal for Ctx {
        repeat(65536) { sequence { success, repeat(65536) { success } } }
    }
    tree Constant for Ctx {
        repeat(u32::MAX) { repeat(u32::MAX) { success } }
    }
}
fn main() {}

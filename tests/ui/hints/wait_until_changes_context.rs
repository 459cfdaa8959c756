use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree T for Ctx {
        sequence { wait_until(|c| { c.hp -= 1; c.hp == 0 }), latch(|c: &mut Ctx| c.hp > 0) { success } }
    }
}
fn main() {}

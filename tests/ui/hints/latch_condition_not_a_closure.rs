use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree T for Ctx {
        sequence { latch(c.hp < 2) { success }, wait_until(c.hp > 3) }
    }
}
fn main() {}

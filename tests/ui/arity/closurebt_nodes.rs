use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree T for Ctx {
        sequence {
            wait_until(|c| c.hp > 3) { success },
            latch(|c| c.hp < 2),
            sequence_always {},
            sequence_always(2) { success },
            wait_until,
        }
    }
}
fn main() {}

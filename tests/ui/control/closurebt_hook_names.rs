use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree T for Ctx {
        #[on_disabled(|c| c.hp = 0)]
        #[on_enabled(|c| c.hp = 1)]
        sequence { success }
    }
}
fn main() {}

use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree T for Ctx {
        #[persist]
        sequence { success }
    }
}
fn main() {}

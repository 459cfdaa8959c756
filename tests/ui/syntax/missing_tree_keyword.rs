use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    pub struct T for Ctx {
        success
    }
}
fn main() {}

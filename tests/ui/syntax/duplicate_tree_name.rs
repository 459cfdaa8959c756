use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree Guard for Ctx { success }
    tree Guard for Ctx { failure }
}
fn main() {}

use behaved::prelude::*;
struct Ctx { hp: u32 }

fn walk(_steps: u32) -> bool { true }
behave! {
    tree T for Ctx {
        sequence { walk(3), success }
    }
    tree U for Ctx {
        sequence { wiat(3), success }
    }
}
fn main() {}

use behaved::prelude::*;
struct Ctx { targets: Vec<u32> }

behave! {
    tree A for Ctx {
        pick t: u32 in |c| c.targets.iter() max 4 { success }
    }
    tree B for Ctx {
        pick t: u32 in |c| c.targets.iter() max 4 by |c| 1.0 { success }
    }
    tree C for Ctx {
        pick t: u32 in |c| c.targets.iter() by |_, _| 1.0 { success }
    }
    tree D for Ctx {
        pick t in |c| c.targets.iter() max 0 by |_, _| 1.0 { success }
    }
}
fn main() {}

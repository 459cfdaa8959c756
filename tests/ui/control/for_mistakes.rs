use behaved::prelude::*;
struct Ctx { targets: Vec<u32> }

behave! {
    tree NoType for Ctx {
        for t in |c| c.targets.iter() max 4 { success }
    }
    tree NoMax for Ctx {
        for t: u32 in |c| c.targets.iter() { success }
    }
    tree ZeroMax for Ctx {
        for t: u32 in |c| c.targets.iter() max 0 { success }
    }
    tree NotAClosure for Ctx {
        for t: u32 in targets max 4 { success }
    }
    tree TwoBodies for Ctx {
        for t: u32 in |c| c.targets.iter() max 4 { success, failure }
    }
}
fn main() {}

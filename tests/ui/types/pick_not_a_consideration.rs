use behaved::prelude::*;
struct Ctx { targets: Vec<u32> }
struct Nearest;

behave! {
    tree T for Ctx {
        pick t: u32 in |c| c.targets.iter() max 4 by Nearest {
            act(|_| *t > 0)
        }
    }
}
fn main() {}

use behaved::prelude::*;
struct Ctx { targets: Vec<u32> }

behave! {
    tree T for Ctx {
        pick t: u32 in |c| c.targets.iter() max 4 by |_, t| *t > 3 {
            act(|_| *t > 0)
        }
    }
}
fn main() {}

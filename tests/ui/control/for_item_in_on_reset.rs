use behaved::prelude::*;
struct Ctx { targets: Vec<u32>, last: u32 }

behave! {
    tree T for Ctx {
        for t: u32 in |c| c.targets.iter() max 4 {
            #[on_reset(|c| c.last = *t)]
            act(|c| c.last = *t)
        }
    }
}
fn main() {}

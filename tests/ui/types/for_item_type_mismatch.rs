use behaved::prelude::*;
struct Ctx { targets: Vec<u32> }

behave! {
    tree T for Ctx {
        for t: String in |c| c.targets.iter() max 4 {
            act(|_| t.len() > 3)
        }
    }
}
fn main() {}

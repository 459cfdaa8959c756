use behaved::prelude::*;
struct Ctx { count: u32 }

behave! {
    tree T for Ctx {
        pick t: u32 in |c| c.count max 4 by |_, t| *t as f32 {
            act(|_| *t > 0)
        }
    }
}
fn main() {}

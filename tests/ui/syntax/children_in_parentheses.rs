// Children written in parentheses, like function arguments or behavior3's
// constructors: one error that says they go in braces.
use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree T for Ctx {
        selector {
            sequence(cond(|c| c.hp > 3), success),
            reactive selector(failure, success),
            invert(failure),
        }
    }
}
fn main() {}

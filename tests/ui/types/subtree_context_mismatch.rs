use behaved::prelude::*;
struct Ctx { hp: u32 }

struct Other;
behave! {
    tree Inner for Other { success }
    tree Outer for Ctx { sequence { subtree(Inner) } }
}
fn main() {}

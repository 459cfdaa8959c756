use behaved::prelude::*;
struct Ctx { hp: u32 }

struct Bark;
impl Bark { fn loud(self) -> Bark { self } }
behave! {
    tree T for Ctx {
        Bark.loud()
    }
}
fn main() {}

use behaved::prelude::*;
struct Ctx { hp: u32 }

struct Walk;
impl Action<Ctx> for Walk {
    fn tick(&mut self, _: &mut Ctx) -> Status { Status::Success }
}
behave! {
    tree T for Ctx {
        sequence { subtree(Walk), success }
    }
}
fn main() {}

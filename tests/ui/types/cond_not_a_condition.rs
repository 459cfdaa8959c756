use behaved::prelude::*;
struct Ctx { hp: u32 }

struct Bark;
impl Action<Ctx> for Bark {
    fn tick(&mut self, _: &mut Ctx) -> Status { Status::Success }
}
behave! {
    tree T for Ctx {
        sequence { cond(Bark) }
    }
}
fn main() {}

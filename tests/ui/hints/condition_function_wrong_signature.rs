use behaved::prelude::*;
struct Ctx { hp: u32, now: f64 }
impl Clock for Ctx { fn now(&self) -> f64 { self.now } }

fn is_hurt(c: &mut Ctx) -> u32 { c.hp }
behave! {
    tree T for Ctx {
        sequence { cond(is_hurt), success }
    }
}
fn main() {}

use behaved::prelude::*;
struct Ctx { hp: u32, now: f64 }
impl Clock for Ctx { fn now(&self) -> f64 { self.now } }

behave! {
    tree T for Ctx {
        sequence { cond(|c| { c.hp -= 1; c.hp > 0 }), cond(|c: &mut Ctx| c.hp > 0) }
    }
}
fn main() {}

use behaved::prelude::*;
struct Ctx { hp: u32, now: f64 }
impl Clock for Ctx { fn now(&self) -> f64 { self.now } }

behave! {
    tree T for Ctx {
        if c.hp > 3 { success } else { failure }
    }
}
fn main() {}

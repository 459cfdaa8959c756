use behaved::prelude::*;
struct Ctx { hp: u32, now: f64 }
impl Clock for Ctx { fn now(&self) -> f64 { self.now } }

behave! {
    tree T for Ctx {
        utility { |c| c.hp > 3 => success, |c| c.hp => failure }
    }
}
fn main() {}

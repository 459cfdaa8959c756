use behaved::prelude::*;
struct Ctx { hp: u32, now: f64 }
impl Clock for Ctx { fn now(&self) -> f64 { self.now } }

const NEVER: u32 = 0;
behave! {
    tree T for Ctx {
        weighted { 3 => success, NEVER => failure }
    }
}
fn main() {}

use behaved::prelude::*;
struct Ctx { hp: u32, now: f64 }
impl Clock for Ctx { fn now(&self) -> f64 { self.now } }

struct Brave;

behave! {
    tree T for Ctx {
        utility { Brave => success, |_| 0.5 => failure }
    }
}
fn main() {}

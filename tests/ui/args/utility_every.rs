use behaved::prelude::*;
struct Ctx { now: f64 }
impl Clock for Ctx { fn now(&self) -> f64 { self.now } }
const SECS: f64 = 1.0;

behave! {
    tree A for Ctx {
        utility(every = 0) { |_| 1.0 => success }
    }
    tree B for Ctx {
        utility(every = -0.5) { |_| 1.0 => success }
    }
    tree C for Ctx {
        utility(every = SECS) { |_| 1.0 => success }
    }
    tree D for Ctx {
        utility(reactive, every = 1.0) { |_| 1.0 => success }
    }
    tree E for Ctx {
        utility(every = 1.0, best = 2) { |_| 1.0 => success }
    }
    tree F for Ctx {
        utility(every = 0.5, margin = 0.1) { |_| 1.0 => success }
    }
}
fn main() {}

use behaved::prelude::*;
struct Ctx { hp: u32, now: f64 }
impl Clock for Ctx { fn now(&self) -> f64 { self.now } }

behave! {
    tree A for Ctx {
        utility(fastest) { |_| 1.0 => success }
    }
    tree B for Ctx {
        utility(reactive, margin = -0.5) { |_| 1.0 => success }
    }
    tree D for Ctx {
        utility(reactive, best = 2) { |_| 1.0 => success }
    }
    tree E for Ctx {
        utility(weighted, best = 0) { |_| 1.0 => success }
    }
    tree G for Ctx {
        utility { |_| 1.0 => success, failure }
    }
}
fn main() {}

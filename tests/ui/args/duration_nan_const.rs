use behaved::prelude::*;
struct Ctx { now: f64 }
impl Clock for Ctx { fn now(&self) -> f64 { self.now } }

const PAUSE: f64 = f64::NAN;
const BACK: f64 = -1.0;

behave! {
    tree T for Ctx {
        sequence { wait(PAUSE), timeout(BACK) { success } }
    }
}
fn main() {}

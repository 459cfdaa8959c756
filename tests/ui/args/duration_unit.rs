use behaved::prelude::*;
struct Ctx { now: f64 }
impl Clock for Ctx { fn now(&self) -> f64 { self.now } }

behave! {
    tree T for Ctx {
        sequence { wait(2days), timeout(-1.5) { success }, delay(1e400) { success } }
    }
}
fn main() {}

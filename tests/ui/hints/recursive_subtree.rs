use behaved::prelude::*;
struct Ctx { hp: u32, now: f64 }
impl Clock for Ctx { fn now(&self) -> f64 { self.now } }

behave! {
    tree Patrol for Ctx { sequence { success, subtree(Chase) } }
    tree Chase for Ctx { selector { failure, subtree(Patrol) } }
    tree Itself for Ctx { sequence { subtree(Itself) } }
}
fn main() {}

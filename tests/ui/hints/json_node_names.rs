// Node names of the JSON form (and of behavior3) written in `behave!`: each
// error names the DSL word to write instead.
use behaved::prelude::*;
struct Ctx { hp: u32, now: f64 }
impl Clock for Ctx { fn now(&self) -> f64 { self.now } }

behave! {
    tree Lower for Ctx {
        sequence {
            condition(|c| c.hp > 3),
            repeater(3) { success },
            succeeder { failure },
            waitUntil(|c| c.hp == 0),
        }
    }
}

behave! {
    tree Upper for Ctx {
        Inverter { success }
    }
}
behave! {
    tree Called for Ctx {
        sequence { Repeater(3) { success }, failure }
    }
}
fn main() {}

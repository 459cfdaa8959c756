// A `#[persist]` leaf whose type serde cannot save: the errors point at the leaf.
use behaved::prelude::*;
struct Charge { left: u32 }
struct Game { now: f64 }
impl Clock for Game { fn now(&self) -> f64 { self.now } }
impl Action<Game> for Charge {
    fn tick(&mut self, _: &mut Game) -> Status { Status::Success }
}
behave! {
    tree Attack for Game {
        sequence {
            #[persist] Charge { left: 0 },
            wait(1.0),
        }
    }
}
fn main() {}

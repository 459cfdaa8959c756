// A blackboard entry is a closure to a part of the context.
use behaved::port::Port;
use behaved::prelude::*;
struct World { goal: i32 }
#[derive(serde::Deserialize)]
struct Go { to: Port<World, i32> }
impl Action<World> for Go {
    fn tick(&mut self, w: &mut World) -> Status { let _ = (self.to.get(w), w.goal); Status::Success }
}

behave! {
    tree Broken for World = xml("go.xml") {
        "Go" => Go,
        ports { "goal" => |w| &w.goal },
    }
}
fn main() {}

// A parameter that names a blackboard entry must be a `Port` or an `OutPort`.
use behaved::prelude::*;
struct World { goal: i32 }
#[derive(serde::Deserialize)]
struct Go { to: i32 }
impl Action<World> for Go {
    fn tick(&mut self, _: &mut World) -> Status { let _ = self.to; Status::Success }
}

behave! {
    tree Broken for World = xml("go.xml") {
        "Go" => Go,
        ports { "goal" => |w| &mut w.goal },
    }
}
fn main() {}

// A `{key}` the tree's `ports { .. }` does not have, named with the keys it
// has; an entry the file does not use.
use behaved::port::Port;
use behaved::prelude::*;
struct World { goal: i32 }
#[derive(serde::Deserialize)]
struct Go { to: Port<World, i32> }
impl Action<World> for Go {
    fn tick(&mut self, w: &mut World) -> Status { let _ = self.to.get(w); Status::Success }
}

behave! {
    tree Broken for World = xml("go.xml") {
        "Go" => Go,
        ports { "gaol" => |w| &mut w.goal },
    }
}
fn main() {}

// A JSON leaf with parameters is deserialized from them, as the interpreter
// builds it: its type must implement `serde::Deserialize`.
use behaved::prelude::*;
struct World;
struct Point { x: i32, y: i32, z: i32 }
struct MoveTo { target: Point }
impl Action<World> for MoveTo {
    fn tick(&mut self, _: &mut World) -> Status { let Point { x, y, z } = self.target; let _ = x + y + z; Status::Success }
}

behave! {
    tree Walk for World = json("move_to.json") {
        "moveTo" => MoveTo,
    }
}
fn main() {}

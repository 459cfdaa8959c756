// The world of the `{key}` cases, shared by `include!`: a goal, and the
// action `Go`, whose port `to` reads an `i32` from the blackboard.
struct World { goal: i32 }
#[derive(serde::Deserialize)]
struct Go { to: Port<World, i32> }
impl Action<World> for Go {
    fn tick(&mut self, w: &mut World) -> Status { let _ = self.to.get(w); Status::Success }
}

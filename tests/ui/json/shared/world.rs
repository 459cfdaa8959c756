// The world of the JSON and XML file cases, shared by `include!`: one
// action, `Dialogue`, with a parameter.
struct World;
struct Dialogue { dialogue_id: String }
impl Action<World> for Dialogue {
    fn tick(&mut self, _: &mut World) -> Status { let _ = &self.dialogue_id; Status::Success }
}

use behaved::prelude::*;
struct World;
struct Dialogue { dialogue_id: String }
impl Action<World> for Dialogue {
    fn tick(&mut self, _: &mut World) -> Status { let _ = &self.dialogue_id; Status::Success }
}

behave! {
    tree Broken for World = xml("bad_tree.xml") {
        "dialogue" => Dialogue,
    }
}
fn main() {}

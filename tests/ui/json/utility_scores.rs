use behaved::prelude::*;
struct World { fatigue: f32 }

behave! {
    tree Choose for World = json("utility_scores.json") {
        "fatigue" => |w: &World| w.fatigue,
        "near" => |_: &World| 1.0,
    }
}
fn main() {}

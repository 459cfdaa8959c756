// A `<SubTree>` port remapped to an entry (`goal="{target}"`) the using
// tree's `ports { .. }` does not have: named, at the `<SubTree>`'s line; the
// subtree's own `goal` is not this tree's (it is the subtree's `ports`').
use behaved::port::Port;
use behaved::prelude::*;
// `World { goal }` and its action `Go` (a port `to: Port<World, i32>`).
include!("shared/go.rs");

behave! {
    tree Chase for World = xml("remap.xml", "Chase") {
        "Go" => Go,
        ports { "goal" => |w| &mut w.goal },
    }
}

behave! {
    tree Broken for World = xml("remap.xml") {
        "Chase" => Chase,
        ports { "goal" => |w| &mut w.goal },
    }
}
fn main() {}

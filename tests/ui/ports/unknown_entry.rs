// A `{key}` the tree's `ports { .. }` does not have, named with the keys it
// has; an entry the file does not use.
use behaved::port::Port;
use behaved::prelude::*;
// `World { goal }` and its action `Go` (a port `to: Port<World, i32>`).
include!("shared/go.rs");

behave! {
    tree Broken for World = xml("go.xml") {
        "Go" => Go,
        ports { "gaol" => |w| &mut w.goal },
    }
}
fn main() {}

use behaved::prelude::*;
// `Camp` (targets by id) and its list `Targets`.
include!("shared/camp.rs");

behave! {
    // 60,000 + 6,000 items: above the limit of 65,536, as the loader says.
    tree TooMany for Camp = json("for_each_items.json") {
        "cells" => Targets,
    }
}
fn main() {}

use behaved::prelude::*;

struct Ctx;

behave! {
    crate = "behaved";
    tree T for Ctx { success }
}

fn main() {}

//! A crate that renamed the `behaved` dependency (`my_trees` in this crate's
//! Cargo.toml) names it with `crate = ..`, and every path the generated code
//! writes goes through that name: the runtime's items, async leaves, and the
//! serde impls of a saved tree. Without the option this file does not compile,
//! since no crate here is called `behaved`.

use my_trees::prelude::*;
use std::future::{Ready, ready};

struct Ctx {
    now: f64,
    log: Vec<&'static str>,
}

impl Clock for Ctx {
    fn now(&self) -> f64 {
        self.now
    }
}

/// An async action whose answer is ready at once.
struct Ask;

impl Task for Ask {
    type Future = Ready<u32>;
}

impl AsyncAction<Ctx> for Ask {
    fn start(&mut self, _: &mut Ctx) -> Ready<u32> {
        ready(42)
    }
    fn finish(&mut self, ctx: &mut Ctx, answer: u32) -> Status {
        ctx.log.push(if answer == 42 { "answered" } else { "wrong" });
        Status::Success
    }
}

my_trees::behave! {
    crate = ::my_trees;

    tree Renamed for Ctx {
        sequence {
            act(|c| { c.log.push("start"); Status::Success }),
            wait(1.0),
            act(async Ask),
        }
    }
}

#[test]
fn a_tree_reaches_a_renamed_facade_through_the_crate_option() {
    let mut ctx = Ctx {
        now: 0.0,
        log: Vec::new(),
    };
    let mut tree = Renamed::new();
    assert_eq!(tree.tick(&mut ctx), Status::Running);
    // Saved and loaded while waiting, through the serde impls the macro wrote.
    let saved = serde_json::to_string(&tree).unwrap();
    let mut tree: Renamed = serde_json::from_str(&saved).unwrap();
    ctx.now = 1.0;
    assert_eq!(tree.tick(&mut ctx), Status::Success);
    assert_eq!(ctx.log, ["start", "answered"]);
    assert_eq!(Renamed::NODE_COUNT, 4);
}

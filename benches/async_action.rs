//! What an async action costs per tick against a plain `Action` doing the
//! same work: a job that is pending for three ticks and done on the fourth,
//! as a hand-written action (the baseline), as an async action whose named
//! future lives inline in the tree, and as one whose future is a `BoxFuture`
//! (one allocation per start). Results: BENCHMARKS.md.
//!
//! `cargo bench --bench async_action -- --quick`
use std::hint::black_box;

use behaved::prelude::*;
use behaved::{BoxFuture, Status};
use behaved_testkit::countdown::Countdown;
use criterion::Criterion;

/// Ticks per measured iteration.
const TICKS: u32 = 1000;

struct Ctx {
    done: u32,
}

/// The baseline: a countdown written as a plain action.
struct Plain(u32);
impl Action<Ctx> for Plain {
    fn enter(&mut self, _: &mut Ctx) {
        self.0 = 3;
    }
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        if self.0 == 0 {
            ctx.done += 1;
            return Status::Success;
        }
        self.0 -= 1;
        Status::Running
    }
}

/// The countdown as a future (`Countdown`), stored inline.
struct Inline;
impl Task for Inline {
    type Future = Countdown;
}
impl AsyncAction<Ctx> for Inline {
    fn start(&mut self, _: &mut Ctx) -> Countdown {
        Countdown(3)
    }
    fn finish(&mut self, ctx: &mut Ctx, (): ()) -> Status {
        ctx.done += 1;
        Status::Success
    }
}

/// The countdown future boxed once per start.
struct Boxed;
impl Task for Boxed {
    type Future = BoxFuture<()>;
}
impl AsyncAction<Ctx> for Boxed {
    fn start(&mut self, _: &mut Ctx) -> BoxFuture<()> {
        BoxFuture::new(Countdown(3))
    }
    fn finish(&mut self, ctx: &mut Ctx, (): ()) -> Status {
        ctx.done += 1;
        Status::Success
    }
}

behave! {
    tree PlainTree for Ctx { sequence { Plain(0), success } }
    tree InlineTree for Ctx { sequence { act(async Inline), success } }
    tree BoxedTree for Ctx { sequence { act(async Boxed), success } }
}

fn bench<T: Tree<Ctx>>(c: &mut Criterion, name: &str, mut tree: T) {
    c.bench_function(name, |b| {
        let mut ctx = Ctx { done: 0 };
        b.iter(|| {
            for _ in 0..TICKS {
                black_box(tree.tick_at(black_box(&mut ctx), 0.0));
            }
        });
        assert!(ctx.done > 0);
    });
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c, "async/plain_action", PlainTree::new());
    bench(&mut c, "async/inline_future", InlineTree::new());
    bench(&mut c, "async/boxed_future", BoxedTree::new());
    c.final_summary();
}

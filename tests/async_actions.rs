//! Async actions (`act(async ..)`), tick by tick: started on entry, polled on
//! each tick, finished with the context, dropped (cancelled) when halted; a
//! named future stored inline allocates nothing, a `BoxFuture` once per start.
//! Rules: `SEMANTICS.md#async`.
use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use behaved::prelude::*;
use behaved::{Async, BoxFuture};

#[global_allocator]
static ALLOCATOR: behaved_testkit::Counting = behaved_testkit::Counting;

#[derive(Default)]
struct Ctx {
    /// The answer the pending future waits for.
    answer: Option<u32>,
    stop: bool,
    log: Vec<&'static str>,
    got: u32,
    /// Futures of `Ask` dropped so far (halts and completions).
    drops: Rc<Cell<u32>>,
    waker: Option<Waker>,
}

/// A future that completes when the context's answer is there: it reads it
/// through a shared cell written on each poll (the test's stand-in for a
/// worker thread).
struct Answer {
    slot: Rc<Cell<Option<u32>>>,
    drops: Rc<Cell<u32>>,
}
impl Future for Answer {
    type Output = u32;
    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<u32> {
        match self.slot.get() {
            Some(a) => Poll::Ready(a),
            None => Poll::Pending,
        }
    }
}
impl Drop for Answer {
    fn drop(&mut self) {
        self.drops.set(self.drops.get() + 1);
    }
}

/// Asks for the answer; its future is a named type, stored inline.
#[derive(Default)]
struct Ask {
    slot: Rc<Cell<Option<u32>>>,
}
impl Task for Ask {
    type Future = Answer;
}
impl AsyncAction<Ctx> for Ask {
    fn start(&mut self, ctx: &mut Ctx) -> Answer {
        ctx.log.push("start");
        self.slot.set(None);
        Answer {
            slot: Rc::clone(&self.slot),
            drops: Rc::clone(&ctx.drops),
        }
    }
    fn finish(&mut self, ctx: &mut Ctx, answer: u32) -> Status {
        ctx.log.push("finish");
        ctx.got = answer;
        Status::from(answer > 0)
    }
    fn waker<'c>(&self, ctx: &'c Ctx) -> Option<&'c Waker> {
        // Hand the answer over before each poll (a worker would, meanwhile).
        self.slot.set(ctx.answer);
        ctx.waker.as_ref()
    }
    fn cancelled(&mut self, ctx: &mut Ctx) {
        ctx.log.push("cancelled");
    }
}

/// The same question as an `async` block: its future cannot be named, so it
/// is boxed, once per start.
#[derive(Default)]
struct AskBoxed;
impl Task for AskBoxed {
    type Future = BoxFuture<u32>;
}
impl AsyncAction<Ctx> for AskBoxed {
    fn start(&mut self, ctx: &mut Ctx) -> BoxFuture<u32> {
        let answer = ctx.answer;
        BoxFuture::new(async move { answer.unwrap_or(0) + 1 })
    }
    fn finish(&mut self, ctx: &mut Ctx, answer: u32) -> Status {
        ctx.got = answer;
        Status::Success
    }
}

behave! {
    tree Asking for Ctx {
        reactive selector {
            sequence { cond(|c| c.stop), act(|c| c.log.push("stopped")) },
            sequence { act(async Ask::default()), act(|c| c.log.push("after")) },
        }
    }
    tree AskingBoxed for Ctx {
        sequence { act(async AskBoxed), act(async AskBoxed) }
    }
}

fn take(ctx: &mut Ctx) -> Vec<&'static str> {
    std::mem::take(&mut ctx.log)
}

#[test]
fn an_async_action_starts_on_entry_runs_while_pending_and_finishes_with_the_context() {
    let mut tree = Asking::new();
    let mut ctx = Ctx::default();
    assert_eq!(tree.tick(&mut ctx), Status::Running);
    assert_eq!(take(&mut ctx), ["start"], "started on entry, polled: pending");
    assert_eq!(tree.next_wake(0.0), Wake::NextTick, "reactive: ticked on every frame");
    assert_eq!(tree.tick(&mut ctx), Status::Running);
    assert_eq!(take(&mut ctx), Vec::<&str>::new(), "still pending: not started again");
    ctx.answer = Some(42);
    assert_eq!(tree.tick(&mut ctx), Status::Success);
    assert_eq!(
        take(&mut ctx),
        ["finish", "after"],
        "the output becomes a status on the same tick"
    );
    assert_eq!((ctx.got, ctx.drops.get()), (42, 1));
    // A failing output.
    ctx.answer = None;
    assert_eq!(tree.tick(&mut ctx), Status::Running);
    ctx.answer = Some(0);
    assert_eq!(tree.tick(&mut ctx), Status::Failure);
    assert_eq!(take(&mut ctx), ["start", "finish"]);
}

#[test]
fn halting_an_async_action_drops_its_future() {
    let mut tree = Asking::new();
    let mut ctx = Ctx::default();
    assert_eq!(tree.tick(&mut ctx), Status::Running);
    ctx.stop = true;
    assert_eq!(tree.tick(&mut ctx), Status::Success);
    assert_eq!(
        take(&mut ctx),
        ["start", "stopped", "cancelled"],
        "halted once the first branch succeeded"
    );
    assert_eq!(ctx.drops.get(), 1, "the future was dropped by the halt");
    // Reset halts too.
    ctx.stop = false;
    assert_eq!(tree.tick(&mut ctx), Status::Running);
    tree.reset(&mut ctx);
    assert_eq!(take(&mut ctx), ["start", "cancelled"]);
    assert_eq!(ctx.drops.get(), 2);
}

#[test]
fn with_a_waker_a_pending_async_action_lets_its_tree_sleep() {
    behave! {
        tree Waiting for Ctx { sequence { act(async Ask::default()), act(|c| c.log.push("after")) } }
    }
    let mut tree = Waiting::new();
    let mut ctx = Ctx::default();
    assert_eq!(tree.tick(&mut ctx), Status::Running);
    assert_eq!(tree.next_wake(0.0), Wake::NextTick, "no waker: polled on every tick");
    ctx.waker = Some(Waker::noop().clone());
    assert_eq!(tree.tick(&mut ctx), Status::Running);
    assert_eq!(tree.next_wake(0.0), Wake::Never, "a waker will say when to tick");
    ctx.answer = Some(1);
    assert_eq!(tree.tick(&mut ctx), Status::Success);
    assert_eq!(take(&mut ctx), ["start", "finish", "after"]);
}

#[test]
fn a_named_future_is_stored_inline_and_nothing_allocates() {
    let mut tree = Asking::new();
    let mut ctx = Ctx::default();
    ctx.log.reserve(100_000);
    let allocations = behaved_testkit::allocations_during(|| {
        for tick in 0..10_000u32 {
            // Pending for two ticks, then answered; halted every 7th tick.
            ctx.answer = (tick % 3 == 2).then_some(tick);
            ctx.stop = tick % 7 == 6;
            let _ = tree.tick(&mut ctx);
        }
    });
    assert_eq!(allocations, 0);
    let starts = ctx.log.iter().filter(|&&e| e == "start").count();
    let cancels = ctx.log.iter().filter(|&&e| e == "cancelled").count();
    assert!(starts > 3000 && cancels > 100, "{starts} starts, {cancels} cancels");
}

#[test]
fn a_box_future_allocates_once_per_start_and_nothing_per_tick() {
    let mut tree = AskingBoxed::new();
    let mut ctx = Ctx::default();
    let allocations = behaved_testkit::allocations_during(|| {
        for _ in 0..1000 {
            assert_eq!(tree.tick(&mut ctx), Status::Success);
        }
    });
    // Two async actions per tick, each started once: one box each.
    assert_eq!(allocations, 2 * 1000);
    assert_eq!(ctx.got, 1);
    let inline = size_of::<Async<Ask>>();
    let boxed = size_of::<Async<AskBoxed>>();
    assert!(inline >= size_of::<Answer>(), "the future lives in the action");
    assert!(boxed <= 48, "a boxed future is a pointer and a lock: {boxed} bytes");
}

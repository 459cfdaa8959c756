//! An interpreted async action (`Registry::async_action`) with a named future
//! allocates nothing per tick: not when it starts, polls, completes or is
//! halted (its future lives inline in the leaf). Rules: `SEMANTICS.md#async`.

use behaved_interp::{Agent, NoParams, Registry};
use behaved_runtime::{AsyncAction, Condition, Status, Task};
use behaved_testkit::countdown::Countdown;

#[global_allocator]
static ALLOCATOR: behaved_testkit::Counting = behaved_testkit::Counting;

#[derive(Default)]
struct Ctx {
    tick: u32,
    starts: u32,
    finishes: u32,
    cancels: u32,
}

#[derive(Clone)]
struct Work;
impl Task for Work {
    type Future = Countdown;
}
impl AsyncAction<Ctx> for Work {
    fn start(&mut self, c: &mut Ctx) -> Countdown {
        c.starts += 1;
        Countdown(2)
    }
    fn finish(&mut self, c: &mut Ctx, (): ()) -> Status {
        c.finishes += 1;
        Status::Success
    }
    fn cancelled(&mut self, c: &mut Ctx) {
        c.cancels += 1;
    }
}

struct Interrupt;
impl Condition<Ctx> for Interrupt {
    fn check(&self, c: &Ctx) -> bool {
        c.tick % 5 == 4
    }
}

#[test]
fn ten_thousand_ticks_of_an_async_action_allocate_nothing() {
    let mut registry = Registry::<Ctx>::new();
    registry
        .condition("interrupt", |_: NoParams| Interrupt)
        .async_action("work", |_: NoParams| Work);
    let def = registry
        .load(
            r#"{"type": "reactiveSelector", "children": [
                {"type": "condition", "condition": "interrupt"},
                {"type": "action", "action": "work"}]}"#,
        )
        .unwrap();
    let mut agent = Agent::new(def);
    let mut ctx = Ctx::default();
    let allocations = behaved_testkit::allocations_during(|| {
        for tick in 0..10_000 {
            ctx.tick = tick;
            let _ = agent.tick_at(&mut ctx, f64::from(tick));
        }
    });
    assert_eq!(allocations, 0);
    assert!(
        ctx.starts > 3000 && ctx.finishes > 1500 && ctx.cancels > 1500,
        "{:?}",
        (ctx.starts, ctx.finishes, ctx.cancels)
    );
}

//! `next_wake`: when a compiled tree next needs a tick, node by node (the
//! differential test in `difftest` checks the rule on random trees;
//! `SEMANTICS.md#sleeping`).
#![allow(missing_docs)]

use behaved::prelude::*;

#[derive(Default)]
struct Ctx {
    now: f64,
    part: Part,
    casts: u32,
}

impl Ctx {
    fn casts(&self) -> u32 {
        self.casts
    }
}

#[derive(Default)]
struct Part {
    steps: u32,
}

/// A cast bar: Running until its end time, which it reports as its wake.
#[derive(Clone)]
struct Cast {
    ends: f64,
}

impl Action<Ctx> for Cast {
    fn enter(&mut self, ctx: &mut Ctx) {
        self.ends = ctx.now + 3.0;
    }
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        if ctx.now >= self.ends {
            ctx.casts += 1;
            Status::Success
        } else {
            Status::Running
        }
    }
    fn next_wake(&self, now: f64) -> Wake {
        Wake::at(self.ends, now)
    }
}

/// An action that says nothing about its wake.
struct Step;

impl Action<Part> for Step {
    fn tick(&mut self, part: &mut Part) -> Status {
        part.steps += 1;
        if part.steps.is_multiple_of(2) {
            Status::Success
        } else {
            Status::Running
        }
    }
}

behave! {
    tree Walk for Part { sequence { Step, wait(10.0) } }
}

behave! {
    tree Caster for Ctx {
        sequence {
            wait(1.0),
            Cast { ends: 0.0 },
            delay(2.0) { running },
            timeout(5.0) { parallel(all) { wait(1.0), running } },
            subtree(Walk, |c| &mut c.part),
        }
    }
}

fn at(tree: &mut Caster, ctx: &mut Ctx, now: f64) -> (Status, Wake) {
    ctx.now = now;
    let status = tree.tick_at(ctx, now);
    (status, tree.next_wake(now))
}

#[test]
fn each_running_node_reports_when_it_can_change() {
    use Status::*;
    let mut tree = Caster::new();
    let mut ctx = Ctx::default();
    assert_eq!(
        tree.next_wake(0.0),
        Wake::NextTick,
        "an idle tree starts on the next tick"
    );
    // wait(1.0) entered at 0: nothing can change before 1.
    let (s, w) = at(&mut tree, &mut ctx, 0.0);
    assert_eq!(s, Running);
    assert!(matches!(w, Wake::At(t) if t > 0.99 && t <= 1.0), "{w:?}");
    // The cast starts at 1 and reports its end, 4.
    assert_eq!(at(&mut tree, &mut ctx, 1.0), (Running, Wake::At(4.0)));
    // Done at 4: delay(2.0) waits until 6 before its child starts.
    let (s, w) = at(&mut tree, &mut ctx, 4.0);
    assert_eq!((s, ctx.casts), (Running, 1));
    assert!(matches!(w, Wake::At(t) if t > 5.99 && t <= 6.0), "{w:?}");
    // After 6 the delayed child is `running`, which never changes by itself.
    assert_eq!(at(&mut tree, &mut ctx, 6.0), (Running, Wake::Never));
    tree.reset(&mut ctx);
    assert_eq!(tree.next_wake(6.0), Wake::NextTick, "a reset tree starts again");
}

#[test]
fn timeouts_parallels_and_subtrees_take_the_most_urgent_child() {
    behave! {
        tree Race for Ctx {
            timeout(5.0) { parallel(all) { wait(1.0), wait(7.0), running } }
        }
    }
    let mut race = Race::new();
    let mut ctx = Ctx::default();
    race.tick_at(&mut ctx, 0.0);
    assert!(matches!(race.next_wake(0.0), Wake::At(t) if t > 0.99 && t <= 1.0));
    race.tick_at(&mut ctx, 1.0);
    // wait(1.0) is done: the parallel waits for wait(7.0), the timeout fires at 5.
    assert!(matches!(race.next_wake(1.0), Wake::At(t) if t > 4.99 && t <= 5.0));

    behave! {
        tree Walker for Ctx { subtree(Walk, |c| &mut c.part) }
    }
    let mut walker = Walker::new();
    assert_eq!(walker.tick_at(&mut ctx, 0.0), Status::Running);
    assert_eq!(walker.next_wake(0.0), Wake::NextTick, "Step says nothing: next tick");
    assert_eq!(walker.tick_at(&mut ctx, 0.5), Status::Running);
    assert!(
        matches!(walker.next_wake(0.5), Wake::At(t) if t > 10.49 && t <= 10.5),
        "the subtree's wait, on its part of the context"
    );
}

#[test]
fn reactive_nodes_watch_their_inputs_and_loops_between_iterations_need_the_next_tick() {
    behave! {
        tree Watch for Ctx { reactive sequence { cond(|c| c.casts == 0), wait(5.0) } }
    }
    behave! {
        tree Blind for Ctx { reactive sequence { cond(|c| c.casts() == 0), wait(5.0) } }
    }
    behave! {
        tree Pace for Ctx { loop { act(|c| c.casts += 1) } }
    }
    let mut ctx = Ctx::default();
    let mut watch = Watch::new();
    watch.tick_at(&mut ctx, 0.0);
    assert!(
        matches!(watch.next_wake(0.0), Wake::Watch { reads, at } if reads == Reads::field("casts") && at > 4.99 && at <= 5.0),
        "the wait's end, or a change of what the condition reads: {:?}",
        watch.next_wake(0.0)
    );
    let mut blind = Blind::new();
    blind.tick_at(&mut ctx, 0.0);
    assert_eq!(
        blind.next_wake(0.0),
        Wake::NextTick,
        "a condition of unknown inputs is checked every tick"
    );
    let mut pace = Pace::new();
    assert_eq!(pace.tick_at(&mut ctx, 0.0), Status::Running);
    assert_eq!(
        pace.next_wake(0.0),
        Wake::NextTick,
        "the next iteration starts next tick"
    );
}

#[test]
fn an_interpreted_agent_reports_the_same_wakes() {
    let mut leaves = behaved_interp::Registry::new();
    leaves.action("cast", |_: behaved_interp::NoParams| Cast { ends: 0.0 });
    let def = leaves
        .load(r#"{"type": "sequence", "children": [{"type": "action", "action": "cast"}, {"type": "wait", "seconds": 2.0}, {"type": "running"}]}"#)
        .unwrap();
    let mut agent = behaved_interp::Agent::new(def);
    let mut ctx = Ctx::default();
    assert_eq!(agent.next_wake(0.0), Wake::NextTick);
    agent.tick_at(&mut ctx, 0.0);
    assert_eq!(agent.next_wake(0.0), Wake::At(3.0), "the cast's own end");
    ctx.now = 3.0;
    agent.tick_at(&mut ctx, 3.0);
    assert!(matches!(agent.next_wake(3.0), Wake::At(t) if t > 4.99 && t <= 5.0));
    ctx.now = 5.0;
    agent.tick_at(&mut ctx, 5.0);
    assert_eq!(agent.next_wake(5.0), Wake::Never);
}

/// Generic code over both forms, through the one trait they share.
fn ticks_needed<S: Tree<Ctx>>(agent: &mut S, frames: u32) -> u32 {
    let mut ctx = Ctx::default();
    let (mut ticks, mut wake) = (0, Wake::NextTick);
    for frame in 0..frames {
        let now = f64::from(frame) / 10.0;
        ctx.now = now;
        if wake.is_due(now) {
            wake = agent.step(&mut ctx, now).wake;
            ticks += 1;
        }
    }
    ticks
}

#[test]
fn compiled_trees_and_interpreted_agents_are_schedulable_alike() {
    behave! {
        tree Nap for Ctx { loop { sequence { act(|c| c.casts += 1), wait(1.0) } } }
    }
    let def = behaved_interp::Registry::<Ctx>::new()
        .load(r#"{"type": "loop", "child": {"type": "sequence", "children": [{"type": "wait", "seconds": 1.0}]}}"#)
        .unwrap();
    // Ten frames a second for 3 s: ticks at 0, 1, 2 (and 3 is not reached).
    assert_eq!(ticks_needed(&mut Nap::new(), 30), 3);
    assert_eq!(ticks_needed(&mut behaved_interp::Agent::new(def), 30), 3);
}

//! Reactive trees that sleep until an input their conditions read changes
//! (`SEMANTICS.md`, "Sleeping on inputs"), tick by tick, compiled and
//! interpreted; and a condition of unknown inputs still ticking every frame.
#![allow(missing_docs)]

use behaved::prelude::*;
use behaved_interp::{Agent, NoParams, Registry};
use behaved_sched::{Config, Scheduler};

#[derive(Default)]
struct Ctx {
    now: f64,
    night: bool,
    noise: u32,
    /// Which continuous action ran, one letter per tick.
    log: String,
}

impl Ctx {
    fn is_night(&self) -> bool {
        self.night
    }
}

impl Clock for Ctx {
    fn now(&self) -> f64 {
        self.now
    }
}

/// A continuous action (standing at the post, patrolling): Running until
/// halted, and nothing changes it by itself.
#[derive(Clone)]
struct Keep(char);

impl Action<Ctx> for Keep {
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        ctx.log.push(self.0);
        Status::Running
    }
    fn next_wake(&self, _: f64) -> Wake {
        Wake::Never
    }
}

/// `night`, declaring what it reads (the interpreted guard's condition).
struct Night;

impl Condition<Ctx> for Night {
    fn check(&self, ctx: &Ctx) -> bool {
        ctx.night
    }
    fn reads(&self) -> Option<Reads> {
        Some(Reads::field("night"))
    }
}

/// `night`, saying nothing of what it reads.
struct Blind;

impl Condition<Ctx> for Blind {
    fn check(&self, ctx: &Ctx) -> bool {
        ctx.night
    }
}

behave! {
    /// ADR-017's guard: sleeps at night, patrols by day, each until the
    /// night changes.
    tree Guard for Ctx {
        reactive if |c| c.night { Keep('s') } else { Keep('p') }
    }
}

behave! {
    /// The guard as a reactive selector: the first branch sleeps on the
    /// night; the second re-checks, every tick, a sequence that holds an
    /// action (which would run if its condition held), so it cannot sleep.
    tree Selecting for Ctx {
        reactive selector {
            reactive sequence { cond(|c| c.night), Keep('s') },
            Keep('p'),
        }
    }
}

behave! {
    /// The same guard whose condition is a method on the context: its
    /// inputs are unknown.
    tree Unknowing for Ctx {
        reactive selector {
            reactive sequence { cond(|c| c.is_night()), Keep('s') },
            Keep('p'),
        }
    }
}

behave! {
    /// `wait_until` on a field, then a continuous action.
    tree Waiter for Ctx {
        sequence { wait_until(|c| c.noise > 2), Keep('a') }
    }
}

const GUARD_JSON: &str = r#"{"type": "reactiveIf",
    "branches": [{"if": {"type": "condition", "condition": "night"}, "then": {"type": "action", "action": "sleep"}}],
    "else": {"type": "action", "action": "patrol"}}"#;

const SELECTING_JSON: &str = r#"{"type": "reactiveSelector", "children": [
    {"type": "reactiveSequence", "children": [
        {"type": "condition", "condition": "night"},
        {"type": "action", "action": "sleep"}]},
    {"type": "action", "action": "patrol"}]}"#;

fn interpreted(json: &str) -> Agent<Ctx> {
    let mut leaves = Registry::new();
    leaves
        .condition("night", |_: NoParams| Night)
        .action("sleep", |_: NoParams| Keep('s'))
        .action("patrol", |_: NoParams| Keep('p'));
    Agent::new(leaves.load(json).unwrap())
}

/// Ten frames, each first changed by `change` (which returns what it marked
/// as changed). A frame ticks the tree only when its wake is due or a marked
/// change meets it. Returns the frames ticked and the log.
fn frames<T: Tree<Ctx>>(tree: &mut T, change: impl Fn(u32, &mut Ctx) -> Reads) -> (Vec<u32>, String) {
    let mut ctx = Ctx::default();
    let (mut ticked, mut wake) = (Vec::new(), Wake::NextTick);
    for frame in 0..10 {
        let now = f64::from(frame);
        ctx.now = now;
        let changed = change(frame, &mut ctx);
        if wake.is_due(now) || wake.wakes_on(changed) {
            ticked.push(frame);
            wake = tree.step(&mut ctx, now).wake;
        }
    }
    (ticked, ctx.log)
}

/// [`frames`] where the night falls at frame 3 and ends at frame 7, each
/// change marked.
fn run<T: Tree<Ctx>>(tree: &mut T) -> (Vec<u32>, String) {
    frames(tree, |frame, ctx| {
        if frame == 3 || frame == 7 {
            ctx.night = frame == 3;
            Reads::field("night")
        } else {
            Reads::NONE
        }
    })
}

#[test]
fn a_reactive_guard_sleeps_until_the_input_of_its_condition_changes() {
    let mut guard = Guard::new();
    let mut ctx = Ctx::default();
    assert_eq!(guard.tick_at(&mut ctx, 0.0), Status::Running);
    assert_eq!(
        guard.next_wake(0.0),
        Wake::watch(Reads::field("night")),
        "patrolling: the failed condition is checked again only on a change of `night`"
    );
    ctx.night = true;
    assert_eq!(guard.tick_at(&mut ctx, 1.0), Status::Running);
    assert_eq!(
        guard.next_wake(1.0),
        Wake::watch(Reads::field("night")),
        "sleeping: the condition that holds, likewise"
    );
    // Compiled and interpreted, ticked only at their wakes and on the marked changes.
    let expected = (vec![0, 3, 7], "psp".to_string());
    assert_eq!(run(&mut Guard::new()), expected);
    assert_eq!(run(&mut interpreted(GUARD_JSON)), expected);
}

#[test]
fn a_reactive_selector_sleeps_where_its_re_checked_children_are_conditions() {
    let expected = (vec![0, 1, 2, 3, 7, 8, 9], "pppsppp".to_string());
    assert_eq!(run(&mut Selecting::new()), expected);
    assert_eq!(run(&mut interpreted(SELECTING_JSON)), expected);
}

#[test]
fn a_condition_with_unknown_inputs_still_ticks_every_frame() {
    let mut tree = Unknowing::new();
    let (ticked, log) = run(&mut tree);
    assert_eq!(ticked, (0..10).collect::<Vec<_>>());
    assert_eq!(log, "pppssssppp");
    // The interpreter's condition that declares nothing, likewise.
    let mut leaves = Registry::new();
    leaves
        .condition("night", |_: NoParams| Blind)
        .action("sleep", |_: NoParams| Keep('s'))
        .action("patrol", |_: NoParams| Keep('p'));
    let (ticked, log) = run(&mut Agent::new(leaves.load(GUARD_JSON).unwrap()));
    assert_eq!((ticked.len(), log.as_str()), (10, "pppssssppp"));
}

#[test]
fn wait_until_sleeps_until_its_field_changes() {
    let mut w = Waiter::new();
    let mut ctx = Ctx::default();
    assert_eq!(w.tick_at(&mut ctx, 0.0), Status::Running);
    assert_eq!(w.next_wake(0.0), Wake::watch(Reads::field("noise")));
    ctx.noise = 3;
    assert_eq!(w.tick_at(&mut ctx, 1.0), Status::Running);
    assert_eq!(ctx.log, "a");
    assert_eq!(w.next_wake(1.0), Wake::Never, "then the action's own wake");
}

#[test]
fn a_scheduler_delivers_marked_changes_to_the_agents_that_watch_them() {
    let mut sched = Scheduler::new(Config::default()).unwrap();
    for id in 0..4 {
        sched.insert(id, (Guard::new(), Ctx::default()), 0).unwrap();
    }
    let frame = |sched: &mut Scheduler<(Guard, Ctx)>, now: f64| {
        sched
            .frame(now, |_, (tree, ctx)| {
                ctx.now = now;
                tree.step(ctx, now).wake
            })
            .ticked
    };
    assert_eq!(frame(&mut sched, 0.0), 4, "every guard starts");
    assert_eq!(frame(&mut sched, 1.0), 0, "and sleeps on `night`");
    sched.get_mut(2).unwrap().1.night = true;
    sched.changed(2, Reads::field("night")).unwrap();
    sched.changed(1, Reads::field("noise")).unwrap();
    assert_eq!(frame(&mut sched, 2.0), 1, "only the guard whose night changed");
    assert_eq!(sched.get(2).unwrap().1.log, "ps");
    for id in 0..4 {
        sched.get_mut(id).unwrap().1.night = true;
    }
    sched.changed_all(Reads::field("night"));
    assert_eq!(frame(&mut sched, 3.0), 4, "a change of the world all of them read");
    assert_eq!(frame(&mut sched, 4.0), 0);
    assert_eq!(sched.get(0).unwrap().1.log, "ps");
}

#[test]
fn the_checking_mode_catches_a_change_that_was_not_marked() {
    use behaved_testing::MarkCheck;
    let (mut tree, mut ctx) = (Guard::new(), Ctx::default());
    let mut check = MarkCheck::new(&["night", "noise"]);
    assert_eq!(
        check.frame(&mut tree, &mut ctx, 0.0, Reads::NONE),
        Ok(true),
        "the first tick"
    );
    assert_eq!(
        check.frame(&mut tree, &mut ctx, 1.0, Reads::NONE),
        Ok(false),
        "asleep, and nothing changed"
    );
    ctx.night = true;
    assert_eq!(
        check.frame(&mut tree, &mut ctx, 2.0, Reads::field("night")),
        Ok(true),
        "a marked change wakes it"
    );
    ctx.noise = 9;
    assert_eq!(
        check.frame(&mut tree, &mut ctx, 3.0, Reads::field("noise")),
        Ok(false),
        "a change of what it does not read leaves it asleep"
    );
    ctx.night = false;
    let err = check.frame(&mut tree, &mut ctx, 4.0, Reads::NONE).unwrap_err();
    assert_eq!(err.unmarked, ["night"]);
    assert_eq!((err.was, err.now), (Status::Success, Status::Failure));
    assert!(err.condition.contains("c.night"), "{}", err.condition);
    assert!(err.to_string().contains("no mark of its inputs (night)"), "{err}");
    // The interpreted guard, likewise.
    let (mut agent, mut ctx) = (interpreted(GUARD_JSON), Ctx::default());
    let mut check = MarkCheck::new(&["night"]);
    check.frame(&mut agent, &mut ctx, 0.0, Reads::NONE).unwrap();
    ctx.night = true;
    let err = check.frame(&mut agent, &mut ctx, 1.0, Reads::NONE).unwrap_err();
    assert_eq!(
        (err.unmarked.as_slice(), err.was),
        (&["night".to_string()][..], Status::Failure)
    );
}

behave! {
    /// A reactive match on a field, and an `abort_if` on another.
    tree Matching for Ctx {
        reactive match |c| c.noise > 2 {
            true => Keep('l'),
            false => abort_if(|c| c.night) { Keep('q') },
        }
    }
}

#[test]
fn a_reactive_match_and_abort_if_watch_what_they_read() {
    let (mut tree, mut ctx) = (Matching::new(), Ctx::default());
    assert_eq!(tree.tick_at(&mut ctx, 0.0), Status::Running);
    assert_eq!(
        tree.next_wake(0.0),
        Wake::watch(Reads::fields(&["noise", "night"])),
        "the scrutinee's field, and the abort condition's"
    );
    ctx.noise = 5;
    assert_eq!(tree.tick_at(&mut ctx, 1.0), Status::Running);
    assert_eq!(ctx.log, "ql");
    assert_eq!(
        tree.next_wake(1.0),
        Wake::watch(Reads::field("noise")),
        "the other arm: the scrutinee only"
    );
}

/// `noise > 2` as a `match` value, declaring what it reads or not.
struct Loud(bool);

impl behaved_interp::MatchValue<Ctx> for Loud {
    fn get<'c>(&self, ctx: &'c Ctx) -> behaved_interp::KeyRef<'c> {
        behaved_interp::KeyRef::Bool(ctx.noise > 2)
    }
    fn reads(&self) -> Option<Reads> {
        self.0.then(|| Reads::field("noise"))
    }
}

behave! {
    /// A reactive match on a field alone.
    tree Listening for Ctx {
        reactive match |c| c.noise > 2 {
            true => Keep('l'),
            false => Keep('q'),
        }
    }
}

const LISTENING_JSON: &str = r#"{"type": "reactiveMatch", "value": "loud", "cases": [
    {"when": true, "child": {"type": "action", "action": "listen"}}],
    "default": {"type": "action", "action": "quiet"}}"#;

fn listening(declared: bool) -> Agent<Ctx> {
    let mut leaves = Registry::new();
    leaves
        .value("loud", move |_: NoParams| Loud(declared))
        .action("listen", |_: NoParams| Keep('l'))
        .action("quiet", |_: NoParams| Keep('q'));
    Agent::new(leaves.load(LISTENING_JSON).unwrap())
}

/// [`frames`] where the noise rises at frame 2 and falls at frame 6, each
/// change marked.
fn run_noise<T: Tree<Ctx>>(tree: &mut T) -> (Vec<u32>, String) {
    frames(tree, |frame, ctx| {
        if frame == 2 || frame == 6 {
            ctx.noise = if frame == 2 { 5 } else { 0 };
            Reads::field("noise")
        } else {
            Reads::NONE
        }
    })
}

#[test]
fn an_interpreted_reactive_match_sleeps_when_its_value_declares_what_it_reads() {
    let mut agent = listening(true);
    let mut ctx = Ctx::default();
    assert_eq!(agent.tick_at(&mut ctx, 0.0), Status::Running);
    assert_eq!(agent.next_wake(0.0), Wake::watch(Reads::field("noise")));
    // Compiled and interpreted alike: ticked at the start and on the two changes.
    let expected = (vec![0, 2, 6], "qlq".to_string());
    assert_eq!(run_noise(&mut Listening::new()), expected);
    assert_eq!(run_noise(&mut listening(true)), expected);
    // A value that declares nothing: every frame, as before.
    let (ticked, log) = run_noise(&mut listening(false));
    assert_eq!((ticked.len(), log.as_str()), (10, "qqllllqqqq"));
}

/// An interpreted `abortIf` watches what its condition reads while its body
/// runs (`watch.rs` gives it by its shape: a condition, then the body); a
/// `latch` of the same shape, not reactive, sleeps as its body does.
#[test]
fn an_interpreted_abort_if_watches_its_condition_and_a_latch_its_body() {
    let agent = |kind: &str, condition: &str| {
        let mut leaves = Registry::new();
        leaves
            .condition("night", |_: NoParams| Night)
            .condition("blind", |_: NoParams| Blind)
            .action("guard", |_: NoParams| Keep('g'));
        let json = format!(
            r#"{{"type": "{kind}", "condition": {{"type": "condition", "condition": "{condition}"}},
                "child": {{"type": "action", "action": "guard"}}}}"#
        );
        Agent::new(leaves.load(&json).unwrap())
    };
    let mut ctx = Ctx::default();
    let mut abort = agent("abortIf", "night");
    assert_eq!(abort.tick_at(&mut ctx, 0.0), Status::Running);
    assert_eq!(abort.next_wake(0.0), Wake::watch(Reads::field("night")));
    let mut blind = agent("abortIf", "blind");
    assert_eq!(blind.tick_at(&mut ctx, 0.0), Status::Running);
    assert_eq!(blind.next_wake(0.0), Wake::NextTick, "a condition of unknown inputs");
    ctx.night = true;
    let mut latch = agent("latch", "night");
    assert_eq!(latch.tick_at(&mut ctx, 0.0), Status::Running);
    assert_eq!(
        latch.next_wake(0.0),
        Wake::Never,
        "its body's: the action never wakes by itself"
    );
    assert_eq!(ctx.log, "ggg");
}

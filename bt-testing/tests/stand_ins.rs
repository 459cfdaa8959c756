//! Stand-ins replace leaves on the observed path of compiled trees and
//! interpreted agents alike; the production tick still runs the real leaves.

use behaved::prelude::*;
use behaved_interp::{Agent, NoParams, Registry};
use behaved_testing::{Call, Error, StandIn, TestTree};
use std::cell::Cell;
use std::rc::Rc;

use Status::{Failure as F, Running as R, Success as S};

#[derive(Default)]
struct Ctx {
    alarm: bool,
    chased: u32,
    halts: u32,
}

/// The real leaf: counts its ticks and halts in the context.
#[derive(Clone)]
struct Chase;

impl Action<Ctx> for Chase {
    fn tick(&mut self, c: &mut Ctx) -> Status {
        c.chased += 1;
        R
    }
    fn halt(&mut self, c: &mut Ctx) {
        c.halts += 1;
    }
}

struct Alarm;

impl Condition<Ctx> for Alarm {
    fn check(&self, c: &Ctx) -> bool {
        c.alarm
    }
}

behave! {
    tree Guard for Ctx {
        reactive selector {
            reactive sequence { cond(Alarm), Chase },
            wait(5.0),
        }
    }
}

const GUARD_JSON: &str = r#"{"type": "reactiveSelector", "children": [
    {"type": "reactiveSequence", "children": [
        {"type": "condition", "condition": "Alarm"},
        {"type": "action", "action": "Chase"}]},
    {"type": "wait", "seconds": 5.0}]}"#;

fn agent() -> Agent<Ctx> {
    let mut leaves = Registry::new();
    leaves
        .condition("Alarm", |_: NoParams| Alarm)
        .action("Chase", |_: NoParams| Chase);
    Agent::new(leaves.load(GUARD_JSON).unwrap())
}

/// Ticks `t` at 0, 1, 2, ... and returns the root statuses.
fn run<C, T: Tree<C>>(t: &mut TestTree<C, T>, ctx: &mut C, ticks: usize) -> Vec<Status> {
    (0..ticks).map(|i| t.tick(ctx, i as f64)).collect()
}

#[test]
fn a_condition_follows_its_values_and_an_action_its_statuses_in_both_forms() -> Result<(), Error> {
    let mut compiled = TestTree::new(Guard::new());
    let mut interpreted = TestTree::agent(agent());
    // The interpreter labels leaves by their registered names.
    compiled
        .stand_in("cond(Alarm)", StandIn::values([false, true, true, true, false]))?
        .stand_in("Chase", StandIn::statuses([R, S]))?;
    interpreted
        .stand_in("Alarm", StandIn::values([false, true, true, true, false]))?
        .stand_in("Chase", StandIn::statuses([R, S]))?;
    for statuses in [
        run(&mut compiled, &mut Ctx::default(), 5),
        run(&mut interpreted, &mut Ctx::default(), 5),
    ] {
        // wait; chase (halting the wait); chase succeeds; chase again (last status repeats: S); wait again.
        assert_eq!(statuses, [R, R, S, S, R]);
    }
    assert_eq!(
        compiled.trace().events,
        interpreted.trace().events,
        "same events, same ids"
    );
    Ok(())
}

#[test]
fn the_real_leaf_never_runs_and_its_halt_is_skipped() -> Result<(), Error> {
    let mut t = TestTree::new(Guard::new());
    t.stand_in("cond(Alarm)", StandIn::values([true, false]))?
        .stand_in("Chase", StandIn::always(R))?;
    let mut ctx = Ctx::default();
    assert_eq!(t.tick(&mut ctx, 0.0), R);
    assert_eq!(
        t.tick(&mut ctx, 1.0),
        R,
        "the alarm ends: Chase is halted, the wait starts"
    );
    assert!(t.was_halted(t.find("Chase")?));
    assert_eq!(
        (ctx.chased, ctx.halts),
        (0, 0),
        "neither tick nor halt of the real Chase ran"
    );

    // The production path of the same tree type runs the real leaves.
    let mut plain = Guard::new();
    let mut ctx = Ctx {
        alarm: true,
        ..Ctx::default()
    };
    assert_eq!(plain.tick_at(&mut ctx, 0.0), R);
    ctx.alarm = false;
    plain.tick_at(&mut ctx, 1.0);
    assert_eq!((ctx.chased, ctx.halts), (1, 1));
    Ok(())
}

#[test]
fn per_start_scripts_restart_with_each_activation_and_a_halt_ends_one() -> Result<(), Error> {
    let mut t = TestTree::new(Guard::new());
    t.stand_in("cond(Alarm)", StandIn::values([true, true, false, true, true]))?
        .stand_in("Chase", StandIn::per_start([vec![R, R, S], vec![F]]))?;
    let chase = t.find("Chase")?;
    let mut ctx = Ctx::default();
    let chased: Vec<Option<Status>> = (0..5)
        .map(|i| {
            t.tick(&mut ctx, i as f64);
            t.status_of(chase)
        })
        .collect();
    // Activation 0: R, R, then halted when the alarm ends; activation 1 fails; so does activation 2.
    assert_eq!(chased, [Some(R), Some(R), None, Some(F), Some(F)]);
    Ok(())
}

#[test]
fn a_closure_sees_the_tick_and_the_activation() -> Result<(), Error> {
    let seen = Rc::new(Cell::new(0));
    let log = seen.clone();
    let mut t = TestTree::new(Guard::new());
    t.stand_in("cond(Alarm)", StandIn::always(S))?.stand_in(
        "Chase",
        StandIn::from_fn(move |call: &Call| {
            log.set(log.get() + 1);
            assert_eq!((call.start, call.entering), (0, call.tick == 1));
            assert_eq!(call.tick_of_start as u64, call.tick - 1);
            if call.now >= 2.0 { S } else { R }
        }),
    )?;
    assert_eq!(run(&mut t, &mut Ctx::default(), 3), [R, R, S]);
    assert_eq!(seen.get(), 3);
    Ok(())
}

#[test]
fn bad_selectors_and_scripts_are_clear_errors() {
    let mut t = TestTree::new(Guard::new());
    let err = |r: Result<&mut TestTree<Ctx, _>, Error>| r.err().map(|e| e.to_string());
    assert_eq!(
        err(t.stand_in("Chasee", StandIn::always(S))).as_deref(),
        Some("no node matches `Chasee`, did you mean `Chase`?")
    );
    // Nothing close: the message lists the labels there are.
    let listed = err(t.stand_in("cond(..)", StandIn::always(S))).unwrap();
    assert!(
        listed.starts_with("no node matches `cond(..)`; the tree's nodes: `"),
        "{listed}"
    );
    assert!(listed.contains("`Alarm`") && listed.contains("`Chase`"), "{listed}");
    assert_eq!(
        err(t.stand_in("reactive sequence", StandIn::always(S))).as_deref(),
        Some(
            "cannot stand in for #1 `reactive sequence`: it is a `reactive sequence` node; \
             only conditions, actions, `wait` and `wait_until` have stand-ins"
        )
    );
    assert_eq!(
        err(t.stand_in("cond(Alarm)", StandIn::statuses([S, R]))).as_deref(),
        Some("cannot stand in for #2 `Alarm`: a condition cannot be Running (give it values)")
    );
    assert_eq!(
        err(t.stand_in("#3", StandIn::statuses([]))).as_deref(),
        Some("cannot stand in for #3 `Chase`: the script is empty")
    );
    assert_eq!(
        t.find("reactive selector/wait(5.0)").unwrap(),
        NodeId(4),
        "a path of labels"
    );
    let mut ctx = Ctx::default();
    t.tick(&mut ctx, 0.0);
    assert_eq!(
        err(t.stand_in("Chase", StandIn::always(S))).as_deref(),
        Some("cannot stand in for #3 `Chase`: the tree is running; install stand-ins while it is idle")
    );
}

behave! {
    tree Twice for Ctx {
        sequence { wait(1.0), selector { wait(1.0), Chase } }
    }
}

#[test]
fn an_ambiguous_label_lists_every_match_by_path() {
    let t = TestTree::new(Twice::new());
    assert_eq!(
        t.find("wait(1.0)").unwrap_err().to_string(),
        "`wait(1.0)` matches 2 nodes: `sequence/wait(1.0)` (#1), `selector/wait(1.0)` (#3); \
         select one by the path shown (`parent/child`, `[1]`: the second of the siblings it names) \
         or by its id (`#3`)"
    );
    assert_eq!(t.find("selector/wait(1.0)").unwrap(), NodeId(3));
    assert_eq!(t.find("sequence/wait(1.0)").unwrap(), NodeId(1));
}

/// The context of a camp that waits for supplies, fetches them (an async
/// action) and eats.
#[derive(Default)]
struct Camp {
    hungry: bool,
    supplied: bool,
    starts: u32,
    cancels: u32,
    eaten: u32,
    resets: u32,
    reset_hooks: u32,
}

struct Supplied;

impl Condition<Camp> for Supplied {
    fn check(&self, c: &Camp) -> bool {
        c.supplied
    }
}

struct Hungry;

impl Condition<Camp> for Hungry {
    fn check(&self, c: &Camp) -> bool {
        c.hungry
    }
}

/// Fetches supplies: a future that never completes on its own.
#[derive(Clone)]
struct Fetch;

impl Task for Fetch {
    type Future = core::future::Pending<bool>;
}

impl AsyncAction<Camp> for Fetch {
    fn start(&mut self, c: &mut Camp) -> core::future::Pending<bool> {
        c.starts += 1;
        core::future::pending()
    }
    fn finish(&mut self, _: &mut Camp, ok: bool) -> Status {
        Status::from(ok)
    }
    fn cancelled(&mut self, c: &mut Camp) {
        c.cancels += 1;
    }
}

/// Eats; its reset callback counts the resets.
#[derive(Clone)]
struct Eat;

impl Action<Camp> for Eat {
    fn tick(&mut self, c: &mut Camp) -> Status {
        c.eaten += 1;
        S
    }
    fn reset(&mut self, c: &mut Camp) {
        c.resets += 1;
    }
}

behave! {
    tree CampTree for Camp {
        #[on_reset(|c| c.reset_hooks += 1)]
        sequence_always {
            wait_until(Supplied),
            latch(Hungry) { act(async Fetch) },
            Eat,
        }
    }
}

const CAMP_JSON: &str = r#"{"type": "sequenceAlways", "onReset": "CountReset", "children": [
    {"type": "waitUntil", "condition": "Supplied"},
    {"type": "latch", "condition": {"type": "condition", "condition": "Hungry"}, "child": {"type": "action", "action": "Fetch"}},
    {"type": "action", "action": "Eat"}]}"#;

/// The JSON twin of the `on_reset` hook.
#[derive(Clone)]
struct CountReset;

impl Action<Camp> for CountReset {
    fn tick(&mut self, c: &mut Camp) -> Status {
        c.reset_hooks += 1;
        S
    }
}

fn camp_agent() -> Agent<Camp> {
    let mut leaves = Registry::new();
    leaves
        .condition("Supplied", |_: NoParams| Supplied)
        .condition("Hungry", |_: NoParams| Hungry)
        .async_action("Fetch", |_: NoParams| Fetch)
        .action("Eat", |_: NoParams| Eat)
        .action("CountReset", |_: NoParams| CountReset);
    Agent::new(leaves.load(CAMP_JSON).unwrap())
}

/// `wait_until` and async actions take stand-ins; `latch` and
/// `sequence_always` run over them as written; a stood-in async action is
/// never started nor cancelled; a reset still runs the reset callbacks
/// (`on_reset`, `Action::reset`), which stand-ins do not replace.
fn camp_with_stand_ins<T: Tree<Camp>>(t: &mut TestTree<Camp, T>, wait: &str, fetch: &str) -> Result<(), Error> {
    // The wait's condition: false, false, then true (its values).
    t.stand_in(wait, StandIn::values([false, false, true]))?
        .stand_in(fetch, StandIn::per_start([vec![R, S], vec![R]]))?;
    let mut c = Camp {
        hungry: true,
        ..Camp::default()
    };
    assert_eq!(run(t, &mut c, 5), [R, R, R, S, R], "waits 2 ticks, fetches for 2, eats");
    assert_eq!(c.eaten, 1);
    assert!(t.ran(t.find(fetch)?), "the second activation of Fetch runs");
    t.reset(&mut c);
    assert!(t.was_halted(t.find(fetch)?));
    assert_eq!(
        (c.starts, c.cancels),
        (0, 0),
        "the real async action neither started nor was cancelled"
    );
    assert_eq!((c.resets, c.reset_hooks), (1, 1), "the reset callbacks ran, once each");
    Ok(())
}

/// One selector finds the same node in a `behave!` tree and in its JSON twin:
/// a leaf with or without its `act(async ..)` wrapper, a node word as either
/// form writes it; exact labels still win, and a wrong one is still an error.
#[test]
fn a_label_as_either_form_writes_it_finds_the_node_in_both() -> Result<(), Error> {
    let compiled = TestTree::new(CampTree::new());
    let json = TestTree::agent(camp_agent());
    for (native, other) in [("act(async Fetch)", "Fetch"), ("sequence_always", "sequenceAlways")] {
        assert_eq!(
            compiled.find(other)?,
            compiled.find(native)?,
            "{other} in the compiled tree"
        );
    }
    for (native, other) in [("Fetch", "act(async Fetch)"), ("sequenceAlways", "sequence_always")] {
        assert_eq!(json.find(other)?, json.find(native)?, "{other} in the JSON tree");
    }
    assert!(
        compiled.find("act(Fetch)").is_ok(),
        "act(..) without async names the action too"
    );
    assert!(compiled.find("Fetchh").is_err());
    assert!(json.find("cond(Fetch)").is_err(), "an action is not a condition");
    Ok(())
}

#[test]
fn wait_until_async_actions_latch_and_sequence_always_take_stand_ins_in_both_forms() -> Result<(), Error> {
    camp_with_stand_ins(
        &mut TestTree::new(CampTree::new()),
        "wait_until(Supplied)",
        "act(async Fetch)",
    )?;
    // A `waitUntil` has the same label in both forms, so the same selector.
    camp_with_stand_ins(&mut TestTree::agent(camp_agent()), "wait_until(Supplied)", "Fetch")?;
    // Each form's label of the async action finds it in the other form too.
    camp_with_stand_ins(&mut TestTree::new(CampTree::new()), "wait_until(Supplied)", "Fetch")?;
    camp_with_stand_ins(
        &mut TestTree::agent(camp_agent()),
        "wait_until(Supplied)",
        "act(async Fetch)",
    )?;
    // A `wait_until` stand-in given statuses: `Failure` waits on like `Running`.
    let mut t = TestTree::new(CampTree::new());
    t.stand_in("wait_until(Supplied)", StandIn::statuses([F, R, S]))?;
    let mut c = Camp::default();
    assert_eq!(
        run(&mut t, &mut c, 3),
        [R, R, F],
        "waits two ticks; the latch fails (not hungry)"
    );
    t.check_properties()
}

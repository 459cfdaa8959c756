//! Saving and loading interpreted agents: for many generated trees (every
//! node kind, hooks, subtrees, async actions) and random stop points, an
//! agent saved mid-run and loaded into a fresh agent over the same definition
//! behaves exactly like the uninterrupted one for the next 100 ticks (statuses,
//! observer events, leaf events), a reset included, unless an async action was
//! running at the save (it restarts: `tests/differential.rs` and
//! `a_running_async_action_restarts_after_a_load` check those). States from another tree,
//! another version of it, or damaged by hand are rejected with clear errors.
#![allow(missing_docs)]

use std::sync::Arc;

use behaved_interp::{Agent, Definition, Library};
use behaved_runtime::{Status, Tree};
use difftest::treegen::{self, Rand};
use difftest::*;

/// Tick times: steps of 0, 0.25, 0.5 or 1 second.
fn times(seed: u64, n: usize) -> Vec<f64> {
    let mut r = Rand::new(seed ^ 0x5A7E);
    let mut t = 0.0;
    (0..n)
        .map(|_| {
            t += [0.0, 0.25, 0.5, 1.0][r.below(4) as usize];
            t
        })
        .collect()
}

fn load(g: &treegen::Generated) -> Arc<Definition<Ctx>> {
    let library = Library::from_json(&g.library).expect("library loads");
    registry().load_with(&g.json, &library).expect("tree loads")
}

fn save(agent: &Agent<Ctx>) -> String {
    serde_json::to_string(agent).expect("an agent saves")
}

fn restore(def: &Arc<Definition<Ctx>>, json: &str) -> Result<Agent<Ctx>, String> {
    Agent::load(def.clone(), &mut serde_json::Deserializer::from_str(json)).map_err(|e| e.to_string())
}

/// One tick of `agent`: its status, observer events and leaf events.
fn step(agent: &mut Agent<Ctx>, ctx: &mut Ctx, i: usize, now: f64) -> (Status, Vec<Event>, Vec<String>) {
    ctx.now = now;
    ctx.tick = i as u64;
    let mut rec = Recorder::default();
    let status = agent.tick_observed(ctx, now, &mut rec);
    (status, rec.0, std::mem::take(&mut ctx.log))
}

/// Runs `stop` ticks, saves, loads into a fresh agent, and compares the next
/// 100 ticks of both (with a reset of both after 50 of them). `Ok(false)`
/// without comparing when an async action was running at the save: the
/// loaded agent restarts it (SEMANTICS.md#async), so the two may take
/// different courses (`tests/differential.rs` checks those runs against the
/// compiled form, saved and loaded alike).
fn save_mid_run_and_compare(g: &treegen::Generated, stop: usize) -> Result<bool, String> {
    let def = load(g);
    let ts = times(g.seed, stop + 100);
    let mut original = Agent::with_seed(def.clone(), g.seed);
    let mut ctx = Ctx::default();
    let mut before = Vec::new();
    for (i, &now) in ts[..stop].iter().enumerate() {
        let (status, events, log) = step(&mut original, &mut ctx, i, now);
        before.push(Step {
            status: Some(status),
            events,
            log,
        });
    }
    let restarts = async_running_before(&before, |tick| tick == stop);
    let saved = save(&original);
    let mut loaded = restore(&def, &saved).map_err(|e| format!("load: {e}\n  saved: {saved}"))?;
    if save(&loaded) != saved {
        return Err(format!("saving the loaded agent gives another state than {saved}"));
    }
    if restarts {
        return Ok(false);
    }
    let mut ctx2 = ctx.clone();
    for (i, &now) in ts.iter().enumerate().skip(stop) {
        if i == stop + 50 {
            let (mut r1, mut r2) = (Recorder::default(), Recorder::default());
            original.reset_observed(&mut ctx, &mut r1);
            loaded.reset_observed(&mut ctx2, &mut r2);
            if (r1.0, &ctx.log) != (r2.0, &ctx2.log) {
                return Err(format!("the reset at tick {i} differs (stopped at {stop})"));
            }
        }
        let a = step(&mut original, &mut ctx, i, now);
        let b = step(&mut loaded, &mut ctx2, i, now);
        if a != b {
            return Err(format!(
                "tick {i} (stopped at {stop}) differs:\n  uninterrupted: {a:?}\n  loaded:        {b:?}\n  saved: {saved}"
            ));
        }
    }
    Ok(true)
}

#[test]
fn saved_mid_run_and_loaded_agents_continue_identically() {
    let mut r = Rand::new(2027);
    let (mut failures, mut runs, mut running_at_stop) = (Vec::new(), 0, 0);
    let (mut async_compared, mut async_restarted) = (0, 0);
    for i in 0..200 {
        let g = treegen::generate(i, 0x5EED_0000 + i as u64 * 7919, treegen::ALL_KINDS, true);
        let has_async = g.dsl.contains("act(async");
        // Stop points spread over the first 80 ticks, 0 (an idle agent) included.
        for stop in [0, 1 + r.below(20) as usize, 21 + r.below(60) as usize] {
            runs += 1;
            if stop > 0 {
                let def = load(&g);
                let mut a = Agent::with_seed(def, g.seed);
                let mut ctx = Ctx::default();
                for (k, &now) in times(g.seed, stop).iter().enumerate() {
                    step(&mut a, &mut ctx, k, now);
                }
                running_at_stop += usize::from(a.is_running());
            }
            match save_mid_run_and_compare(&g, stop) {
                Ok(true) => async_compared += usize::from(has_async),
                Ok(false) => async_restarted += 1,
                Err(e) => failures.push(format!("{} (seed {}): {e}\n  json: {}", g.name, g.seed, g.json)),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {runs} runs differ; first:\n{}",
        failures.len(),
        failures[0]
    );
    assert!(
        running_at_stop > runs / 4,
        "most saves are taken mid-action ({running_at_stop} of {runs})"
    );
    // Trees with async actions are compared too, whenever none was running
    // at the save; the others restart one.
    assert!(
        async_compared > 100 && async_restarted > 0,
        "{async_compared} runs of trees with async actions compared, {async_restarted} restarted one"
    );
    println!("{runs} runs: {async_compared} of trees with async actions compared, {async_restarted} restarted one");
}

#[test]
fn a_running_action_resumes_where_it_was_without_entering_again() {
    let def = registry()
        .load(
            r#"{"type": "sequence", "children": [
            {"type": "action", "action": {"type": "scripted", "id": 1, "pattern": "RRRS"}},
            {"type": "action", "action": {"type": "scripted", "id": 2, "pattern": "S"}}]}"#,
        )
        .unwrap();
    let mut agent = Agent::new(def.clone());
    let mut ctx = Ctx::default();
    agent.tick_at(&mut ctx, 0.0);
    agent.tick_at(&mut ctx, 1.0);
    assert_eq!(ctx.log, ["e1", "t1", "t1"]);
    let saved = serde_json::to_value(&agent).unwrap();
    assert_eq!(saved["fingerprint"], serde_json::json!(def.fingerprint()));
    assert_eq!(saved["ints"], serde_json::json!([1]), "the sequence resumes at node 1");
    assert_eq!(saved["leaves"]["scripted"][0]["calls"], serde_json::json!(2));
    let mut loaded = Agent::load(def, saved).unwrap();
    ctx.log.clear();
    assert_eq!(loaded.tick_at(&mut ctx, 2.0), Status::Running);
    assert_eq!(loaded.tick_at(&mut ctx, 3.0), Status::Success);
    assert_eq!(
        ctx.log,
        ["t1", "t1", "e2", "t2"],
        "no second enter: the third call succeeds"
    );
}

/// The patrol of the rejection tests: a loop of a scripted action and a
/// wait of `seconds`, its sequence named `name`.
fn patrol(name: Option<&str>, seconds: u32) -> Arc<Definition<Ctx>> {
    let name = name.map(|n| format!(r#""name": "{n}", "#)).unwrap_or_default();
    registry()
        .load(&format!(
            r#"{{"type": "loop", "child": {{"type": "sequence", {name}"children": [
            {{"type": "action", "action": {{"type": "scripted", "id": 1, "pattern": "RS"}}}},
            {{"type": "wait", "seconds": {seconds}}}]}}}}"#
        ))
        .unwrap()
}

/// The tree of the rejection tests and a state saved mid-run.
fn saved_patrol() -> (Arc<Definition<Ctx>>, serde_json::Value) {
    let def = patrol(Some("patrol"), 2);
    let mut agent = Agent::new(def.clone());
    agent.tick_at(&mut Ctx::default(), 0.0);
    (def, serde_json::to_value(&agent).unwrap())
}

fn rejected(def: &Arc<Definition<Ctx>>, state: serde_json::Value) -> String {
    match Agent::load(def.clone(), state) {
        Ok(_) => panic!("a bad state loaded"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_state_from_another_tree_or_version_is_rejected() {
    let (def, saved) = saved_patrol();
    let other = patrol(None, 3);
    assert_ne!(
        def.fingerprint(),
        other.fingerprint(),
        "another duration, another version"
    );
    let error = rejected(&other, saved.clone());
    assert!(
        error.starts_with("this state was saved from a different tree or another version of it"),
        "{error}"
    );
    // A new name changes no behaviour: the state still loads.
    let renamed = patrol(Some("rounds"), 2);
    assert_eq!(def.fingerprint(), renamed.fingerprint());
    assert!(Agent::load(renamed, saved).is_ok());
}

#[test]
fn a_damaged_state_is_rejected_and_names_what_is_wrong() {
    let (def, saved) = saved_patrol();
    let with = |field: &str, value: serde_json::Value| {
        let mut s = saved.clone();
        s[field] = value;
        rejected(&def, s)
    };
    // The loop (state word 0) runs its body; the sequence (word 1) resumes at node 2.
    assert_eq!(saved["ints"], serde_json::json!([1, 2]));
    let error = with("ints", serde_json::json!([1, 7]));
    assert!(
        error.contains(
            "node 1 (sequence at `child`) is running but resumes at node 7, which is not one of its children"
        ),
        "{error}"
    );
    let error = with("ints", serde_json::json!([0, 2]));
    assert!(
        error.contains("node 1 (sequence at `child`) is idle but resumes at node 2"),
        "{error}"
    );
    let error = with("ints", serde_json::json!([1]));
    assert!(error.contains("1 state words, but this tree has 2"), "{error}");
    let error = with("times", serde_json::json!([]));
    assert!(error.contains("0 timestamps, but this tree has 1"), "{error}");
    let error = with("leaves", serde_json::json!({}));
    assert!(error.contains("the leaves of \"scripted\" are missing"), "{error}");
    let error = with("leaves", serde_json::json!({"scripted": []}));
    assert!(
        error.contains("the leaves of \"scripted\": invalid length 0"),
        "{error}"
    );
    let error = with("leaves", serde_json::json!({"walk": []}));
    assert!(
        error.contains("this tree has no action leaves named \"walk\""),
        "{error}"
    );
    let mut unordered = serde_json::Map::new();
    unordered.insert("running".into(), serde_json::json!(true));
    let error = rejected(&def, serde_json::Value::Object(unordered));
    assert!(error.contains("starts with its `fingerprint`"), "{error}");
}

#[test]
fn leaves_saved_as_persistent_need_a_registry_that_persists_them() {
    let (_, saved) = saved_patrol();
    let mut transient = behaved_interp::Registry::new();
    transient.action("scripted", |p: serde_json::Value| {
        Scripted::new(p["id"].as_u64().unwrap() as u32, p["pattern"].as_str().unwrap())
    });
    let def = transient
        .load(
            r#"{"type": "loop", "child": {"type": "sequence", "children": [
            {"type": "action", "action": {"type": "scripted", "id": 1, "pattern": "RS"}},
            {"type": "wait", "seconds": 2}]}}"#,
        )
        .unwrap();
    let error = rejected(&def, saved);
    assert!(error.contains("this registry does not persist them"), "{error}");
    // Its own saves carry no leaves, and load.
    let mut agent = Agent::new(def.clone());
    agent.tick_at(&mut Ctx::default(), 0.0);
    let state = serde_json::to_value(&agent).unwrap();
    assert_eq!(state["leaves"], serde_json::json!({}));
    assert!(Agent::load(def, state).is_ok());
}

#[test]
fn the_fingerprint_is_the_same_on_every_build_and_platform() {
    let (def, _) = saved_patrol();
    // A change here makes every agent saved before it unloadable: only with
    // a new state layout version (and a note in the changelog).
    assert_eq!(def.fingerprint(), 0x8343_0c3f_44ba_c62a);
}

behaved::behave! {
    tree AsyncThenAct for Ctx {
        sequence {
            #[on_enter(|c| c.hook(1, "on_enter"))]
            act(async AsyncScripted { id: 1, polls: 2, ok: true }),
            #[persist] Scripted::new(2, "S"),
        }
    }
}

/// The JSON twin of `AsyncThenAct`.
const ASYNC_THEN_ACT: &str = r#"{"type": "sequence", "children": [
    {"type": "action", "onEnter": {"type": "hook", "id": 1, "what": "on_enter"},
     "action": {"type": "asyncScripted", "id": 1, "polls": 2, "ok": true}},
    {"type": "action", "action": {"type": "scripted", "id": 2, "pattern": "S"}}]}"#;

/// Saves `tree` and loads it back, through serde: compiled trees.
fn save_and_load_compiled(tree: &mut AsyncThenAct) {
    *tree = serde_json::from_str(&serde_json::to_string(tree).unwrap()).unwrap();
}

/// Saves `agent` and loads it back over its definition: interpreted agents.
fn save_and_load_agent(agent: &mut Agent<Ctx>) {
    let saved = save(agent);
    *agent = restore(agent.definition(), &saved).unwrap();
}

/// What one tick or reset did: status (`None` for a reset), observer events, leaf events.
type Did = (Option<Status>, Vec<Event>, Vec<String>);

fn tick<T: Tree<Ctx>>(form: &mut T, ctx: &mut Ctx) -> Did {
    let mut rec = Recorder::default();
    let status = form.tick_observed(ctx, 0.0, &mut rec);
    (Some(status), rec.0, std::mem::take(&mut ctx.log))
}

fn reset<T: Tree<Ctx>>(form: &mut T, ctx: &mut Ctx) -> Did {
    let mut rec = Recorder::default();
    form.reset_observed(ctx, &mut rec);
    (None, rec.0, std::mem::take(&mut ctx.log))
}

fn did(status: Option<Status>, events: &[Event], log: &[&str]) -> Did {
    (status, events.to_vec(), log.iter().map(|s| s.to_string()).collect())
}

/// `SEMANTICS.md#async`: a running async action is saved as running, without
/// its future. After the load it is still running (no enter: no `on_enter`
/// hook, no `entered` event), and its next tick starts the work again
/// (`start`, then the poll), so it needs its whole work again; halted before
/// that tick, it is only `cancelled`. The same in both forms.
#[test]
fn a_running_async_action_restarts_after_a_load() {
    let def = registry().load(ASYNC_THEN_ACT).unwrap();
    restarts_after_a_load("compiled", &mut AsyncThenAct::new(), save_and_load_compiled);
    restarts_after_a_load("interpreted", &mut Agent::new(def), save_and_load_agent);
}

/// The run of [`a_running_async_action_restarts_after_a_load`] for one form
/// of `AsyncThenAct`, saved and loaded by `save_and_load`.
fn restarts_after_a_load<T: Tree<Ctx>>(name: &str, form: &mut T, save_and_load: fn(&mut T)) {
    use Event::{Enter, Finish, Halt, Start, Tick};
    use Status::{Running as R, Success as S};
    {
        let mut ctx = Ctx::default();
        // Entered, started, polled: pending (2 pending polls, then ready).
        assert_eq!(
            tick(form, &mut ctx),
            did(
                Some(R),
                &[Start(0.0), Enter(0), Enter(1), Tick(1, R), Tick(0, R), Finish(R)],
                &["on_enter1", "a1"]
            ),
            "{name}"
        );
        save_and_load(form);
        // Still running: no enter; the work starts again and is polled.
        let running = did(Some(R), &[Start(0.0), Tick(1, R), Tick(0, R), Finish(R)], &["a1"]);
        assert_eq!(
            tick(form, &mut ctx),
            running,
            "{name}: restarted after the load: pending"
        );
        assert_eq!(
            tick(form, &mut ctx),
            did(Some(R), &[Start(0.0), Tick(1, R), Tick(0, R), Finish(R)], &[]),
            "{name}: the new future's second pending poll"
        );
        assert_eq!(
            tick(form, &mut ctx),
            did(
                Some(S),
                &[Start(0.0), Tick(1, S), Enter(2), Tick(2, S), Tick(0, S), Finish(S)],
                &["d1", "e2", "t2"]
            ),
            "{name}: done, a tick later than without the save"
        );
        // Saved while running, halted (by a reset) before its next tick: only cancelled.
        tick(form, &mut ctx);
        save_and_load(form);
        assert_eq!(
            reset(form, &mut ctx),
            did(None, &[Halt(1), Halt(0)], &["c1"]),
            "{name}: halted after the load without a restart"
        );
        // Idle after the reset: entered and started again.
        assert_eq!(tick(form, &mut ctx).2, ["on_enter1", "a1"], "{name}");
    }
}

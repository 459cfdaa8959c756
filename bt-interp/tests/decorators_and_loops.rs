//! Tick-by-tick behaviour of the interpreted decorators, loops, `break` /
//! `continue`, timing nodes, hooks, reset and hot reload (`SEMANTICS.md`).
mod support;

use behaved_runtime::Run;
use behaved_testkit::rules;
use serde_json::json;
use support::*;

fn repeater(kind: &str, count: u32, child: serde_json::Value) -> serde_json::Value {
    json!({"type": kind, "count": count, "child": child})
}

fn timed(kind: &str, seconds: f64, child: serde_json::Value) -> serde_json::Value {
    json!({"type": kind, "seconds": seconds, "child": child})
}

#[test]
fn inverter_succeeder_and_force_failure_change_only_completed_statuses() {
    let mut c = Ctx::new();
    let (mut i, mut s, mut f) = (
        agent(one("inverter", act("a"))),
        agent(one("succeeder", act("a"))),
        agent(one("forceFailure", act("a"))),
    );
    for (status, inverted, forced_s, forced_f) in [(S, F, S, F), (F, S, S, F), (R, R, R, R)] {
        c.set("a", status);
        assert_eq!(i.tick_at(&mut c, 0.0), inverted);
        assert_eq!(s.tick_at(&mut c, 0.0), forced_s);
        assert_eq!(f.tick_at(&mut c, 0.0), forced_f);
    }
}

#[test]
fn repeater_and_retry_go_on_within_one_tick() {
    let (mut t, mut c) = (agent(repeater("repeater", 3, act("a"))), Ctx::new());
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(c.take(), log(&["enter a", "a", "enter a", "a", "enter a", "a"]));
    c.set("a", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    c.set("a", S);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(c.take(), log(&["enter a", "a", "a", "enter a", "a", "enter a", "a"]));
    c.set("a", F);
    assert_eq!(t.tick_at(&mut c, 0.0), F);
    assert_eq!(c.take(), log(&["enter a", "a"]));

    let (mut t, mut c) = (agent(repeater("retry", 3, act("a"))), Ctx::new());
    c.set("a", F);
    assert_eq!(t.tick_at(&mut c, 0.0), F);
    assert_eq!(c.take(), log(&["enter a", "a", "enter a", "a", "enter a", "a"]));
}

#[test]
fn loop_starts_at_most_one_iteration_per_tick() {
    let (mut t, mut c) = (agent(one("loop", act("a"))), Ctx::new());
    for status in [S, F, S] {
        c.set("a", status);
        assert_eq!(t.tick_at(&mut c, 0.0), R);
        assert_eq!(c.take(), log(&["enter a", "a"]));
    }
    c.set("a", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    c.set("a", S);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(
        c.take(),
        log(&["enter a", "a", "a", "enter a", "a"]),
        "an earlier iteration completes: the next starts now"
    );
}

#[test]
fn until_fail_and_until_success() {
    let (mut t, mut c) = (agent(one("untilFail", act("a"))), Ctx::new());
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    c.set("a", F);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    let (mut t, mut c) = (agent(one("untilSuccess", act("a"))), Ctx::new());
    c.set("a", F);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    c.set("a", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    c.set("a", F);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter a", "a", "a", "enter a", "a"]));
    c.set("a", S);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
}

#[test]
fn while_checks_its_condition_at_the_start_of_each_iteration() {
    let tree = json!({"type": "while", "condition": cond("c1"), "child": act("a")});
    let (mut t, mut c) = (agent(tree), Ctx::new());
    let mut trace = Trace::default();
    c.set("a", R);
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut trace), R);
    assert_eq!(trace.take(), log(&["> 0", "> 1", "1 S", "> 2", "2 R", "0 R"]));
    c.set("c1", F);
    assert_eq!(
        t.tick_observed(&mut c, 0.0, &mut trace),
        R,
        "not re-checked while the body runs"
    );
    assert_eq!(trace.take(), log(&["2 R", "0 R"]));
    c.set("c1", S).set("a", S);
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut trace), R);
    assert_eq!(
        trace.take(),
        log(&["2 S", "> 1", "1 S", "> 2", "2 S", "0 R"]),
        "the next iteration starts in the same tick, and completes: Running"
    );
    c.set("c1", F);
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut trace), S);
    assert_eq!(trace.take(), log(&["> 1", "1 F", "0 S"]));
    c.set("c1", S).set("a", F);
    assert_eq!(t.tick_at(&mut c, 0.0), F, "a body failure ends the loop with failure");
}

#[test]
fn break_ends_the_loop_with_success_halting_what_runs_in_its_body() {
    // loop { parallel(requireAll) { a, sequence { c1, break } } }
    let body = json!({"type": "parallel", "policy": "requireAll", "children": [
        act("a"),
        many("sequence", vec![cond("c1"), json!({"type": "break"})])
    ]});
    let (mut t, mut c) = (agent(one("loop", body)), Ctx::new());
    let mut trace = Trace::default();
    c.set("a", R);
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut trace), S);
    assert_eq!(
        trace.take(),
        log(&[
            "> 0", "> 1", "> 2", "2 R", "> 3", "> 4", "4 S", "> 5", "5 S", "x 3", "x 2", "x 1", "0 S"
        ]),
        "break reports success, the nodes up to the loop end halted, the running sibling is halted"
    );
    assert_eq!(c.take(), log(&["enter a", "a", "halt a"]));
}

#[test]
fn labelled_break_and_continue_reach_the_named_loop() {
    // repeater(3) 'outer { sequence { a, loop { sequence { b, continue 'outer } } } }
    let inner = one(
        "loop",
        many(
            "sequence",
            vec![act("b"), json!({"type": "continue", "label": "outer"})],
        ),
    );
    let tree = json!({"type": "repeater", "count": 3, "label": "outer",
        "child": many("sequence", vec![act("a"), inner])});
    let def = load(tree);
    assert_eq!(def.nodes()[0].label, "'outer: repeat(3)");
    assert_eq!(def.nodes()[6].label, "continue 'outer");
    let mut t = behaved_interp::Agent::new(def);
    let mut c = Ctx::new();
    assert_eq!(
        t.tick_at(&mut c, 0.0),
        S,
        "continue counts as a success of the repeater's body"
    );
    assert_eq!(c.take().iter().filter(|e| *e == "b").count(), 3);

    // loop { sequence { a, continue, b } }: b never runs, one iteration per tick.
    let tree = one(
        "loop",
        many("sequence", vec![act("a"), json!({"type": "continue"}), act("b")]),
    );
    let (mut t, mut c) = (agent(tree), Ctx::new());
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter a", "a"]));

    // untilSuccess { sequence { a, continue } } ends with success.
    let tree = one(
        "untilSuccess",
        many("sequence", vec![act("a"), json!({"type": "continue"})]),
    );
    assert_eq!(agent(tree).tick_at(&mut Ctx::new(), 0.0), S);
}

#[test]
fn wait_and_timeout() {
    let tree = many(
        "sequence",
        vec![
            json!({"type": "wait", "seconds": 0}),
            act("a"),
            json!({"type": "wait", "seconds": 1.5}),
        ],
    );
    let (mut t, mut c) = (agent(tree), Ctx::new());
    assert_eq!(t.tick_at(&mut c, 0.0), R, "wait(0) is Running for exactly one tick");
    assert_eq!(t.tick_at(&mut c, 0.1), R);
    assert_eq!(t.tick_at(&mut c, 1.5), R);
    assert_eq!(t.tick_at(&mut c, 1.6), S);

    let (mut t, mut c) = (agent(timed("timeout", 1.0, act("a"))), Ctx::new());
    c.set("a", R);
    assert_eq!(t.tick_at(&mut c, 10.0), R);
    assert_eq!(t.tick_at(&mut c, 10.5), R);
    assert_eq!(t.tick_at(&mut c, 11.0), F);
    assert_eq!(
        c.take(),
        log(&["enter a", "a", "a", "halt a"]),
        "time up: halted, not ticked"
    );

    let (mut t, mut c) = (agent(timed("timeout", 0.0, act("a"))), Ctx::new());
    c.set("a", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R, "timeout(0) gives the child exactly one tick");
    assert_eq!(t.tick_at(&mut c, 0.0), F);
    assert_eq!(c.take(), log(&["enter a", "a", "halt a"]));
}

#[test]
fn delay_holds_the_child_back() {
    let (mut t, mut c) = (agent(timed("delay", 1.0, act("a"))), Ctx::new());
    c.set("a", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(t.tick_at(&mut c, 0.9), R);
    assert!(c.take().is_empty());
    assert_eq!(t.tick_at(&mut c, 1.0), R);
    assert_eq!(t.tick_at(&mut c, 5.0), R);
    c.set("a", S);
    assert_eq!(t.tick_at(&mut c, 5.0), S);
    assert_eq!(c.take(), log(&["enter a", "a", "a", "a"]));
    let (mut t, mut c) = (agent(timed("delay", 0.0, act("a"))), Ctx::new());
    assert_eq!(t.tick_at(&mut c, 0.0), S, "delay(0) ticks the child at once");
}

#[test]
fn cooldown_fails_after_a_completion_until_its_time_has_passed_across_resets() {
    let tree = many("selector", vec![timed("cooldown", 2.0, act("a")), act("b")]);
    let (mut t, mut c) = (agent(tree), Ctx::new());
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(t.tick_at(&mut c, 1.0), S);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]));
    c.set("b", R);
    assert_eq!(t.tick_at(&mut c, 1.5), R);
    t.reset(&mut c);
    c.take();
    assert_eq!(t.tick_at(&mut c, 1.9), R, "reset keeps the cooldown's memory");
    assert_eq!(c.take(), log(&["enter b", "b"]));
    t.reset(&mut c);
    c.take();
    c.set("a", R);
    assert_eq!(t.tick_at(&mut c, 2.0), R);
    t.reset(&mut c);
    assert_eq!(c.take(), log(&["enter a", "a", "halt a"]));
    assert_eq!(t.tick_at(&mut c, 2.1), R, "a halt is not a completion");
    assert_eq!(c.take(), log(&["enter a", "a"]));
}

#[test]
fn limit_and_run_once_remember_over_the_agents_life() {
    let tree = many(
        "selector",
        vec![json!({"type": "limit", "count": 2, "child": act("a")}), act("b")],
    );
    let (mut t, mut c) = (agent(tree), Ctx::new());
    c.set("a", F);
    for _ in 0..2 {
        assert_eq!(t.tick_at(&mut c, 0.0), S);
        assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]));
    }
    t.reset(&mut c);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(c.take(), log(&["enter b", "b"]), "two completions used up");

    let (mut t, mut c) = (agent(one("runOnce", act("a"))), Ctx::new());
    c.set("a", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    c.set("a", F);
    assert_eq!(t.tick_at(&mut c, 0.0), F);
    c.set("a", S);
    assert_eq!(
        t.tick_at(&mut c, 0.0),
        F,
        "repeats the first completion without ticking"
    );
    assert_eq!(c.take(), log(&["enter a", "a", "a"]));
}

#[test]
fn abort_if_checks_before_every_tick_including_the_first() {
    let tree = json!({"type": "abortIf", "condition": cond("c1"), "child": act("a")});
    let (mut t, mut c) = (agent(tree), Ctx::new());
    assert_eq!(t.tick_at(&mut c, 0.0), F);
    assert!(c.take().is_empty());
    c.set("c1", F).set("a", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    c.set("c1", S);
    assert_eq!(t.tick_at(&mut c, 0.0), F);
    assert_eq!(c.take(), log(&["enter a", "a", "halt a"]));
}

/// A saved guard (`abortIf`, `latch`) is checked on load through its shape:
/// while it runs, its body (the child after the condition) runs, so a body
/// saved idle is refused, naming it (`invariants.rs`, `Slots::body`).
#[test]
fn a_saved_guards_running_body_is_checked_by_its_shape() {
    for kind in ["abortIf", "latch"] {
        let body = many("sequence", vec![act("a"), act("b")]);
        let def = load(json!({"type": kind, "condition": cond("c1"), "child": body}));
        let mut t = behaved_interp::Agent::new(def.clone());
        let mut c = Ctx::new();
        c.set("c1", if kind == "latch" { S } else { F }).set("a", R);
        assert_eq!(t.tick_at(&mut c, 0.0), R, "{kind}");
        let mut saved = serde_json::to_value(&t).unwrap();
        // The body (node 2) resumes at its first child, node 3.
        assert_eq!(saved["ints"], json!([3]), "{kind}");
        assert!(behaved_interp::Agent::load(def.clone(), &saved).is_ok(), "{kind}");
        saved["ints"] = json!([0]);
        let Err(error) = behaved_interp::Agent::load(def, &saved) else {
            panic!("{kind}: a body saved idle is refused");
        };
        let error = error.to_string();
        assert!(
            error.contains("node 2 (sequence at `child`) is running but resumes at node 0"),
            "{kind}: {error}"
        );
    }
}

#[test]
fn hooks_run_around_any_nodes_lifecycle() {
    let hook = |m: &str| json!({"type": "log", "msg": m});
    let tree = json!({"type": "sequence", "onEnter": hook("in"), "onSuccess": hook("ok"), "onFailure": hook("ko"),
        "onExit": hook("out"), "children": [act("a")]});
    let (mut t, mut c) = (agent(tree), Ctx::new());
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(c.take(), log(&["in", "enter a", "a", "ok", "out"]));
    c.set("a", R);
    t.tick_at(&mut c, 0.0);
    c.set("a", F);
    t.tick_at(&mut c, 0.0);
    assert_eq!(c.take(), log(&["in", "enter a", "a", "a", "ko", "out"]));
    c.set("a", R);
    t.tick_at(&mut c, 0.0);
    t.reset(&mut c);
    assert_eq!(
        c.take(),
        log(&["in", "enter a", "a", "halt a", "out"]),
        "the action's halt before the exit hook"
    );

    // Exit hooks run inside out when a jump passes; a break's own hooks are a success's.
    let inner = json!({"type": "sequence", "onExit": hook("inner-exit"), "onSuccess": hook("inner-ok"),
        "children": [act("a"), {"type": "break", "onSuccess": hook("break-ok"), "onExit": hook("break-exit")}]});
    let tree = json!({"type": "loop", "onSuccess": hook("loop-ok"), "child": inner});
    let (mut t, mut c) = (agent(tree), Ctx::new());
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(
        c.take(),
        log(&["enter a", "a", "break-ok", "break-exit", "inner-exit", "loop-ok"])
    );
}

#[test]
fn scope_is_transparent_in_json() {
    let (mut t, mut c) = (agent(one("scope", act("a"))), Ctx::new());
    c.set("a", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    c.set("a", F);
    assert_eq!(t.tick_at(&mut c, 0.0), F);
    assert_eq!(c.take(), log(&["enter a", "a", "a"]));
}

#[test]
fn reset_halts_each_running_action_once_in_post_order() {
    let tree = json!({"type": "parallel", "policy": "requireAll", "children": [
        many("sequence", vec![act("a"), act("b")]), act("c"), one("inverter", act("d"))
    ]});
    let (mut t, mut c) = (agent(tree), Ctx::new());
    c.set("b", R).set("c", S).set("d", R);
    let mut trace = Trace::default();
    t.tick_at(&mut c, 0.0);
    c.take();
    t.reset_observed(&mut c, &mut trace);
    assert_eq!(c.take(), log(&["halt b", "halt d"]));
    assert_eq!(trace.take(), log(&["x 3", "x 1", "x 6", "x 5", "x 0"]));
    t.reset_observed(&mut c, &mut trace);
    assert!(trace.take().is_empty(), "an idle tree has nothing to halt");
    assert!(!t.is_running());
}

#[test]
fn run_at_ticks_to_completion_or_stops_at_the_limit_without_halting() {
    let tree = repeater(
        "repeater",
        3,
        many("sequence", vec![act("a"), json!({"type": "wait", "seconds": 0})]),
    );
    let (mut t, mut c) = (agent(tree), Ctx::new());
    assert_eq!(t.run_at(&mut c, 0.0, 2), Run::TickLimit);
    assert!(t.is_running());
    assert_eq!(t.run_at(&mut c, 0.0, 10), Run::Completed(S));
    assert_eq!(c.take().iter().filter(|e| *e == "a").count(), 3);
}

#[test]
fn hot_reload_halts_the_old_tree_and_runs_the_new_one() {
    let (mut t, mut c) = (agent(many("sequence", vec![act("a"), act("b")])), Ctx::new());
    c.set("b", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    c.take();
    t.replace_definition(&mut c, load(many("selector", vec![act("c")])));
    assert_eq!(c.take(), log(&["halt b"]));
    assert!(!t.is_running());
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(c.take(), log(&["enter c", "c"]));
    assert_eq!(t.nodes().len(), 2);
}

#[test]
fn hot_reload_of_a_library_subtree() {
    let mut lib = behaved_interp::Library::new();
    lib.insert_json("idle", &many("sequence", vec![act("a"), act("b")]).to_string())
        .unwrap();
    let tree = one("loop", json!({"type": "subtree", "subtreeId": "idle"}));
    let (mut t, mut c) = (behaved_interp::Agent::new(load_with(tree.clone(), &lib)), Ctx::new());
    c.set("b", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]));
    // A designer edits the subtree; the tree is rebuilt and swapped in.
    lib.insert_json("idle", &many("selector", vec![act("c")]).to_string())
        .unwrap();
    t.replace_definition(&mut c, load_with(tree, &lib));
    assert_eq!(c.take(), log(&["halt b"]), "the old subtree's running action is halted");
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter c", "c"]));
}

/// `SEMANTICS.md#latch`
#[test]
fn latch_checks_its_condition_only_while_its_child_is_idle() {
    let latch = json!({"type": "latch", "condition": cond("c1"), "child": act("a")});
    let (mut t, mut c) = (agent(many("reactiveSelector", vec![latch, act("b")])), Ctx::new());
    c.set("c1", F).set("a", R).set("b", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter b", "b"]));
    c.set("c1", S);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter a", "a", "halt b"]));
    c.set("c1", F);
    assert_eq!(t.tick_at(&mut c, 0.0), R, "latched: the child goes on");
    assert_eq!(c.take(), log(&["a"]));
    c.set("a", S);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(t.tick_at(&mut c, 0.0), R, "idle again: false fails");
    assert_eq!(c.take(), log(&["a", "enter b", "b"]));
}

/// `SEMANTICS.md#wait_until`
#[test]
fn wait_until_runs_until_its_condition_holds() {
    let tree = many(
        "sequence",
        vec![json!({"type": "waitUntil", "condition": "c1"}), act("a")],
    );
    let (mut t, mut c) = (agent(tree), Ctx::new());
    c.set("c1", F);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert!(c.take().is_empty());
    c.set("c1", S);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(t.tick_at(&mut c, 0.0), S, "already true on entry: done at once");
    assert_eq!(c.take(), log(&["enter a", "a", "enter a", "a"]));
}

/// `SEMANTICS.md#hooks`, `SEMANTICS.md#reset`
#[test]
fn tick_hooks_run_every_tick_and_reset_hooks_only_on_reset() {
    let hook = |m: &str| json!({"type": "log", "msg": m});
    let tree = json!({"type": "sequence", "children": [act("a")],
        "onEnter": hook("enter-hook"), "onPreTick": hook("pre-tick-hook"), "onTick": hook("tick-hook"),
        "onSuccess": hook("success-hook"), "onExit": hook("exit-hook"), "onReset": hook("reset-hook")});
    let (mut t, mut c) = (agent(tree), Ctx::new());
    c.set("a", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(
        c.take(),
        log(&["enter-hook", "pre-tick-hook", "enter a", "a", "tick-hook"])
    );
    c.set("a", S);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(
        c.take(),
        log(&["pre-tick-hook", "a", "tick-hook", "success-hook", "exit-hook"])
    );
    t.reset(&mut c);
    assert_eq!(c.take(), log(&["reset-hook"]), "an idle agent: only the reset hook");
    c.set("a", R);
    t.tick_at(&mut c, 0.0);
    c.take();
    t.reset(&mut c);
    assert_eq!(c.take(), log(&["halt a", "exit-hook", "reset-hook"]));
}

/// `SEMANTICS.md#hooks`, `SEMANTICS.md#reset`: halting is not resetting. A
/// running action halted by a reactive switch gets `halt` and its node's
/// `onExit`, never the reset callbacks; `reset` halts it the same way, then
/// runs `onReset` and `Action::reset`; on an idle agent only the callbacks run.
#[test]
fn a_halt_runs_no_reset_callback_and_a_reset_runs_them_after_the_halts() {
    let hook = |m: &str| json!({"type": "log", "msg": m});
    let mut guarded = act("ra");
    guarded["onExit"] = hook("exit-hook");
    guarded["onReset"] = hook("reset-hook");
    let mut leaves = registry();
    leaves.action("ra", |_: behaved_interp::NoParams| RecWithReset("ra"));
    let tree = many("reactiveSelector", vec![cond("c1"), guarded]);
    rules::a_halt_runs_no_reset_callback(
        behaved_interp::Agent::new(leaves.load(&tree.to_string()).unwrap()),
        "c1",
    );
}

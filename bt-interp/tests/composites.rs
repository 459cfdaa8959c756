//! Tick-by-tick behaviour of the interpreted composites (`SEMANTICS.md#composites`):
//! resume points, reactive halts, parallel thresholds, random choices,
//! `if` and `match` as data.
mod support;

use behaved_interp::Agent;
use behaved_runtime::Rng;
use serde_json::json;
use support::*;

#[test]
fn sequence_resumes_at_the_running_child_and_restarts_after_failure() {
    let (mut t, mut c) = (agent(many("sequence", vec![act("a"), act("b"), act("c")])), Ctx::new());
    c.set("b", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]));
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["b"]), "earlier children are not re-ticked");
    c.set("b", F);
    assert_eq!(t.tick_at(&mut c, 0.0), F);
    assert_eq!(c.take(), log(&["b"]));
    c.set("b", S);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(
        c.take(),
        log(&["enter a", "a", "enter b", "b", "enter c", "c"]),
        "resume point back to 0"
    );
}

#[test]
fn selector_is_the_mirror_image() {
    let (mut t, mut c) = (agent(many("selector", vec![act("a"), act("b"), act("c")])), Ctx::new());
    c.set("a", F).set("b", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]));
    c.set("b", F).set("c", F);
    assert_eq!(t.tick_at(&mut c, 0.0), F);
    assert_eq!(c.take(), log(&["b", "enter c", "c"]));
    c.set("a", S);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(c.take(), log(&["enter a", "a"]));
}

#[test]
fn reactive_sequence_restarts_each_tick_and_halts_the_later_running_child() {
    let (mut t, mut c) = (
        agent(many("reactiveSequence", vec![cond("c1"), act("a"), act("b")])),
        Ctx::new(),
    );
    c.set("b", R);
    let mut trace = Trace::default();
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut trace), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]));
    assert_eq!(
        trace.take(),
        log(&["> 0", "> 1", "1 S", "> 2", "2 S", "> 3", "3 R", "0 R"])
    );
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut trace), R);
    assert_eq!(c.take(), log(&["enter a", "a", "b"]), "child 0 and 1 again, b resumed");
    assert_eq!(trace.take(), log(&["> 1", "1 S", "> 2", "2 S", "3 R", "0 R"]));
    c.set("c1", F);
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut trace), F);
    assert_eq!(c.take(), log(&["halt b"]));
    assert_eq!(
        trace.take(),
        log(&["> 1", "1 F", "x 3", "0 F"]),
        "the halt comes after the child's tick"
    );
}

#[test]
fn reactive_selector_halts_a_lower_priority_branch_when_a_higher_one_runs() {
    let tree = many(
        "reactiveSelector",
        vec![many("sequence", vec![cond("c1"), act("a")]), act("b")],
    );
    let (mut t, mut c) = (agent(tree), Ctx::new());
    c.set("c1", F).set("b", R).set("a", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter b", "b"]));
    c.set("c1", S);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter a", "a", "halt b"]));
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["a"]), "the running sequence resumes at a, no re-entry");
}

#[test]
fn parallel_require_all_fails_at_once_and_halts_the_running_children() {
    let tree = json!({"type": "parallel", "policy": "requireAll", "children": [act("a"), act("b"), act("c")]});
    let (mut t, mut c) = (agent(tree), Ctx::new());
    c.set("a", R).set("b", S).set("c", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "enter c", "c"]));
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(
        c.take(),
        log(&["a", "c"]),
        "a completed child is not ticked again in this activation"
    );
    c.set("a", F);
    assert_eq!(t.tick_at(&mut c, 0.0), F);
    assert_eq!(
        c.take(),
        log(&["a", "halt c"]),
        "decided mid-pass: c is halted, not ticked"
    );
    c.set("a", S).set("c", S);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "enter c", "c"]));
}

#[test]
fn parallel_require_one_and_thresholds() {
    let any = json!({"type": "parallel", "policy": "requireOne", "children": [act("a"), act("b")]});
    let (mut t, mut c) = (agent(any), Ctx::new());
    c.set("a", R).set("b", F);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    c.set("a", F);
    assert_eq!(t.tick_at(&mut c, 0.0), F, "all failed");
    c.take();

    // success = 2 of 3: once two have failed, success is unreachable: failure.
    let two = json!({"type": "parallel", "success": 2, "children": [act("a"), act("b"), act("c")]});
    let (mut t, mut c) = (agent(two), Ctx::new());
    c.set("a", F).set("b", F).set("c", R);
    assert_eq!(t.tick_at(&mut c, 0.0), F);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]), "c is never ticked");
    c.set("a", S).set("b", R).set("c", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(t.tick_at(&mut c, 0.0), R, "one success, b and c still running");
    c.set("b", S);
    c.take();
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(c.take(), log(&["b", "halt c"]));
}

#[test]
fn parallel_main_returns_the_main_childs_status_and_halts_the_others() {
    let tree = many("parallelMain", vec![act("a"), act("b"), act("c")]);
    let (mut t, mut c) = (agent(tree), Ctx::new());
    c.set("a", R).set("b", R).set("c", S);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "enter c", "c"]));
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["a", "b"]), "c completed in this activation");
    c.set("a", F);
    assert_eq!(t.tick_at(&mut c, 0.0), F);
    assert_eq!(c.take(), log(&["a", "halt b"]));
}

#[test]
fn random_and_weighted_pick_on_entry_with_the_agents_rng() {
    let def = load(many("random", vec![act("a"), act("b"), act("c")]));
    let mut rng = Rng::new(7);
    let mut t = Agent::with_seed(def, 7);
    let mut c = Ctx::new();
    for _ in 0..20 {
        let expected = ["a", "b", "c"][rng.below(3) as usize];
        t.tick_at(&mut c, 0.0);
        assert_eq!(c.take(), log(&[&format!("enter {expected}"), expected]));
    }
    c.set("a", R).set("b", R).set("c", R);
    t.tick_at(&mut c, 0.0);
    let first = c.take();
    t.tick_at(&mut c, 0.0);
    assert_eq!(c.take(), log(&[&first[1]]), "the chosen child runs to completion");

    let def = load(json!({"type": "weighted", "weights": [3, 1], "children": [act("a"), act("b")]}));
    let (mut t, mut rng) = (Agent::with_seed(def, 11), Rng::new(11));
    let mut c = Ctx::new();
    for _ in 0..20 {
        let expected = if rng.below(4) < 3 { "a" } else { "b" };
        t.tick_at(&mut c, 0.0);
        assert_eq!(c.take()[1], expected);
    }
}

#[test]
fn shuffle_is_a_selector_over_an_order_drawn_on_entry() {
    let def = load(many("shuffle", vec![act("a"), act("b"), act("c")]));
    let (mut t, mut rng) = (Agent::with_seed(def, 3), Rng::new(3));
    let mut c = Ctx::new();
    c.set("a", F).set("b", F).set("c", F);
    for _ in 0..10 {
        let mut order = [0usize, 1, 2];
        for i in (1..3).rev() {
            order.swap(i, rng.below(i as u32 + 1) as usize);
        }
        let names = ["a", "b", "c"];
        assert_eq!(t.tick_at(&mut c, 0.0), F);
        let ticked: Vec<String> = c.take().into_iter().filter(|e| !e.starts_with("enter")).collect();
        assert_eq!(ticked, order.iter().map(|&i| names[i].to_string()).collect::<Vec<_>>());
    }
}

#[test]
fn if_chooses_on_entry_and_runs_the_branch_to_completion() {
    let tree = json!({"type": "if", "branches": [
        {"if": cond("c1"), "then": act("a")},
        {"if": cond("c2"), "then": act("b")}
    ], "else": act("c")});
    let (mut t, mut c) = (agent(tree), Ctx::new());
    let mut trace = Trace::default();
    c.set("c1", F).set("b", R);
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut trace), R);
    assert_eq!(c.take(), log(&["enter b", "b"]));
    assert_eq!(
        trace.take(),
        log(&["> 0", "> 1", "1 F", "> 3", "3 S", "> 4", "4 R", "0 R"])
    );
    c.set("c1", S).set("c2", F);
    assert_eq!(
        t.tick_observed(&mut c, 0.0, &mut trace),
        R,
        "conditions are not re-checked"
    );
    assert_eq!(trace.take(), log(&["4 R", "0 R"]));
    c.set("b", S);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    c.take();
    c.set("c1", F).set("c", F);
    assert_eq!(t.tick_at(&mut c, 0.0), F, "neither holds: else");
    assert_eq!(c.take(), log(&["enter c", "c"]));

    let no_else = json!({"type": "if", "branches": [{"if": cond("c1"), "then": act("a")}]});
    let (mut t, mut c) = (agent(no_else), Ctx::new());
    c.set("c1", F).set("a", F);
    assert_eq!(t.tick_at(&mut c, 0.0), S, "no branch chosen and no else: success");
    assert!(c.take().is_empty());
}

#[test]
fn reactive_if_switches_branch_and_halts_the_old_one() {
    let tree = json!({"type": "reactiveIf", "branches": [{"if": cond("c1"), "then": act("a")}], "else": act("b")});
    let (mut t, mut c) = (agent(tree), Ctx::new());
    c.set("a", R).set("b", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter a", "a", "a"]));
    c.set("c1", F);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["halt a", "enter b", "b"]));
    c.set("b", S);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(c.take(), log(&["b"]));
}

#[test]
fn match_chooses_a_case_by_value_on_entry_and_reactive_match_every_tick() {
    let cases = json!([
        {"when": "day", "child": act("a")},
        {"when": ["dusk", "night"], "child": act("b")}
    ]);
    let tree = json!({"type": "match", "value": "mode", "cases": cases, "default": act("c")});
    let (mut t, mut c) = (agent(tree), Ctx::new());
    for (mode, leaf) in [("day", "a"), ("night", "b"), ("dusk", "b"), ("dawn", "c")] {
        c.mode = mode.to_string();
        assert_eq!(t.tick_at(&mut c, 0.0), S);
        assert_eq!(c.take(), log(&[&format!("enter {leaf}"), leaf]), "{mode}");
    }
    let tree = json!({"type": "reactiveMatch", "value": "mode", "cases": cases, "default": act("c")});
    let (mut t, mut c) = (agent(tree), Ctx::new());
    c.set("a", R).set("b", R);
    c.mode = "day".into();
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    c.mode = "night".into();
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter a", "a", "halt a", "enter b", "b"]));
}

#[test]
fn subtrees_are_inlined_instances_with_their_own_state() {
    let mut lib = behaved_interp::Library::new();
    lib.insert_json("patrol", &many("sequence", vec![act("a"), act("b")]).to_string())
        .unwrap();
    let tree = many(
        "parallel",
        vec![
            json!({"type": "subtree", "subtreeId": "patrol"}),
            json!({"type": "subtree", "subtreeId": "patrol"}),
        ],
    );
    let tree = json!({"type": "parallel", "policy": "requireAll", "children": tree["children"]});
    let def = load_with(tree, &lib);
    let rows: Vec<(u32, Option<u32>, &str)> = def
        .nodes()
        .iter()
        .map(|r| (r.id.0, r.parent.map(|p| p.0), r.label.as_str()))
        .collect();
    assert_eq!(
        rows,
        [
            (0, None, "parallel(all)"),
            (1, Some(0), "subtree(patrol)"),
            (2, Some(1), "sequence"),
            (3, Some(2), "a"),
            (4, Some(2), "b"),
            (5, Some(0), "subtree(patrol)"),
            (6, Some(5), "sequence"),
            (7, Some(6), "a"),
            (8, Some(6), "b"),
        ]
    );
    assert_eq!(def.nodes()[7].path, "subtrees[\"patrol\"].children[0]");
    let mut t = Agent::new(def);
    let mut c = Ctx::new();
    let mut trace = Trace::default();
    c.set("b", R);
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut trace), R);
    assert_eq!(
        trace.take(),
        log(&[
            "> 0", "> 1", "> 2", "> 3", "3 S", "> 4", "4 R", "2 R", "1 R", "> 5", "> 6", "> 7", "7 S", "> 8", "8 R",
            "6 R", "5 R", "0 R"
        ])
    );
    t.reset_observed(&mut c, &mut trace);
    assert_eq!(
        trace.take(),
        log(&["x 4", "x 2", "x 1", "x 8", "x 6", "x 5", "x 0"]),
        "post-order halts"
    );
    assert_eq!(
        c.take(),
        log(&[
            "enter a", "a", "enter b", "b", "enter a", "a", "enter b", "b", "halt b", "halt b"
        ])
    );
}

#[test]
fn definitions_are_shared_across_threads_and_agents_can_move() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<std::sync::Arc<behaved_interp::Definition<Ctx>>>();
    // Sync too, so that an agent can be (part of) an ECS component.
    send_sync::<Agent<Ctx>>();
    let def = load(many("sequence", vec![act("a")]));
    let handles: Vec<_> = (0..2)
        .map(|_| {
            let def = def.clone();
            std::thread::spawn(move || Agent::new(def).tick_at(&mut Ctx::new(), 0.0))
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), S);
    }
}

/// `SEMANTICS.md#sequence_always`
#[test]
fn sequence_always_runs_every_child_resumes_and_fails_if_any_failed() {
    let (mut t, mut c) = (
        agent(many("sequenceAlways", vec![act("a"), act("b"), act("c")])),
        Ctx::new(),
    );
    c.set("a", F).set("b", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]), "a failure moves on");
    c.set("b", S);
    assert_eq!(t.tick_at(&mut c, 0.0), F, "a's failure decides once all completed");
    assert_eq!(c.take(), log(&["b", "enter c", "c"]));
    c.set("a", S);
    assert_eq!(t.tick_at(&mut c, 0.0), S, "a new activation forgets the failure");
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "enter c", "c"]));
}

/// `SEMANTICS.md#sequence_always`, `SEMANTICS.md#halting`
#[test]
fn a_halted_sequence_always_forgets_its_failure() {
    let tree = many(
        "reactiveSelector",
        vec![cond("c1"), many("sequenceAlways", vec![act("a"), act("b")])],
    );
    let (mut t, mut c) = (agent(tree), Ctx::new());
    c.set("c1", F).set("a", F).set("b", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    c.set("c1", S);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "halt b"]));
    c.set("c1", F).set("a", S).set("b", S);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]));
}

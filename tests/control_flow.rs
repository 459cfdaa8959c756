//! The behavior3 "logic mapping" as syntax, tick by tick: `if`/`else`,
//! `reactive if`, `match`, `reactive match`, `while`, and labelled
//! `break`/`continue` with the halting they imply (`SEMANTICS.md#branches`,
//! `SEMANTICS.md#loops`).
use behaved::prelude::*;
use behaved_testkit::script::*;

behave! {
    tree IfElse for Ctx {
        if Check("c") { Rec("then") } else if |c| c.counter > 5 { Rec("elif") } else { Rec("else") }
    }
    tree IfOnly for Ctx { if |c| c.counter == 1 { Rec("then") } }
    tree ReactiveIf for Ctx {
        reactive if Check("c") { Rec("then") } else { Rec("else") }
    }
    tree Chain for Ctx {
        reactive if Check("x") { Rec("a") } else if Check("y") { Rec("b") } else { Rec("c") }
    }
    tree Matched for Ctx {
        match |c| c.counter { 0 => Rec("zero"), n if n % 2 == 1 => Rec("odd"), _ => Rec("even") }
    }
    tree ReactiveMatch for Ctx {
        reactive match |c| c.counter > 0 { true => Rec("pos"), false => Rec("zero") }
    }
    tree While for Ctx {
        while |c| c.counter < 3 { sequence { Rec("body"), act(|c| c.counter += 1) } }
    }
    tree BreakWhileWalking for Ctx {
        'outer: loop {
            sequence {
                Rec("a"),
                parallel(all) {
                    Rec("walk"),
                    sequence { Rec("look"), reactive if Check("stop") { break 'outer } else { Rec("idle") } },
                },
            }
        }
    }
    tree Breaks for Ctx {
        'outer: loop {
            sequence {
                Rec("a"),
                repeat(3) {
                    selector {
                        if Check("stop") { break 'outer } else { failure },
                        if Check("skip") { continue } else { failure },
                        parallel(all) { Rec("p"), Rec("q") },
                    }
                },
                Rec("after"),
            }
        }
    }
}

#[test]
fn if_evaluates_conditions_on_entry_in_order() {
    let (mut t, mut c) = (IfElse::new(), Ctx::new());
    c.set("c", S).set("then", R);
    assert_eq!(t.tick(&mut c), R);
    c.set("c", F);
    assert_eq!(
        t.tick(&mut c),
        R,
        "not reactive: the running branch goes on although c changed"
    );
    c.set("then", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["enter then", "then", "then", "then"]));
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["enter else", "else"]));
    c.counter = 6;
    c.set("elif", F);
    assert_eq!(t.tick(&mut c), F, "the chosen branch's status is the result");
    assert_eq!(c.take(), log(&["enter elif", "elif"]));
}

#[test]
fn if_without_else_succeeds_when_no_branch_is_chosen() {
    let (mut t, mut c) = (IfOnly::new(), Ctx::new());
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&[]));
    c.counter = 1;
    c.set("then", F);
    assert_eq!(t.tick(&mut c), F);
}

#[test]
fn reactive_if_switching_branch_halts_the_running_one_exactly_once() {
    let (mut t, mut c) = (ReactiveIf::new(), Ctx::new());
    c.set("c", S).set("then", R).set("else", R);
    let mut obs = Events::new(ReactiveIf::NODES);
    t.tick_observed(&mut c, 0.0, &mut obs);
    t.tick_observed(&mut c, 0.0, &mut obs);
    assert_eq!(c.take(), log(&["enter then", "then", "then"]));
    obs.take();
    c.set("c", F);
    t.tick_observed(&mut c, 0.0, &mut obs);
    assert_eq!(c.take(), log(&["halt then", "enter else", "else"]));
    assert_eq!(
        obs.take(),
        log(&[
            "enter Check(\"c\")",
            "Check(\"c\") failure",
            "halt Rec(\"then\")",
            "enter Rec(\"else\")",
            "Rec(\"else\") running",
            "reactive if running",
        ])
    );
    t.tick(&mut c);
    assert_eq!(c.take(), log(&["else"]), "same branch: no halt, no re-entry");
}

#[test]
fn match_chooses_an_arm_by_pattern_on_entry() {
    let (mut t, mut c) = (Matched::new(), Ctx::new());
    assert_eq!(t.tick(&mut c), S);
    c.counter = 3;
    c.set("odd", R);
    assert_eq!(t.tick(&mut c), R);
    c.counter = 4;
    assert_eq!(t.tick(&mut c), R, "not reactive: the odd arm keeps running");
    c.set("odd", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(
        c.take(),
        log(&[
            "enter zero",
            "zero",
            "enter odd",
            "odd",
            "odd",
            "odd",
            "enter even",
            "even"
        ])
    );
}

#[test]
fn reactive_match_halts_the_running_arm_when_the_arm_changes() {
    let (mut t, mut c) = (ReactiveMatch::new(), Ctx::new());
    c.set("zero", R).set("pos", R);
    t.tick(&mut c);
    c.counter = 2;
    t.tick(&mut c);
    t.tick(&mut c);
    assert_eq!(
        c.take(),
        log(&["enter zero", "zero", "halt zero", "enter pos", "pos", "pos"])
    );
}

#[test]
fn while_checks_its_condition_at_the_start_of_each_iteration() {
    let (mut t, mut c) = (While::new(), Ctx::new());
    assert_eq!(
        t.tick(&mut c),
        R,
        "an iteration that started this tick: the next starts next tick"
    );
    assert_eq!(c.counter, 1);
    c.set("body", R);
    assert_eq!(t.tick(&mut c), R);
    c.set("body", S);
    assert_eq!(
        t.tick(&mut c),
        R,
        "the iteration began earlier: the next one starts now"
    );
    assert_eq!(c.counter, 3);
    assert_eq!(t.tick(&mut c), S, "counter == 3: the condition ends the loop");
    assert_eq!(
        c.take(),
        log(&["enter body", "body", "enter body", "body", "body", "enter body", "body"])
    );
    c.counter = 0;
    c.set("body", F);
    assert_eq!(t.tick(&mut c), F, "a failing body fails the loop");
}

#[test]
fn break_ends_the_loop_and_the_nodes_between_end_as_if_halted() {
    let (mut t, mut c) = (Breaks::new(), Ctx::new());
    c.set("stop", F).set("skip", F).set("p", R).set("q", R);
    let mut obs = Events::new(Breaks::NODES);
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut obs), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter p", "p", "enter q", "q"]));
    obs.take();
    // The selector resumes at the running parallel: the ifs are not re-checked.
    c.set("stop", S);
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut obs), R);
    assert_eq!(c.take(), log(&["p", "q"]));
    c.set("p", F);
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut obs), S);
    assert_eq!(
        c.take(),
        log(&["p", "halt q", "enter a", "a"]),
        "p fails the iteration; the next one starts at once (the last began on an earlier tick) and breaks"
    );
    let events = obs.take();
    let tail: Vec<&str> = events.iter().rev().take(6).rev().map(String::as_str).collect();
    assert_eq!(
        tail,
        [
            "break 'outer success",
            "halt if",
            "halt selector",
            "halt repeat(3)",
            "halt sequence",
            "'outer: loop success",
        ],
        "nodes between break and its loop end as if halted"
    );
}

#[test]
fn continue_counts_as_a_success_of_the_iteration() {
    let (mut t, mut c) = (Breaks::new(), Ctx::new());
    c.set("stop", F).set("skip", S);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(
        c.take(),
        log(&["enter a", "a", "enter after", "after"]),
        "three continues make repeat(3) succeed"
    );
    c.set("skip", F).set("p", R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter p", "p", "enter q", "q"]));
}

/// The loop body's first tick: every branch entered down to the running `idle`.
const WALK_LOOK_IDLE: [&str; 8] = [
    "enter a",
    "a",
    "enter walk",
    "walk",
    "enter look",
    "look",
    "enter idle",
    "idle",
];

#[test]
fn break_from_inside_a_running_branch_halts_the_running_nodes_of_the_loop_body() {
    let (mut t, mut c) = (BreakWhileWalking::new(), Ctx::new());
    c.set("walk", R).set("idle", R).set("stop", F);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&WALK_LOOK_IDLE));
    c.set("stop", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(
        c.take(),
        log(&["walk", "halt idle", "halt walk"]),
        "the reactive if halts idle to take the break branch; the break halts the still-running walk"
    );
    assert!(!t.is_running());
    c.set("stop", F);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&WALK_LOOK_IDLE));
}

#[test]
fn an_else_if_chain_is_one_node_that_re_evaluates_in_order_when_reactive() {
    let kinds: Vec<(&str, Option<u32>)> = Chain::NODES.iter().map(|n| (n.label, n.parent.map(|p| p.0))).collect();
    assert_eq!(
        kinds,
        [
            ("reactive if", None),
            ("Check(\"x\")", Some(0)),
            ("Rec(\"a\")", Some(0)),
            ("Check(\"y\")", Some(0)),
            ("Rec(\"b\")", Some(0)),
            ("Rec(\"c\")", Some(0)),
        ],
        "conditions and branches alternate, the else branch last"
    );
    let (mut t, mut c) = (Chain::new(), Ctx::new());
    c.set("x", F).set("y", S).set("a", R).set("b", R).set("c", R);
    t.tick(&mut c);
    t.tick(&mut c);
    c.set("x", S);
    t.tick(&mut c);
    c.set("x", F).set("y", F);
    t.tick(&mut c);
    assert_eq!(
        c.take(),
        log(&["enter b", "b", "b", "halt b", "enter a", "a", "halt a", "enter c", "c"])
    );
}

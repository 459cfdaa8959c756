//! Tick-by-tick behaviour of the composites: sequence, selector, their reactive
//! forms and the parallels (`SEMANTICS.md#composites`).
use behaved::prelude::*;
use behaved_testkit::script::*;

behave! {
    tree Seq for Ctx { sequence { Rec("a"), Rec("b"), Rec("c") } }
    tree Sel for Ctx { fallback { Rec("a"), Rec("b"), Rec("c") } }
    tree RSeq for Ctx { reactive sequence { Rec("a"), Rec("b"), Rec("c") } }
    tree RSel for Ctx { reactive selector { Rec("a"), Rec("b"), Rec("c") } }
    tree All for Ctx { parallel(all) { Rec("a"), Rec("b"), Rec("c") } }
    tree Any for Ctx { parallel(any) { Rec("a"), Rec("b"), Rec("c") } }
    tree Two for Ctx { parallel(success = 2, failure = 2) { Rec("a"), Rec("b"), Rec("c") } }
    tree Main for Ctx { parallel(main) { Rec("m"), Rec("a"), Rec("b") } }
    tree Always for Ctx { sequence_always { Rec("a"), Rec("b"), Rec("c") } }
    tree AlwaysHalted for Ctx { reactive selector { cond(Check("stop")), sequence_always { Rec("a"), Rec("b") } } }
}

#[test]
fn sequence_resumes_at_the_running_child_without_reticking_earlier_ones() {
    let (mut t, mut c) = (Seq::new(), Ctx::new());
    c.set("b", R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]));
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["b"]), "a is not re-ticked, b is not re-entered");
    c.set("b", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(
        c.take(),
        log(&["b", "enter c", "c"]),
        "success moves on in the same tick"
    );
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(
        c.take(),
        log(&["enter a", "a", "enter b", "b", "enter c", "c"]),
        "after completion the root starts over"
    );
}

#[test]
fn sequence_failure_resets_the_resume_point() {
    let (mut t, mut c) = (Seq::new(), Ctx::new());
    c.set("b", R);
    t.tick(&mut c);
    c.take();
    c.set("b", F);
    assert_eq!(t.tick(&mut c), F);
    assert_eq!(c.take(), log(&["b"]));
    c.set("b", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "enter c", "c"]));
}

#[test]
fn selector_is_the_mirror_image() {
    let (mut t, mut c) = (Sel::new(), Ctx::new());
    c.set("a", F).set("b", R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]));
    c.set("a", S);
    assert_eq!(t.tick(&mut c), R, "a is not re-evaluated: memory");
    assert_eq!(c.take(), log(&["b"]));
    c.set("b", F).set("c", F);
    assert_eq!(t.tick(&mut c), F);
    assert_eq!(c.take(), log(&["b", "enter c", "c"]));
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["enter a", "a"]));
}

#[test]
fn reactive_sequence_restarts_every_tick_and_halts_a_later_running_child() {
    let (mut t, mut c) = (RSeq::new(), Ctx::new());
    c.set("b", R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]));
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(
        c.take(),
        log(&["enter a", "a", "b"]),
        "a re-entered and re-ticked, b continues"
    );
    c.set("a", F);
    assert_eq!(t.tick(&mut c), F);
    assert_eq!(c.take(), log(&["enter a", "a", "halt b"]), "b halted exactly once");
    c.set("a", S);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(
        c.take(),
        log(&["enter a", "a", "enter b", "b"]),
        "b re-enters after its halt"
    );
}

#[test]
fn reactive_sequence_halts_a_later_running_child_when_an_earlier_one_runs() {
    let (mut t, mut c) = (RSeq::new(), Ctx::new());
    c.set("c", R);
    assert_eq!(t.tick(&mut c), R);
    c.take();
    c.set("b", R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "halt c"]));
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter a", "a", "b"]), "c stays idle, b continues");
}

#[test]
fn reactive_selector_lets_a_higher_priority_child_take_over() {
    let (mut t, mut c) = (RSel::new(), Ctx::new());
    c.set("a", F).set("b", F).set("c", R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "enter c", "c"]));
    c.set("b", R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "halt c"]));
    c.set("a", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["enter a", "a", "halt b"]));
    c.set("a", F).set("b", F).set("c", F);
    assert_eq!(t.tick(&mut c), F);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "enter c", "c"]));
}

#[test]
fn parallel_all_ticks_unfinished_children_and_fails_on_the_first_failure() {
    let (mut t, mut c) = (All::new(), Ctx::new());
    c.set("a", S).set("b", R).set("c", R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "enter c", "c"]));
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(
        c.take(),
        log(&["b", "c"]),
        "a completed in this activation and is not ticked again"
    );
    c.set("b", F);
    assert_eq!(t.tick(&mut c), F);
    assert_eq!(
        c.take(),
        log(&["b", "halt c"]),
        "decides mid-pass: c is halted, not ticked"
    );
    c.set("b", S).set("c", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "enter c", "c"]));
}

#[test]
fn parallel_any_succeeds_on_the_first_success_and_halts_the_rest() {
    let (mut t, mut c) = (Any::new(), Ctx::new());
    c.set("a", R).set("b", F).set("c", R);
    assert_eq!(t.tick(&mut c), R);
    c.take();
    c.set("c", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["a", "c", "halt a"]));
    c.set("a", F).set("c", F);
    assert_eq!(t.tick(&mut c), F, "fails only when every child failed");
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "enter c", "c"]));
}

#[test]
fn parallel_thresholds_decide_when_reached_or_unreachable() {
    let (mut t, mut c) = (Two::new(), Ctx::new());
    c.set("a", S).set("b", R).set("c", R);
    assert_eq!(t.tick(&mut c), R);
    c.take();
    c.set("b", S);
    assert_eq!(t.tick(&mut c), S, "two successes");
    assert_eq!(c.take(), log(&["b", "halt c"]));
    c.set("a", F).set("b", F);
    assert_eq!(t.tick(&mut c), F, "two failures make two successes unreachable");
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]), "c is never ticked");
}

#[test]
fn parallel_main_returns_the_main_status_and_halts_the_others() {
    let (mut t, mut c) = (Main::new(), Ctx::new());
    c.set("m", R).set("a", S).set("b", R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter m", "m", "enter a", "a", "enter b", "b"]));
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["m", "b"]), "a completed in this activation");
    c.set("m", F);
    assert_eq!(t.tick(&mut c), F);
    assert_eq!(
        c.take(),
        log(&["m", "halt b"]),
        "main completed: others halted, not ticked"
    );
    c.set("m", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["enter m", "m"]));
}

/// `SEMANTICS.md#sequence_always`
#[test]
fn sequence_always_runs_every_child_and_succeeds_only_if_all_did() {
    let (mut t, mut c) = (Always::new(), Ctx::new());
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "enter c", "c"]));
    c.set("a", F);
    assert_eq!(t.tick(&mut c), F, "a failed: the others still run, then it fails");
    assert_eq!(
        c.take(),
        log(&["enter a", "a", "enter b", "b", "enter c", "c"]),
        "a failure moves on in the same tick"
    );
    c.set("a", S).set("c", F);
    assert_eq!(t.tick(&mut c), F, "the last child's failure counts too");
    c.take();
}

/// `SEMANTICS.md#sequence_always`
#[test]
fn sequence_always_resumes_at_the_running_child_and_remembers_a_failure_until_it_completes() {
    let (mut t, mut c) = (Always::new(), Ctx::new());
    c.set("a", F).set("b", R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]));
    c.set("b", S);
    assert_eq!(t.tick(&mut c), F, "a's failure two ticks ago decides");
    assert_eq!(c.take(), log(&["b", "enter c", "c"]), "a is not re-ticked");
    c.set("a", S);
    assert_eq!(t.tick(&mut c), S, "a new activation forgets the failure");
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "enter c", "c"]));
}

/// `SEMANTICS.md#sequence_always`, `SEMANTICS.md#halting`
#[test]
fn a_halted_sequence_always_forgets_its_failure() {
    let (mut t, mut c) = (AlwaysHalted::new(), Ctx::new());
    c.set("stop", F).set("a", F).set("b", R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]));
    c.set("stop", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["halt b"]), "the running child is halted");
    c.set("stop", F).set("a", S).set("b", S);
    assert_eq!(t.tick(&mut c), S, "entered again: the failure before the halt is gone");
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]));
}

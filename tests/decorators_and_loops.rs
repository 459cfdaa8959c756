//! Tick-by-tick behaviour of the decorators, the loops and the leaves
//! (`SEMANTICS.md#decorators`, `#loops`, `#leaves`): bounded loops go on within one tick, unbounded
//! loops start at most one iteration per tick.
use behaved::prelude::*;
use behaved_testkit::script::*;

behave! {
    tree Inv for Ctx { invert { Rec("a") } }
    tree ForceS for Ctx { force_success { Rec("a") } }
    tree ForceF for Ctx { force_failure { Rec("a") } }
    tree Rep for Ctx { repeat(3) { Rec("a") } }
    tree Ret for Ctx { retry(3) { Rec("a") } }
    tree Forever for Ctx { loop { Rec("a") } }
    tree Forever2 for Ctx { forever { sequence { Rec("a"), Rec("b") } } }
    tree UFail for Ctx { until_fail { Rec("a") } }
    tree USucc for Ctx { until_success { Rec("a") } }
    tree Waits for Ctx { sequence { wait(0), Rec("a"), wait(1.5), Rec("b") } }
    tree Consts for Ctx { sequence { success, selector { failure, running } } }
    tree Inline for Ctx {
        sequence {
            cond(|c| c.counter < 2),
            act(|c| c.counter += 1),
            act(|c| c.counter <= 2),
            act(|c| if c.counter == 2 { Status::Running } else { Status::Success }),
        }
    }
    tree Values for Ctx { sequence { cond(Check("ok")), Rec("a"), leaf::<Rec>(Rec("b")) } }
}

const COUNT: u32 = 2;
const PAUSE: f64 = 0.5;
behave! {
    tree ConstArgs for Ctx { sequence { repeat(COUNT) { Rec("a") }, wait(PAUSE) } }
}

#[test]
fn invert_and_force_change_only_completed_statuses() {
    let (mut i, mut s, mut f, mut c) = (Inv::new(), ForceS::new(), ForceF::new(), Ctx::new());
    for (status, inverted, forced_s, forced_f) in [(S, F, S, F), (F, S, S, F), (R, R, R, R)] {
        c.set("a", status);
        assert_eq!(i.tick(&mut c), inverted);
        assert_eq!(s.tick(&mut c), forced_s);
        assert_eq!(f.tick(&mut c), forced_f);
    }
}

#[test]
fn repeat_runs_n_successes_within_one_tick_and_stops_on_failure() {
    let (mut t, mut c) = (Rep::new(), Ctx::new());
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["enter a", "a", "enter a", "a", "enter a", "a"]));
    c.set("a", R);
    assert_eq!(t.tick(&mut c), R);
    c.set("a", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(
        c.take(),
        log(&["enter a", "a", "a", "enter a", "a", "enter a", "a"]),
        "the count restarts per activation"
    );
    c.set("a", F);
    assert_eq!(t.tick(&mut c), F);
    assert_eq!(c.take(), log(&["enter a", "a"]));
}

#[test]
fn retry_tries_n_times_within_one_tick() {
    let (mut t, mut c) = (Ret::new(), Ctx::new());
    c.set("a", F);
    assert_eq!(t.tick(&mut c), F);
    assert_eq!(c.take(), log(&["enter a", "a", "enter a", "a", "enter a", "a"]));
    c.set("a", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["enter a", "a"]));
}

#[test]
fn loop_starts_at_most_one_iteration_per_tick() {
    let (mut t, mut c) = (Forever::new(), Ctx::new());
    for status in [S, F, S] {
        c.set("a", status);
        assert_eq!(t.tick(&mut c), R, "a loop never completes");
        assert_eq!(
            c.take(),
            log(&["enter a", "a"]),
            "a body that completes at once runs once per tick"
        );
    }
    c.set("a", R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter a", "a"]));
    c.set("a", S);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(
        c.take(),
        log(&["a", "enter a", "a"]),
        "an iteration that started on an earlier tick completes: the next starts in the same tick"
    );
}

#[test]
fn loop_over_a_sequence_resumes_it() {
    let (mut t, mut c) = (Forever2::new(), Ctx::new());
    c.set("b", R);
    t.tick(&mut c);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]));
    c.set("b", S);
    t.tick(&mut c);
    assert_eq!(c.take(), log(&["b", "enter a", "a", "enter b", "b"]));
}

#[test]
fn until_fail_and_until_success() {
    let (mut t, mut c) = (UFail::new(), Ctx::new());
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(t.tick(&mut c), R);
    c.set("a", F);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["enter a", "a", "enter a", "a", "enter a", "a"]));

    let (mut t, mut c) = (USucc::new(), Ctx::new());
    c.set("a", F);
    assert_eq!(t.tick(&mut c), R);
    c.set("a", R);
    assert_eq!(t.tick(&mut c), R);
    c.set("a", F);
    assert_eq!(
        t.tick(&mut c),
        R,
        "the iteration began earlier: the next starts now, and fails at once"
    );
    assert_eq!(c.take(), log(&["enter a", "a", "enter a", "a", "a", "enter a", "a"]));
    c.set("a", S);
    assert_eq!(t.tick(&mut c), S);
}

#[test]
fn wait_is_running_on_entry_and_succeeds_once_its_time_has_passed() {
    let (mut t, mut c) = (Waits::new(), Ctx::new());
    assert_eq!(t.tick(&mut c), R, "wait(0) is Running for exactly one tick");
    assert_eq!(c.take(), log(&[]));
    c.now = 0.1;
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter a", "a"]), "wait(1.5) entered at 0.1");
    c.now = 1.5;
    assert_eq!(t.tick(&mut c), R, "1.4 s have passed");
    c.now = 1.6;
    assert_eq!(t.tick(&mut c), S, "now - start >= d");
    assert_eq!(c.take(), log(&["enter b", "b"]));
}

#[test]
fn tick_at_takes_the_time_explicitly() {
    let (mut t, mut c) = (Waits::new(), Ctx::new());
    assert_eq!(t.tick_at(&mut c, 10.0), R);
    assert_eq!(t.tick_at(&mut c, 10.0), R);
    assert_eq!(t.tick_at(&mut c, 11.4), R);
    assert_eq!(t.tick_at(&mut c, 11.5), S);
}

#[test]
fn constant_leaves() {
    let (mut t, mut c) = (Consts::new(), Ctx::new());
    assert_eq!(t.tick(&mut c), R);
}

#[test]
fn inline_conditions_and_actions_return_status_bool_or_unit() {
    let (mut t, mut c) = (Inline::new(), Ctx::new());
    assert_eq!(t.tick(&mut c), S, "counter 0 -> 1, `c.counter <= 2` is true");
    assert_eq!(c.counter, 1);
    assert_eq!(t.tick(&mut c), R, "counter 1 -> 2, the last action returns Running");
    assert_eq!(t.tick(&mut c), R, "resumes at the running action");
    c.counter = 5;
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(t.tick(&mut c), F, "the condition now fails");
}

#[test]
fn leaf_values_are_fields_checked_and_ticked() {
    let (mut t, mut c) = (Values::new(), Ctx::new());
    c.set("ok", F);
    assert_eq!(t.tick(&mut c), F);
    assert_eq!(c.take(), log(&[]));
    c.set("ok", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b"]));
}

#[test]
fn counts_and_durations_may_be_constants() {
    let (mut t, mut c) = (ConstArgs::new(), Ctx::new());
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter a", "a"]));
    c.now = 0.5;
    assert_eq!(t.tick(&mut c), S);
}

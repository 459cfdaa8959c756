//! Halting (`SEMANTICS.md#halting`): when a reactive parent switches, a parallel
//! finishes or `reset` is called, every running descendant is halted in
//! post-order, each running action gets `halt` exactly once, and everything
//! below returns to idle. Checked through leaf logs and through an observer.
use behaved::prelude::*;
use behaved_testkit::script::*;

behave! {
    tree Deep for Ctx {
        sequence { Rec("a"), parallel(all) { sequence { Rec("b"), repeat(2) { invert { Rec("c") } } }, loop { Rec("d") } } }
    }
    tree Switch for Ctx {
        reactive selector { cond(Check("alarm")), sequence { Rec("walk"), Rec("talk") } }
    }
}

#[test]
fn reset_halts_a_deep_running_leaf_exactly_once_in_post_order() {
    let (mut t, mut c) = (Deep::new(), Ctx::new());
    c.set("c", R).set("d", R);
    let mut obs = Events::new(Deep::NODES);
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut obs), R);
    assert!(t.is_running());
    obs.take();
    c.take();
    t.reset_observed(&mut c, &mut obs);
    assert_eq!(c.take(), log(&["halt c", "halt d"]));
    assert_eq!(
        obs.take(),
        log(&[
            "halt Rec(\"c\")",
            "halt invert",
            "halt repeat(2)",
            "halt sequence",
            "halt Rec(\"d\")",
            "halt loop",
            "halt parallel(all)",
            "halt sequence",
        ]),
        "descendants before ancestors, children left to right"
    );
    assert!(!t.is_running());
    t.reset(&mut c);
    assert_eq!(c.take(), log(&[]), "an idle tree has nothing to halt");
    t.tick(&mut c);
    assert_eq!(
        c.take(),
        log(&["enter a", "a", "enter b", "b", "enter c", "c", "enter d", "d"]),
        "after a reset everything re-enters from the beginning"
    );
}

#[test]
fn observer_sees_enter_before_tick_and_children_before_parents() {
    let (mut t, mut c) = (Switch::new(), Ctx::new());
    c.set("alarm", F).set("talk", R);
    let mut obs = Events::new(Switch::NODES);
    t.tick_observed(&mut c, 0.0, &mut obs);
    assert_eq!(
        obs.take(),
        log(&[
            "enter reactive selector",
            "enter Check(\"alarm\")",
            "Check(\"alarm\") failure",
            "enter sequence",
            "enter Rec(\"walk\")",
            "Rec(\"walk\") success",
            "enter Rec(\"talk\")",
            "Rec(\"talk\") running",
            "sequence running",
            "reactive selector running",
        ])
    );
    c.set("alarm", S);
    t.tick_observed(&mut c, 0.0, &mut obs);
    assert_eq!(
        obs.take(),
        log(&[
            "enter Check(\"alarm\")",
            "Check(\"alarm\") success",
            "halt Rec(\"talk\")",
            "halt sequence",
            "reactive selector success",
        ]),
        "the higher-priority branch wins and the running one is halted once"
    );
    assert_eq!(
        c.take(),
        log(&["enter walk", "walk", "enter talk", "talk", "halt talk"])
    );
}

#[test]
fn a_halted_node_re_enters_before_its_next_tick() {
    let (mut t, mut c) = (Switch::new(), Ctx::new());
    c.set("alarm", F).set("walk", R);
    t.tick(&mut c);
    c.set("alarm", S);
    t.tick(&mut c);
    c.set("alarm", F);
    t.tick(&mut c);
    assert_eq!(
        c.take(),
        log(&["enter walk", "walk", "halt walk", "enter walk", "walk"])
    );
}

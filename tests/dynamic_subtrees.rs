//! Dynamic subtrees (ClosureBT's `Yield`), tick by tick: a `match` whose arms
//! are subtrees picks the subtree from the context on entry and keeps it
//! until it completes (`YieldSimpleCached`); a `reactive match` picks on
//! every tick and halts the old subtree, all of it, when the choice changes
//! (`YieldDynamic`). Rules: `SEMANTICS.md#dynamic-subtrees`.
use behaved::prelude::*;
use behaved_testkit::script::*;

behave! {
    tree Fetch for Ctx { sequence { Rec("go"), Rec("grab") } }
    tree Guard for Ctx { parallel(all) { Rec("watch"), Rec("listen") } }
    tree Cached for Ctx {
        match |c| c.mode.as_str() { "fetch" => subtree(Fetch), _ => subtree(Guard) }
    }
    tree Dynamic for Ctx {
        reactive match |c| c.mode.as_str() { "fetch" => subtree(Fetch), _ => subtree(Guard) }
    }
}

#[test]
fn a_cached_dynamic_subtree_is_chosen_on_entry_and_kept_until_it_completes() {
    let (mut t, mut c) = (Cached::new(), Ctx::new());
    c.mode = "fetch".into();
    c.set("go", R);
    assert_eq!(t.tick(&mut c), R);
    c.mode = "guard".into();
    assert_eq!(t.tick(&mut c), R, "the choice changed, the chosen subtree runs on");
    c.set("go", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["enter go", "go", "go", "go", "enter grab", "grab"]));
    // Entered again: chosen again.
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["enter watch", "watch", "enter listen", "listen"]));
}

#[test]
fn a_dynamic_subtree_is_chosen_every_tick_and_the_old_one_is_halted() {
    let (mut t, mut c) = (Dynamic::new(), Ctx::new());
    c.mode = "guard".into();
    c.set("watch", R).set("listen", R).set("go", R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter watch", "watch", "enter listen", "listen"]));
    c.mode = "fetch".into();
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(
        c.take(),
        log(&["halt watch", "halt listen", "enter go", "go"]),
        "both running leaves of the old subtree halted, then the new one entered"
    );
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["go"]), "same choice: no halt, no re-entry");
}

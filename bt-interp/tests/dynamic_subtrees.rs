//! Dynamic subtrees (ClosureBT's `Yield`) in the interpreter, tick by tick,
//! as `tests/dynamic_subtrees.rs` checks them compiled: a `match` whose
//! cases are subtrees keeps the subtree chosen on entry until it completes;
//! a `reactiveMatch` chooses on every tick and halts the old subtree, all of
//! it, when the choice changes. Rules: `SEMANTICS.md#dynamic-subtrees`.
// The subtrees: `fetch` is `sequence { a, b }`, `guard` is `parallel(all) { c, d }`.
mod support;

use behaved_interp::{Agent, Library};
use serde_json::json;
use support::*;

fn library() -> Library {
    let mut lib = Library::new();
    lib.insert_json("fetch", &many("sequence", vec![act("a"), act("b")]).to_string())
        .unwrap();
    let guard = json!({"type": "parallel", "policy": "requireAll", "children": [act("c"), act("d")]});
    lib.insert_json("guard", &guard.to_string()).unwrap();
    lib
}

fn chooser(kind: &str) -> Agent<Ctx> {
    let tree = json!({"type": kind, "value": "mode",
        "cases": [{"when": "fetch", "child": {"type": "subtree", "subtreeId": "fetch"}}],
        "default": {"type": "subtree", "subtreeId": "guard"}});
    Agent::new(load_with(tree, &library()))
}

#[test]
fn a_cached_dynamic_subtree_is_chosen_on_entry_and_kept_until_it_completes() {
    let (mut t, mut c) = (chooser("match"), Ctx::new());
    c.mode = "fetch".into();
    c.set("a", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    c.mode = "guard".into();
    assert_eq!(
        t.tick_at(&mut c, 0.0),
        R,
        "the choice changed, the chosen subtree runs on"
    );
    c.set("a", S);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(c.take(), log(&["enter a", "a", "a", "a", "enter b", "b"]));
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(c.take(), log(&["enter c", "c", "enter d", "d"]));
}

#[test]
fn a_dynamic_subtree_is_chosen_every_tick_and_the_old_one_is_halted() {
    let (mut t, mut c) = (chooser("reactiveMatch"), Ctx::new());
    c.mode = "guard".into();
    c.set("c", R).set("d", R).set("a", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter c", "c", "enter d", "d"]));
    c.mode = "fetch".into();
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["halt c", "halt d", "enter a", "a"]));
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["a"]), "same choice: no halt, no re-entry");
}

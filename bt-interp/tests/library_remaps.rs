//! `Registry::check_library` checks each subtree through the remaps of the
//! places that use it (FORMAT.md, "Subtree library"): a subtree whose
//! leaves name a key that exists only as a caller's remap passes, as
//! loading the caller does, and a key that no remap and no entry gives, a
//! remap to an unregistered entry, or to an entry of another type, fail at
//! the leaf's path in the subtree.

use behaved_interp::port::Port;
use behaved_interp::{Library, Registry, entry};
use behaved_runtime::{Action, Status};
use serde_json::{Value, json};

struct World {
    target: i32,
    count: u32,
}

/// Reads the place its port names.
#[derive(Clone, serde::Deserialize)]
struct Step {
    to: Port<World, i32>,
}

impl Action<World> for Step {
    fn tick(&mut self, w: &mut World) -> Status {
        let _ = (*self.to.get(w), w.count);
        Status::Success
    }
}

/// `target` (an `i32`) and `count` (a `u32`) only.
fn registry() -> Registry<World> {
    let mut r = Registry::new();
    r.action("step", |s: Step| s)
        .entry("target", entry!(|w: &mut World| &mut w.target))
        .entry("count", entry!(|w: &mut World| &mut w.count));
    r
}

/// A `step` to the entry `key`.
fn step(key: &str) -> Value {
    json!({"type": "action", "action": {"type": "step", "to": {"$entry": key}}})
}

/// A use of subtree `id` with `remap`.
fn call(id: &str, remap: Value) -> Value {
    json!({"type": "subtree", "subtreeId": id, "remap": remap})
}

fn library(subtrees: &[(&str, Value)]) -> Library {
    let mut lib = Library::new();
    for (id, body) in subtrees {
        lib.insert_json(id, &body.to_string()).unwrap();
    }
    lib
}

fn messages(r: &Registry<World>, lib: &Library) -> Vec<String> {
    r.check_library(lib).err().map(|e| e.messages()).unwrap_or_default()
}

#[test]
fn a_key_given_by_the_callers_remap_passes() {
    let lib = library(&[
        ("chase", step("goal")),
        ("hunt", call("chase", json!({"goal": "target"}))),
    ]);
    let r = registry();
    assert_eq!(messages(&r, &lib), Vec::<String>::new());
    assert!(
        r.load_with(&call("chase", json!({"goal": "target"})).to_string(), &lib)
            .is_ok()
    );
    // Loaded alone, `chase` names its own `goal`, which is no entry.
    assert_eq!(
        r.load_with(r#"{"type": "subtree", "subtreeId": "chase"}"#, &lib)
            .unwrap_err()
            .messages(),
        [
            r#"at `subtrees["chase"].action`: bad parameters for action "step": unknown blackboard entry "goal" (the entries: `count`, `target`)"#
        ]
    );
}

#[test]
fn remaps_compose_through_nested_subtrees() {
    // top: y is target; mid: goal is y; chase reads goal, so target.
    let lib = library(&[
        ("chase", step("goal")),
        ("mid", call("chase", json!({"goal": "y"}))),
        ("top", call("mid", json!({"y": "target"}))),
    ]);
    let r = registry();
    assert_eq!(messages(&r, &lib), Vec::<String>::new());
    // Without the outer remap, `mid`'s `y` is its own: no entry.
    let lib = library(&[("chase", step("goal")), ("mid", call("chase", json!({"goal": "y"})))]);
    assert_eq!(
        messages(&r, &lib),
        [
            r#"at `subtrees["chase"].action`: bad parameters for action "step": unknown blackboard entry "y" (the entries: `count`, `target`)"#
        ]
    );
}

#[test]
fn a_key_no_remap_and_no_entry_gives_fails() {
    let lib = library(&[
        ("chase", step("goal")),
        ("hunt", call("chase", json!({"goal": "target"}))),
        ("lost", step("nowhere")),
        ("half", call("lost", json!({"goal": "target"}))),
    ]);
    assert_eq!(
        messages(&registry(), &lib),
        [
            r#"at `subtrees["lost"].action`: bad parameters for action "step": unknown blackboard entry "nowhere" (the entries: `count`, `target`)"#
        ]
    );
}

#[test]
fn a_remap_to_an_unregistered_entry_fails_and_the_good_use_still_passes() {
    let lib = library(&[
        ("chase", step("goal")),
        ("hunt", call("chase", json!({"goal": "target"}))),
        ("stray", call("chase", json!({"goal": "prey"}))),
    ]);
    assert_eq!(
        messages(&registry(), &lib),
        [
            r#"at `subtrees["chase"].action`: bad parameters for action "step": unknown blackboard entry "prey" (the entries: `count`, `target`)"#
        ]
    );
}

#[test]
fn a_remap_to_an_entry_of_another_type_fails() {
    let lib = library(&[
        ("chase", step("goal")),
        ("count", call("chase", json!({"goal": "count"}))),
    ]);
    let expected = r#"at `subtrees["chase"].action`: bad parameters for action "step": the blackboard entry "count" holds a `u32`, and this port is a `i32`"#;
    assert_eq!(messages(&registry(), &lib), [expected]);
    // Loading the caller says the same.
    assert_eq!(
        registry()
            .load_with(&call("chase", json!({"goal": "count"})).to_string(), &lib)
            .unwrap_err()
            .messages(),
        [expected]
    );
}

#[test]
fn remaps_through_a_cycle_end() {
    // `r` uses itself with its `goal` as its own: one pair per renames.
    let lib = library(&[
        (
            "r",
            json!({"type": "sequence", "children": [step("goal"), call("r", json!({"goal": "goal"}))]}),
        ),
        ("top", call("r", json!({"goal": "target"}))),
    ]);
    let mut r = registry();
    r.max_recursion(2);
    assert_eq!(messages(&r, &lib), Vec::<String>::new());
    assert!(r.load_with(r#"{"type": "subtree", "subtreeId": "top"}"#, &lib).is_ok());
    // Without recursion allowed, the cycle is the one problem.
    assert_eq!(
        messages(&registry(), &lib),
        [
            r#"at `subtrees["r"].children[1].subtreeId`: subtree cycle: "r" -> "r"; a recursive subtree needs a depth bound: `Registry::max_recursion(n)` lets a subtree nest inside itself n times"#
        ]
    );
}

#[test]
fn renames_past_the_budget_are_refused() {
    // Ten trees use `big` (200 leaves), each with renames of its own: ten
    // copies of `big` to check, 2,000 nodes, above the budget of 1,000.
    let leaves: Vec<Value> = (0..199).map(|_| step("a")).collect();
    let mut subtrees = vec![("big".to_string(), json!({"type": "sequence", "children": leaves}))];
    for i in 0..10 {
        subtrees.push((
            format!("t{i}"),
            call("big", json!({"a": "target", format!("z{i}"): "count"})),
        ));
    }
    let subtrees: Vec<(&str, Value)> = subtrees.iter().map(|(id, v)| (id.as_str(), v.clone())).collect();
    let lib = library(&subtrees);
    let mut r = registry();
    r.max_nodes(1000);
    assert_eq!(
        messages(&r, &lib),
        [
            r#"at `subtrees["big"]`: the library's subtrees, each checked through the remaps of the places that use it, have more than 1000 nodes and renamed keys to check in all (the library's size or `Registry::max_nodes`, the larger): remaps through nested subtrees multiply; load the trees that use them instead"#
        ]
    );
    // Each tree loads, and with the default budget the library checks.
    assert!(r.load_with(r#"{"type": "subtree", "subtreeId": "t3"}"#, &lib).is_ok());
    assert_eq!(messages(&registry(), &lib), Vec::<String>::new());
}

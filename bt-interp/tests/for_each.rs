//! Tick-by-tick behaviour of `forEach` (`SEMANTICS.md#for`), the JSON form of
//! the DSL's `for`: items from a registered list read once on entry (at most
//! `max`), the current one put in the context before each tick of the child,
//! the next iteration in the same tick, failure, `break`/`continue`, halting;
//! and the loader's errors at their JSON paths.

use behaved_interp::{Agent, NoParams, Registry};
use behaved_runtime::{Condition, Status};
use behaved_testkit::camp::{Alarm, Camp, Hit, Targets};
use serde_json::json;

use Status::{Failure as F, Running as R, Success as S};

/// Holds when the current target is `is`.
#[derive(serde::Deserialize)]
struct Is {
    is: u32,
}

struct TargetIs(u32);

impl Condition<Camp> for TargetIs {
    fn check(&self, camp: &Camp) -> bool {
        camp.target == self.0
    }
}

fn registry() -> Registry<Camp> {
    let mut r = Registry::new();
    r.list("targets", |_: NoParams| Targets)
        .action("hit", |_: NoParams| Hit)
        .condition("targetIs", |p: Is| TargetIs(p.is))
        .condition("alarm", |_: NoParams| Alarm);
    r
}

fn agent(tree: serde_json::Value) -> Agent<Camp> {
    Agent::new(registry().load(&tree.to_string()).unwrap())
}

fn volley(max: u32) -> serde_json::Value {
    json!({"type": "forEach", "items": "targets", "max": max, "child": {"type": "action", "action": "hit"}})
}

fn log(events: &[&str]) -> Vec<String> {
    events.iter().map(|e| e.to_string()).collect()
}

#[test]
fn every_item_runs_the_child_in_order_within_one_tick_at_most_max() {
    let mut a = agent(volley(3));
    let mut camp = Camp::with(&[5, 6, 7, 8]);
    assert_eq!(a.tick_at(&mut camp, 0.0), S);
    assert_eq!(camp.take(), log(&["hit 5", "hit 6", "hit 7"]));
    camp.targets.clear();
    assert_eq!(a.tick_at(&mut camp, 1.0), S, "no items: success at once");
    assert!(camp.take().is_empty());
}

#[test]
fn a_running_child_keeps_its_item_a_failure_fails_and_the_items_are_read_on_entry() {
    let mut a = agent(volley(4));
    let mut camp = Camp::with(&[1, 2, 3]);
    camp.script.insert(2, R);
    assert_eq!(a.tick_at(&mut camp, 0.0), R);
    camp.targets = vec![9];
    assert_eq!(a.tick_at(&mut camp, 1.0), R);
    camp.script.insert(2, S);
    camp.script.insert(3, F);
    assert_eq!(a.tick_at(&mut camp, 2.0), F);
    assert_eq!(camp.take(), log(&["hit 1", "hit 2", "hit 2", "hit 2", "hit 3"]));
    assert_eq!(a.tick_at(&mut camp, 3.0), S, "a new activation reads the new list");
    assert_eq!(camp.take(), log(&["hit 9"]));
}

#[test]
fn continue_skips_an_item_and_break_ends_the_loop_with_success() {
    let skip_or_stop = json!({"type": "sequence", "children": [
        {"type": "if", "branches": [{"if": {"type": "condition", "condition": {"type": "targetIs", "is": 0}},
                                     "then": {"type": "continue"}}]},
        {"type": "if", "branches": [{"if": {"type": "condition", "condition": {"type": "targetIs", "is": 9}},
                                     "then": {"type": "break", "label": "each"}}]},
        {"type": "action", "action": "hit"}
    ]});
    let mut a = agent(json!({"type": "forEach", "label": "each", "items": "targets", "max": 8, "child": skip_or_stop}));
    let mut camp = Camp::with(&[1, 0, 2, 9, 3]);
    assert_eq!(a.tick_at(&mut camp, 0.0), S);
    assert_eq!(camp.take(), log(&["hit 1", "hit 2"]));
}

#[test]
fn halting_halts_the_child_and_re_entry_starts_at_the_first_item() {
    let mut a = agent(json!({"type": "reactiveSelector", "children": [
        {"type": "condition", "condition": "alarm"}, volley(4)]}));
    let mut camp = Camp::with(&[1, 2, 3]);
    camp.script.insert(2, R);
    assert_eq!(a.tick_at(&mut camp, 0.0), R);
    camp.alarm = true;
    assert_eq!(a.tick_at(&mut camp, 1.0), S);
    assert_eq!(camp.take(), log(&["hit 1", "hit 2", "halt 2"]));
    camp.alarm = false;
    camp.script.clear();
    assert_eq!(a.tick_at(&mut camp, 2.0), S);
    assert_eq!(camp.take(), log(&["hit 1", "hit 2", "hit 3"]));
}

#[test]
fn the_work_figure_counts_the_read_and_max_iterations() {
    let def = registry().load(&volley(6).to_string()).unwrap();
    assert_eq!(def.tick_work(), 7);
    let too_much = json!({"type": "forEach", "items": "targets", "max": 70000,
                          "child": {"type": "repeater", "count": 1000, "child": {"type": "action", "action": "hit"}}});
    // `messages()`: without the line and column of each path.
    let error = registry()
        .load(&too_much.to_string())
        .err()
        .unwrap()
        .messages()
        .join("\n");
    assert!(
        error.contains("at the root: one tick can tick leaves up to 70000001 times"),
        "{error}"
    );
}

#[test]
fn the_items_all_loops_hold_are_bounded_and_counted_in_the_agents_bytes() {
    let bytes = |max: u32| Agent::new(registry().load(&volley(max).to_string()).unwrap()).bytes();
    assert_eq!(
        bytes(64) - bytes(8),
        56 * size_of::<u32>(),
        "room for `max` items of the list"
    );
    assert!(
        registry().load(&volley(65536).to_string()).is_ok(),
        "the default limit, 2^16 in all"
    );
    let two = json!({"type": "random", "children": [volley(40000), volley(30000)]});
    let error = registry().load(&two.to_string()).err().unwrap();
    assert_eq!(
        error.messages(),
        [
            "at `children[1].max`: the forEach nodes up to here hold up to 70000 items in all, above the limit of 65536 \
          (`Registry::max_items`: every agent reserves room for them when it is created); lower a \"max\" or raise the limit"
        ]
    );
    let mut raised = registry();
    raised.max_items(70000);
    assert!(raised.load(&two.to_string()).is_ok());
}

#[test]
fn the_loader_names_the_path_of_each_mistake() {
    let bad = json!({"type": "sequence", "children": [
        {"type": "forEach", "items": "targetz", "max": 2, "child": {"type": "success"}},
        {"type": "forEach", "items": "targets", "max": 0, "child": {"type": "success"}},
        {"type": "forEach", "max": 2, "child": {"type": "success"}},
        {"type": "forEach", "items": "targets", "child": {"type": "success"}}
    ]});
    let error = registry().load(&bad.to_string()).err().unwrap().messages().join("\n");
    for expected in [
        "at `children[0].items`: unknown list type \"targetz\"; did you mean \"targets\"?",
        "at `children[1].max`: \"max\" must be a positive integer, found the number 0",
        "at `children[2]`: \"forEach\" needs \"items\"",
        "at `children[3]`: \"forEach\" needs \"max\"",
    ] {
        assert!(error.contains(expected), "{expected:?} not in:\n{error}");
    }
}

#[cfg(feature = "serde")]
#[test]
fn a_saved_agent_keeps_the_items_and_the_place_of_a_running_loop() {
    let def = registry().load(&volley(4).to_string()).unwrap();
    let mut a = Agent::new(def.clone());
    let mut camp = Camp::with(&[1, 2, 3]);
    camp.script.insert(2, R);
    assert_eq!(a.tick_at(&mut camp, 0.0), R);
    let saved = serde_json::to_string(&a).unwrap();
    assert!(saved.ends_with(r#""items":[[1,2,3]],"savedAt":0.0}"#), "{saved}");
    let mut loaded = Agent::load(def.clone(), &mut serde_json::Deserializer::from_str(&saved)).unwrap();
    camp.targets.clear();
    camp.script.clear();
    camp.take();
    assert_eq!(loaded.tick_at(&mut camp, 1.0), S);
    assert_eq!(
        camp.take(),
        log(&["hit 2", "hit 3"]),
        "the saved copy, at the saved item"
    );
    let load_error = |text: &str| {
        Agent::load(def.clone(), &mut serde_json::Deserializer::from_str(text))
            .err()
            .unwrap()
            .to_string()
    };
    let error = load_error(&saved.replace(r#""items":[[1,2,3]]"#, r#""items":[[1]]"#));
    assert!(
        error.contains("the forEach at \"\" is at item 2 of the 1 it holds"),
        "{error}"
    );
    let error = load_error(&saved.replace(r#""items":[[1,2,3]]"#, r#""items":[[1,2,3,4,5]]"#));
    assert!(error.contains("at most 4 items"), "{error}");
    // Read one by one: the fifth item is refused before the rest is read.
    let error = load_error(&saved.replace(r#""items":[[1,2,3]],"savedAt":0.0}"#, r#""items":[[1,2,3,4,5,"#));
    assert!(
        error.starts_with("more items than this forEach holds: at most 4 items"),
        "{error}"
    );
}

//! After an agent is created, ticking (plain, observed, `run_at`) and resetting
//! allocate nothing: a counting global allocator watches a tree that uses every
//! node kind and the ADR-017 guard tree for thousands of ticks.

// The tree of every kind is one `json!` literal, deeper than its default recursion limit.
#![recursion_limit = "256"]

mod support;

use behaved_interp::{Agent, ItemList, KeyRef, Library, MatchValue, Registry};
use behaved_runtime::{Action, Condition, NodeId, Observer, Status};
use serde::Deserialize;
use serde_json::json;

#[global_allocator]
static ALLOCATOR: behaved_testkit::Counting = behaved_testkit::Counting;

#[derive(Default)]
struct World {
    tick: u64,
    done: u64,
}

#[derive(Deserialize)]
struct Every {
    every: u64,
}

/// Running, then Success on every `every`-th tick of the world.
#[derive(Clone)]
struct Step(u64);

impl Action<World> for Step {
    fn tick(&mut self, w: &mut World) -> Status {
        if w.tick.is_multiple_of(self.0) {
            w.done += 1;
            Status::Success
        } else {
            Status::Running
        }
    }
}

/// Holds on ticks divisible by `every`.
struct Flip(u64);

impl Condition<World> for Flip {
    fn check(&self, w: &World) -> bool {
        w.tick.is_multiple_of(self.0)
    }
}

/// Scores `tick % every / every` (utility's considerations).
struct Cycle(u64);

impl behaved_runtime::utility::Consideration<World> for Cycle {
    fn score(&self, w: &World) -> f32 {
        (w.tick % self.0) as f32 / self.0 as f32
    }
}

struct Phase;

impl MatchValue<World> for Phase {
    fn get<'c>(&self, w: &'c World) -> KeyRef<'c> {
        KeyRef::Int((w.tick % 3) as i64)
    }
}

/// Up to four numbers from the tick, the current one kept in `done`.
struct Numbers;

impl ItemList<World> for Numbers {
    type Item = u64;
    fn items<'c>(&'c self, w: &'c World) -> impl Iterator<Item = u64> + 'c {
        0..w.tick % 6
    }
    fn select(&self, w: &mut World, item: &u64) {
        w.done += item;
    }
}

/// Counts events without allocating.
#[derive(Default)]
struct Count(u64);

impl Observer for Count {
    fn entered(&mut self, _: NodeId) {
        self.0 += 1;
    }
    fn ticked(&mut self, _: NodeId, _: Status) {
        self.0 += 1;
    }
    fn halted(&mut self, _: NodeId) {
        self.0 += 1;
    }
}

fn registry() -> Registry<World> {
    let mut r = Registry::new();
    r.action("step", |p: Every| Step(p.every))
        .condition("flip", |p: Every| Flip(p.every))
        .value("phase", |_: behaved_interp::NoParams| Phase)
        .list("numbers", |_: behaved_interp::NoParams| Numbers)
        .consideration("cycle", |p: Every| Cycle(p.every))
        .action("dialogue", |_: serde_json::Value| Step(1))
        .action("moveTo", |_: serde_json::Value| Step(2))
        .condition("questStage", |_: serde_json::Value| Flip(5))
        .condition("timeOfDay", |_: serde_json::Value| Flip(2))
        .condition("atLocation", |_: serde_json::Value| Flip(3))
        .condition("hasItem", |_: serde_json::Value| Flip(7));
    r
}

/// A node of every kind of the catalogue, built from its facts
/// (`support::sample`) over this test's leaves: a new kind is ticked here
/// without a case of its own.
fn samples() -> Vec<serde_json::Value> {
    let parts = support::Parts {
        child: |i| json!({"type": "action", "action": {"type": "step", "every": 2 + i}}),
        condition: json!({"type": "condition", "condition": {"type": "flip", "every": 3}}),
        condition_leaf: json!({"type": "flip", "every": 2}),
        action_leaf: json!({"type": "step", "every": 3}),
        list: json!("numbers"),
        value: json!("phase"),
        score: |i| json!({"consider": {"type": "cycle", "every": 3 + i}}),
        subtree: "idle",
    };
    behaved_runtime::NodeKind::ALL
        .iter()
        .map(|&kind| support::sample(kind, &parts))
        .collect()
}

/// The kinds in the forms and combinations the samples do not have:
/// utility's choices, hooks, labels, a dynamic subtree, nesting; then
/// [`samples`].
fn every_kind() -> serde_json::Value {
    let a = |n: u64| json!({"type": "action", "action": {"type": "step", "every": n}});
    let c = |n: u64| json!({"type": "condition", "condition": {"type": "flip", "every": n}});
    // Tick and reset hooks, and a dynamic subtree.
    let hooked = json!({"type": "sequenceAlways", "onPreTick": {"type": "step", "every": 1},
    "onTick": {"type": "step", "every": 1}, "onReset": {"type": "step", "every": 1}, "children": [
        {"type": "latch", "condition": c(4), "child": a(3)},
        {"type": "waitUntil", "condition": {"type": "flip", "every": 3}}
    ]});
    let dynamic = json!({"type": "reactiveMatch", "value": "phase",
        "cases": [{"when": 1, "child": {"type": "subtree", "subtreeId": "idle"}}], "default": a(1)});
    let mut tree = json!({"type": "parallel", "success": 8, "failure": 8, "children": [
        {"type": "loop", "label": "outer", "child": {"type": "sequence", "children": [
            {"type": "reactiveSequence", "children": [c(1), a(2)]},
            {"type": "reactiveSelector", "children": [c(2), a(3)]},
            {"type": "parallelMain", "children": [a(2), a(5)]},
            {"type": "random", "children": [a(1), a(2)]},
            {"type": "weighted", "weights": [2, 1], "children": [a(1), a(3)]},
            {"type": "shuffle", "children": [a(2), {"type": "failure"}]},
            {"type": "utility", "choose": "reactive", "margin": 0.1, "children": [a(2), a(3), a(5)], "scores": [
                {"consider": {"type": "cycle", "every": 5}},
                {"all": [{"consider": {"type": "cycle", "every": 3}, "curve": {"curve": "logistic", "steepness": 4, "midpoint": 0.5}},
                         {"consider": {"type": "cycle", "every": 7}, "curve": {"curve": "piecewise", "points": [[0, 0.2], [0.5, 1], [1, 0.4]]}}], "weight": 1.5},
                {"consider": {"type": "cycle", "every": 4}, "curve": {"curve": "polynomial", "exponent": 2, "slope": 1, "shift": 0, "intercept": 0.1}}]},
            {"type": "utility", "every": 0.5, "margin": 0.1, "children": [a(2), a(3)], "scores": [
                {"consider": {"type": "cycle", "every": 4}}, {"consider": {"type": "cycle", "every": 3}}]},
            {"type": "utility", "choose": "weighted", "best": 2, "children": [a(1), a(2), {"type": "failure"}], "scores": [
                {"consider": {"type": "cycle", "every": 2}, "curve": {"curve": "step", "threshold": 0.5, "low": 0.1, "high": 1}},
                {"consider": {"type": "cycle", "every": 3}, "curve": {"curve": "linear", "slope": -1, "intercept": 1}},
                {"consider": {"type": "cycle", "every": 5}}]},
            {"type": "if", "branches": [{"if": c(2), "then": a(2)}], "else": {"type": "success"}},
            {"type": "reactiveIf", "branches": [{"if": c(3), "then": a(2)}]},
            {"type": "match", "value": "phase", "cases": [{"when": 1, "child": a(2)}], "default": {"type": "success"}},
            {"type": "reactiveMatch", "value": "phase", "cases": [{"when": [0, 2], "child": a(4)}], "default": a(1)},
            dynamic,
            {"type": "if", "branches": [{"if": c(7), "then": {"type": "break", "label": "outer"}}]},
            {"type": "if", "branches": [{"if": c(5), "then": {"type": "continue"}}]},
            {"type": "forEach", "items": "numbers", "max": 4, "child": {"type": "sequence", "children": [
                {"type": "if", "branches": [{"if": c(4), "then": {"type": "continue"}}]}, a(2)]}}
        ]}},
        {"type": "pick", "items": "numbers", "max": 4, "score": {"consider": {"type": "cycle", "every": 3}, "curve": {"curve": "linear", "slope": 1, "intercept": 0.1}}, "child": a(3)},
        {"type": "repeater", "count": 2, "child": {"type": "retry", "count": 2, "child": a(2)}},
        {"type": "while", "condition": c(1), "child": {"type": "untilSuccess", "child": {"type": "untilFail", "child": a(2)}}},
        {"type": "inverter", "child": {"type": "succeeder", "child": {"type": "forceFailure", "child": a(3)}}},
        {"type": "timeout", "seconds": 1.5, "child": {"type": "delay", "seconds": 0.5, "child": {"type": "cooldown", "seconds": 1, "child": a(4)}}},
        {"type": "limit", "count": 3, "child": {"type": "runOnce", "child": a(2)}},
        {"type": "abortIf", "condition": c(9), "child": {"type": "scope", "onEnter": {"type": "step", "every": 1}, "onExit": {"type": "step", "every": 1}, "child": {"type": "subtree", "subtreeId": "idle"}}},
        {"type": "selector", "children": [{"type": "wait", "seconds": 0.5}, {"type": "running"}]},
        hooked
    ]});
    tree["children"].as_array_mut().unwrap().extend(samples());
    tree
}

#[test]
fn ticking_allocates_nothing() {
    let mut library = Library::new();
    library
        .insert_json("idle", &json!({"type": "sequence", "children": [{"type": "wait", "seconds": 1}, {"type": "action", "action": {"type": "step", "every": 3}}]}).to_string())
        .unwrap();
    let registry = registry();
    let all = registry.load_with(&every_kind().to_string(), &library).unwrap();
    let guard_json =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/trees/guard.json")).unwrap();
    let guard = registry.load(&guard_json).unwrap();
    let mut agents = vec![
        Agent::with_seed(all.clone(), 1),
        Agent::with_seed(all, 2),
        Agent::new(guard),
    ];
    let mut world = World::default();
    let mut count = Count::default();

    let allocations = behaved_testkit::allocations_during(|| {
        for i in 0..5_000u64 {
            world.tick = i;
            let now = i as f64 * 0.25;
            for agent in &mut agents {
                agent.tick_at(&mut world, now);
                agent.tick_observed(&mut world, now, &mut count);
                if i % 97 == 0 {
                    agent.reset_observed(&mut world, &mut count);
                }
                if i % 89 == 0 {
                    agent.run_at(&mut world, now, 5);
                    agent.reset(&mut world);
                }
            }
        }
    });
    assert!(
        world.done > 1000 && count.0 > 10_000,
        "the trees did work: {} {}",
        world.done,
        count.0
    );
    assert_eq!(allocations, 0, "ticking allocated");
    println!(
        "alloc: 0 allocations in 30000+ ticks of 3 agents ({} events observed)",
        count.0
    );
}

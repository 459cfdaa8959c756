//! The interpreter tests' helpers: a registry of the scripted leaves of
//! `behaved_testkit::script` (re-exported here), loading shorthands and JSON shorthands.
#![allow(dead_code)]

use std::sync::Arc;

use behaved_interp::{Agent, Definition, KeyRef, Library, MatchValue, NoParams, Registry};
use behaved_runtime::{Action, Status};
pub use behaved_testkit::script::*;
use serde_json::{Value, json};

/// The context's `mode`, for `match` nodes.
pub struct Mode;

impl MatchValue<Ctx> for Mode {
    fn get<'c>(&self, ctx: &'c Ctx) -> KeyRef<'c> {
        KeyRef::Str(&ctx.mode)
    }
}

/// An action that logs its text and succeeds.
#[derive(Clone)]
pub struct Log(pub String);

impl Action<Ctx> for Log {
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        ctx.log.push(self.0.clone());
        Status::Success
    }
}

/// Actions `a`..`h`, conditions `c1`..`c4`, considerations `s1`..`s4` (scripted by the same names),
/// the value `mode`, and the action `log` with a `msg` (for hooks).
pub fn registry() -> Registry<Ctx> {
    let mut r = Registry::new();
    for name in ["a", "b", "c", "d", "e", "f", "g", "h"] {
        r.action(name, move |_: NoParams| Rec(name));
    }
    for name in ["c1", "c2", "c3", "c4"] {
        r.condition(name, move |_: NoParams| Check(name));
    }
    r.value("mode", |_: NoParams| Mode);
    for name in ["s1", "s2", "s3", "s4"] {
        r.consideration(name, move |_: NoParams| Score(name));
    }
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Msg {
        msg: String,
    }
    r.action("log", |m: Msg| Log(m.msg));
    r
}

/// Loads `tree` (a JSON value) with the test registry.
pub fn load(tree: Value) -> Arc<Definition<Ctx>> {
    load_with(tree, &Library::new())
}

/// Loads `tree` with the test registry and `library`.
pub fn load_with(tree: Value, library: &Library) -> Arc<Definition<Ctx>> {
    match registry().load_with(&tree.to_string(), library) {
        Ok(def) => def,
        Err(e) => panic!("{e}"),
    }
}

/// An agent for `tree`.
pub fn agent(tree: Value) -> Agent<Ctx> {
    Agent::new(load(tree))
}

/// The problems of loading `tree`, as `"at `path`: message"` lines.
pub fn errors(json: &str) -> Vec<String> {
    match registry().load(json) {
        Ok(_) => panic!("expected load errors for {json}"),
        Err(e) => e.messages(),
    }
}

/// `{"type": "action", "action": name}`.
pub fn act(name: &str) -> Value {
    json!({"type": "action", "action": name})
}

/// `{"type": "condition", "condition": name}`.
pub fn cond(name: &str) -> Value {
    json!({"type": "condition", "condition": name})
}

/// A composite of `kind` over `children`.
pub fn many(kind: &str, children: Vec<Value>) -> Value {
    json!({"type": kind, "children": children})
}

/// A decorator of `kind` over `child`.
pub fn one(kind: &str, child: Value) -> Value {
    json!({"type": kind, "child": child})
}

/// What [`sample`] builds a node of any kind from: the test's own children
/// and registered leaves.
pub struct Parts {
    /// The node's child number `i` (0: its body or first child, 1: its
    /// second child, `else` or `default`).
    pub child: fn(usize) -> Value,
    /// A condition node (`while`, `abortIf`, `latch`, an `if` branch).
    pub condition: Value,
    /// A registered condition, by name or with its parameters.
    pub condition_leaf: Value,
    /// A registered action, by name or with its parameters.
    pub action_leaf: Value,
    /// A registered list (`forEach`, `pick`).
    pub list: Value,
    /// A registered value (`match`).
    pub value: Value,
    /// The `i`th score of a `utility`, or a `pick`'s score.
    pub score: fn(usize) -> Value,
    /// The library's subtree a `subtree` node runs.
    pub subtree: &'static str,
}

/// A node of `kind` built from its catalogue facts: its children where its
/// slots put them (child 0, then child 1 as a second child, `else` or
/// `default`) and its parameters from `parts`, so that a test covering every
/// kind needs no case per kind. `break` and `continue` stand inside a
/// labelled `loop`. A new `Slots` or `Parameters` variant does not compile
/// until it is built here.
pub fn sample(kind: behaved_runtime::NodeKind, parts: &Parts) -> Value {
    use behaved_runtime::catalog::{Group, Parameters, Slots};
    let child = parts.child;
    let mut node = json!({"type": kind.json_name()});
    let children = match kind.slots() {
        Slots::None => 0,
        Slots::Child => {
            node["child"] = child(0);
            1
        }
        Slots::Children => {
            node["children"] = json!([child(0), child(1)]);
            2
        }
        Slots::ConditionChild => {
            node["condition"] = parts.condition.clone();
            node["child"] = child(0);
            1
        }
        Slots::Branches => {
            node["branches"] = json!([{"if": parts.condition, "then": child(0)}]);
            node["else"] = child(1);
            2
        }
        Slots::Cases => {
            node["value"] = parts.value.clone();
            node["cases"] = json!([{"when": "x", "child": child(0)}]);
            node["default"] = child(1);
            2
        }
    };
    match kind.params() {
        Parameters::None | Parameters::Branches | Parameters::Cases => {}
        Parameters::Policy => node["policy"] = json!("requireAll"),
        Parameters::Weights => node["weights"] = json!([1, 2]),
        Parameters::Count => node["count"] = json!(SAMPLE_COUNT),
        Parameters::Seconds => node["seconds"] = json!(1.0),
        Parameters::Leaf => {
            let field = kind.fields()[0];
            node[field] = if field == "action" {
                parts.action_leaf.clone()
            } else {
                parts.condition_leaf.clone()
            };
        }
        Parameters::Subtree => node["subtreeId"] = json!(parts.subtree),
        Parameters::ForEach => {
            node["items"] = parts.list.clone();
            node["max"] = json!(SAMPLE_MAX);
        }
        Parameters::Utility => node["scores"] = (0..children).map(parts.score).collect(),
        Parameters::Pick => {
            node["items"] = parts.list.clone();
            node["max"] = json!(SAMPLE_MAX);
            node["score"] = (parts.score)(0);
        }
    }
    if kind.group() == Group::Loops && kind.arity() == behaved_runtime::Arity::Leaf {
        node["label"] = json!("l");
        return json!({"type": "loop", "label": "l", "child": node});
    }
    node
}

/// The `count` of a [`sample`] (`repeater`, `retry`, `limit`).
pub const SAMPLE_COUNT: u64 = 4;
/// The `max` of a [`sample`] (`forEach`, `pick`).
pub const SAMPLE_MAX: u64 = 5;

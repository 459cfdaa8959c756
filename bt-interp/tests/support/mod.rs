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
    #[derive(Clone)]
    struct Log(String);
    impl Action<Ctx> for Log {
        fn tick(&mut self, ctx: &mut Ctx) -> Status {
            ctx.log.push(self.0.clone());
            Status::Success
        }
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

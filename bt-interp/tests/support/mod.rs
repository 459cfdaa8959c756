//! Shared fixtures: scripted leaves that log what happens to them, an observer
//! that records the events of a tick, and JSON shorthands.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::Arc;

use bt_interp::{Agent, Definition, KeyRef, Library, MatchValue, NoParams, Registry};
use bt_runtime::{Action, Clock, Condition, NodeId, Observer, Status};
use serde_json::{Value, json};

/// A context with a clock, a script of leaf results and a log of leaf events.
#[derive(Default)]
pub struct Ctx {
    pub now: f64,
    pub results: BTreeMap<String, Status>,
    pub log: Vec<String>,
    pub mode: String,
}

impl Ctx {
    pub fn new() -> Ctx {
        Ctx::default()
    }

    /// Makes the leaf `name` return `status` from now on (default Success).
    pub fn set(&mut self, name: &str, status: Status) -> &mut Ctx {
        self.results.insert(name.to_string(), status);
        self
    }

    /// The leaf events since the last call: `"enter a"`, `"a"` (ticked), `"halt a"`.
    pub fn take(&mut self) -> Vec<String> {
        std::mem::take(&mut self.log)
    }

    fn result(&self, name: &str) -> Status {
        self.results.get(name).copied().unwrap_or(Status::Success)
    }
}

impl Clock for Ctx {
    fn now(&self) -> f64 {
        self.now
    }
}

/// An action that logs its enter, ticks and halts and returns what the script says.
#[derive(Debug, Clone)]
pub struct Rec(pub String);

impl Action<Ctx> for Rec {
    fn enter(&mut self, ctx: &mut Ctx) {
        ctx.log.push(format!("enter {}", self.0));
    }
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        ctx.log.push(self.0.clone());
        ctx.result(&self.0)
    }
    fn halt(&mut self, ctx: &mut Ctx) {
        ctx.log.push(format!("halt {}", self.0));
    }
}

/// A condition that holds when the script says Success.
#[derive(Debug, Clone)]
pub struct Check(pub String);

impl Condition<Ctx> for Check {
    fn check(&self, ctx: &Ctx) -> bool {
        ctx.result(&self.0) == Status::Success
    }
}

/// The context's `mode`, for `match` nodes.
pub struct Mode;

impl MatchValue<Ctx> for Mode {
    fn get<'c>(&self, ctx: &'c Ctx) -> KeyRef<'c> {
        KeyRef::Str(&ctx.mode)
    }
}

/// Actions `a`..`h`, conditions `c1`..`c4` (scripted by the same names),
/// the value `mode`, and the action `log` with a `msg` (for hooks).
pub fn registry() -> Registry<Ctx> {
    let mut r = Registry::new();
    for name in ["a", "b", "c", "d", "e", "f", "g", "h"] {
        r.action(name, move |_: NoParams| Rec(name.to_string()));
    }
    for name in ["c1", "c2", "c3", "c4"] {
        r.condition(name, move |_: NoParams| Check(name.to_string()));
    }
    r.value("mode", |_: NoParams| Mode);
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

/// Records observer events as text: `"> 3"` entered, `"3 S"` ticked, `"x 3"` halted.
#[derive(Default)]
pub struct Trace(pub Vec<String>);

impl Trace {
    pub fn take(&mut self) -> Vec<String> {
        std::mem::take(&mut self.0)
    }
}

impl Observer for Trace {
    fn entered(&mut self, node: NodeId) {
        self.0.push(format!("> {}", node.0));
    }
    fn ticked(&mut self, node: NodeId, status: Status) {
        let s = match status {
            Status::Success => "S",
            Status::Failure => "F",
            Status::Running => "R",
        };
        self.0.push(format!("{} {s}", node.0));
    }
    fn halted(&mut self, node: NodeId) {
        self.0.push(format!("x {}", node.0));
    }
}

/// Shorthands for statuses in assertions.
pub const S: Status = Status::Success;
pub const F: Status = Status::Failure;
pub const R: Status = Status::Running;

/// Turns `["a", "b"]` into the `Vec<String>` that `Ctx::take` returns.
pub fn log(events: &[&str]) -> Vec<String> {
    events.iter().map(|e| e.to_string()).collect()
}

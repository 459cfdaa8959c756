//! Shared test fixtures: a context whose leaves are scripted and record what happens.
#![allow(dead_code)]

use std::collections::BTreeMap;

use bt::{Action, Clock, Condition, Status};

/// A context with a clock, a script of leaf results and a log of leaf events.
#[derive(Default, Clone)]
pub struct Ctx {
    pub now: f64,
    pub results: BTreeMap<&'static str, Status>,
    pub log: Vec<String>,
    pub counter: u32,
}

impl Ctx {
    pub fn new() -> Ctx {
        Ctx::default()
    }

    /// Makes the leaf `name` return `status` from now on.
    pub fn set(&mut self, name: &'static str, status: Status) -> &mut Ctx {
        self.results.insert(name, status);
        self
    }

    /// The events since the last call, as `"enter a"`, `"a"` (ticked), `"halt a"`.
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
pub struct Rec(pub &'static str);

impl Action<Ctx> for Rec {
    fn enter(&mut self, ctx: &mut Ctx) {
        ctx.log.push(format!("enter {}", self.0));
    }
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        ctx.log.push(self.0.to_string());
        ctx.result(self.0)
    }
    fn halt(&mut self, ctx: &mut Ctx) {
        ctx.log.push(format!("halt {}", self.0));
    }
}

/// A condition that logs its checks and holds when the script says Success.
#[derive(Debug, Clone, Copy)]
pub struct Check(pub &'static str);

impl Condition<Ctx> for Check {
    fn check(&self, ctx: &Ctx) -> bool {
        ctx.result(self.0) == Status::Success
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

/// An observer that records every event as text, with node labels.
pub struct Events {
    pub nodes: &'static [bt::NodeInfo],
    pub events: Vec<String>,
}

impl Events {
    pub fn new(nodes: &'static [bt::NodeInfo]) -> Events {
        Events {
            nodes,
            events: Vec::new(),
        }
    }

    pub fn take(&mut self) -> Vec<String> {
        std::mem::take(&mut self.events)
    }

    fn label(&self, id: bt::NodeId) -> &'static str {
        self.nodes[id.index()].label
    }
}

impl bt::Observer for Events {
    fn entered(&mut self, node: bt::NodeId) {
        self.events.push(format!("enter {}", self.label(node)));
    }
    fn ticked(&mut self, node: bt::NodeId, status: Status) {
        self.events.push(format!("{} {status}", self.label(node)));
    }
    fn halted(&mut self, node: bt::NodeId) {
        self.events.push(format!("halt {}", self.label(node)));
    }
}

/// An observer that records every event by node id (`"enter #3"`, `"#3 success"`,
/// `"halt #3"`), for comparing two forms of the same tree.
#[derive(Default)]
pub struct IdEvents(pub Vec<String>);

impl bt::Observer for IdEvents {
    fn entered(&mut self, node: bt::NodeId) {
        self.0.push(format!("enter {node}"));
    }
    fn ticked(&mut self, node: bt::NodeId, status: Status) {
        self.0.push(format!("{node} {status}"));
    }
    fn halted(&mut self, node: bt::NodeId) {
        self.0.push(format!("halt {node}"));
    }
}

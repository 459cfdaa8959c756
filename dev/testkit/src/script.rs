//! Scripted fixtures for behaviour tests: a context whose leaves return what a
//! script says and log what happens to them, and observers that record events
//! as text. The compiled trees' tests (`tests/`) and the interpreter's
//! (`bt-interp/tests/`) use this one copy, so both check the same rules the
//! same way.

use std::collections::BTreeMap;

use behaved_runtime::{Action, Clock, Condition, NodeId, NodeInfo, Observer, Status};

/// A context with a clock, a script of leaf results and a log of leaf events.
#[derive(Debug, Default, Clone)]
pub struct Ctx {
    /// The time the tree reads through [`Clock`].
    pub now: f64,
    /// What each named leaf returns (a leaf not named here succeeds).
    pub results: BTreeMap<&'static str, Status>,
    /// The leaf events since the last [`Ctx::take`].
    pub log: Vec<String>,
    /// A number for inline leaves and conditions to read and write.
    pub counter: u32,
    /// A value for `match` nodes.
    pub mode: String,
    /// What each named consideration scores ([`Score`]; a name not here scores 0).
    pub scores: BTreeMap<&'static str, f32>,
}

impl Ctx {
    /// An empty context at time 0.
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

    /// Makes the consideration `name` score `score` from now on.
    pub fn score(&mut self, name: &'static str, score: f32) -> &mut Ctx {
        self.scores.insert(name, score);
        self
    }

    /// What the script says the leaf `name` returns.
    pub fn result(&self, name: &str) -> Status {
        self.results.get(name).copied().unwrap_or(Status::Success)
    }
}

impl Clock for Ctx {
    fn now(&self) -> f64 {
        self.now
    }
}

/// An action that logs its enter, ticks and halts and returns what the script says.
#[derive(Debug, Clone, Copy)]
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

/// [`Rec`] with a reset callback: also logs `"reset a"` when its tree is
/// reset (`Action::reset`), to tell a halt from a reset.
#[derive(Debug, Clone, Copy)]
pub struct RecWithReset(pub &'static str);

impl Action<Ctx> for RecWithReset {
    fn enter(&mut self, ctx: &mut Ctx) {
        Rec(self.0).enter(ctx);
    }
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        Rec(self.0).tick(ctx)
    }
    fn halt(&mut self, ctx: &mut Ctx) {
        Rec(self.0).halt(ctx);
    }
    fn reset(&mut self, ctx: &mut Ctx) {
        ctx.log.push(format!("reset {}", self.0));
    }
}

/// A condition that holds when the script says Success.
#[derive(Debug, Clone, Copy)]
pub struct Check(pub &'static str);

impl Condition<Ctx> for Check {
    fn check(&self, ctx: &Ctx) -> bool {
        ctx.result(self.0) == Status::Success
    }
}

/// A consideration (`utility`'s scores) that scores what the script says.
#[derive(Debug, Clone, Copy)]
pub struct Score(pub &'static str);

impl behaved_runtime::utility::Consideration<Ctx> for Score {
    fn score(&self, ctx: &Ctx) -> f32 {
        ctx.scores.get(self.0).copied().unwrap_or(0.0)
    }
}

/// Shorthand for [`Status::Success`] in assertions.
pub const S: Status = Status::Success;
/// Shorthand for [`Status::Failure`] in assertions.
pub const F: Status = Status::Failure;
/// Shorthand for [`Status::Running`] in assertions.
pub const R: Status = Status::Running;

/// Turns `["a", "b"]` into the `Vec<String>` that [`Ctx::take`] returns.
pub fn log(events: &[&str]) -> Vec<String> {
    events.iter().map(|e| e.to_string()).collect()
}

/// An observer that records every event as text with node labels:
/// `"enter sequence"`, `"sequence success"`, `"halt sequence"`.
pub struct Events {
    /// The tree's node table, for the labels.
    pub nodes: &'static [NodeInfo],
    /// The events since the last [`Events::take`].
    pub events: Vec<String>,
}

impl Events {
    /// An observer for a tree with the node table `nodes`.
    pub fn new(nodes: &'static [NodeInfo]) -> Events {
        Events {
            nodes,
            events: Vec::new(),
        }
    }

    /// The events since the last call.
    pub fn take(&mut self) -> Vec<String> {
        std::mem::take(&mut self.events)
    }

    fn label(&self, id: NodeId) -> &'static str {
        self.nodes[id.index()].label
    }
}

impl Observer for Events {
    fn entered(&mut self, node: NodeId) {
        self.events.push(format!("enter {}", self.label(node)));
    }
    fn ticked(&mut self, node: NodeId, status: Status) {
        self.events.push(format!("{} {status}", self.label(node)));
    }
    fn halted(&mut self, node: NodeId) {
        self.events.push(format!("halt {}", self.label(node)));
    }
}

/// An observer that records every event by node id (`"enter #3"`, `"#3 success"`,
/// `"halt #3"`, `"#3 scored 0: 0.5"`, `"#3 considered 0.1 level (logistic): 0.25"`), for
/// comparing two forms of the same tree.
#[derive(Debug, Default)]
pub struct IdEvents(pub Vec<String>);

impl Observer for IdEvents {
    fn entered(&mut self, node: NodeId) {
        self.0.push(format!("enter {node}"));
    }
    fn ticked(&mut self, node: NodeId, status: Status) {
        self.0.push(format!("{node} {status}"));
    }
    fn halted(&mut self, node: NodeId) {
        self.0.push(format!("halt {node}"));
    }
    fn scored(&mut self, node: NodeId, child: u32, score: f32) {
        self.0.push(format!("{node} scored {child}: {score:?}"));
    }
    fn considers(&self) -> bool {
        true
    }
    /// The label is left out: each form labels a part by its own text.
    fn considered(&mut self, node: NodeId, child: u32, part: u32, label: &str, value: f32) {
        self.0
            .push(format!("{node} considered {child}.{part} {label}: {value:?}"));
    }
}

/// An observer that records what a scoring node reports, by node id:
/// `"enter 0"`, each score as `"0 1 0.25"` (node, child or candidate, score)
/// and `"halt 1"`. It does not consider, so it gets no parts.
#[derive(Debug, Default)]
pub struct Scores(pub Vec<String>);

impl Observer for Scores {
    fn entered(&mut self, node: NodeId) {
        self.0.push(format!("enter {}", node.0));
    }
    fn scored(&mut self, node: NodeId, child: u32, score: f32) {
        self.0.push(format!("{} {child} {score}", node.0));
    }
    fn halted(&mut self, node: NodeId) {
        self.0.push(format!("halt {}", node.0));
    }
}

/// An observer that considers: records each score as [`Scores`] does and
/// each part before it as `"0 1.0 label = 0.5"` (node, child or candidate,
/// part, label, value), for the tests of how each form labels its parts.
#[derive(Debug, Default)]
pub struct Parts(pub Vec<String>);

impl Observer for Parts {
    fn scored(&mut self, node: NodeId, child: u32, score: f32) {
        self.0.push(format!("{} {child} {score}", node.0));
    }
    fn considers(&self) -> bool {
        true
    }
    fn considered(&mut self, node: NodeId, child: u32, part: u32, label: &str, value: f32) {
        self.0.push(format!("{} {child}.{part} {label} = {value}", node.0));
    }
}

/// An observer that records events tersely: `"> 3"` entered, `"3 S"` ticked,
/// `"x 3"` halted.
#[derive(Debug, Default)]
pub struct Trace(pub Vec<String>);

impl Trace {
    /// The events since the last call.
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

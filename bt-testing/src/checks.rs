//! Property checks that run on every tick of a test tree: the lifecycle
//! rules every node keeps, and limits on how long a node may stay Running.

use behaved_observe::TraceNode;
use behaved_runtime::{NodeId, Status};

use crate::select::describe;

/// The first broken property of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// The tick it happened in (counting from 1; a reset's halts belong to the tick before).
    pub tick: u64,
    /// The node.
    pub node: NodeId,
    /// What was broken, naming the node and the tick.
    pub message: String,
}

/// Follows each node's lifecycle and checks, as the events arrive:
///
/// - every halt matches an earlier enter (the node is running when halted);
/// - no node is ticked after a halt or a completion without being entered again;
/// - no node is entered while it is still active;
/// - a node with a limit is never Running for more than that many ticks in a row.
#[derive(Debug, Clone)]
pub(crate) struct Checks {
    active: Vec<bool>,
    running_for: Vec<u32>,
    limits: Vec<Option<u32>>,
    tick: u64,
    pub(crate) violation: Option<Violation>,
}

impl Checks {
    pub(crate) fn new(nodes: usize) -> Checks {
        Checks {
            active: vec![false; nodes],
            running_for: vec![0; nodes],
            limits: vec![None; nodes],
            tick: 0,
            violation: None,
        }
    }

    pub(crate) fn limit_running(&mut self, node: NodeId, ticks: u32) {
        self.limits[node.index()] = Some(ticks);
    }

    fn fail(&mut self, nodes: &[TraceNode], node: NodeId, what: &str) {
        if self.violation.is_none() {
            self.violation = Some(Violation {
                tick: self.tick,
                node,
                message: format!(
                    "property broken at tick {}: {} {what}",
                    self.tick,
                    describe(nodes, node)
                ),
            });
        }
    }

    pub(crate) fn tick_started(&mut self, tick: u64) {
        self.tick = tick;
    }

    pub(crate) fn entered(&mut self, nodes: &[TraceNode], node: NodeId) {
        let i = node.index();
        if self.active[i] {
            self.fail(
                nodes,
                node,
                "was entered while still active (no completion or halt since its last enter)",
            );
        }
        self.active[i] = true;
        self.running_for[i] = 0;
    }

    pub(crate) fn ticked(&mut self, nodes: &[TraceNode], node: NodeId, status: Status) {
        let i = node.index();
        if !self.active[i] {
            self.fail(
                nodes,
                node,
                "was ticked without being entered (after a halt or a completion, a node must be entered again)",
            );
        }
        if status == Status::Running {
            self.active[i] = true;
            self.running_for[i] += 1;
            if let Some(limit) = self.limits[i]
                && self.running_for[i] > limit
            {
                let what = format!(
                    "has been Running for {} ticks in a row (limit {limit})",
                    self.running_for[i]
                );
                self.fail(nodes, node, &what);
            }
        } else {
            self.active[i] = false;
            self.running_for[i] = 0;
        }
    }

    pub(crate) fn halted(&mut self, nodes: &[TraceNode], node: NodeId) {
        let i = node.index();
        if !self.active[i] {
            self.fail(nodes, node, "was halted without a matching enter (it was not running)");
        }
        self.active[i] = false;
        self.running_for[i] = 0;
    }
}

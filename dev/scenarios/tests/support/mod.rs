//! Shared helpers for the scenario tests: an observer that records what the
//! tree did, and node look-ups by label.
#![allow(dead_code)]

use behaved::prelude::*;

/// Records every tick and halt of one tick (or several), in order.
#[derive(Debug, Default)]
pub struct Rec {
    /// `(node, status)` for every node ticked, children before parents.
    pub ticks: Vec<(NodeId, Status)>,
    /// Nodes entered.
    pub entered: Vec<NodeId>,
    /// Nodes halted.
    pub halted: Vec<NodeId>,
}

impl Rec {
    /// Forgets everything recorded.
    pub fn clear(&mut self) {
        *self = Rec::default();
    }

    /// The statuses `node` returned, in order.
    pub fn statuses(&self, node: NodeId) -> Vec<Status> {
        self.ticks.iter().filter(|(n, _)| *n == node).map(|(_, s)| *s).collect()
    }

    /// The leaves among `ticks`, as `(label, status)`, in order.
    pub fn leaves(&self, nodes: &[NodeInfo]) -> Vec<(&'static str, Status)> {
        self.ticks
            .iter()
            .filter(|(n, _)| !nodes.iter().any(|c| c.parent == Some(*n)))
            .map(|(n, s)| (nodes[n.index()].label, *s))
            .collect()
    }
}

impl Observer for Rec {
    fn entered(&mut self, node: NodeId) {
        self.entered.push(node);
    }
    fn ticked(&mut self, node: NodeId, status: Status) {
        self.ticks.push((node, status));
    }
    fn halted(&mut self, node: NodeId) {
        self.halted.push(node);
    }
}

/// The id of the `nth` node (from 0) whose label starts with `label`.
pub fn node(nodes: &[NodeInfo], label: &str, nth: usize) -> NodeId {
    nodes
        .iter()
        .filter(|n| n.label.starts_with(label))
        .nth(nth)
        .unwrap_or_else(|| panic!("no node #{nth} labelled {label:?}"))
        .id
}

pub const S: Status = Status::Success;
pub const F: Status = Status::Failure;
pub const R: Status = Status::Running;

//! The live status of every node, kept up to date from a tree's events.

use behaved_runtime::{NodeId, Observer, Status};

use crate::{Error, Event, NodeRow, NodeState, table};

/// An [`Observer`] that keeps the current [`NodeState`] of every node: the
/// picture a debugger draws over the tree.
///
/// # The rules
/// Every node starts [idle](NodeState::Idle). Then, event by event:
/// - `ticked(n, Running)`: `n` shows `running`.
/// - `ticked(n, Success | Failure)`: `n`'s activation has ended, so every
///   descendant of `n` becomes idle; `n` shows the status.
/// - `halted(n)`: `n` and every descendant of `n` become idle.
/// - `tick_started`, `entered` and `tick_finished` change no node's state
///   (they update [`tick`](Self::tick), [`now`](Self::now) and
///   [`root_status`](Self::root_status)).
///
/// So the root shows what the last tick returned; the running nodes form the
/// active path from the root; and a child that completed while its parent
/// goes on (a sequence's finished steps, a reactive node's condition, a
/// parallel's finished branch) keeps showing its status until that parent
/// completes or is halted, or the child is ticked again. This is what
/// BehaviorTree.CPP's loggers show, without its separate `idle` resets.
///
/// Updating costs O(1) per event plus one write per descendant when a node
/// completes or halts; it never allocates.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusSnapshot {
    states: Vec<NodeState>,
    ends: Vec<u32>,
    tick: u64,
    now: Option<f64>,
    root_status: Option<Status>,
    unknown: u64,
}

/// Why a node's state changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cause {
    /// The node returned a status.
    Ticked,
    /// The node was halted.
    Halted,
    /// An ancestor completed or was halted.
    Ended,
}

/// One node's state change, reported by [`StatusSnapshot::apply`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Change {
    pub node: usize,
    pub from: NodeState,
    pub to: NodeState,
    pub cause: Cause,
}

impl StatusSnapshot {
    /// An all-idle snapshot for the tree whose node table is `nodes`
    /// (`MyTree::NODES`, or the [`nodes`](crate::Trace::nodes) of a trace).
    /// Fails if the table is not a valid depth-first pre-order table.
    pub fn new<R: NodeRow>(nodes: &[R]) -> Result<StatusSnapshot, Error> {
        let ends = table::subtree_ends(nodes)?;
        Ok(StatusSnapshot {
            states: vec![NodeState::Idle; ends.len()],
            ends,
            tick: 0,
            now: None,
            root_status: None,
            unknown: 0,
        })
    }

    /// The state of every node, indexed by node id.
    pub fn statuses(&self) -> &[NodeState] {
        &self.states
    }

    /// The state of one node; `None` if the tree has no such node.
    pub fn status(&self, node: NodeId) -> Option<NodeState> {
        self.states.get(node.index()).copied()
    }

    /// The nodes showing `running`, in id order: the active path(s) from the root.
    pub fn running(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.states
            .iter()
            .enumerate()
            .filter(|(_, s)| **s == NodeState::Running)
            .map(|(i, _)| NodeId(i as u32))
    }

    /// The number of the last tick started (ticks count from 1; 0 before the first).
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// The time of the last tick started; `None` before the first.
    pub fn now(&self) -> Option<f64> {
        self.now
    }

    /// What the root returned at the end of the last finished tick.
    pub fn root_status(&self) -> Option<Status> {
        self.root_status
    }

    /// How many events named a node id outside the table (the observer was
    /// given to a different tree). Such events are otherwise ignored.
    pub fn unknown_events(&self) -> u64 {
        self.unknown
    }

    /// Applies one recorded event (of a [`Trace`](crate::Trace)), as the
    /// observer calls of the run that recorded it did: the way to the states
    /// at any point inside a tick, where a [`Cursor`](crate::Cursor) stops
    /// only between ticks.
    pub fn replay(&mut self, event: &Event) {
        self.apply(event, |_| {});
    }

    /// Applies one event, reporting each node whose state changes to `changed`
    /// (descendants before the node itself).
    pub(crate) fn apply(&mut self, event: &Event, mut changed: impl FnMut(Change)) {
        match *event {
            Event::TickStarted { tick, now } => {
                self.tick = tick;
                self.now = Some(now);
            }
            Event::Entered { node } => {
                if node.index() >= self.states.len() {
                    self.unknown += 1;
                }
            }
            Event::Ticked { node, status } => {
                let Some(i) = self.known(node) else { return };
                if status.is_done() {
                    self.idle_descendants(i, &mut changed);
                }
                self.set(i, status.into(), Cause::Ticked, &mut changed);
            }
            Event::Halted { node } => {
                let Some(i) = self.known(node) else { return };
                self.idle_descendants(i, &mut changed);
                self.set(i, NodeState::Idle, Cause::Halted, &mut changed);
            }
            Event::TickFinished { status } => self.root_status = Some(status),
            // A score changes no node's state.
            Event::Scored { .. } | Event::Considered { .. } => {}
        }
    }

    /// Replaces every node's state and the tick it belongs to (time travel).
    pub(crate) fn load(&mut self, states: &[NodeState], tick: u64, now: Option<f64>) {
        self.states.copy_from_slice(states);
        self.tick = tick;
        self.now = now;
    }

    fn known(&mut self, node: NodeId) -> Option<usize> {
        let i = node.index();
        if i < self.states.len() {
            Some(i)
        } else {
            self.unknown += 1;
            None
        }
    }

    fn idle_descendants(&mut self, i: usize, changed: &mut impl FnMut(Change)) {
        for d in i + 1..self.ends[i] as usize {
            self.set(d, NodeState::Idle, Cause::Ended, changed);
        }
    }

    fn set(&mut self, i: usize, to: NodeState, cause: Cause, changed: &mut impl FnMut(Change)) {
        let from = self.states[i];
        if from != to {
            self.states[i] = to;
            changed(Change {
                node: i,
                from,
                to,
                cause,
            });
        }
    }
}

impl Observer for StatusSnapshot {
    fn tick_started(&mut self, now: f64) {
        let tick = self.tick + 1;
        self.apply(&Event::TickStarted { tick, now }, |_| {});
    }
    fn entered(&mut self, node: NodeId) {
        self.apply(&Event::Entered { node }, |_| {});
    }
    fn ticked(&mut self, node: NodeId, status: Status) {
        self.apply(&Event::Ticked { node, status }, |_| {});
    }
    fn halted(&mut self, node: NodeId) {
        self.apply(&Event::Halted { node }, |_| {});
    }
    fn tick_finished(&mut self, status: Status) {
        self.apply(&Event::TickFinished { status }, |_| {});
    }
}

//! A loaded tree: immutable, shared by every agent that runs it. The nodes are
//! one flat array in depth-first pre-order (subtrees inlined after their
//! subtree node), each with a range of child ids and the offsets of its
//! running state in an agent's arrays.

use std::sync::Arc;

use bt_runtime::{NodeId, NodeKind};

use crate::registry::{CondBox, KeyRef, Spawn, ValueBox};

/// What a flat node does (the catalogue kind, with the reactive and threshold
/// variants already told apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Sequence,
    Selector,
    ReactiveSequence,
    ReactiveSelector,
    Parallel,
    ParallelMain,
    Random,
    Weighted,
    Shuffle,
    If,
    ReactiveIf,
    Match,
    ReactiveMatch,
    Loop,
    Repeat,
    Retry,
    While,
    UntilFail,
    UntilSuccess,
    Break,
    Continue,
    Invert,
    ForceSuccess,
    ForceFailure,
    Timeout,
    Delay,
    Cooldown,
    Limit,
    RunOnce,
    AbortIf,
    Scope,
    Success,
    Failure,
    Running,
    Wait,
    Condition,
    Action,
    Subtree,
}

/// One node of the flat array. `a`, `b` and `leaf` mean, by op:
/// parallel: successes needed, failures that fail; weighted: start of its
/// cumulative weights, their total; if: number of branches, has else;
/// match: start and count of its keys, `leaf` = value index; repeat, retry,
/// limit: the count; break/continue: `leaf` = target loop id; condition,
/// action: `leaf` = leaf index.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Flat {
    pub op: Op,
    /// Number of children.
    pub n: u32,
    /// First entry of the children in `Definition::kids`.
    pub kids: u32,
    /// First word of the node's state in `State::ints`.
    pub slot: u32,
    /// The node's timestamp in `State::times`.
    pub time: u32,
    pub a: u32,
    pub b: u32,
    pub leaf: u32,
    /// Index of the node's hook actions in `Definition::hooks`, `NO_HOOK` for none.
    pub hooks: u32,
    /// Duration in seconds (timing nodes).
    pub secs: f64,
}

/// One row of a loaded tree's node table: what the compiled trees' `NodeInfo`
/// holds, with owned text and the JSON provenance of the node.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeRow {
    /// Position in depth-first pre-order; equal to the row's index.
    pub id: NodeId,
    /// The parent node; `None` for the root.
    pub parent: Option<NodeId>,
    /// What kind of node this is.
    pub kind: NodeKind,
    /// A short label (`sequence`, `repeater(3)`, `dialogue`, `wait(1.5)`).
    pub label: String,
    /// The node's `"name"` in the JSON, if any.
    pub name: Option<String>,
    /// The node's `"id"` in the JSON, if any.
    pub json_id: Option<String>,
    /// Where the node is written: its JSON path, `subtrees["id"]..` inside a library subtree.
    pub path: String,
}

#[cfg(feature = "observe")]
impl bt_observe::NodeRow for NodeRow {
    fn id(&self) -> u32 {
        self.id.0
    }
    fn parent(&self) -> Option<u32> {
        self.parent.map(|p| p.0)
    }
    fn kind(&self) -> NodeKind {
        self.kind
    }
    fn label(&self) -> &str {
        &self.label
    }
    /// JSON keeps no line numbers: 0 (unknown).
    fn line(&self) -> u32 {
        0
    }
}

/// A `match` key as stored in a definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StoredKey {
    Int(i64),
    Str(Box<str>),
    Bool(bool),
}

impl StoredKey {
    #[inline]
    pub(crate) fn matches(&self, k: KeyRef<'_>) -> bool {
        match (self, k) {
            (StoredKey::Int(a), KeyRef::Int(b)) => *a == b,
            (StoredKey::Str(a), KeyRef::Str(b)) => **a == *b,
            (StoredKey::Bool(a), KeyRef::Bool(b)) => *a == b,
            _ => false,
        }
    }
}

/// A tree loaded from JSON and checked: immutable, and shared (in an `Arc`) by
/// any number of [`Agent`](crate::Agent)s, each of which owns only its running state.
pub struct Definition<C: 'static> {
    pub(crate) nodes: Vec<Flat>,
    pub(crate) kids: Vec<u32>,
    pub(crate) weights: Vec<u32>,
    /// `match` keys with the case each selects.
    pub(crate) keys: Vec<(StoredKey, u32)>,
    /// Lifecycle hooks of nodes (enter, success, failure, exit): indices into the agent's actions, `u32::MAX` for none.
    pub(crate) hooks: Vec<[u32; 4]>,
    pub(crate) conds: Vec<CondBox<C>>,
    pub(crate) values: Vec<ValueBox<C>>,
    pub(crate) actions: Vec<Arc<dyn Spawn<C>>>,
    pub(crate) table: Vec<NodeRow>,
    /// Initial values of an agent's state words and timestamps.
    pub(crate) ints: usize,
    pub(crate) times: Vec<f64>,
}

impl<C: 'static> Definition<C> {
    /// The node table: one row per node in depth-first pre-order, subtrees
    /// inlined after their subtree node, exactly as in compiled trees.
    pub fn nodes(&self) -> &[NodeRow] {
        &self.table
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Always `false`: a tree has at least its root.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// The bytes of running state each agent of this tree owns, besides its
    /// action leaves' own data: state words, timestamps and the RNG.
    pub fn state_bytes(&self) -> usize {
        self.ints * 4 + self.times.len() * 8 + 8 + 1
    }

    /// The number of action leaves each agent owns (one boxed value each).
    pub fn action_count(&self) -> usize {
        self.actions.len()
    }

    /// The node with JSON `"id"` `id`, if any (the first, in pre-order).
    pub fn find(&self, id: &str) -> Option<NodeId> {
        self.table
            .iter()
            .find(|r| r.json_id.as_deref() == Some(id))
            .map(|r| r.id)
    }
}

impl<C: 'static> core::fmt::Debug for Definition<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Definition")
            .field("nodes", &self.table.len())
            .field("state_bytes", &self.state_bytes())
            .field("actions", &self.actions.len())
            .finish_non_exhaustive()
    }
}

//! A loaded tree: immutable, shared by every agent that runs it. The nodes are
//! one flat array in depth-first pre-order (subtrees inlined after their
//! subtree node). What the tick loop reads is a compact 16-byte record per
//! node ([`Node`]: kind, end of its subtree, state offset, one argument);
//! everything else (child lists, thresholds, durations, hooks) is in a
//! second, colder array ([`Flat`]) that only the rarer node kinds read.

use behaved_runtime::{NodeId, NodeKind};

use crate::leaves::{CondBox, KeyRef, Prototypes, ValueBox};

/// No hook in this position (`Flat::hooks`, `Definition::hooks`).
pub(crate) const NO_HOOK: u32 = u32::MAX;

/// The hot record of a node, all the tick loop reads: 16 bytes.
///
/// The children of a node are `id + 1` and then each child's `end` until the
/// node's own `end` (pre-order), so sequences and selectors walk their
/// children without a child list, and keep the id of their running child as
/// their resume point. `slot` and `arg` mean, by op: composites, loops,
/// `delay`: `slot` = first state word; `repeater`, `retry`, `limit`: `arg` =
/// the count; `wait`, `timeout`, `delay`, `cooldown`: `arg` = the timestamp
/// (and duration) index; condition: `arg` = condition index; action: `slot` =
/// leaf column, `arg` = index in it; `break`/`continue`: `arg` = target loop.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    /// How the tick loop runs the node.
    pub fast: Fast,
    /// The node has lifecycle hooks (`Flat::hooks`).
    pub hooked: bool,
    /// The id after this node's subtree: its next sibling, if it has one.
    pub end: u32,
    pub slot: u32,
    pub arg: u32,
}

/// The full description of a node (the cold part). `a`, `b` and `leaf` mean, by op:
/// parallel: successes needed, failures that fail; weighted: start of its
/// cumulative weights, their total; if: number of branches, has else;
/// match: start and count of its keys, `leaf` = value index; repeat, retry,
/// limit: the count; break/continue: `leaf` = target loop id; condition,
/// action: `leaf` = leaf index in its column, `b` = the column.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Flat {
    /// The node's kind.
    pub op: NodeKind,
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

impl Flat {
    /// Whether the node keeps a time in `State::times` (`Flat::time`): the
    /// timing nodes, and the interval `utility` (the time it last scored;
    /// only it, of the other kinds, has `secs` above 0).
    pub(crate) fn has_timer(&self) -> bool {
        self.op.is_timed() || (self.op == NodeKind::Utility && self.secs > 0.0)
    }
}

/// The kinds the tick loop runs with code of their own, when they have no
/// hooks; `Other` is everything else (see `Flat::op`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Fast {
    Condition,
    Action,
    Wait,
    Sequence,
    Selector,
    ReactiveSequence,
    ReactiveSelector,
    Loop,
    UntilFail,
    UntilSuccess,
    /// A sequence or selector, plain or reactive, whose children are all
    /// conditions, actions and waits without hooks: its children are
    /// consecutive nodes, ticked in place by one loop over them.
    LeafSequence,
    LeafSelector,
    LeafReactiveSequence,
    LeafReactiveSelector,
    Other,
}

impl Fast {
    /// A condition, action or wait without hooks.
    pub(crate) fn is_leaf(self) -> bool {
        matches!(self, Fast::Condition | Fast::Action | Fast::Wait)
    }
}

/// The interpreter runs every kind of the catalogue (`NodeKind` is
/// `#[non_exhaustive]` for other crates, so its matches need a last arm; the
/// differential test generates every kind of `NodeKind::ALL`, so a kind
/// added to the catalogue and not here fails it).
pub(crate) const UNKNOWN_KIND: &str = "a node kind the interpreter does not run";

/// One row of a loaded tree's node table: what the compiled trees' `NodeInfo`
/// holds, with owned text and the JSON provenance of the node.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedNode {
    /// Position in depth-first pre-order; equal to the row's index.
    pub id: NodeId,
    /// The parent node; `None` for the root.
    pub parent: Option<NodeId>,
    /// What kind of node this is.
    pub kind: NodeKind,
    /// A short label (`sequence`, `repeat(3)`, `dialogue`, `wait(1.5)`), as
    /// `behave!` labels the same node (`SEMANTICS.md`, "Labels").
    pub label: String,
    /// The node's `"name"` in the JSON, if any.
    pub name: Option<String>,
    /// The node's `"id"` in the JSON, if any.
    pub json_id: Option<String>,
    /// Where the node is written: its JSON path, `subtrees["id"]..` inside a library subtree.
    pub path: String,
}

impl behaved_runtime::NodeRow for LoadedNode {
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
    fn name(&self) -> Option<&str> {
        self.name.as_deref()
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
    /// The hot records, one per node.
    pub(crate) nodes: Vec<Node>,
    /// The full descriptions, one per node.
    pub(crate) cold: Vec<Flat>,
    pub(crate) kids: Vec<u32>,
    pub(crate) weights: Vec<u32>,
    /// `match` keys with the case each selects.
    pub(crate) keys: Vec<(StoredKey, u32)>,
    /// Lifecycle hooks of nodes (enter, success, failure, exit, pre-tick,
    /// tick, reset): (column,
    /// index) of an action leaf, column `NO_HOOK` for none.
    pub(crate) hooks: Vec<[(u32, u32); 7]>,
    pub(crate) conds: Vec<CondBox<C>>,
    /// The scores of the `utility` nodes (`Flat::a` of one is its index here).
    pub(crate) scoring: crate::utility::Scoring<C>,
    pub(crate) values: Vec<ValueBox<C>>,
    /// The lists of `forEach` nodes (by the node's `leaf` index), each with its `max`.
    pub(crate) lists: Vec<(std::sync::Arc<dyn crate::leaves::ListKind<C>>, u32)>,
    /// The action leaves, one column per registered action name used.
    pub(crate) columns: Vec<(String, Box<dyn Prototypes<C>>)>,
    /// The number of action leaves (hooks included).
    pub(crate) actions: usize,
    pub(crate) table: Vec<LoadedNode>,
    /// The number of an agent's state words.
    pub(crate) ints: usize,
    /// Initial timestamps of an agent's timing nodes.
    pub(crate) times: Vec<f64>,
    /// The duration of each timing node, by timestamp index.
    pub(crate) secs: Vec<f64>,
    /// A hash of the tree's shape (see [`Definition::fingerprint`]).
    pub(crate) fingerprint: u64,
    /// The most leaf ticks one tick can make (see [`Definition::tick_work`]).
    pub(crate) tick_work: u64,
    /// What each node reads when a reactive node checks it again (`reads.rs`).
    pub(crate) pure: Vec<Option<behaved_runtime::Reads>>,
    /// The blackboard entries each leaf with ports reads and writes
    /// (`flow.rs`), by node id, in id order.
    pub(crate) entries: Vec<(u32, Vec<String>, Vec<String>)>,
}

impl<C: 'static> Definition<C> {
    /// The node table: one row per node in depth-first pre-order, subtrees
    /// inlined after their subtree node, exactly as in compiled trees.
    pub fn nodes(&self) -> &[LoadedNode] {
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
    /// action leaves: state words, timestamps, the RNG and the running flag.
    pub fn state_bytes(&self) -> usize {
        self.ints * 4 + self.times.len() * 8 + 8 + 1
    }

    /// The number of action leaves each agent owns (hooks included), kept by
    /// kind in one array per registered action name.
    pub fn action_count(&self) -> usize {
        self.actions
    }

    /// A hash of the tree's shape: every node's kind, label, parameters
    /// (leaf types and their parameters, counts, durations, thresholds,
    /// weights, `match` keys, loop labels), hooks and place in the tree,
    /// subtrees inlined, and the version of the saved-state layout. The
    /// JSON `"name"` and `"id"` fields are not part of it: they change no
    /// behaviour. A saved agent carries it, and loading it into a definition
    /// with another fingerprint is an error.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The most leaf ticks (conditions, actions, waits, constant leaves,
    /// jumps, `match` value reads and hooks) that one tick of this tree can
    /// make: bounded loops' counts multiplied along each path, times the
    /// leaves they tick (SEMANTICS.md, "Work per tick"). A tree above
    /// [`Registry::max_tick_work`](crate::Registry::max_tick_work) does not load.
    pub fn tick_work(&self) -> u64 {
        self.tick_work
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
            .field("actions", &self.actions)
            .finish_non_exhaustive()
    }
}

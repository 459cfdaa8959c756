//! The JSON form of a tree as typed data: ADR-017's model extended with every
//! node of the catalogue. A [`Node`] is always well formed: the decoder
//! ([`Node::parse`], [`Node::from_json`], in `decode.rs`) checks a document's
//! shape and reports every problem at its JSON path, and a node built in code
//! goes through [`Node::new`], which checks that its kind, parameters and
//! children agree. The writer ([`Node::to_json`]) is in `encode.rs`, the
//! messages' pieces in [`crate::messages`]. Leaf types are only names here:
//! the registry resolves them at load time.

use behaved_runtime::catalog::{NodeKind, Parameters, Slots};
use serde_json::{Map, Value};

use crate::error::path;

/// One node of a tree, with its children in node-table order.
///
/// Its kind, parameters and children always agree (a `repeater` has a
/// positive count and one child, a `weighted` one weight per child, an `if`'s
/// conditions are condition nodes): the decoder builds only such nodes, and
/// [`Node::new`] refuses the others. The fields are read through methods.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What kind of node this is.
    pub(crate) kind: NodeKind,
    /// ADR-017's optional node id (an editor's handle; unique within a tree).
    pub(crate) id: Option<String>,
    /// ADR-017's optional human-readable name, shown in traces.
    pub(crate) name: Option<String>,
    /// A loop's label, or the label a `break`/`continue` targets.
    pub(crate) label: Option<String>,
    /// Lifecycle hooks (`onEnter`, `onSuccess`, `onFailure`, `onExit`), allowed on any node.
    pub(crate) hooks: Option<Box<Hooks>>,
    /// The kind's parameters.
    pub(crate) params: Params,
    /// A `subtree`'s blackboard remapping (see [`Node::remap`]).
    pub(crate) remap: Option<Box<Remap>>,
    /// The children in node-table order (see [`Node::children`]).
    pub(crate) children: Vec<Node>,
}

/// A `subtree`'s blackboard remapping (BT.CPP's `<SubTree ID="Approach"
/// goal="{target}"/>`): each entry key the subtree's leaves name, to the
/// key of the using tree's entry it stands for. Keys it does not list are
/// the using tree's of the same name.
pub type Remap = std::collections::BTreeMap<String, String>;

/// Why [`Node::new`] or [`Node::with_loop_label`] refused a node: its kind,
/// parameters and children disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeError(String);

/// The most children a `parallel`, `parallelMain` or `shuffle` can have: the
/// compiled form tracks them one bit each in a `u128`, and JSON keeps the
/// same limit so that both forms accept the same trees.
pub const MAX_PARALLEL: usize = 128;

/// Whether `kind` has at most [`MAX_PARALLEL`] children.
pub(crate) fn is_parallel_like(kind: NodeKind) -> bool {
    matches!(kind, NodeKind::Parallel | NodeKind::ParallelMain | NodeKind::Shuffle)
}

impl core::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ShapeError {}

impl Node {
    /// A node of `kind` with `params` and `children` (in the order
    /// [`Node::children`] gives), or why they do not fit together: the
    /// parameters must be the kind's own ([`Params::None`] for a kind without
    /// any), counts, weights and thresholds positive and within the number of
    /// children, durations finite and not negative, and the children as many
    /// as the kind takes, with condition nodes where `if`, `while`, `abortIf`
    /// and `latch` need them. Ids, names, loop labels and hooks are added with
    /// the `with_` methods.
    ///
    /// ```
    /// use behaved_format::model::{Node, Params};
    /// use behaved_runtime::NodeKind;
    ///
    /// let wait = Node::new(NodeKind::Wait, Params::Seconds(1.0), vec![])?;
    /// let tree = Node::new(NodeKind::Repeat, Params::Count(2), vec![wait.clone()])?;
    /// assert_eq!(tree.label(), "repeat(2)");
    /// assert!(Node::new(NodeKind::Repeat, Params::None, vec![wait]).is_err());
    /// assert!(Node::new(NodeKind::Sequence, Params::None, vec![]).is_err());
    /// # Ok::<(), behaved_format::model::ShapeError>(())
    /// ```
    pub fn new(kind: NodeKind, params: Params, children: Vec<Node>) -> Result<Node, ShapeError> {
        let node = Node {
            kind,
            id: None,
            name: None,
            label: None,
            hooks: None,
            params,
            remap: None,
            children,
        };
        if node.well_formed() {
            Ok(node)
        } else {
            Err(ShapeError(format!(
                "malformed {:?} node: wrong children ({}) or parameters for its kind",
                kind.json_name(),
                node.children.len()
            )))
        }
    }

    /// This node with the id `id` (ADR-017's editor handle).
    pub fn with_id(mut self, id: impl Into<String>) -> Node {
        self.id = Some(id.into());
        self
    }

    /// This node with the human-readable name `name`, shown in traces.
    pub fn with_name(mut self, name: impl Into<String>) -> Node {
        self.name = Some(name.into());
        self
    }

    /// This node with lifecycle hooks (allowed on any node).
    pub fn with_hooks(mut self, hooks: Hooks) -> Node {
        self.hooks = Some(Box::new(hooks));
        self
    }

    /// This `subtree` with its blackboard entries remapped: each key of
    /// `remap` (an entry the subtree's leaves name) stands for the using
    /// tree's entry its value names; an empty map is no remapping. Other
    /// kinds take none.
    pub fn with_remap(mut self, remap: Remap) -> Result<Node, ShapeError> {
        if self.kind != NodeKind::Subtree {
            return Err(ShapeError(format!(
                "{:?} takes no \"remap\": only \"subtree\" does",
                self.kind.json_name()
            )));
        }
        if remap.iter().any(|(k, v)| k.is_empty() || v.is_empty()) {
            return Err(ShapeError(
                "a \"remap\" names entries: no key or value may be empty".into(),
            ));
        }
        self.remap = (!remap.is_empty()).then(|| Box::new(remap));
        Ok(self)
    }

    /// A `subtree`'s blackboard remapping: the subtree's entry keys (its
    /// leaves' `{"$entry": key}`) to the using tree's; `None` when every
    /// key is the using tree's of the same name.
    pub fn remap(&self) -> Option<&Remap> {
        self.remap.as_deref()
    }

    /// This loop with the label `label`, or this `break`/`continue` aimed
    /// at the loop labelled so; other kinds take no label.
    pub fn with_loop_label(mut self, label: impl Into<String>) -> Result<Node, ShapeError> {
        if self.kind.fields().contains(&"label") {
            self.label = Some(label.into());
            Ok(self)
        } else {
            Err(ShapeError(format!(
                "{:?} takes no \"label\": only loops, \"break\" and \"continue\" do",
                self.kind.json_name()
            )))
        }
    }

    /// What kind of node this is.
    pub fn kind(&self) -> NodeKind {
        self.kind
    }

    /// ADR-017's optional node id (an editor's handle; unique within a tree).
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// ADR-017's optional human-readable name, shown in traces.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// A loop's label, or the label a `break`/`continue` targets.
    pub fn loop_label(&self) -> Option<&str> {
        self.label.as_deref()
    }

    /// The lifecycle hooks, if the node has any.
    pub fn hooks(&self) -> Option<&Hooks> {
        self.hooks.as_deref()
    }

    /// The kind's parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The children in node-table (depth-first pre-order) order. For `if`:
    /// condition 0, branch 0, condition 1, branch 1, .., then the `else`
    /// branch; for `while`, `abortIf` and `latch`: the condition, then the
    /// body; for `match`: the cases' children, then the default.
    pub fn children(&self) -> &[Node] {
        &self.children
    }

    /// Whether the kind, parameters and children agree (see [`Node::new`]):
    /// the parameters are the kind's (the catalogue's [`NodeKind::params`]),
    /// the children sit as its [`NodeKind::slots`] say, and the values fit.
    pub(crate) fn well_formed(&self) -> bool {
        let n = self.children.len();
        let is_cond = |i: usize| self.children.get(i).is_some_and(|c| c.kind == NodeKind::Condition);
        let children = match self.kind.slots() {
            Slots::None => n == 0,
            Slots::Child => n == 1,
            Slots::Children => n >= 1 && (n <= MAX_PARALLEL || !is_parallel_like(self.kind)),
            Slots::ConditionChild => n == 2 && is_cond(0),
            Slots::Branches => {
                let has_else = matches!(self.params, Params::Branches { has_else: true });
                let pairs = n.saturating_sub(usize::from(has_else));
                pairs >= 2 && pairs.is_multiple_of(2) && (0..pairs).step_by(2).all(is_cond)
            }
            Slots::Cases => matches!(&self.params, Params::Match { cases, .. } if n == cases.len() + 1),
        };
        let values = match &self.params {
            Params::Parallel(p) => {
                let (s, f) = p.thresholds(n as u32);
                (1..=n as u32).contains(&s)
                    && (1..=n as u32).contains(&f)
                    && !matches!(
                        p,
                        Policy::Thresholds { success: Some(0), .. } | Policy::Thresholds { failure: Some(0), .. }
                    )
            }
            Params::Weights(w) => {
                w.len() == n
                    && w.iter().all(|&x| x >= 1)
                    && w.iter().map(|&x| u64::from(x)).sum::<u64>() <= u64::from(u32::MAX)
            }
            Params::Match { cases, .. } => cases.iter().all(|c| !c.is_empty()),
            Params::Utility { scores, .. } => scores.len() == n && scores.iter().all(crate::utility::Score::is_valid),
            Params::Count(c) | Params::ForEach { max: c, .. } => *c >= 1,
            Params::Pick { max, score, .. } => *max >= 1 && score.is_valid(),
            Params::Seconds(s) => s.is_finite() && *s >= 0.0,
            Params::None | Params::Branches { .. } | Params::Leaf(_) | Params::Subtree(_) => true,
        };
        self.params.shape() == self.kind.params() && children && values
    }
}

impl Params {
    /// Which of the catalogue's kinds of parameters these are.
    pub fn shape(&self) -> Parameters {
        match self {
            Params::None => Parameters::None,
            Params::Parallel(_) => Parameters::Policy,
            Params::Weights(_) => Parameters::Weights,
            Params::Utility { .. } => Parameters::Utility,
            Params::Branches { .. } => Parameters::Branches,
            Params::Match { .. } => Parameters::Cases,
            Params::Count(_) => Parameters::Count,
            Params::Seconds(_) => Parameters::Seconds,
            Params::Leaf(_) => Parameters::Leaf,
            Params::Subtree(_) => Parameters::Subtree,
            Params::ForEach { .. } => Parameters::ForEach,
            Params::Pick { .. } => Parameters::Pick,
        }
    }
}

/// The parameters of a node, by kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Params {
    /// Kinds without parameters.
    None,
    /// `parallel`: its policy.
    Parallel(Policy),
    /// `weighted`: one weight per child.
    Weights(Vec<u32>),
    /// `utility`: how it chooses and one score per child.
    Utility {
        /// How it chooses.
        choice: crate::utility::Choice,
        /// One score per child.
        scores: Vec<crate::utility::Score>,
    },
    /// `if`/`reactiveIf`: whether the last child is an `else` branch.
    Branches {
        /// The last child is the `else` branch.
        has_else: bool,
    },
    /// `match`/`reactiveMatch`: the value looked at, and the keys of each case
    /// (the last child, the default, has none).
    Match {
        /// The registered value leaf.
        value: Leaf,
        /// For each case child, the keys that choose it.
        cases: Vec<Vec<Key>>,
    },
    /// `repeater`, `retry`, `limit`: the count.
    Count(u32),
    /// `wait`, `timeout`, `delay`, `cooldown`: the duration in seconds.
    Seconds(f64),
    /// `condition`, `action`: the user's leaf.
    Leaf(Leaf),
    /// `subtree`: the id of the subtree in the library.
    Subtree(String),
    /// `forEach`: the registered list its items are read from, and the most
    /// items it holds.
    ForEach {
        /// The registered list leaf (`"items"`).
        items: Leaf,
        /// The most items the loop holds (`"max"`).
        max: u32,
    },
    /// `pick`: the registered list its candidates are read from, the most it
    /// holds, and the score of one candidate (its considerations read the
    /// candidate the list selects in the context).
    Pick {
        /// The registered list leaf (`"items"`).
        items: Leaf,
        /// The most candidates it holds (`"max"`).
        max: u32,
        /// The score of one candidate (`"score"`).
        score: crate::utility::Score,
    },
}

/// A parallel's policy as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// ADR-017 `"requireAll"`: success when all children succeed, failure on the first failure.
    RequireAll,
    /// ADR-017 `"requireOne"`: success on the first success, failure when all fail.
    RequireOne,
    /// Explicit thresholds; a missing one means "all children".
    Thresholds {
        /// Successes needed.
        success: Option<u32>,
        /// Failures that fail the parallel.
        failure: Option<u32>,
    },
}

impl Policy {
    /// The thresholds `(successes needed, failures that fail)` for `n` children.
    pub fn thresholds(self, n: u32) -> (u32, u32) {
        match self {
            Policy::RequireAll => (n, 1),
            Policy::RequireOne => (1, n),
            Policy::Thresholds { success, failure } => (success.unwrap_or(n), failure.unwrap_or(n)),
        }
    }
}

/// A user leaf: the registered type name and its parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaf {
    /// The registered name (`"dialogue"`, `"timeOfDay"`).
    pub type_name: String,
    /// The other fields of the leaf object.
    pub params: Map<String, Value>,
}

/// A key of a `match` case.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    /// An integer.
    Int(i64),
    /// A string.
    Str(String),
    /// A boolean.
    Bool(bool),
}

/// The lifecycle hooks of a node (each an action leaf, ticked once, its
/// status ignored), as the DSL's `#[on_enter(..)]` .. `#[on_exit(..)]`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Hooks {
    /// Before the child's first tick of an activation.
    pub on_enter: Option<Leaf>,
    /// When the child succeeds.
    pub on_success: Option<Leaf>,
    /// When the child fails.
    pub on_failure: Option<Leaf>,
    /// After success or failure, and when halted.
    pub on_exit: Option<Leaf>,
    /// On every tick of the node, before its own work.
    pub on_pre_tick: Option<Leaf>,
    /// On every tick of the node, after its own work.
    pub on_tick: Option<Leaf>,
    /// When the agent is reset, whatever the node's state.
    pub on_reset: Option<Leaf>,
}

impl Hooks {
    /// The JSON field names, in the order of [`Hooks::all`].
    pub const FIELDS: [&'static str; 7] = [
        "onEnter",
        "onSuccess",
        "onFailure",
        "onExit",
        "onPreTick",
        "onTick",
        "onReset",
    ];

    /// The hooks in the order of [`Hooks::FIELDS`].
    pub fn all(&self) -> [&Option<Leaf>; 7] {
        [
            &self.on_enter,
            &self.on_success,
            &self.on_failure,
            &self.on_exit,
            &self.on_pre_tick,
            &self.on_tick,
            &self.on_reset,
        ]
    }

    /// The hooks in the order of [`Hooks::FIELDS`], to fill in.
    pub fn all_mut(&mut self) -> [&mut Option<Leaf>; 7] {
        [
            &mut self.on_enter,
            &mut self.on_success,
            &mut self.on_failure,
            &mut self.on_exit,
            &mut self.on_pre_tick,
            &mut self.on_tick,
            &mut self.on_reset,
        ]
    }
}

impl Node {
    /// The path segment of child `i` below this node (`children[1]`, `child`,
    /// `branches[0].then`, ...), as written in the JSON.
    pub fn child_path(&self, at: &str, i: usize) -> String {
        match self.kind.slots() {
            Slots::Branches => {
                let has_else = matches!(self.params, Params::Branches { has_else: true });
                if has_else && i + 1 == self.children.len() {
                    path::field(at, "else")
                } else {
                    let b = path::index(&path::field(at, "branches"), i / 2);
                    path::field(&b, if i.is_multiple_of(2) { "if" } else { "then" })
                }
            }
            Slots::Cases => {
                if i + 1 == self.children.len() {
                    path::field(at, "default")
                } else {
                    path::field(&path::index(&path::field(at, "cases"), i), "child")
                }
            }
            Slots::ConditionChild if i == 0 => path::field(at, "condition"),
            Slots::Children => path::index(&path::field(at, "children"), i),
            Slots::ConditionChild | Slots::Child | Slots::None => path::field(at, "child"),
        }
    }
}

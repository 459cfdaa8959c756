//! The static description of a tree's nodes, emitted by `behave!` at compile time.

use crate::{NodeId, NodeKind};

/// One row of a tree's node table: everything a tool needs to draw the tree
/// without running it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NodeInfo {
    /// Position in depth-first pre-order; equal to the row's index.
    pub id: NodeId,
    /// The parent node; `None` for the root.
    pub parent: Option<NodeId>,
    /// What kind of node this is.
    pub kind: NodeKind,
    /// The node's short label (`wait(1.0)`, `FaceTarget`, `repeat(3)`), the
    /// same whichever form wrote the tree (`SEMANTICS.md`, "Labels").
    pub label: &'static str,
    /// The line of the source file where the node is written (0 if unknown).
    pub line: u32,
}

impl NodeInfo {
    /// A row used to fill a table before it is written (never visible in a finished table).
    #[doc(hidden)]
    pub const PLACEHOLDER: NodeInfo = NodeInfo {
        id: NodeId(0),
        parent: None,
        kind: NodeKind::Success,
        label: "",
        line: 0,
    };
}

/// The children of `id` in `table`, in order.
pub fn children(table: &[NodeInfo], id: NodeId) -> impl Iterator<Item = &NodeInfo> {
    table.iter().filter(move |n| n.parent == Some(id))
}

/// The number of ancestors of `id` (0 for the root).
pub fn depth(table: &[NodeInfo], id: NodeId) -> usize {
    let mut depth = 0;
    let mut at = table[id.index()].parent;
    while let Some(p) = at {
        depth += 1;
        at = table[p.index()].parent;
    }
    depth
}

/// Copies `sub`'s table into `table` from row `at`, renumbering its ids and
/// hanging its root under `parent`. Returns the next free row. `behave!` uses it
/// to inline a subtree's nodes into its parent's table at compile time.
#[doc(hidden)]
pub const fn splice(table: &mut [NodeInfo], at: usize, sub: &[NodeInfo], parent: NodeId) -> usize {
    let mut i = 0;
    while i < sub.len() {
        let row = sub[i];
        table[at + i] = NodeInfo {
            id: NodeId((at + i) as u32),
            parent: match row.parent {
                Some(p) => Some(NodeId(at as u32 + p.0)),
                None => Some(parent),
            },
            ..row
        };
        i += 1;
    }
    at + sub.len()
}

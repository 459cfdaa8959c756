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

/// One row of a node table, whichever form wrote it: the static [`NodeInfo`]
/// rows of a compiled tree, an interpreted agent's rows, the rows of a
/// loaded trace. What [`Tree::nodes`](crate::Tree::nodes) returns, so the
/// observers, views and the test kit read every form's table alike.
pub trait NodeRow {
    /// The row's id (its position in depth-first pre-order).
    fn id(&self) -> u32;
    /// The parent's id; `None` for the root.
    fn parent(&self) -> Option<u32>;
    /// What kind of node this is.
    fn kind(&self) -> NodeKind;
    /// The node as written in the source.
    fn label(&self) -> &str;
    /// The source line (0 if unknown).
    fn line(&self) -> u32;
    /// The node's JSON `"name"`, which selectors accept besides its label:
    /// `None` where it has none (compiled trees' nodes have none).
    fn name(&self) -> Option<&str> {
        None
    }
}

impl NodeRow for NodeInfo {
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
        self.label
    }
    fn line(&self) -> u32 {
        self.line
    }
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

/// A row of a tree's own nodes as `behave!` writes it, for [`node_table`]:
/// kind, the parent's id in the finished table (unused in row 0, the root),
/// label and source line.
#[doc(hidden)]
pub type OwnRow = (NodeKind, u32, &'static str, u32);

/// A tree's node table from its own rows in pre-order and its subtrees
/// (each the local row number of its `subtree` node, in pre-order, with
/// that subtree's table, spliced in after the row). A row's id is its
/// position in the finished table. `behave!` writes a tree's table as one
/// call of this function, not a statement per row: a big tree's table was
/// a const body of 10,000 statements that rustc type-checked, borrow-checked
/// and evaluated (benches/NOTES.md, "Where rustc spends a big tree's time").
#[doc(hidden)]
pub const fn node_table<const N: usize>(rows: &[OwnRow], subtrees: &[(u32, &[NodeInfo])]) -> [NodeInfo; N] {
    let mut table = [NodeInfo::PLACEHOLDER; N];
    let (mut row, mut at, mut next_subtree) = (0, 0, 0);
    while row < rows.len() {
        let (kind, parent, label, line) = rows[row];
        table[at] = NodeInfo {
            id: NodeId(at as u32),
            parent: if row == 0 { None } else { Some(NodeId(parent)) },
            kind,
            label,
            line,
        };
        at += 1;
        if next_subtree < subtrees.len() && subtrees[next_subtree].0 as usize == row {
            at = splice(&mut table, at, subtrees[next_subtree].1, NodeId(at as u32 - 1));
            next_subtree += 1;
        }
        row += 1;
    }
    assert!(at == N, "a node table's length is its rows plus its subtrees' rows");
    table
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

#[cfg(test)]
mod tests {
    use super::*;

    const SUB: [NodeInfo; 2] = node_table(
        &[
            (NodeKind::Sequence, 0, "sequence", 1),
            (NodeKind::Success, 0, "success", 2),
        ],
        &[],
    );

    #[test]
    fn a_table_numbers_rows_in_pre_order_and_splices_subtrees_after_their_row() {
        // selector { subtree(Sub), failure }: the failure's id comes after the subtree's two rows.
        const TABLE: [NodeInfo; 5] = node_table(
            &[
                (NodeKind::Selector, 0, "selector", 3),
                (NodeKind::Subtree, 0, "subtree(Sub)", 4),
                (NodeKind::Failure, 0, "failure", 5),
            ],
            &[(1, &SUB)],
        );
        let rows = TABLE.map(|n| (n.id.0, n.parent.map(|p| p.0), n.kind, n.label, n.line));
        assert_eq!(
            rows,
            [
                (0, None, NodeKind::Selector, "selector", 3),
                (1, Some(0), NodeKind::Subtree, "subtree(Sub)", 4),
                (2, Some(1), NodeKind::Sequence, "sequence", 1),
                (3, Some(2), NodeKind::Success, "success", 2),
                (4, Some(0), NodeKind::Failure, "failure", 5),
            ]
        );
        assert_eq!(SUB[1].parent, Some(NodeId(0)), "a row's parent is as written");
    }
}

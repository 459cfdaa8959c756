//! Reading a node table, whether it is a tree's static
//! [`NodeInfo`](behaved_runtime::NodeInfo) table or
//! the table stored in a [`Trace`](crate::Trace).

use crate::Error;

/// One row of a node table, as the observers and views read it: the
/// runtime's trait, implemented for the static
/// [`NodeInfo`](behaved_runtime::NodeInfo) rows that
/// `behave!` emits, for an interpreted agent's rows and for the
/// [`TraceNode`](crate::TraceNode) rows of a loaded trace, so the same tools
/// work on a running tree of either form and on a trace file.
pub use behaved_runtime::NodeRow;

/// The shape of a valid table: for each node, the end (exclusive) of the
/// contiguous range of ids its subtree covers. In pre-order a node's
/// descendants are exactly the ids `id + 1 .. end`.
pub(crate) fn subtree_ends<R: NodeRow>(nodes: &[R]) -> Result<Vec<u32>, Error> {
    if nodes.is_empty() {
        return Err(Error::EmptyTable);
    }
    let len = nodes.len() as u32;
    let mut ends = vec![len; nodes.len()];
    // The open ancestors of the current row, innermost last.
    let mut open: Vec<u32> = Vec::new();
    for (row, node) in nodes.iter().enumerate() {
        let id = row as u32;
        if node.id() != id {
            return Err(Error::IdMismatch { row, id: node.id() });
        }
        match (row, node.parent()) {
            (0, None) => {}
            (0, Some(parent)) => return Err(Error::RootHasParent { parent }),
            (_, None) => return Err(Error::SecondRoot { row }),
            (_, Some(parent)) => {
                while open.last().is_some_and(|&top| top != parent) {
                    if let Some(closed) = open.pop() {
                        ends[closed as usize] = id;
                    }
                }
                if open.is_empty() {
                    return Err(Error::NotPreOrder { row, parent });
                }
            }
        }
        open.push(id);
    }
    Ok(ends)
}

/// The ids of `id`'s ancestors, from the root down to its parent.
pub(crate) fn ancestors<R: NodeRow>(nodes: &[R], id: usize) -> Vec<usize> {
    let mut chain = Vec::new();
    let mut at = nodes[id].parent();
    while let Some(p) = at {
        chain.push(p as usize);
        at = nodes[p as usize].parent();
    }
    chain.reverse();
    chain
}

#[cfg(test)]
mod tests {
    use super::*;
    use behaved_runtime::{NodeId, NodeInfo, NodeKind};

    fn row(id: u32, parent: Option<u32>) -> NodeInfo {
        NodeInfo {
            id: NodeId(id),
            parent: parent.map(NodeId),
            kind: NodeKind::Sequence,
            label: "sequence",
            line: 0,
        }
    }

    #[test]
    fn ends_cover_each_subtree() {
        // 0 { 1 { 2, 3 }, 4 { 5 } }
        let t = [
            row(0, None),
            row(1, Some(0)),
            row(2, Some(1)),
            row(3, Some(1)),
            row(4, Some(0)),
            row(5, Some(4)),
        ];
        assert_eq!(subtree_ends(&t).unwrap(), vec![6, 4, 3, 4, 6, 6]);
        assert_eq!(ancestors(&t, 5), vec![0, 4]);
        assert_eq!(ancestors(&t, 0), Vec::<usize>::new());
    }

    #[test]
    fn bad_tables_are_rejected_with_the_row() {
        let msg = |t: &[NodeInfo]| subtree_ends(t).unwrap_err().to_string();
        assert_eq!(msg(&[]), "the node table is empty: a tree has at least its root");
        assert_eq!(
            msg(&[row(0, None), row(2, Some(0))]),
            "node table row 1 has id #2: ids must equal row numbers (depth-first pre-order)"
        );
        assert_eq!(
            msg(&[row(0, Some(0))]),
            "node table row 0 (the root) has parent #0: the root has none"
        );
        assert_eq!(
            msg(&[row(0, None), row(1, None)]),
            "node table row 1 has no parent: only row 0 (the root) may have none"
        );
        // Row 3 goes back under 1 after 2's sibling subtree closed 1.
        assert_eq!(
            msg(&[row(0, None), row(1, Some(0)), row(2, Some(0)), row(3, Some(1))]),
            "node table row 3 has parent #1, which does not enclose it: the table is not in depth-first pre-order"
        );
        // A parent that comes after its child.
        assert_eq!(
            msg(&[row(0, None), row(1, Some(2)), row(2, Some(0))]),
            "node table row 1 has parent #2, which does not enclose it: the table is not in depth-first pre-order"
        );
    }
}

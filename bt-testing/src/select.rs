//! Finding a node by what a test author sees: its label, a path of labels, or its id.

use bt_observe::TraceNode;
use bt_runtime::NodeId;

use crate::Error;

/// Finds the one node `selector` names in `nodes`:
///
/// - `#3`: the node with id 3;
/// - `Chase`: the node labelled exactly so (`MoveTo::new(GUARDHOUSE)`, `wait(1.0)`);
/// - `sequence/wait(1.0)`: a path of labels, each the parent of the next,
///   ending at the node (segments may be ids: `#6/wait(1.0)`).
///
/// Several matches are an error listing each with its full path.
pub fn find(nodes: &[TraceNode], selector: &str) -> Result<NodeId, Error> {
    let whole: Vec<u32> = nodes.iter().filter(|n| n.label == selector).map(|n| n.id).collect();
    let found = if !whole.is_empty() {
        whole
    } else {
        let segments: Vec<&str> = selector.split('/').map(str::trim).collect();
        nodes
            .iter()
            .filter(|n| matches_path(nodes, n.id, &segments))
            .map(|n| n.id)
            .collect()
    };
    match found[..] {
        [id] => Ok(NodeId(id)),
        [] => Err(Error::NoSuchNode {
            selector: selector.to_owned(),
            hint: closest(nodes, selector),
        }),
        _ => Err(Error::Ambiguous {
            selector: selector.to_owned(),
            matches: found.iter().map(|&id| format!("#{id} {}", path(nodes, id))).collect(),
        }),
    }
}

/// `true` when the last segment names `id` and the others its ancestors, in order.
fn matches_path(nodes: &[TraceNode], id: u32, segments: &[&str]) -> bool {
    let mut at = Some(id);
    for segment in segments.iter().rev() {
        let Some(node) = at.map(|i| &nodes[i as usize]) else {
            return false;
        };
        let hit = match segment.strip_prefix('#') {
            Some(n) => n.parse() == Ok(node.id),
            None => node.label == *segment,
        };
        if !hit {
            return false;
        }
        at = node.parent;
    }
    true
}

fn closest(nodes: &[TraceNode], selector: &str) -> Option<String> {
    let last = selector.rsplit('/').next().unwrap_or(selector).trim();
    bt_runtime::catalog::closest(last, nodes.iter().map(|n| n.label.as_str())).map(str::to_owned)
}

/// The labels from the root down to `id`, joined by `/`.
pub fn path(nodes: &[TraceNode], id: u32) -> String {
    let mut labels = Vec::new();
    let mut at = Some(id);
    while let Some(i) = at {
        let node = &nodes[i as usize];
        labels.push(node.label.as_str());
        at = node.parent;
    }
    labels.reverse();
    labels.join("/")
}

/// A node as messages name it: `` #3 `Chase` ``.
pub fn describe(nodes: &[TraceNode], id: NodeId) -> String {
    match nodes.get(id.index()) {
        Some(n) => format!("#{} `{}`", n.id, n.label),
        None => format!("{id} (not in the tree)"),
    }
}

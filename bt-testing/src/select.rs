//! Finding a node by what a test author sees: its label, a path of labels, or its id.

use bt_observe::TraceNode;
use bt_runtime::{NodeId, NodeKind};

use crate::Error;

/// Finds the one node `selector` names in `nodes`:
///
/// - `#3`: the node with id 3;
/// - `Chase`: the node labelled exactly so (`MoveTo::new(GUARDHOUSE)`, `wait(1.0)`);
/// - `sequence/wait(1.0)`: a path of labels, each the parent of the next,
///   ending at the node (segments may be ids: `#6/wait(1.0)`).
///
/// A label the node's label does not equal still names it when both read the
/// same once written as either form would (see [`same_node`]), so that one
/// selector finds a node in a `behave!` tree and in its JSON twin:
/// `Fetch` finds `act(async Fetch)`, `Hungry` finds `cond(Hungry)`,
/// `repeat(3)` finds `repeater(3)` and the other way round. Exact labels are
/// tried first.
///
/// Several matches are an error listing each with its full path.
pub fn find(nodes: &[TraceNode], selector: &str) -> Result<NodeId, Error> {
    let exact = |n: &TraceNode, segment: &str| n.label == segment;
    let mut found = matching(nodes, selector, exact);
    if found.is_empty() {
        found = matching(nodes, selector, same_node);
    }
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

/// The ids of the nodes whose whole label `names` the selector, or else
/// those that the selector's path of labels `names`.
fn matching(nodes: &[TraceNode], selector: &str, names: fn(&TraceNode, &str) -> bool) -> Vec<u32> {
    let whole: Vec<u32> = nodes.iter().filter(|n| names(n, selector)).map(|n| n.id).collect();
    if !whole.is_empty() {
        return whole;
    }
    let segments: Vec<&str> = selector.split('/').map(str::trim).collect();
    nodes
        .iter()
        .filter(|n| matches_path(nodes, n.id, &segments, names))
        .map(|n| n.id)
        .collect()
}

/// `true` when `label` and `node`'s label name the same node as the two forms
/// write it: a leaf without its `cond(..)`, `act(..)` or `act(async ..)`
/// (JSON labels a leaf by its name alone), a node word as its JSON name
/// (`repeat(3)` is `repeater(3)`, `reactive selector` is `reactiveSelector`).
fn same_node(node: &TraceNode, label: &str) -> bool {
    canonical(node.kind, &node.label) == canonical(node.kind, label)
}

/// `label` written the one way both forms can be compared in (see [`same_node`]).
fn canonical(kind: NodeKind, label: &str) -> String {
    let label = label.trim();
    let wrappers: &[&str] = match kind {
        NodeKind::Condition => &["cond("],
        NodeKind::Action => &["act(async ", "act("],
        _ => &[],
    };
    if !wrappers.is_empty() {
        for wrapper in wrappers {
            if let Some(inner) = label.strip_prefix(wrapper).and_then(|l| l.strip_suffix(')')) {
                return inner.trim().to_owned();
            }
        }
        return label.to_owned();
    }
    let (dsl, json) = (kind.dsl_name(), kind.json_name());
    match label.strip_prefix(dsl) {
        Some(rest) if rest.is_empty() || rest.starts_with(['(', ' ']) => format!("{json}{rest}"),
        _ => label.to_owned(),
    }
}

/// `true` when the last segment names `id` and the others its ancestors, in order.
fn matches_path(nodes: &[TraceNode], id: u32, segments: &[&str], names: fn(&TraceNode, &str) -> bool) -> bool {
    let mut at = Some(id);
    for segment in segments.iter().rev() {
        let Some(node) = at.map(|i| &nodes[i as usize]) else {
            return false;
        };
        let hit = match segment.strip_prefix('#') {
            Some(n) => n.parse() == Ok(node.id),
            None => names(node, segment),
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

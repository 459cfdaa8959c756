//! The node table's labels. A node written in the DSL is labelled by the rule
//! both forms share ([`behaved_format::label`]), from the parameters its JSON twin
//! (`Tree::JSON`) holds, so it reads the same as when the interpreter loads
//! that twin: `repeat(3)`, `Fetch` for `act(async Fetch)`, `'outer: loop`.
//! Compile errors about the tree's shape name nodes as written instead; they
//! are reported before the labels change.

use behaved_format::label::{leaf_label, node_label, with_args};
use behaved_format::model::Params;

use crate::model::Node;
use crate::to_json::{loop_label, params};

/// Labels `node` and everything below it.
pub fn relabel(node: &mut Node) {
    crate::depth::grow(|| {
        node.label = label(node);
        for child in &mut node.children {
            relabel(child);
        }
    });
}

/// The node's label; a parameter the JSON model cannot hold (a constant) as
/// its code: `repeat(TRIES)`, `wait(PAUSE)`, `weighted(HEAVY, 1)`.
fn label(node: &Node) -> String {
    let kind = node.kind.catalog();
    let jump = loop_label(node);
    let (params, own) = params(node);
    let Some((field, code)) = own else {
        return node_label(kind, &params, node.children.len(), jump.as_deref());
    };
    let args = match (field, &params) {
        ("weights", _) => code.trim_start_matches('[').trim_end_matches(']').to_owned(),
        ("max", Params::ForEach { items, .. }) => format!("{}, max {code}", leaf_label(items)),
        _ => code,
    };
    with_args(kind, Some(&args), jump.as_deref())
}

//! BT.CPP's `Repeat` and `RetryUntilSuccessful` yield: after an iteration
//! whose child completed on its first tick they return RUNNING with a
//! wake-up signal, and `tickOnce` ticks the tree again from its root. Below
//! a reactive node or a `Parallel`, that second pass ticks the reactive
//! conditions (or the parallel's other children) again between iterations,
//! where our `repeater` and `retry` go on within the tick. Such a loop is
//! refused, whichever file or subtree it is in (SEMANTICS.md,
//! "BehaviorTree.CPP XML").

use std::collections::HashSet;

use behaved_runtime::NodeKind;

use super::builtins::btcpp_name;
use crate::error::{Problem, path};
use crate::library::Library;
use crate::model::{Node, Params};

/// The loops below a reactive node or a `Parallel` in the trees of
/// `library` (`main` at the root path, the others at `subtrees["id"]`).
pub(crate) fn yielding_loops(main: &str, library: &Library) -> Vec<Problem> {
    let mut found = Vec::new();
    let mut entered = HashSet::new();
    for id in library.ids() {
        if let Some(tree) = library.get(id) {
            walk(tree, &root_of(id, main), None, main, library, &mut entered, &mut found);
        }
    }
    found
}

/// The JSON path of tree `id`'s root.
fn root_of(id: &str, main: &str) -> String {
    if id == main { String::new() } else { path::subtree(id) }
}

/// A reactive node or parallel above: its BT.CPP name and its path.
type Above<'a> = Option<(&'static str, &'a str)>;

fn walk(
    node: &Node,
    at: &str,
    above: Above<'_>,
    main: &str,
    library: &Library,
    entered: &mut HashSet<String>,
    found: &mut Vec<Problem>,
) {
    let kind = node.kind();
    if let (Some((name, where_)), NodeKind::Repeat | NodeKind::Retry) = (above, kind) {
        let this = btcpp_name(kind).unwrap_or("a loop");
        let under = if where_.is_empty() {
            "the root".to_string()
        } else {
            format!("`{where_}`")
        };
        found.push(Problem::new(
            at,
            format!(
                "`{this}` below the `{name}` at {under}: BT.CPP's loop returns RUNNING after an iteration whose child completes at once and ticks the tree again from its root, so the `{name}` ticks its other children between iterations, where ours goes on within the tick; move the loop out from under it"
            ),
        ));
        return;
    }
    let above = match kind {
        NodeKind::ReactiveSequence | NodeKind::ReactiveSelector | NodeKind::ReactiveIf | NodeKind::Parallel => {
            Some((btcpp_name(kind).unwrap_or("reactive node"), at))
        }
        _ => above,
    };
    if let (Some(_), Params::Subtree(id)) = (above, node.params()) {
        // Each tree is looked at below a reactive node once: the first such use.
        if let Some(tree) = library.get(id)
            && entered.insert(id.clone())
        {
            crate::document::deep(|| walk(tree, &root_of(id, main), above, main, library, entered, found));
        }
        return;
    }
    for (i, child) in node.children().iter().enumerate() {
        let child_at = node.child_path(at, i);
        crate::document::deep(|| walk(child, &child_at, above, main, library, entered, found));
    }
}

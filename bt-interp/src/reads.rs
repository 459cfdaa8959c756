//! What each node reads when a reactive node checks it again (`SEMANTICS.md`,
//! "Sleeping on inputs"): worked out once per definition, so that a running
//! reactive node's wake is a watch of its re-checked conditions' inputs. The
//! twin of the macro's `codegen/watch.rs`.

use behaved_runtime::{NodeKind, Reads};

use crate::definition::{Definition, NO_HOOK};

/// For each node, what it reads when it is ticked again from the start and
/// completes in that tick with no other effect: conditions (by their
/// [`Condition::reads`](behaved_runtime::Condition::reads)), `success`,
/// `failure`, and `invert`, `force*`, sequences and selectors (plain or
/// reactive) of those,
/// without hooks; `None` (unknown) for anything else.
pub(crate) fn pure_reads<C: 'static>(def: &Definition<C>) -> Vec<Option<Reads>> {
    let mut out: Vec<Option<Reads>> = vec![None; def.cold.len()];
    // Pre-order: children come after their parent. (A definition with load
    // problems may be incomplete: what is missing is unknown.)
    for id in (0..def.cold.len()).rev() {
        let node = &def.cold[id];
        let hooked = node.hooks != NO_HOOK
            && def
                .hooks
                .get(node.hooks as usize)
                .is_none_or(|h| h[..6].iter().any(|(col, _)| *col != NO_HOOK));
        if hooked {
            continue;
        }
        out[id] = match node.op {
            NodeKind::Condition => def
                .nodes
                .get(id)
                .and_then(|n| def.conds.get(n.arg as usize))
                .and_then(|c| c.reads()),
            NodeKind::Success | NodeKind::Failure => Some(Reads::NONE),
            NodeKind::Invert
            | NodeKind::ForceSuccess
            | NodeKind::ForceFailure
            | NodeKind::Sequence
            | NodeKind::Selector
            | NodeKind::ReactiveSequence
            | NodeKind::ReactiveSelector => (0..node.n).try_fold(Reads::NONE, |r, i| {
                let kid = *def.kids.get((node.kids + i) as usize)?;
                Some(r | (*out.get(kid as usize)?)?)
            }),
            _ => None,
        };
    }
    out
}

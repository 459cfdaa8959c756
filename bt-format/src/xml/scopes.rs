//! Blackboard scopes of `<SubTree>`s. BT.CPP gives each subtree instance a
//! blackboard of its own: an entry a subtree's leaves name is the parent's
//! only where the `<SubTree>` remaps it (`goal="{goal}"`, or to another
//! entry of the parent, `goal="{target}"`: the node's `remap`) or says
//! `_autoremap="true"`. Ours has one blackboard, the context, so a subtree
//! whose entries BT.CPP would keep apart is refused at its `<SubTree>`
//! (SEMANTICS.md, "BehaviorTree.CPP XML").

use std::collections::{BTreeSet, HashMap};

use crate::error::Problem;
use crate::library::Library;
use crate::model::{Node, Params};
use crate::port::references;

/// A `<SubTree>` as read: its node's JSON path, the tree it names, whether
/// it remaps every entry, and the entries it remaps (to themselves or to
/// another name).
pub(super) struct SubtreeUse {
    pub(super) at: String,
    pub(super) id: String,
    pub(super) autoremap: bool,
    pub(super) remapped: BTreeSet<String>,
}

/// A problem at each `<SubTree>` of `uses` whose tree names entries
/// (itself, or through its own subtrees) that it neither remaps nor autoremaps.
pub(super) fn private_entries(uses: &[SubtreeUse], library: &Library) -> Vec<Problem> {
    let mut memo = HashMap::new();
    let mut found = Vec::new();
    for u in uses {
        if u.autoremap {
            continue;
        }
        let keys = keys_of(&u.id, library, &mut memo, &mut Vec::new());
        let private: Vec<String> = keys.difference(&u.remapped).map(|k| format!("`{k}`")).collect();
        if private.is_empty() {
            continue;
        }
        let remaps: Vec<String> = keys.iter().map(|k| format!("{k}=\"{{{k}}}\"")).collect();
        found.push(Problem::new(
            &u.at,
            format!(
                "the subtree {} uses the blackboard entries {}, which BT.CPP keeps in the subtree's own blackboard unless the `<SubTree>` remaps them; ours has one blackboard, the context: write `_autoremap=\"true\"` or {}",
                crate::shown(&u.id),
                private.join(", "),
                remaps.join(" ")
            ),
        ));
    }
    found
}

/// The trees of `library` that name blackboard entries (themselves, or
/// through their subtrees): the writer marks their `<SubTree>`s
/// `_autoremap="true"`, as ours share the context's entries.
pub(super) fn with_entries(library: &Library) -> BTreeSet<String> {
    let mut memo = HashMap::new();
    library
        .ids()
        .filter(|id| !keys_of(id, library, &mut memo, &mut Vec::new()).is_empty())
        .map(String::from)
        .collect()
}

/// The entries tree `id` names, its subtrees' included (a cycle, refused
/// elsewhere, is cut).
fn keys_of(
    id: &str,
    library: &Library,
    memo: &mut HashMap<String, BTreeSet<String>>,
    inside: &mut Vec<String>,
) -> BTreeSet<String> {
    if let Some(keys) = memo.get(id) {
        return keys.clone();
    }
    if inside.iter().any(|i| i == id) {
        return BTreeSet::new();
    }
    let Some(tree) = library.get(id) else {
        return BTreeSet::new();
    };
    inside.push(id.to_string());
    let mut keys = BTreeSet::new();
    walk(tree, library, memo, inside, &mut keys);
    inside.pop();
    memo.insert(id.to_string(), keys.clone());
    keys
}

fn walk(
    node: &Node,
    library: &Library,
    memo: &mut HashMap<String, BTreeSet<String>>,
    inside: &mut Vec<String>,
    keys: &mut BTreeSet<String>,
) {
    match node.params() {
        Params::Leaf(leaf) => keys.extend(references(&leaf.params).into_iter().map(|(_, k)| k.to_string())),
        // A nested `<SubTree>` was checked at its own element: what it
        // passes up is its tree's keys, each under the name it remaps it to.
        Params::Subtree(sid) => {
            let remap = node.remap();
            let theirs = keys_of(sid, library, memo, inside);
            keys.extend(
                theirs
                    .into_iter()
                    .map(|k| remap.and_then(|r| r.get(&k)).cloned().unwrap_or(k)),
            );
        }
        _ => {}
    }
    for kid in node.children() {
        walk(kid, library, memo, inside, keys);
    }
}

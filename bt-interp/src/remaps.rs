//! The renames each library subtree is checked through: a subtree's leaves
//! may name blackboard keys that exist only as a caller's remap
//! (`<SubTree ID="Chase" goal="{target}"/>`), so `Registry::check_library`
//! checks each subtree through the composed remaps of the places that use
//! it, as loading a tree that uses it does, and a subtree no other uses
//! with its own keys.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::rc::Rc;

use behaved_format::model::{Node, Params, Remap};
use behaved_format::{Library, path};

/// The (subtree id, renames) pairs to check, each once, in a stable order;
/// and, if there were more than the budget's nodes to check in all, the
/// problem (path, message) of the pair that went over it, the pairs past
/// it left out.
pub(crate) struct Contexts<'l> {
    /// Each subtree id with the renames to check it through.
    pub pairs: Vec<(&'l str, Rc<Remap>)>,
    /// Where and why the budget ran out, if it did.
    pub over: Option<(String, String)>,
}

/// The pairs of `lib`: from each subtree no other uses (with no renames),
/// each use of a subtree (`"remap"` composed with the user's renames, as
/// the loader's `enter_remap` does) gives its renames; a subtree only used
/// from a cycle no such subtree reaches is checked with no renames too.
/// Each distinct pair is visited once, so cycles end; the nodes checked
/// and the renames kept in all are bounded (distinct remaps can multiply through
/// nested subtrees) by the library's size or `least`, the larger. The
/// uses inside a subtree of `not_followed` (one too large to check, whose
/// users are too) give no renames.
pub(crate) fn contexts<'l>(lib: &'l Library, least: u64, not_followed: &HashSet<&str>) -> Contexts<'l> {
    let ids: Vec<&str> = lib.ids().collect();
    let mut sites: BTreeMap<&str, Vec<(&str, Option<&Remap>)>> = BTreeMap::new();
    let mut size: BTreeMap<&str, u64> = BTreeMap::new();
    let mut used = HashSet::new();
    for &id in &ids {
        let Some(body) = lib.get(id) else { continue };
        let (mut n, mut out) = (0u64, Vec::new());
        let mut stack: Vec<&Node> = vec![body];
        while let Some(node) = stack.pop() {
            n += 1;
            if let Params::Subtree(sid) = node.params()
                && let Ok(j) = ids.binary_search(&sid.as_str())
            {
                let callee = ids[j];
                out.push((callee, node.remap()));
                if callee != id {
                    used.insert(callee);
                }
            }
            stack.extend(node.children().iter().rev());
        }
        sites.insert(id, out);
        size.insert(id, n);
    }
    let budget = size.values().sum::<u64>().max(least);
    // Each renames allocated once, shared by the set, the queue and the pairs.
    let mut seen: HashSet<(&str, Rc<Remap>)> = HashSet::new();
    let mut out = Contexts {
        pairs: Vec::new(),
        over: None,
    };
    let mut reached: HashSet<&str> = HashSet::new();
    let mut spent = 0u64;
    let starts = ids.iter().filter(|id| !used.contains(*id)).chain(ids.iter());
    for &start in starts {
        if !reached.insert(start) {
            continue;
        }
        let none = Rc::new(Remap::new());
        let mut queue = VecDeque::from([(start, none.clone())]);
        seen.insert((start, none));
        spent += size[start];
        while let Some((id, renames)) = queue.pop_front() {
            let uses = if not_followed.contains(id) {
                &[][..]
            } else {
                &sites[id][..]
            };
            for &(callee, remap) in uses {
                let inner = Rc::new(compose(&renames, remap));
                if seen.contains(&(callee, inner.clone())) {
                    continue;
                }
                // The renames are kept too: a long chain of remaps costs its length at each level.
                spent += size[callee] + inner.len() as u64;
                if spent > budget {
                    out.over = Some((
                        path::subtree(callee),
                        format!(
                            "the library's subtrees, each checked through the remaps of the places that use it, \
                             have more than {budget} nodes and renamed keys to check in all (the library's size or \
                             `Registry::max_nodes`, the larger): remaps through nested subtrees multiply; \
                             load the trees that use them instead"
                        ),
                    ));
                    out.pairs.push((id, renames));
                    return out;
                }
                seen.insert((callee, inner.clone()));
                reached.insert(callee);
                queue.push_back((callee, inner));
            }
            out.pairs.push((id, renames));
        }
    }
    out
}

/// `outer`'s renames with a use's `remap` inside them: its keys stand for
/// what their values stand for outside; a key standing for itself is left
/// out, so that equal renames compare equal.
fn compose(outer: &Remap, remap: Option<&Remap>) -> Remap {
    let mut inner = outer.clone();
    for (key, to) in remap.into_iter().flatten() {
        let to = outer.get(to).unwrap_or(to);
        if to == key {
            inner.remove(key);
        } else {
            inner.insert(key.clone(), to.clone());
        }
    }
    inner
}

//! How many nodes a tree has once its library subtrees are inlined, worked
//! out from the library before anything is built: a library of 4 KB whose
//! subtrees each use the next one twice inlines to a billion nodes, which a
//! loader must refuse without building the first million of them.

use std::collections::BTreeMap;

use crate::error::path;
use crate::library::{Library, SubtreeCycle};
use crate::model::{Node, Params};

/// Each subtree's node count once inlined ([`Library::inlined_sizes`]).
#[derive(Debug, Clone)]
pub struct InlinedSizes<'a> {
    lib: &'a Library,
    size: BTreeMap<&'a str, u64>,
}

/// Where most of an oversized tree's nodes come from
/// ([`InlinedSizes::largest_chain`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LargestChain {
    /// The subtree ids from the tree's largest use of a subtree down,
    /// each the largest that the one before uses; cut as
    /// [`SubtreeCycle::chain`] is.
    pub chain: Vec<String>,
    /// How many ids `chain` leaves out (between its last two).
    pub omitted: usize,
    /// The JSON path of the `subtreeId` field of that first use, in the tree.
    pub path: String,
    /// The node count of the first subtree of the chain, inlined.
    pub nodes: u64,
}

impl LargestChain {
    /// The chain for a message: ids quoted, cut and joined as a cycle's are.
    pub fn message(&self) -> String {
        SubtreeCycle {
            chain: self.chain.clone(),
            omitted: self.omitted,
            path: String::new(),
        }
        .message()
    }
}

/// Calls `f` with `root` and each of its descendants, without recursion.
fn each_node<'n>(root: &'n Node, mut f: impl FnMut(&'n Node)) {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        f(node);
        stack.extend(node.children());
    }
}

/// The subtree `node` refers to, if it is a reference.
fn reference(node: &Node) -> Option<&str> {
    match node.params() {
        Params::Subtree(sid) => Some(sid),
        _ => None,
    }
}

impl Library {
    /// Every subtree's node count once the subtrees it uses are inlined,
    /// each use its own copy (saturating at `u64::MAX`), memoised: linear in
    /// the size of the library, without recursion. A reference to an
    /// unknown id, or one that closes a cycle ([`Library::cycles`]), counts
    /// as its one node: such a tree is refused for that reason.
    pub fn inlined_sizes(&self) -> InlinedSizes<'_> {
        let ids: Vec<&str> = self.ids().collect();
        let index = |id: &str| ids.binary_search(&id).ok();
        // Each subtree's own nodes and the subtrees it uses, once per use.
        let (own, uses): (Vec<u64>, Vec<Vec<usize>>) = ids
            .iter()
            .map(|id| {
                let (mut n, mut refs) = (0u64, Vec::new());
                each_node(self.get(id).expect("a listed id"), |node| {
                    n += 1;
                    refs.extend(reference(node).and_then(index));
                });
                (n, refs)
            })
            .unzip();
        // Depth-first, post-order: 0 unseen, 1 on the stack, 2 done.
        let mut state = vec![0u8; ids.len()];
        let mut size = own.clone();
        for start in 0..ids.len() {
            if state[start] != 0 {
                continue;
            }
            state[start] = 1;
            let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
            while let Some(&mut (u, ref mut next)) = stack.last_mut() {
                match uses[u].get(*next) {
                    Some(&v) => {
                        *next += 1;
                        if state[v] == 0 {
                            state[v] = 1;
                            stack.push((v, 0));
                        }
                    }
                    None => {
                        // Every use is done, but those closing a cycle (still on the stack).
                        let inlined = uses[u].iter().filter(|v| state[**v] == 2).map(|v| size[*v]);
                        size[u] = inlined.fold(own[u], u64::saturating_add);
                        state[u] = 2;
                        stack.pop();
                    }
                }
            }
        }
        InlinedSizes {
            lib: self,
            size: ids.into_iter().zip(size).collect(),
        }
    }
}

impl<'a> InlinedSizes<'a> {
    /// Subtree `id`'s node count once inlined, if the library has it.
    pub fn subtree(&self, id: &str) -> Option<u64> {
        self.size.get(id).copied()
    }

    /// The node count of `root` (a tree that uses the library) once its
    /// subtrees are inlined.
    pub fn of(&self, root: &Node) -> u64 {
        let mut n = 0u64;
        each_node(root, |node| {
            let inlined = reference(node).and_then(|sid| self.subtree(sid)).unwrap_or(0);
            n = n.saturating_add(1).saturating_add(inlined);
        });
        n
    }

    /// The largest use of a subtree in `root` (at path `at`) and the chain
    /// of the largest subtrees it uses in turn, for the message of a tree
    /// that is too large; `None` if `root` uses no known subtree.
    pub fn largest_chain(&self, root: &Node, at: &str) -> Option<LargestChain> {
        // The largest use in the tree itself, with its path.
        let mut best: Option<(u64, &str, String)> = None;
        let mut stack = vec![(root, at.to_string())];
        while let Some((node, p)) = stack.pop() {
            if let Some((sid, n)) = reference(node).and_then(|sid| Some((sid, self.subtree(sid)?)))
                && best.as_ref().is_none_or(|(m, ..)| n > *m)
            {
                best = Some((n, sid, path::field(&p, "subtreeId")));
            }
            for (i, child) in node.children().iter().enumerate().rev() {
                stack.push((child, node.child_path(&p, i)));
            }
        }
        let (nodes, first, path) = best?;
        // Down the largest uses, each subtree once (a cycle ends the chain).
        let mut on_chain = vec![first];
        let mut seen = std::collections::HashSet::from([first]);
        let mut at_id = first;
        loop {
            let mut next: Option<(u64, &str)> = None;
            each_node(self.lib.get(at_id).expect("a known id"), |node| {
                if let Some((sid, n)) = reference(node).and_then(|sid| Some((sid, self.subtree(sid)?)))
                    && next.is_none_or(|(m, _)| n > m)
                {
                    next = Some((n, sid));
                }
            });
            match next {
                Some((_, sid)) if seen.insert(sid) => {
                    on_chain.push(sid);
                    at_id = sid;
                }
                _ => break,
            }
        }
        let keep = on_chain.len().min(SubtreeCycle::SHOWN - 1);
        let mut chain: Vec<String> = on_chain[..keep].iter().map(|s| s.to_string()).collect();
        if keep < on_chain.len() {
            chain.push(on_chain[on_chain.len() - 1].to_string());
        }
        Some(LargestChain {
            omitted: on_chain.len() - chain.len(),
            chain,
            path,
            nodes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A library of `levels` subtrees, each using the next one twice.
    fn bomb(levels: usize) -> Library {
        let uses = |i: usize| format!(r#"{{"type": "subtree", "subtreeId": "s{}"}}"#, i + 1);
        let subtrees: Vec<String> = (0..levels)
            .map(|i| {
                format!(
                    r#""s{i}": {{"type": "sequence", "children": [{}, {}]}}"#,
                    uses(i),
                    uses(i)
                )
            })
            .chain([format!(r#""s{levels}": {{"type": "action", "action": "a"}}"#)])
            .collect();
        Library::from_json(&format!(r#"{{"subtrees": {{{}}}}}"#, subtrees.join(", "))).unwrap()
    }

    #[test]
    fn sizes_double_per_level_and_saturate() {
        let lib = bomb(3);
        let sizes = lib.inlined_sizes();
        // s3 is one leaf; each level is a sequence, two references and two copies.
        assert_eq!(
            ["s0", "s1", "s2", "s3"].map(|id| sizes.subtree(id).unwrap()),
            [29, 13, 5, 1]
        );
        let root = Node::parse(r#"{"type": "subtree", "subtreeId": "s0"}"#).unwrap();
        assert_eq!(sizes.of(&root), 30);
        let huge = bomb(80);
        assert_eq!(huge.inlined_sizes().subtree("s0"), Some(u64::MAX));
    }

    #[test]
    fn the_largest_chain_is_cut_and_located() {
        let lib = bomb(30);
        let root = Node::parse(
            r#"{"type": "sequence", "children": [{"type": "subtree", "subtreeId": "s29"},
                                                  {"type": "subtree", "subtreeId": "s0"}]}"#,
        )
        .unwrap();
        let chain = lib.inlined_sizes().largest_chain(&root, "").unwrap();
        assert_eq!(chain.path, "children[1].subtreeId");
        assert_eq!(chain.nodes, (1 << 32) - 3);
        assert_eq!(
            chain.message(),
            r#""s0" -> "s1" -> "s2" -> "s3" -> "s4" -> "s5" -> "s6" -> .. (23 more) -> "s30""#
        );
    }

    #[test]
    fn a_cycle_counts_its_closing_reference_once() {
        let mut lib = Library::new();
        lib.insert_json("a", r#"{"type": "subtree", "subtreeId": "b"}"#)
            .unwrap();
        lib.insert_json(
            "b",
            r#"{"type": "inverter", "child": {"type": "subtree", "subtreeId": "a"}}"#,
        )
        .unwrap();
        let sizes = lib.inlined_sizes();
        assert_eq!((sizes.subtree("a"), sizes.subtree("b")), (Some(3), Some(2)));
        let root = Node::parse(r#"{"type": "subtree", "subtreeId": "a"}"#).unwrap();
        let chain = sizes.largest_chain(&root, "").unwrap();
        assert_eq!(chain.message(), r#""a" -> "b""#);
    }
}

//! [`Registry::max_nodes`] enforced before anything is built: a tree's size
//! once its subtrees are inlined is counted from the library
//! ([`behaved_format::Library::inlined_sizes`], memoised), so a small file
//! that inlines to billions of nodes is refused in time and memory in
//! proportion to the file, not to the limit.

use behaved_format::model::{Node, Params};
use behaved_format::{InlinedSizes, Library, deep};

use crate::registry::Registry;

/// The problem (path and message) of a tree `root`, at path `at`, that has
/// more than [`Registry::max_nodes`] nodes once its subtrees are inlined;
/// `within` is the subtree whose body `root` is, if it is one.
pub(crate) fn too_large<'a, C>(
    reg: &Registry<C>,
    root: &'a Node,
    lib: &'a Library,
    sizes: &InlinedSizes<'_>,
    at: &str,
    within: Option<&'a str>,
) -> Option<(String, String)> {
    let limit = reg.max_nodes as u64;
    let nodes = sizes.of(root);
    // With recursion allowed, a cycle is inlined up to `max_recursion`
    // times, which the memo cannot count: a walk that stops past the limit.
    let over = if reg.max_recursion == 0 {
        (nodes > limit).then(|| nodes.to_string())
    } else {
        let mut count = 0;
        Walk {
            reg,
            lib,
            inlining: within.into_iter().collect(),
            count: &mut count,
        }
        .node(root, 0);
        (count > limit).then(|| format!("more than {limit}"))
    }?;
    let mut message = format!(
        "the tree has {over} nodes once its subtrees are inlined, above the limit of {limit} (`Registry::max_nodes`)"
    );
    let mut path = at.to_string();
    if let Some(chain) = sizes.largest_chain(root, at) {
        message += &format!(
            "; the largest subtree it uses inlines to {} nodes: {} (each use is a copy)",
            chain.nodes,
            chain.message()
        );
        path = chain.path;
    }
    Some((path, message))
}

/// Counts a tree's nodes as the compiler inlines them, with recursion cut
/// as it cuts it, stopping once past the limit: at most
/// [`Registry::max_nodes`] steps and no allocation but the stack of
/// subtrees being inlined.
struct Walk<'r, 'a, C: 'static> {
    reg: &'r Registry<C>,
    lib: &'a Library,
    inlining: Vec<&'a str>,
    count: &'r mut u64,
}

impl<'a, C: 'static> Walk<'_, 'a, C> {
    fn node(&mut self, node: &'a Node, depth: usize) {
        *self.count += 1;
        if *self.count > self.reg.max_nodes as u64 || depth > self.reg.max_depth {
            return;
        }
        if let Params::Subtree(sid) = node.params() {
            let nested = self.inlining.iter().filter(|s| **s == sid.as_str()).count();
            if nested <= self.reg.max_recursion
                && let Some(sub) = self.lib.get(sid)
            {
                self.inlining.push(sid);
                deep(|| self.node(sub, depth + 1));
                self.inlining.pop();
            }
            return;
        }
        for child in node.children() {
            deep(|| self.node(child, depth + 1));
        }
    }
}

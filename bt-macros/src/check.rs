//! Stage 3: structural rules that need the whole tree: one root, the right
//! number of children for each kind, parallel thresholds that can be met,
//! tree names that are unique. Every violation is reported, each at its token.

use behaved_runtime::{Arity, NodeKind};

use crate::errors::Errors;
use crate::model::{Kind, Node, Threshold, Tree};

/// The most children a parallel can track (one bit each in a `u128`): the
/// JSON model's limit, so that both forms accept the same trees.
pub const MAX_PARALLEL: usize = behaved_format::model::MAX_PARALLEL;

/// Checks one tree, recording violations in `errors`.
pub fn check(tree: &Tree, errors: &mut Errors) {
    match tree.roots.as_slice() {
        [] => errors.at(tree.body_span, "a tree needs a root node, e.g. `sequence { .. }`"),
        [root] => {
            check_node(root, &mut Vec::new(), errors);
            no_item_in_reset_hooks(root, &mut Vec::new(), errors);
        }
        [first, second, ..] => {
            check_node(first, &mut Vec::new(), errors);
            no_item_in_reset_hooks(first, &mut Vec::new(), errors);
            errors.at(
                second.span,
                "a tree has exactly one root; wrap these nodes in `sequence { .. }` or `selector { .. }`",
            );
        }
    }
}

/// Reports each `subtree(..)` that makes a tree of this `behave!` contain
/// itself (rustc would say only "recursive type has infinite size"). Returns,
/// per tree, whether it is on such a cycle.
pub fn subtree_cycles(trees: &[&Tree], errors: &mut Errors) -> Vec<bool> {
    let index = |ty: &syn::Type| -> Option<usize> {
        let syn::Type::Path(p) = ty else { return None };
        let ident = p.path.get_ident()?;
        trees.iter().position(|t| t.name == *ident)
    };
    // Per tree: the trees of this block it uses as subtrees, with where.
    let edges: Vec<Vec<(usize, proc_macro2::Span)>> = trees
        .iter()
        .map(|t| {
            let mut found = Vec::new();
            let mut stack: Vec<&Node> = t.roots.iter().collect();
            while let Some(node) = stack.pop() {
                if let Kind::Subtree { ty, .. } = &node.kind
                    && let Some(target) = index(ty)
                {
                    found.push((target, node.span));
                }
                stack.extend(&node.children);
            }
            found
        })
        .collect();
    let mut on_cycle = vec![false; trees.len()];
    for (from, list) in edges.iter().enumerate() {
        for &(to, span) in list {
            let Some(path) = path_between(&edges, to, from) else {
                continue;
            };
            on_cycle[from] = true;
            let names: Vec<String> = std::iter::once(from)
                .chain(path)
                .map(|i| trees[i].name.to_string())
                .collect();
            errors.at(
                span,
                format!(
                    "`{}` contains itself ({}): a tree holds its subtrees' state, so it would be infinitely large; \
                     repeat with a loop inside one tree instead (`loop`, `while`, `repeat`, `retry`, over a stack \
                     in the context for recursive work), or load the tree as JSON with `behaved-interp`, whose \
                     `Registry::max_recursion(n)` lets a subtree nest inside itself up to n times",
                    trees[from].name,
                    names.join(" -> ")
                ),
            );
        }
    }
    on_cycle
}

/// The trees from `from` to `to` along subtree edges (both ends included), if any.
fn path_between(edges: &[Vec<(usize, proc_macro2::Span)>], from: usize, to: usize) -> Option<Vec<usize>> {
    let mut came_from = vec![usize::MAX; edges.len()];
    let mut queue = std::collections::VecDeque::from([from]);
    came_from[from] = from;
    while let Some(at) = queue.pop_front() {
        if at == to {
            let mut path = vec![to];
            while *path.last()? != from {
                path.push(came_from[*path.last()?]);
            }
            path.reverse();
            return Some(path);
        }
        for &(next, _) in &edges[at] {
            if came_from[next] == usize::MAX {
                came_from[next] = at;
                queue.push_back(next);
            }
        }
    }
    None
}

/// Reports a `#[on_reset]` hook inside a `for` body that mentions the loop's
/// item: reset callbacks run on `tree.reset(..)`, outside the loop's
/// iterations, where there is no current item. `visible` holds the names in
/// scope, innermost last, with whether each is a `for` item (a `scope`
/// variable of the same name hides it).
fn no_item_in_reset_hooks(node: &Node, visible: &mut Vec<(String, bool)>, errors: &mut Errors) {
    crate::depth::grow(|| {
        if let Some(crate::model::Hook::Closure(hook)) = &node.hooks.reset {
            let mut idents = Vec::new();
            idents_of(quote::ToTokens::to_token_stream(hook), &mut idents);
            for ident in idents {
                let name = ident.to_string();
                if visible
                    .iter()
                    .rev()
                    .find(|(n, _)| *n == name)
                    .is_some_and(|(_, item)| *item)
                {
                    errors.at(
                        ident.span(),
                        format!(
                            "`{name}` is the current item of a `for` loop, which `#[on_reset]` cannot see: \
                             reset callbacks run on `tree.reset(..)`, outside the loop's iterations"
                        ),
                    );
                }
            }
        }
        let declared = match &node.kind {
            Kind::ForEach {
                source: crate::model::ForSource::Closure { var, .. },
                ..
            }
            | Kind::Pick {
                source: crate::model::ForSource::Closure { var, .. },
                ..
            } => vec![(var.to_string(), true)],
            Kind::Scope(vars) => vars.iter().map(|v| (v.name.to_string(), false)).collect(),
            _ => Vec::new(),
        };
        let n = declared.len();
        visible.extend(declared);
        for child in &node.children {
            no_item_in_reset_hooks(child, visible, errors);
        }
        visible.truncate(visible.len() - n);
    });
}

/// Every identifier in `tokens`, groups included.
fn idents_of(tokens: proc_macro2::TokenStream, out: &mut Vec<proc_macro2::Ident>) {
    for tt in tokens {
        match tt {
            proc_macro2::TokenTree::Ident(i) => out.push(i),
            proc_macro2::TokenTree::Group(g) => idents_of(g.stream(), out),
            _ => {}
        }
    }
}

fn check_node(node: &Node, loops: &mut Vec<Option<String>>, errors: &mut Errors) {
    crate::depth::grow(|| check_node_here(node, loops, errors));
}

fn check_node_here(node: &Node, loops: &mut Vec<Option<String>>, errors: &mut Errors) {
    if matches!(node.kind, Kind::Invalid) {
        return;
    }
    let kind = node.kind.catalog();
    let name = &node.label;
    let bodies = &node.children[node.kind.condition_children().min(node.children.len())..];
    let n = bodies.len();
    match kind.arity() {
        Arity::Leaf => {
            if let Some(braces) = node.braces {
                errors.at(braces, format!("`{name}` is a leaf and takes no children"));
            }
        }
        Arity::One => match bodies {
            [] => errors.at(node.span, format!("`{name}` needs exactly one child: `{name} {{ .. }}`")),
            [_] => {}
            [_, second, ..] => errors.at(
                second.span,
                format!("`{name}` takes exactly one child, found {n}; wrap them in `sequence {{ .. }}` or `selector {{ .. }}`"),
            ),
        },
        // `if` and `match` branches are counted where they are built.
        Arity::Branches => {}
        Arity::Many => {
            if n == 0 {
                errors.at(node.braces.unwrap_or(node.span), format!("empty `{}`: it needs at least one child", kind.dsl_name()));
            }
        }
    }
    match &node.kind {
        Kind::Parallel { success, failure } => {
            for (which, t) in [("success", success), ("failure", failure)] {
                if let Threshold::Count(k, span) = *t
                    && k as usize > n
                {
                    errors.at(
                        span,
                        format!("`parallel({which} = {k})` can never be met: it has {n} children"),
                    );
                }
            }
        }
        Kind::Plain(NodeKind::Shuffle) if n > MAX_PARALLEL => {
            errors.at(
                node.span,
                format!("a shuffle can have at most {MAX_PARALLEL} children, found {n}"),
            );
        }
        Kind::Break(label) | Kind::Continue(label) => {
            let word = if matches!(node.kind, Kind::Break(_)) {
                "break"
            } else {
                "continue"
            };
            match label {
                None if loops.is_empty() => errors.at(
                    node.span,
                    format!("`{word}` outside a loop: it acts on an enclosing `loop`, `while`, `for`, `repeat`, `retry`, `until_fail` or `until_success`"),
                ),
                Some(l) if !loops.iter().any(|x| x.as_deref() == Some(&l.to_string())) => {
                    let known: Vec<String> = loops.iter().flatten().cloned().collect();
                    let hint = if known.is_empty() { String::from("no enclosing loop has a label") } else { format!("enclosing labels: {}", known.join(", ")) };
                    errors.at(l.span(), format!("unknown label `{l}` in `{word} {l}`; {hint}"));
                }
                _ => {}
            }
        }
        _ => {}
    }
    if matches!(kind, NodeKind::Parallel | NodeKind::ParallelMain) && n > MAX_PARALLEL {
        errors.at(
            node.span,
            format!("a parallel can have at most {MAX_PARALLEL} children, found {n}"),
        );
    }
    if let Some(label) = &node.loop_label
        && loops.iter().any(|x| x.as_deref() == Some(&label.to_string()))
    {
        errors.at(
            label.span(),
            format!("label `{label}` shadows the label of an enclosing loop"),
        );
    }
    let is_loop = node.kind.is_loop();
    if is_loop {
        loops.push(node.loop_label.as_ref().map(ToString::to_string));
    }
    for (i, child) in node.children.iter().enumerate() {
        // A loop's own condition is not inside its body.
        let in_body = i >= node.kind.condition_children();
        if is_loop && !in_body {
            let outer = loops.pop();
            check_node(child, loops, errors);
            loops.extend(outer);
        } else {
            check_node(child, loops, errors);
        }
    }
    if is_loop {
        loops.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model;

    fn errors_of(src: &str) -> Vec<String> {
        let mut errors = Errors::default();
        let trees = model::build(syn::parse_str(src).unwrap(), &mut errors);
        assert!(errors.is_empty(), "model errors: {:?}", errors.messages());
        for tree in &trees {
            check(tree, &mut errors);
        }
        errors.messages()
    }

    #[test]
    fn arity_of_decorators_composites_and_leaves() {
        let errors = errors_of(
            "tree T for C { sequence { invert { }, repeat(2) { success, failure }, selector { }, wait(1) { success } } }",
        );
        assert_eq!(
            errors,
            [
                "`invert` needs exactly one child: `invert { .. }`",
                "`repeat(2)` takes exactly one child, found 2; wrap them in `sequence { .. }` or `selector { .. }`",
                "empty `selector`: it needs at least one child",
                "`wait(1)` is a leaf and takes no children",
            ]
        );
    }

    #[test]
    fn roots_names_and_thresholds() {
        let errors = errors_of(
            "tree T for C { success, failure }
             tree T2 for C { parallel(success = 3, failure = 1) { success, success } }
             tree U for C { }",
        );
        assert_eq!(
            errors,
            [
                "a tree has exactly one root; wrap these nodes in `sequence { .. }` or `selector { .. }`",
                "`parallel(success = 3)` can never be met: it has 2 children",
                "a tree needs a root node, e.g. `sequence { .. }`",
            ]
        );
    }

    #[test]
    fn break_and_continue_find_their_loops() {
        let errors = errors_of(
            "tree T for C { sequence {
                 break,
                 'a: loop { 'b: while |c| c.x { sequence { continue 'a, break 'b, break 'c, 'a: repeat(2) { success } } } },
                 while |c| c.y { success },
             } }",
        );
        assert_eq!(
            errors,
            [
                "`break` outside a loop: it acts on an enclosing `loop`, `while`, `for`, `repeat`, `retry`, `until_fail` or `until_success`",
                "unknown label `'c` in `break 'c`; enclosing labels: 'a, 'b",
                "label `'a` shadows the label of an enclosing loop",
            ]
        );
    }

    #[test]
    fn a_good_tree_passes() {
        assert!(
            errors_of("tree T for C { loop { sequence { Face, wait(1.0), parallel(all) { success, running } } } }")
                .is_empty()
        );
    }
}

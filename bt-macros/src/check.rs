//! Stage 3: structural rules that need the whole tree: one root, the right
//! number of children for each kind, parallel thresholds that can be met,
//! tree names that are unique. Every violation is reported, each at its token.

use std::collections::BTreeMap;

use bt_runtime::Arity;

use crate::errors::Errors;
use crate::model::{Kind, Node, Threshold, Tree};

/// The most children a parallel can track (one bit each in a `u128`).
pub const MAX_PARALLEL: usize = 128;

/// Checks every tree, recording violations in `errors`.
pub fn check(trees: &[Tree], errors: &mut Errors) {
    let mut seen = BTreeMap::new();
    for tree in trees {
        if let Some(first) = seen.insert(tree.name.to_string(), tree.name.span()) {
            let _ = first;
            errors.at(
                tree.name.span(),
                format!("a tree named `{}` is already declared in this `behave!`", tree.name),
            );
        }
        match tree.roots.as_slice() {
            [] => errors.at(tree.body_span, "a tree needs a root node, e.g. `sequence { .. }`"),
            [root] => check_node(root, errors),
            [first, second, ..] => {
                check_node(first, errors);
                errors.at(
                    second.span,
                    "a tree has exactly one root; wrap these nodes in `sequence { .. }` or `selector { .. }`",
                );
            }
        }
    }
}

fn check_node(node: &Node, errors: &mut Errors) {
    if matches!(node.kind, Kind::Invalid) {
        return;
    }
    let kind = node.kind.catalog();
    let name = &node.label;
    let n = node.children.len();
    match kind.arity() {
        Arity::Leaf => {
            if let Some(braces) = node.braces {
                errors.at(braces, format!("`{name}` is a leaf and takes no children"));
            }
        }
        Arity::One => match node.children.as_slice() {
            [] => errors.at(node.span, format!("`{name}` needs exactly one child: `{name} {{ .. }}`")),
            [_] => {}
            [_, second, ..] => errors.at(
                second.span,
                format!("`{name}` takes exactly one child, found {n}; wrap them in `sequence {{ .. }}` or `selector {{ .. }}`"),
            ),
        },
        Arity::Many | Arity::Branches => {
            if n == 0 {
                errors.at(node.braces.unwrap_or(node.span), format!("empty `{}`: it needs at least one child", kind.dsl_name()));
            }
        }
    }
    match &node.kind {
        Kind::Parallel { success, failure } => {
            for t in [success, failure] {
                if let Threshold::Count(k, span) = *t
                    && k as usize > n
                {
                    let which = if std::ptr::eq(t, success) { "success" } else { "failure" };
                    errors.at(
                        span,
                        format!("`parallel({which} = {k})` can never be met: it has {n} children"),
                    );
                }
            }
            if n > MAX_PARALLEL {
                errors.at(
                    node.span,
                    format!("a parallel can have at most {MAX_PARALLEL} children, found {n}"),
                );
            }
        }
        Kind::ParallelMain if n > MAX_PARALLEL => {
            errors.at(
                node.span,
                format!("a parallel can have at most {MAX_PARALLEL} children, found {n}"),
            );
        }
        _ => {}
    }
    for child in &node.children {
        check_node(child, errors);
    }
}

/// A parallel's thresholds as numbers of children.
pub fn thresholds(success: Threshold, failure: Threshold, children: usize) -> (usize, usize) {
    let count = |t: Threshold| match t {
        Threshold::All => children,
        Threshold::Any => 1,
        Threshold::Count(k, _) => k as usize,
    };
    (count(success), count(failure))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model;

    fn errors_of(src: &str) -> Vec<String> {
        let mut errors = Errors::default();
        let trees = model::build(syn::parse_str(src).unwrap(), &mut errors);
        assert!(errors.is_empty(), "model errors: {:?}", errors.messages());
        check(&trees, &mut errors);
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
             tree T for C { parallel(success = 3, failure = 1) { success, success } }
             tree U for C { }",
        );
        assert_eq!(
            errors,
            [
                "a tree has exactly one root; wrap these nodes in `sequence { .. }` or `selector { .. }`",
                "a tree named `T` is already declared in this `behave!`",
                "`parallel(success = 3)` can never be met: it has 2 children",
                "a tree needs a root node, e.g. `sequence { .. }`",
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

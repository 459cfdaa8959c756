//! The most work one tick of a tree can do, by the rule the loader uses
//! (`SEMANTICS.md`, "Work per tick"): leaf ticks, with bounded
//! loops' counts multiplied along each path. The figure goes into the
//! generated docs and `TICK_WORK`; a tree above [`MAX_TICK_WORK`] is an error
//! at the node where the work first grows too large, so `repeat(u32::MAX)`
//! nested cannot hang the thread that ticks it.
//!
//! Per node: a leaf 1; sequences, selectors, parallels, `shuffle`, `abort_if`
//! the sum of their children; `random`, `weighted` the largest child; `if` its
//! conditions plus the largest branch; `match` 1 plus the largest arm;
//! `repeat(n)`, `retry(n)` n times the child; `for .. max n` 1 plus n times
//! the child; `loop`, `while`, `until_*` twice
//! their children; other decorators the child; a subtree its own figure; plus
//! one per lifecycle hook. Each kind's rule is the catalogue's
//! ([`NodeKind::work`](behaved_runtime::NodeKind::work)).

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote, quote_spanned};

use behaved_runtime::catalog::Work as Rule;

use crate::errors::Errors;
use crate::lower::{Lowered, State};
use crate::model::{Count, Kind};

/// The most leaf ticks one tick may make: the loader's default limit, defined
/// once in `behaved-format` for both forms.
pub use behaved_format::MAX_TICK_WORK;

/// A node's figure: a number, or (with constant counts or subtrees) a constant
/// expression that rustc works out.
#[derive(Clone)]
pub enum Work {
    /// Known while expanding.
    Known(u64),
    /// A `u64` constant expression.
    Const(TokenStream),
}

impl Work {
    fn tokens(&self) -> TokenStream {
        match self {
            Work::Known(n) => Literal::u64_suffixed(*n).into_token_stream(),
            Work::Const(t) => t.clone(),
        }
    }

    fn add(self, other: Work) -> Work {
        match (self, other) {
            (Work::Known(a), Work::Known(b)) => Work::Known(a.saturating_add(b)),
            (a, b) => {
                let (a, b) = (a.tokens(), b.tokens());
                Work::Const(quote!(::core::primitive::u64::saturating_add(#a, #b)))
            }
        }
    }

    fn max(self, other: Work) -> Work {
        match (self, other) {
            (Work::Known(a), Work::Known(b)) => Work::Known(a.max(b)),
            (a, b) => {
                let (a, b) = (a.tokens(), b.tokens());
                Work::Const(quote!({ let (__a, __b): (u64, u64) = (#a, #b); if __a > __b { __a } else { __b } }))
            }
        }
    }

    fn times(self, count: &Count) -> Work {
        match (self, count) {
            (Work::Known(a), Count::Literal(n)) => Work::Known(a.saturating_mul(*n)),
            (a, Count::Literal(n)) => {
                let (a, n) = (a.tokens(), Literal::u64_suffixed(*n));
                Work::Const(quote!(::core::primitive::u64::saturating_mul(#a, #n)))
            }
            (a, Count::Expr(e)) => {
                let a = a.tokens();
                Work::Const(quote!(::core::primitive::u64::saturating_mul(#a, { const __N: u32 = #e; __N as u64 })))
            }
        }
    }
}

/// The figure of every node of a lowered tree (by local id), with an error at
/// each node whose known figure is above the limit while its children's are not.
/// Returns the figures and the compile-time checks for the figures rustc works out.
pub fn figures(l: &Lowered, errors: &mut Errors) -> (Vec<Work>, Vec<TokenStream>) {
    let mut work: Vec<Work> = vec![Work::Known(0); l.slots.len()];
    let mut checks = Vec::new();
    // Pre-order: every child has a larger id than its parent.
    for s in l.slots.iter().rev() {
        let kids: Vec<Work> = s.children.iter().map(|&c| work[c].clone()).collect();
        let sum = |ws: &[Work]| ws.iter().cloned().fold(Work::Known(0), Work::add);
        let max = |ws: &[Work]| ws.iter().cloned().fold(Work::Known(0), Work::max);
        // Each kind's rule is the catalogue's; a subtree's figure is its tree's constant.
        let own = match (&s.node.kind, s.node.kind.catalog().work()) {
            (Kind::Subtree { .. }, _) => match &s.state {
                State::Subtree(ty) => Work::Const(crate::codegen::subtree_item(ty, quote!(TICK_WORK))),
                _ => unreachable!("a subtree's state is its tree"),
            },
            (_, Rule::One) => Work::Known(1),
            (_, Rule::Sum) => sum(&kids),
            (_, Rule::Largest) => max(&kids),
            // One score per child, then the chosen child.
            (_, Rule::ScoresAndLargest) => max(&kids).add(Work::Known(kids.len() as u64)),
            (Kind::If { has_else, .. }, Rule::Branches) => {
                let branches = kids.len() / 2;
                let conditions: Vec<Work> = kids.iter().step_by(2).take(branches).cloned().collect();
                let mut bodies: Vec<Work> = kids.iter().skip(1).step_by(2).take(branches).cloned().collect();
                if *has_else {
                    bodies.extend(kids.last().cloned());
                }
                sum(&conditions).add(max(&bodies))
            }
            (_, Rule::Match) => max(&kids).add(Work::Known(1)),
            (Kind::Repeat(c) | Kind::Retry(c), Rule::Times) => sum(&kids).times(c),
            // Reading the items, then up to `max` iterations in the tick.
            (Kind::ForEach { max, .. }, Rule::TimesAndRead) => sum(&kids).times(max).add(Work::Known(1)),
            (_, Rule::Twice) => sum(&kids).times(&Count::Literal(2)),
            // Reading the candidates, one score each, then the body once.
            (Kind::Pick { max, .. }, Rule::ReadScoresAndBody) => {
                sum(&kids).add(Work::Known(1).times(max)).add(Work::Known(1))
            }
            (_, Rule::Branches | Rule::Times | Rule::TimesAndRead | Rule::ReadScoresAndBody) => {
                unreachable!("the kind's parameters hold its count")
            }
        };
        let hooks = &s.node.hooks;
        let hook_count = hooks.in_tick() as u64;
        let figure = own.add(Work::Known(hook_count));
        let children_fit = kids.iter().all(|k| matches!(k, Work::Known(n) if *n <= MAX_TICK_WORK));
        match &figure {
            Work::Known(n) if *n > MAX_TICK_WORK && children_fit => errors.at(
                s.node.span,
                format!(
                    "`{}`: one tick can tick leaves up to {n} times here (bounded loops' counts multiply), \
                     above the limit of {MAX_TICK_WORK}; lower a count",
                    s.node.label
                ),
            ),
            Work::Const(t)
                if matches!(s.node.kind, Kind::Repeat(_) | Kind::Retry(_) | Kind::ForEach { .. })
                    || s.parent.is_none() =>
            {
                let message = format!(
                    "`{}`: one tick could tick leaves more than {MAX_TICK_WORK} times here \
                     (bounded loops' counts multiply); lower a count",
                    s.node.label
                );
                let limit = Literal::u64_suffixed(MAX_TICK_WORK);
                checks.push(quote_spanned! {s.node.span=>
                    const _: () = ::core::assert!(#t <= #limit, #message);
                });
            }
            _ => {}
        }
        work[s.id] = figure;
    }
    (work, checks)
}

/// The figure as the generated constant's value.
pub fn value(work: &Work) -> TokenStream {
    work.tokens()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{lower, model};

    fn figure(src: &str) -> (Option<u64>, Vec<String>) {
        let mut errors = Errors::default();
        let trees = model::build(syn::parse_str(src).unwrap(), &mut errors);
        assert!(errors.is_empty(), "{:?}", errors.messages());
        let l = lower::lower(&trees[0]);
        let (work, _) = figures(&l, &mut errors);
        let known = match work[0] {
            Work::Known(n) => Some(n),
            Work::Const(_) => None,
        };
        (known, errors.messages())
    }

    #[test]
    fn the_figure_follows_the_loaders_rule() {
        let (n, errors) = figure(
            "tree T for C { sequence { repeat(3) { selector { cond(|c| c.a), act(|c| c.b()) } }, \
             random { success, sequence { success, success } }, \
             if |c| c.x { wait(1) } else if |c| c.y { loop { success } } else { failure }, \
             #[on_enter(|c| c.go())] match |c| c.k { 1 => success, _ => running } } }",
        );
        // 3 * 2 + max(1, 2) + (2 conditions + max(1, 2 * 1, 1)) + (1 + 1 + 1 hook)
        assert_eq!((n, errors), (Some(6 + 2 + 4 + 3), Vec::<String>::new()));
    }

    #[test]
    fn nested_bounded_loops_above_the_limit_are_an_error_where_the_work_first_grows_too_large() {
        let (n, errors) = figure("tree T for C { repeat(65536) { repeat(65536) { repeat(2) { success } } } }");
        assert_eq!(n, Some(65536 * 65536 * 2));
        assert_eq!(
            errors,
            [
                "`repeat(65536)`: one tick can tick leaves up to 8589934592 times here (bounded loops' counts multiply), \
              above the limit of 16777216; lower a count"
            ]
        );
    }

    #[test]
    fn constant_counts_and_subtrees_are_left_to_rustc() {
        let mut errors = Errors::default();
        let trees = model::build(
            syn::parse_str("tree T for C { sequence { repeat(N) { success }, subtree(S) } }").unwrap(),
            &mut errors,
        );
        let l = lower::lower(&trees[0]);
        let (work, checks) = figures(&l, &mut errors);
        let text = value(&work[0]).to_string();
        assert!(
            text.contains("< S as :: behaved :: __private :: Subtree > :: TICK_WORK")
                && text.contains("const __N : u32 = N"),
            "{text}"
        );
        assert_eq!(checks.len(), 2, "the repeat and the root are checked by rustc");
        assert!(errors.is_empty());
    }
}

//! The items a tree's for-each loops hold in all, by the rule the loader uses
//! (`SEMANTICS.md`, "For each"): a tree keeps room for each loop's `max`
//! items in its struct, so the sum of the `max` is at most [`MAX_ITEMS`]; a
//! `for .. max 16_000_000` over 8-byte items would make a 128 MiB struct that
//! overflows the stack where the tree is built. The error is at the loop that
//! goes over the limit, in pre-order as the loader counts; with constant
//! counts rustc checks the sum.

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};

use crate::errors::Errors;
use crate::lower::Lowered;
use crate::model::{Count, Kind};

/// The most items a tree's loops may hold in all, defined once in
/// `behaved-format` for both forms.
pub use behaved_format::MAX_ITEMS;

/// Reports the loop of a lowered tree whose `max` takes the sum over
/// [`MAX_ITEMS`]; returns the compile-time check of the sums with constants.
/// From the first loop with a constant `max` on, rustc adds the counts: one
/// `const _` block with a constant per loop holding the sum up to it (the
/// previous one's plus its own count) and an assertion at each loop, so the
/// check grows with the loops, not with their square (`scaling.rs`).
pub fn check(l: &Lowered, errors: &mut Errors) -> Vec<TokenStream> {
    let limit = Literal::u64_suffixed(MAX_ITEMS);
    let mut known: u64 = 0;
    // The constant holding the sum so far, once a `max` is a constant.
    let mut sum: Option<syn::Ident> = None;
    let mut steps = TokenStream::new();
    for s in &l.slots {
        let (Kind::ForEach { max, .. } | Kind::Pick { max, .. }) = &s.node.kind else {
            continue;
        };
        let count = match max {
            Count::Literal(n) if sum.is_none() => {
                let before = known;
                known = known.saturating_add(*n);
                if before <= MAX_ITEMS && known > MAX_ITEMS {
                    errors.at(
                        s.node.span,
                        format!(
                            "`{}`: the for-each loops and picks up to here hold up to {known} items in all, above the limit \
                             of {MAX_ITEMS} (the tree keeps room for them in its struct, as the loader's \
                             `Registry::max_items` does in each agent); lower a `max`",
                            s.node.label
                        ),
                    );
                }
                continue;
            }
            Count::Literal(n) => Literal::u64_suffixed(*n).into_token_stream(),
            Count::Expr(e) => quote!({ const __N: u32 = #e; __N as u64 }),
        };
        let was = match &sum {
            Some(name) => name.to_token_stream(),
            None => Literal::u64_suffixed(known).into_token_stream(),
        };
        let now = format_ident!("__ITEMS_{}", s.id);
        let message = format!(
            "`{}`: the for-each loops and picks up to here hold more than {MAX_ITEMS} items in all (the tree keeps \
             room for them in its struct, as the loader's `Registry::max_items` does in each agent); lower a `max`",
            s.node.label
        );
        steps.extend(quote_spanned! {s.node.span=>
            const #now: u64 = #was.saturating_add(#count);
            const _: () = ::core::assert!(#was > #limit || #now <= #limit, #message);
        });
        sum = Some(now);
    }
    match sum {
        Some(_) => vec![quote!(const _: () = { #steps };)],
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{lower, model};

    fn errors_of(src: &str) -> (Vec<String>, usize) {
        let mut errors = Errors::default();
        let trees = model::build(syn::parse_str(src).unwrap(), &mut errors);
        assert!(errors.is_empty(), "{:?}", errors.messages());
        let l = lower::lower(&trees[0]);
        let checks = check(&l, &mut errors);
        (errors.messages(), checks.len())
    }

    #[test]
    fn the_loop_that_goes_over_the_limit_is_the_error() {
        let body = "act(|_| Status::Success)";
        let (errors, checks) = errors_of(&format!(
            "tree T for C {{ sequence {{ for a: u8 in |c| c.a.iter() max 65000 {{ {body} }}, \
             for b: u8 in |c| c.b.iter() max 536 {{ {body} }}, \
             for d: u8 in |c| c.d.iter() max 1 {{ {body} }}, \
             for e: u8 in |c| c.e.iter() max 9 {{ {body} }} }} }}"
        ));
        assert_eq!(checks, 0);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with(
                "`for d: u8 in |c| c.d.iter() max 1`: the for-each loops and picks up to here hold up to 65537 items"
            ),
            "{errors:?}"
        );
        // Exactly at the limit is fine; a constant count leaves the sum to rustc.
        let (errors, checks) = errors_of(&format!(
            "tree T for C {{ sequence {{ for a: u8 in |c| c.a.iter() max 65536 {{ {body} }}, \
             for b: u8 in |c| c.b.iter() max N {{ {body} }} }} }}"
        ));
        assert_eq!((errors.len(), checks), (0, 1), "{errors:?}");
    }
}

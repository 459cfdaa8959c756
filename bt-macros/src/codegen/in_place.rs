//! Leaf closures written in place: `act(|c| c.attack())` becomes
//! `{ let c: &mut Ctx = &mut *__ctx; into_status(c.attack()) }` instead of a
//! call of a closure. Each closure is a type and a body of its own for rustc
//! (type check, borrow check, MIR, a monomorphized `act::<Ctx, {closure}>`),
//! written twice per leaf (observed and fast path): most of a big tree's
//! compile time (BENCHMARKS.md, "Large trees").
//!
//! Only where the two forms are the same program: a closure of one plain
//! argument, without `async`, `move`, a return type or attributes, whose body
//! cannot leave it early (`return`, `?`, `break`, `continue`, `.await`,
//! `yield`, or a macro that might expand to one of them). Anything else keeps
//! its closure.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::ToTokens;

/// The argument pattern and the body of `leaf` when it can be written in place.
pub(super) fn closure_parts(leaf: &syn::Expr) -> Option<(&syn::Pat, &syn::Expr)> {
    let syn::Expr::Closure(c) = leaf else { return None };
    let plain = c.attrs.is_empty()
        && c.lifetimes.is_none()
        && c.constness.is_none()
        && c.movability.is_none()
        && c.asyncness.is_none()
        && c.capture.is_none()
        && matches!(c.output, syn::ReturnType::Default)
        && c.inputs.len() == 1;
    let param = c.inputs.first()?;
    let bare = match param {
        syn::Pat::Type(t) => t.attrs.is_empty(),
        syn::Pat::Ident(i) => i.attrs.is_empty(),
        syn::Pat::Wild(w) => w.attrs.is_empty(),
        _ => false,
    };
    (plain && bare && stays_inside(c.body.to_token_stream())).then_some((param, &*c.body))
}

/// Macros whose expansion cannot leave the surrounding body (their
/// arguments are checked like the rest of the body).
const CONTAINED_MACROS: &[&str] = &[
    "matches",
    "format",
    "print",
    "println",
    "eprint",
    "eprintln",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
    "unreachable",
    "todo",
    "unimplemented",
    "vec",
];

/// Whether no token of `body` can make control leave it other than by its
/// value: no `return`, `break`, `continue`, `yield`, `await`, `?`, and no
/// macro call other than [`CONTAINED_MACROS`].
fn stays_inside(body: TokenStream) -> bool {
    let tokens: Vec<TokenTree> = body.into_iter().collect();
    tokens.iter().enumerate().all(|(i, tt)| match tt {
        TokenTree::Ident(id) => {
            let name = id.to_string();
            let leaves = matches!(
                name.as_str(),
                "return" | "break" | "continue" | "yield" | "await" | "become"
            );
            let is_macro = matches!(tokens.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!')
                && matches!(tokens.get(i + 2), Some(TokenTree::Group(g)) if g.delimiter() != Delimiter::None);
            !leaves && (!is_macro || CONTAINED_MACROS.contains(&name.as_str()))
        }
        TokenTree::Punct(p) => p.as_char() != '?',
        TokenTree::Group(g) => stays_inside(g.stream()),
        TokenTree::Literal(_) => true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn in_place(src: &str) -> bool {
        closure_parts(&syn::parse_str(src).unwrap()).is_some()
    }

    #[test]
    fn plain_closures_are_written_in_place() {
        for src in [
            "|c| c.leaf(3)",
            "|c: &mut Ctx| { c.hp -= 1; c.hp > 0 }",
            "|_| Status::Success",
            "|c| matches!(c.stage, 1 | 2) && c.x != 3",
            "|c| { let v = c.items.iter().map(|i| i + 1).sum::<u32>(); v > 2 }",
            "|c| println!(\"{}\", c.hp)",
        ] {
            assert!(in_place(src), "{src}");
        }
    }

    #[test]
    fn closures_that_may_leave_early_or_differ_keep_their_closure() {
        for src in [
            "|c| { if c.hp == 0 { return Status::Failure; } c.go() }",
            "|c| c.try_go()?",
            "|c| loop { break c.go() }",
            "|c| { for i in 0..3 { if c.x(i) { continue; } } }",
            "|c| async { c.go() }.await",
            "|c| my_bail!(c)",
            "|c| -> Status { c.go() }",
            "move |c| c.go()",
            "async |c| c.go()",
            "|(a, b)| a.go()",
            "|a, b| a.go()",
            "is_hurt",
        ] {
            assert!(!in_place(src), "{src}");
        }
    }
}

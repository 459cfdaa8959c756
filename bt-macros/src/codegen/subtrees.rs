//! Node ids across subtrees: a subtree's nodes sit in the outermost node
//! table after the nodes before it, so each id is shifted by the subtrees
//! before it; the node count, the node table, and the items generated code
//! reads of a subtree type.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};

use super::{rt, rt_at};
use crate::lower::{Lowered, State};

/// The id of local node `id` in the outermost table: subtrees before it in
/// pre-order shift it by their node counts, summed once in [`shifts`].
pub(super) fn flat_id(l: &Lowered, id: usize) -> TokenStream {
    let local = Literal::u32_unsuffixed(id as u32);
    // `subtrees` is in pre-order, as ids are.
    match l.subtrees.partition_point(|&s| s < id) {
        0 => quote!((#local)),
        before => {
            let shift = shift_name(l.subtrees[before - 1]);
            quote!((#local + Self::#shift))
        }
    }
}

/// The constants [`flat_id`] adds: for each subtree with nodes after it, the
/// node count of it and of every subtree before it. Spelling each node's id
/// as the sum of all the subtrees before it made the expansion grow with the
/// square of the tree (`scaling.rs`).
pub(super) fn shifts(l: &Lowered) -> TokenStream {
    let last = l.slots.len() - 1;
    let mut before = quote!(0);
    let mut out = TokenStream::new();
    for &s in l.subtrees.iter().filter(|&&s| s < last) {
        let (name, ty) = (shift_name(s), subtree_type(l, s));
        let count = subtree_item(ty, quote!(NODE_COUNT));
        out.extend(quote!(const #name: u32 = #before + #count;));
        before = quote!(Self::#name);
    }
    out
}

/// The name of subtree node `id`'s constant in [`shifts`].
pub(super) fn shift_name(id: usize) -> syn::Ident {
    format_ident!("__SHIFT_{}", id)
}

pub(super) fn subtree_type<'a>(l: &'a Lowered, id: usize) -> &'a syn::Type {
    match &l.slots[id].state {
        State::Subtree(ty) => ty,
        _ => unreachable!("not a subtree"),
    }
}

/// The span of the first token of `ty` (its name, for a path).
pub(crate) fn first_span(ty: &impl ToTokens) -> Span {
    ty.to_token_stream()
        .into_iter()
        .next()
        .map_or(Span::call_site(), |t| t.span())
}

/// `impl Subtree for Name`: what a parent tree reads of this one, its
/// public constants and `new()` (the tree and its stand-in alike), with the
/// `async_checks` that every function returning the tree has; one line, the
/// runtime's `subtree_impl!`.
pub(super) fn subtree_impl(name: &syn::Ident, async_checks: &TokenStream) -> TokenStream {
    // At the tree's name: where rustc points when it lists the trees.
    let rt = rt_at(name.span());
    quote_spanned!(name.span()=> #rt::subtree_impl!(#name, { #async_checks });)
}

/// `<Ty as Subtree>::item` for subtree type `ty`, every token at its name:
/// generated code names a subtree only so, and a type that is no tree
/// declared with `behave!` is one error there (the same diagnostic at every
/// use, which rustc reports once), not one per generated item.
pub(crate) fn subtree_item(ty: &syn::Type, item: TokenStream) -> TokenStream {
    let span = first_span(ty);
    let rt = rt_at(span);
    // The item too: a path's span runs from its first token to its last.
    let item = item.into_iter().map(|mut t| {
        t.set_span(span);
        t
    });
    quote_spanned!(span=> <#ty as #rt::Subtree>::#(#item)*)
}

pub(super) fn node_count(l: &Lowered) -> TokenStream {
    let local = Literal::u32_unsuffixed(l.slots.len() as u32);
    let subs = l
        .subtrees
        .iter()
        .map(|&s| subtree_item(subtree_type(l, s), quote!(NODE_COUNT)));
    quote!((#local #( + #subs )*))
}

/// The node table: one call of the runtime's `node_table` with a row per
/// own node (kind, parent's id, label, line) and the subtrees to splice in.
/// Rows, not a statement per node (`__table[i] = NodeInfo { .. };`): rustc
/// type-checks, borrow-checks and evaluates a const body, and a big tree's
/// was 10,000 statements (BENCHMARKS.md, "Where rustc spends a big tree's
/// time").
pub(super) fn node_table(l: &Lowered) -> TokenStream {
    let rt = rt();
    let rows = l.slots.iter().map(|s| {
        let parent = match s.parent {
            // The root's parent is not read.
            None => Literal::u32_unsuffixed(0).into_token_stream(),
            Some(p) if l.subtrees.partition_point(|&sub| sub < p) == 0 => {
                Literal::u32_unsuffixed(p as u32).into_token_stream()
            }
            Some(p) => flat_id(l, p),
        };
        let kind = format_ident!("{}", format!("{:?}", s.node.kind.catalog()));
        let label = &s.node.label;
        let line = Literal::u32_unsuffixed(s.node.line);
        quote!((#rt::NodeKind::#kind, #parent, #label, #line),)
    });
    let subtrees = l.subtrees.iter().map(|&id| {
        let (row, nodes) = (
            Literal::u32_unsuffixed(id as u32),
            subtree_item(subtree_type(l, id), quote!(NODES)),
        );
        quote!((#row, #nodes),)
    });
    quote!(#rt::node_table(&[#(#rows)*], &[#(#subtrees)*]))
}

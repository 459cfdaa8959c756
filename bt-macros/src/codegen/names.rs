//! The names the generated code gives its fields, methods and labels, one
//! function each, so that every part of the generator agrees on them.

use super::*;

/// The field holding node `id`'s state.
pub(super) fn field(id: usize) -> syn::Ident {
    format_ident!("__n{}", id)
}

/// Where node `s`'s async action (`act(async X)`) is, if it is one: at `X`.
/// Its field's type names `X`'s future there, and every use of the field
/// is placed there too, so that an `X` that is not an async action is one
/// error at `X` (rustc reports the same error at the same place once), not
/// one more at the macro for each use.
pub(super) fn async_span(s: &Slot) -> Option<Span> {
    match &s.node.kind {
        Kind::Act(leaf @ Leaf::Value { ty, .. }) if crate::model::is_async(leaf) => {
            Some(syn::spanned::Spanned::span(ty))
        }
        _ => None,
    }
}

/// In a function that holds the tree by value (`new`, `default`, loading):
/// a statement per async action naming its field's type, at its `X`. The
/// drop check of the tree value works out every field's type; for an `X`
/// that is not an async action it would fail once more, at the macro; this
/// statement fails first, with the field's own error at `X` (so reported
/// once), and rustc then skips the function's drop check.
pub(super) fn async_type_checks(l: &Lowered) -> TokenStream {
    l.slots
        .iter()
        .filter_map(|s| match (&s.node.kind, async_span(s)) {
            (Kind::Act(Leaf::Value { ty, .. }), Some(at)) => {
                Some(quote_spanned!(at=> let _: ::core::marker::PhantomData<#ty>;))
            }
            _ => None,
        })
        .collect()
}

/// `self.__nN`, node `s`'s leaf value: at [`async_span`] for an async action.
pub(super) fn leaf_field(s: &Slot) -> TokenStream {
    let mut f = field(s.id);
    match async_span(s) {
        Some(at) => {
            f.set_span(at);
            quote_spanned!(at=> self.#f)
        }
        None => quote!(self.#f),
    }
}

/// The field holding the hook action `which` (`on_enter`, ..) of node `id`
/// (JSON trees' hooks).
pub(super) fn hook_field(id: usize, which: &str) -> syn::Ident {
    format_ident!("__n{}_{}", id, which)
}

/// The field holding the list value of the `forEach` node `id` (JSON trees).
pub(super) fn list_field(id: usize) -> syn::Ident {
    format_ident!("__n{}_list", id)
}

/// The field holding the time of the last scoring of the interval
/// `utility` node `id` (`utility(every = d)`).
pub(super) fn scored_at_field(id: usize) -> syn::Ident {
    format_ident!("__n{}_scored_at", id)
}

/// The field holding variable `name` of the `scope` node `id`.
pub(super) fn var_field(id: usize, name: &syn::Ident) -> syn::Ident {
    format_ident!("__n{}_{}", id, name)
}

pub(super) fn tick_name(id: usize, fast: bool) -> syn::Ident {
    if fast {
        format_ident!("__fast_{}", id)
    } else {
        format_ident!("__tick_{}", id)
    }
}

pub(super) fn halt_name(id: usize) -> syn::Ident {
    format_ident!("__halt_{}", id)
}

pub(super) fn wake_name(id: usize) -> syn::Ident {
    format_ident!("__wake_{}", id)
}

pub(super) fn child_halt_name(id: usize) -> syn::Ident {
    format_ident!("__halt_children_{}", id)
}

/// The label of node `id`'s block that a jump from one of its children
/// leaves. Labels are named by node: a child's code written inside its
/// parent's must not shadow the parent's label (rustc warns).
pub(super) fn jump_label(id: usize) -> syn::Lifetime {
    syn::Lifetime::new(&format!("'__jump_{id}"), Span::call_site())
}

/// The label of node `id`'s block that a composite's step leaves with the
/// node's status (named by node, as [`jump_label`]).
pub(super) fn node_label(id: usize) -> syn::Lifetime {
    syn::Lifetime::new(&format!("'__node_{id}"), Span::call_site())
}

pub(super) fn uint(u: UInt) -> syn::Ident {
    syn::Ident::new(u.name(), Span::call_site())
}

pub(super) fn lit(n: usize) -> Literal {
    Literal::usize_unsuffixed(n)
}

pub(super) fn bit(i: usize) -> Literal {
    Literal::u128_unsuffixed(1u128 << i)
}

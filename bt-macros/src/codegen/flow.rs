//! The tree's `READS`: for each own node whose code's reads the macro found
//! ([`crate::reads`]: inline conditions, `wait_until` closures, `match`
//! values), its id and the context fields it reads, for the studio's
//! data-flow view (`behaved_observe::DataFlow::compiled`); and its
//! `read_fields(&self, id)`, which adds what each condition value declares
//! (`Condition::read_fields`). Nodes of neither read what is unknown
//! (actions, conditions that declare nothing); a subtree's nodes read what
//! its own `read_fields` says.

use proc_macro2::TokenStream;
use quote::quote;

use super::{field, flat_id, leaf_field, rt_path, subtree_item};
use crate::lower::{Lowered, State};
use crate::model::{Kind, Leaf};

/// The fields node `kind` reads by its own code, when the macro knows them.
fn own_reads(kind: &Kind) -> Option<Vec<String>> {
    match kind {
        Kind::Cond(Leaf::Inline(closure)) | Kind::WaitUntil(Leaf::Inline(closure)) => {
            crate::reads::closure_reads(closure)
        }
        // Guards read more, through patterns' bindings: unknown.
        Kind::Match {
            param, scrutinee, arms, ..
        } if arms.iter().all(|(_, guard)| guard.is_none()) => {
            let name = crate::reads::param_name(param)?;
            crate::reads::body_reads(name.as_deref().unwrap_or(""), scrutinee)
        }
        _ => None,
    }
}

/// `&[(id, &["field", ..]), ..]`, the value of the tree's `READS`.
pub(super) fn reads_table(l: &Lowered) -> TokenStream {
    let rows = l.slots.iter().filter_map(|s| {
        let fields = own_reads(&s.node.kind)?;
        let id = flat_id(l, s.id);
        Some(quote!((#id, &[#(#fields),*]),))
    });
    quote!(&[#(#rows)*])
}

/// The tree's `read_fields(&self, id)`: a condition value's own declaration,
/// else the node's entry in `READS`. A leaf that is no condition answers
/// `None` here (`FieldsOf`): the tick path reports it, once.
pub(super) fn read_fields_fn(l: &Lowered, ctx: &syn::Type) -> TokenStream {
    let rt = rt_path();
    let values = l.slots.iter().filter_map(|s| match &s.node.kind {
        Kind::Cond(Leaf::Value { .. }) | Kind::WaitUntil(Leaf::Value { .. }) => {
            let (id, leaf) = (flat_id(l, s.id), leaf_field(s));
            Some(quote! {
                if id == #id {
                    use #rt::{ViaCondition as _, ViaNoCondition as _};
                    return (&#rt::FieldsOf::<_, #ctx>(&#leaf, ::core::marker::PhantomData)).read_fields();
                }
            })
        }
        _ => None,
    });
    let subtrees = l.slots.iter().filter_map(|s| match &s.state {
        State::Subtree(ty) => {
            let (id, f) = (flat_id(l, s.id), field(s.id));
            let (count, read) = (
                subtree_item(ty, quote!(NODE_COUNT)),
                subtree_item(ty, quote!(read_fields)),
            );
            Some(quote! {
                let first = #id + 1;
                if id >= first && id - first < #count {
                    return #read(&self.#f, id - first);
                }
            })
        }
        _ => None,
    });
    quote! {
        /// The context fields node `id`'s own code reads, when they are
        /// known: [`Self::READS`], or what a condition value declares
        /// (`Condition::read_fields`), or for a subtree's nodes what the
        /// subtree says; `None` for the others (actions, conditions that
        /// declare nothing). The studio's data-flow view draws them.
        pub fn read_fields(&self, id: u32) -> ::core::option::Option<&'static [&'static str]> {
            #(#values)*
            #(#subtrees)*
            Self::READS.iter().find(|(node, _)| *node == id).map(|(_, fields)| *fields)
        }
    }
}

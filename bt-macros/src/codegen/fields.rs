//! The generated struct's fields: each node's state (its resume point,
//! counters, timers, masks, items, variables), its leaf and hook values and
//! its subtrees, with their types, their values in `new()` and whether a
//! saved state holds them.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{ToTokens, quote};

use super::subtrees::{first_span, subtree_item};
use super::{
    async_span, field, hook_field, list_field, lit, rt_path, scored_at_field, uint, var_field, with_lifetimes,
};
use crate::lower::{Slot, State};
use crate::model::{Hook, Kind, Leaf, value_expr};

/// A field of the generated struct: name, type, value in `new()`, and whether
/// it is part of the saved running state.
pub(crate) struct Field {
    pub(super) name: syn::Ident,
    pub(super) ty: TokenStream,
    pub(super) init: TokenStream,
    pub(super) saved: bool,
    /// A `#[persist]` leaf's place in the tree: a leaf that serde cannot save
    /// or load is an error there, not at the whole `behave!`.
    pub(super) persisted_at: Option<Span>,
    /// A subtree's type, whose `Subtree` impl serde's calls go through
    /// (`subtree_item`): a type that is no tree is then the one error at
    /// its name, not serde's too.
    pub(super) checked: Option<syn::Type>,
}

/// The fields a node needs. Control state is always saved; a leaf value only
/// when marked `#[persist]`.
pub(super) fn fields_of(s: &Slot, ctx: &syn::Type) -> Vec<Field> {
    let saved = !matches!(s.state, State::Leaf(_)) || s.node.persist;
    let hooks = s.node.hooks.all().into_iter().filter_map(|(which, hook)| match hook? {
        // Not saved: a loaded tree has them as `new()` built them, as the
        // interpreter's hook leaves registered with `Registry::action`.
        Hook::Action(Leaf::Value { expr, ty, .. }) => Some(Field {
            name: hook_field(s.id, which),
            ty: ty.to_token_stream(),
            init: expr.to_token_stream(),
            saved: false,
            persisted_at: None,
            checked: None,
        }),
        Hook::Action(Leaf::Inline(_)) | Hook::Closure(_) => None,
    });
    // Not saved, as leaf values are not: a loaded tree has it as `new()` built it.
    let list = match &s.node.kind {
        Kind::ForEach {
            source: crate::model::ForSource::List(Leaf::Value { expr, ty, .. }),
            ..
        }
        | Kind::Pick {
            source: crate::model::ForSource::List(Leaf::Value { expr, ty, .. }),
            ..
        } => Some(Field {
            name: list_field(s.id),
            ty: ty.to_token_stream(),
            init: value_expr(expr).to_token_stream(),
            saved: false,
            persisted_at: None,
            checked: None,
        }),
        _ => None,
    };
    let persisted_at = (matches!(s.state, State::Leaf(_)) && s.node.persist).then_some(s.node.span);
    let checked = match &s.state {
        State::Subtree(ty) => Some(ty.clone()),
        _ => None,
    };
    raw_fields(s, ctx)
        .into_iter()
        .map(|(name, ty, init)| Field {
            name,
            ty,
            init,
            saved,
            persisted_at,
            checked: checked.clone(),
        })
        .chain(hooks)
        .chain(list)
        .collect()
}

/// The fields a node needs: (name, type, value in `new()`).
pub(super) fn raw_fields(s: &Slot, ctx: &syn::Type) -> Vec<(syn::Ident, TokenStream, TokenStream)> {
    let mut f = field(s.id);
    if let Some(at) = async_span(s) {
        f.set_span(at);
    }
    let one = |ty: TokenStream, init: TokenStream| vec![(f.clone(), ty, init)];
    match &s.state {
        State::None => Vec::new(),
        // The interval `utility` keeps the time it last scored, too (saved, as a timer is).
        State::Resume(u) if matches!(&s.node.kind, Kind::Utility { choose, .. } if choose.every().is_some()) => vec![
            (f.clone(), uint(*u).into_token_stream(), quote!(0)),
            (scored_at_field(s.id), quote!(f64), quote!(0.0)),
        ],
        State::Resume(u) | State::Counter(u) => one(uint(*u).into_token_stream(), quote!(0)),
        State::Masks(u, n) => {
            let (u, n) = (uint(*u), lit(*n));
            one(quote!([#u; #n]), quote!([0; #n]))
        }
        State::ResumeFailed(u) => {
            let u = uint(*u);
            one(quote!((#u, bool)), quote!((0, false)))
        }
        State::Flag => one(quote!(bool), quote!(false)),
        State::Time => one(quote!(f64), quote!(0.0)),
        // Finite (JSON has no infinity), and far enough in the past for any cooldown.
        State::LastTime => one(quote!(f64), quote!(f64::MIN)),
        State::Delay => one(quote!((f64, bool)), quote!((0.0, false))),
        State::Shuffle(n) => {
            let n = lit(*n);
            one(quote!(([u8; #n], u8)), quote!(([0; #n], 0)))
        }
        State::Vars => match &s.node.kind {
            Kind::Scope(vars) => vars
                .iter()
                .map(|v| {
                    (
                        var_field(s.id, &v.name),
                        v.ty.to_token_stream(),
                        v.init.to_token_stream(),
                    )
                })
                .collect(),
            _ => unreachable!("variables on a non-scope"),
        },
        State::Items => match &s.node.kind {
            Kind::ForEach { source, max } | Kind::Pick { source, max, .. } => {
                let rt = rt_path();
                let max = match max {
                    crate::model::Count::Literal(n) => Literal::usize_unsuffixed(*n as usize).into_token_stream(),
                    crate::model::Count::Expr(e) => quote!({ (#e) as usize }),
                };
                let item = match source {
                    crate::model::ForSource::Closure { ty, .. } => ty.to_token_stream(),
                    crate::model::ForSource::List(Leaf::Value { ty, .. }) => {
                        let ctx = with_lifetimes(ctx, "'static");
                        quote!(<#ty as #rt::ItemList<#ctx>>::Item)
                    }
                    crate::model::ForSource::List(Leaf::Inline(_)) => unreachable!("a list is a value"),
                };
                one(quote!(#rt::ForEachItems<#item, #max>), quote!(#rt::ForEachItems::new()))
            }
            _ => unreachable!("items on a non-for, non-pick"),
        },
        State::Leaf(ty) => match &s.node.kind {
            Kind::Cond(Leaf::Value { expr, .. })
            | Kind::Act(Leaf::Value { expr, .. })
            | Kind::WaitUntil(Leaf::Value { expr, .. }) => {
                one(ty.to_token_stream(), value_expr(expr).to_token_stream())
            }
            _ => unreachable!("leaf state on a non-leaf"),
        },
        State::Subtree(ty) => one(ty.to_token_stream(), subtree_init(ty, &s.node.kind)),
    }
}

/// A subtree's value in `new()`: its own `new()`, built with its remapped
/// blackboard keys in place where the file remaps them (the runtime's
/// `with_remap`, which its leaves' ports then resolve through).
pub(super) fn subtree_init(ty: &syn::Type, kind: &Kind) -> TokenStream {
    let new = subtree_item(ty, quote!(new()));
    match kind {
        Kind::Subtree { remap, .. } if !remap.is_empty() => {
            let private = crate::facade::private(first_span(ty));
            let pairs = remap
                .iter()
                .map(|(key, to, entry)| quote!((#key, #to, #private::remap_entry(#entry))));
            quote!(#private::with_remap(&[#(#pairs),*], || #new))
        }
        _ => new,
    }
}

//! The leaves (conditions, `waitUntil`, actions, `success`, `failure`,
//! `running`) and subtrees: their tick, halt and wake.

use behaved_runtime::NodeKind;
use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};

use crate::codegen::tick::{bind, call_site_names};
use crate::codegen::wake::WakeCode;
use crate::codegen::{Gen, field, flat_id, in_place, rt, rt_at};
use crate::lower::Slot;
use crate::model::{Kind, Leaf};

impl Gen<'_> {
    /// A condition leaf's status: an inline closure called with the variables
    /// it mentions, or the condition value stored in this node's field.
    pub(in crate::codegen) fn check(&self, s: &Slot, leaf: &Leaf) -> TokenStream {
        let (ctx, f, span) = (&self.ctx, field(s.id), s.node.span);
        let rt = rt_at(span);
        let (__cx, __this, __env) = call_site_names();
        match leaf {
            Leaf::Inline(closure) => {
                let vars = self.var_bindings(s, &closure.to_token_stream());
                match in_place::closure_parts(closure) {
                    Some((param, body)) => {
                        let binding = bind(param, quote!(&#ctx), quote!(&*#__cx));
                        // An `if` makes the body a `bool` with rustc's plain
                        // "expected `bool`" where it is not (as the closure's bound did).
                        // In parentheses, so that a struct literal in the body
                        // parses; spanned on the body, so that an error is there.
                        let mut value =
                            proc_macro2::Group::new(proc_macro2::Delimiter::Parenthesis, body.to_token_stream());
                        value.set_span(syn::spanned::Spanned::span(body));
                        quote_spanned!(span=> {
                            #vars
                            #binding
                            #[allow(unused_parens, unused_braces, clippy::all, clippy::pedantic, clippy::nursery)]
                            let __value = if #value { #rt::Status::Success } else { #rt::Status::Failure };
                            __value
                        })
                    }
                    None => quote_spanned!(span=> { #vars #rt::cond::<#ctx, _>(&*#__cx, #closure) }),
                }
            }
            Leaf::Value { .. } => quote_spanned!(span=> #rt::check::<#ctx, _>(&#__this.#f, &*#__cx)),
        }
    }

    /// `waitUntil`: Running until its condition holds.
    pub(in crate::codegen) fn wait_until(&self, s: &Slot, leaf: &Leaf) -> TokenStream {
        let rt = rt();
        let check = self.check(s, leaf);
        quote! {
            match #check {
                #rt::Status::Success => #rt::Status::Success,
                _ => #rt::Status::Running,
            }
        }
    }

    /// An action written in place: its closure called (or its body inlined) with the variables it mentions.
    pub(in crate::codegen) fn inline_action(&self, s: &Slot, closure: &syn::Expr) -> TokenStream {
        let (ctx, span) = (&self.ctx, s.node.span);
        let rt = rt_at(span);
        let vars = self.var_bindings(s, &closure.to_token_stream());
        let (__cx, __this, __env) = call_site_names();
        match in_place::closure_parts(closure) {
            Some((param, body)) => {
                let binding = bind(param, quote!(&mut #ctx), quote!(&mut *#__cx));
                // The body as written (`{ .. }` included): the lints that
                // take it for a function argument's do not apply; nor do
                // clippy's, which did not see it inside its closure.
                quote_spanned!(span=> {
                    #vars
                    #binding
                    #[allow(unused_braces, clippy::all, clippy::pedantic, clippy::nursery)]
                    let __value = #rt::into_status(#body);
                    __value
                })
            }
            None => quote_spanned!(span=> { #vars #rt::act::<#ctx, _, _>(#__cx, #closure) }),
        }
    }

    /// Ticks or halts (`step`) an action value, spanned on the leaf so that a
    /// missing `Action` impl is reported there, once.
    pub(in crate::codegen) fn action_step(&self, s: &Slot, step: TokenStream) -> TokenStream {
        let (f, ctx) = (field(s.id), &self.ctx);
        let span = s.node.span;
        let rt = rt_at(span);
        let (__cx, __this, __env) = call_site_names();
        if let Some(at) = crate::codegen::async_span(s) {
            // The import at the macro (one of the two is unused, by design);
            // the call at `X`, where its error belongs.
            let (rt, leaf, import) = (rt_at(at), crate::codegen::leaf_field(s), crate::codegen::rt());
            let call = quote_spanned! {at=>
                #rt::AsyncStep::<_, #ctx>(&mut #leaf, #rt::PhantomData).step(#__cx, #rt::Step::#step)
            };
            return quote!({ use #import::AsyncNothing as _; #call });
        }
        quote_spanned!(span=> #rt::action::<#ctx, _>(&mut #__this.#f, #__cx, #rt::Step::#step))
    }

    /// Ticks or halts (`step`) a subtree on its part of the context, with the
    /// id offset of its nodes.
    pub(in crate::codegen) fn subtree_step(&self, s: &Slot, step: TokenStream) -> TokenStream {
        let f = field(s.id);
        let Kind::Subtree { ty, map, .. } = &s.node.kind else {
            unreachable!("not a subtree")
        };
        let span = ty
            .to_token_stream()
            .into_iter()
            .next()
            .map_or(s.node.span, |t| t.span());
        let rt = rt_at(span);
        let base = flat_id(self.l, s.id);
        // Through `Subtree::as_tree`: a type that is no tree fails there only.
        let as_tree = crate::codegen::subtree_item(ty, quote!(as_tree));
        match map {
            Some(map) => {
                let (__cx, __this, __env) = call_site_names();
                quote_spanned! {span=>
                    #rt::subtree::<_, _, _>(#as_tree(&mut #__this.#f), #rt::map_ctx(#__cx, #map), #__env, #base + 1, #rt::Step::#step)
                }
            }
            None => {
                let ctx = &self.ctx;
                let (__cx, __this, __env) = call_site_names();
                quote_spanned! {span=>
                    #rt::subtree::<#ctx, _, _>(#as_tree(&mut #__this.#f), #__cx, #__env, #base + 1, #rt::Step::#step)
                }
            }
        }
    }
}

impl Gen<'_> {
    /// A leaf's halt: an action value's `halt` (unless an observer stands
    /// in for it), a subtree's; the other leaves have nothing to halt.
    pub(in crate::codegen) fn leaf_halt(&self, s: &Slot) -> TokenStream {
        match &s.node.kind {
            Kind::Act(Leaf::Value { .. }) => {
                let id = flat_id(self.l, s.id);
                let call = self.action_step(s, quote!(Halt));
                quote! {
                    if !__env.stands_in_halt(#id) {
                        let _ = #call;
                    }
                }
            }
            Kind::Subtree { .. } => {
                let call = self.subtree_step(s, quote!(Halt));
                quote!(let _ = #call;)
            }
            _ => quote!(),
        }
    }

    /// A leaf's wake: an action value's or subtree's own answer; `running`
    /// never wakes; the others check again on every tick, or are never
    /// Running.
    pub(in crate::codegen) fn leaf_wake(&self, s: &Slot) -> WakeCode {
        let (rt, f) = (rt(), field(s.id));
        let body = match &s.node.kind {
            Kind::Plain(NodeKind::Running) => quote!(#rt::Wake::Never),
            Kind::Act(Leaf::Value { .. }) => {
                let (ctx, leaf) = (&self.ctx, crate::codegen::leaf_field(s));
                quote!({
                    use #rt::{ViaAction as _, ViaNothing as _};
                    (&#rt::ActionWake::<_, #ctx>(&#leaf, #rt::PhantomData)).wake(__now)
                })
            }
            Kind::Subtree { ty, map, .. } => {
                let ctx = &self.ctx;
                let tree = crate::codegen::subtree_item(ty, quote!(Tree));
                let part = match map {
                    Some(map) => quote!(#rt::part_of::<#ctx, _, _>(#map)),
                    None => quote!(#rt::PhantomData::<fn(&#ctx)>),
                };
                // The call at the subtree's name (a type that is no tree
                // fails there only); the imports where the macro is.
                let wake = quote_spanned!(crate::codegen::first_span(ty)=> (&#rt::TreeWake::<#tree, _>(&self.#f, #part)).wake(__now));
                quote!({
                    use #rt::{ViaAction as _, ViaNothing as _};
                    #wake
                })
            }
            _ => return WakeCode::NextTick,
        };
        WakeCode::Code(quote!({ #body }))
    }
}

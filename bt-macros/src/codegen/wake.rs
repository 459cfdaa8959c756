//! The `__wake_N` methods: when a running node next needs a tick (the rule
//! is in `bt_runtime::Wake`). Each follows the node's state down to its
//! running children exactly as its halt does, so a tree answers from the
//! running path alone.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Gen, bit, field, lit, rt, wake_name};
use crate::lower::Slot;
use crate::model::{Kind, Leaf};

impl Gen<'_> {
    /// `__wake_N(&self, now)`: the method of a node that has one (see
    /// [`Gen::inlined`]); only ever called on a node that is Running.
    pub(super) fn wake_method(&self, s: &Slot) -> TokenStream {
        let rt = rt();
        let name = wake_name(s.id);
        let code = self.wake_code(s);
        quote! {
            #[inline]
            #[allow(unused_variables)]
            fn #name(&self, __now: f64) -> #rt::Wake {
                #code
            }
        }
    }

    /// Node `s`'s wake as one expression, which may stand in its parent's
    /// code (`__now` is in scope).
    fn wake_code(&self, s: &Slot) -> TokenStream {
        let rt = rt();
        let f = field(s.id);
        let next = quote!(#rt::Wake::NextTick);
        let hooks = &s.node.hooks;
        let body = match &s.node.kind {
            // Its hooks run on every tick.
            _ if hooks.pre_tick.is_some() || hooks.tick.is_some() => next.clone(),
            Kind::Sequence | Kind::Selector | Kind::Random | Kind::Weighted(_) => {
                self.wake_of_resumed(s, quote!(self.#f))
            }
            Kind::SequenceAlways => self.wake_of_resumed(s, quote!(self.#f.0)),
            Kind::If { reactive: false, .. } | Kind::Match { reactive: false, .. } => {
                self.wake_of_resumed(s, quote!(self.#f))
            }
            Kind::Shuffle => {
                let arms = (0..s.children.len()).map(|i| {
                    let (k, wake) = (lit(i), self.wake_child(s, i));
                    quote!(#k => #wake,)
                });
                quote! {
                    match self.#f.0[(self.#f.1 as usize).saturating_sub(1)] as usize {
                        #(#arms)*
                        _ => #next,
                    }
                }
            }
            Kind::Parallel { .. } | Kind::ParallelMain => {
                let checks = (0..s.children.len()).map(|i| {
                    let (b, wake) = (bit(i), self.wake_child(s, i));
                    quote!(if self.#f[0] & #b != 0 { __w = __w.min(#wake); })
                });
                quote! {{
                    let mut __w = #rt::Wake::Never;
                    #(#checks)*
                    __w
                }}
            }
            Kind::Invert
            | Kind::ForceSuccess
            | Kind::ForceFailure
            | Kind::Cooldown(_)
            | Kind::Limit(_)
            | Kind::RunOnce
            | Kind::Scope(_)
            | Kind::Repeat(_)
            | Kind::Retry(_)
            | Kind::ForEach { .. } => self.wake_child(s, 0),
            Kind::Latch => self.wake_child(s, 1),
            Kind::Loop | Kind::UntilFail | Kind::UntilSuccess | Kind::While => {
                // Between two iterations the next one starts on the next tick.
                let body = self.wake_child(s, s.node.kind.condition_children());
                quote!(if self.#f { #body } else { #next })
            }
            Kind::Timeout(d) => {
                let (d, child) = (super::tick::duration(d), self.wake_child(s, 0));
                quote!(#rt::Wake::after(self.#f, #d, __now).min(#child))
            }
            Kind::Delay(d) => {
                let (d, child) = (super::tick::duration(d), self.wake_child(s, 0));
                quote!(if self.#f.1 { #child } else { #rt::Wake::after(self.#f.0, #d, __now) })
            }
            Kind::Wait(d) => {
                let d = super::tick::duration(d);
                quote!(#rt::Wake::after(self.#f, #d, __now))
            }
            Kind::Running => quote!(#rt::Wake::Never),
            Kind::Act(Leaf::Value { .. }) => {
                let (ctx, leaf) = (&self.ctx, super::leaf_field(s));
                quote!({
                    use #rt::{ViaAction as _, ViaNothing as _};
                    (&#rt::ActionWake::<_, #ctx>(&#leaf, #rt::PhantomData)).wake(__now)
                })
            }
            Kind::Subtree { ty, map } => {
                let ctx = &self.ctx;
                let part = match map {
                    Some(map) => quote!(#rt::part_of::<#ctx, _, _>(#map)),
                    None => quote!(#rt::PhantomData::<fn(&#ctx)>),
                };
                quote!({
                    use #rt::{ViaAction as _, ViaNothing as _};
                    (&#rt::TreeWake::<#ty, _>(&self.#f, #part)).wake(__now)
                })
            }
            // Checked again on every tick, or never Running.
            Kind::ReactiveSequence
            | Kind::ReactiveSelector
            | Kind::If { reactive: true, .. }
            | Kind::Match { reactive: true, .. }
            | Kind::AbortIf
            | Kind::WaitUntil(_)
            | Kind::Act(Leaf::Inline(_))
            | Kind::Cond(_)
            | Kind::Success
            | Kind::Failure
            | Kind::Break(_)
            | Kind::Continue(_) => next.clone(),
            Kind::Invalid => unreachable!("trees with errors are not generated"),
        };
        quote!({ #body })
    }

    /// The wake of the child a resume point (running child + 1) names.
    fn wake_of_resumed(&self, s: &Slot, resume: TokenStream) -> TokenStream {
        let rt = rt();
        let arms = (0..s.children.len()).map(|i| {
            let (i1, wake) = (lit(i + 1), self.wake_child(s, i));
            quote!(#i1 => #wake,)
        });
        quote!(match #resume { #(#arms)* _ => #rt::Wake::NextTick })
    }

    /// Child `i`'s wake: a call of its method, or its code.
    fn wake_child(&self, s: &Slot, i: usize) -> TokenStream {
        let child = self.child(s, i);
        if self.inlined(child) {
            return self.wake_code(child);
        }
        let name = wake_name(child.id);
        quote!(self.#name(__now))
    }
}

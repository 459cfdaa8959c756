//! The `__wake_N` methods: when a running node next needs a tick (the rule
//! is in `behaved_runtime::Wake`). Each follows the node's state down to its
//! running children exactly as its halt does, so a tree answers from the
//! running path alone.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::{Gen, bit, field, lit, rt, wake_name};
use crate::lower::Slot;
use crate::model::{Kind, Leaf};

/// A node's wake: `NextTick` whatever its state (its parent then needs no
/// code for it), or the code that works it out.
enum WakeCode {
    NextTick,
    Code(TokenStream),
}

impl Gen<'_> {
    /// The `__wake_N(&self, now)` methods, in pre-order: the root's, and
    /// those of the other nodes with methods (see [`Gen::inlined`]) whose
    /// wake depends on their state. A node whose children all wake on the
    /// next tick whatever they do (leaves with closures, `cond`, composites
    /// of those) has no wake code: a composite of them is `NextTick` too,
    /// and a tree of such leaves is one constant. Worked out bottom-up in
    /// one pass: each node's code is used once, by its parent or its method.
    /// Only ever called on a node that is Running.
    pub(super) fn wake_methods(&self) -> Vec<TokenStream> {
        let rt = rt();
        let slots = &self.l.slots;
        let mut codes: Vec<Option<WakeCode>> = (0..slots.len()).map(|_| None).collect();
        let mut methods = Vec::new();
        for s in slots.iter().rev() {
            let code = self.wake_code(s, &mut codes);
            let own_method = !self.inlined(s);
            let code = match code {
                WakeCode::Code(code) if own_method => {
                    let name = wake_name(s.id);
                    methods.push(quote! {
                        #[inline]
                        #[allow(unused_variables)]
                        fn #name(&self, __now: f64) -> #rt::Wake {
                            #code
                        }
                    });
                    WakeCode::Code(quote!(self.#name(__now)))
                }
                WakeCode::NextTick if s.parent.is_none() => {
                    methods.push(quote! {
                        #[inline]
                        fn __wake_0(&self, _: f64) -> #rt::Wake {
                            #rt::Wake::NextTick
                        }
                    });
                    WakeCode::NextTick
                }
                code => code,
            };
            codes[s.id] = Some(code);
        }
        methods.reverse();
        methods
    }

    /// Node `s`'s wake, from its children's in `codes` (each taken once);
    /// as code, one expression that may stand in its parent's (`__now` is
    /// in scope).
    fn wake_code(&self, s: &Slot, codes: &mut [Option<WakeCode>]) -> WakeCode {
        let rt = rt();
        let f = field(s.id);
        let next = quote!(#rt::Wake::NextTick);
        let hooks = &s.node.hooks;
        let mut child = |i: usize| {
            codes[s.children[i]]
                .take()
                .expect("a child's wake is worked out before its parent's, and used once")
        };
        let body = match &s.node.kind {
            // Its hooks run on every tick.
            _ if hooks.pre_tick.is_some() || hooks.tick.is_some() => return WakeCode::NextTick,
            Kind::Sequence | Kind::Selector | Kind::Random | Kind::Weighted(_) => {
                return wake_of_resumed(quote!(self.#f), (0..s.children.len()).map(child).collect());
            }
            Kind::SequenceAlways => {
                return wake_of_resumed(quote!(self.#f.0), (0..s.children.len()).map(child).collect());
            }
            Kind::If { reactive: false, .. } | Kind::Match { reactive: false, .. } => {
                return wake_of_resumed(quote!(self.#f), (0..s.children.len()).map(child).collect());
            }
            Kind::Shuffle => {
                let wakes: Vec<WakeCode> = (0..s.children.len()).map(child).collect();
                if wakes.iter().all(|w| matches!(w, WakeCode::NextTick)) {
                    return WakeCode::NextTick;
                }
                let arms = wakes.into_iter().enumerate().map(|(i, wake)| {
                    let (k, wake) = (lit(i), wake.into_tokens());
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
                    let (b, wake) = (bit(i), child(i).into_tokens());
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
            | Kind::ForEach { .. } => return child(0),
            Kind::Latch => return child(1),
            Kind::Loop | Kind::UntilFail | Kind::UntilSuccess | Kind::While => {
                // Between two iterations the next one starts on the next tick.
                match child(s.node.kind.condition_children()) {
                    WakeCode::NextTick => return WakeCode::NextTick,
                    WakeCode::Code(body) => quote!(if self.#f { #body } else { #next }),
                }
            }
            Kind::Timeout(d) => {
                let (d, child) = (super::tick::duration(d), child(0).into_tokens());
                quote!(#rt::Wake::after(self.#f, #d, __now).min(#child))
            }
            Kind::Delay(d) => {
                let (d, child) = (super::tick::duration(d), child(0).into_tokens());
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
                let tree = super::subtree_item(ty, quote!(Tree));
                let part = match map {
                    Some(map) => quote!(#rt::part_of::<#ctx, _, _>(#map)),
                    None => quote!(#rt::PhantomData::<fn(&#ctx)>),
                };
                // The call at the subtree's name (a type that is no tree
                // fails there only); the imports where the macro is.
                let wake =
                    quote_spanned!(super::first_span(ty)=> (&#rt::TreeWake::<#tree, _>(&self.#f, #part)).wake(__now));
                quote!({
                    use #rt::{ViaAction as _, ViaNothing as _};
                    #wake
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
            | Kind::Continue(_) => return WakeCode::NextTick,
            Kind::Invalid => unreachable!("trees with errors are not generated"),
        };
        WakeCode::Code(quote!({ #body }))
    }
}

impl WakeCode {
    fn into_tokens(self) -> TokenStream {
        match self {
            WakeCode::NextTick => {
                let rt = rt();
                quote!(#rt::Wake::NextTick)
            }
            WakeCode::Code(code) => code,
        }
    }
}

/// The wake of the child a resume point (running child + 1) names:
/// `NextTick` when that is every child's (and so the default arm's).
fn wake_of_resumed(resume: TokenStream, children: Vec<WakeCode>) -> WakeCode {
    if children.iter().all(|w| matches!(w, WakeCode::NextTick)) {
        return WakeCode::NextTick;
    }
    let rt = rt();
    let arms = children.into_iter().enumerate().map(|(i, wake)| {
        let (i1, wake) = (lit(i + 1), wake.into_tokens());
        quote!(#i1 => #wake,)
    });
    WakeCode::Code(quote!({ match #resume { #(#arms)* _ => #rt::Wake::NextTick } }))
}

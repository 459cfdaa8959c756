//! The `__wake_N` methods: when a running node next needs a tick (the rule
//! is in `behaved_runtime::Wake`). Each follows the node's state down to its
//! running children exactly as its halt does, so a tree answers from the
//! running path alone. What a kind's wake is is in its module in `kinds/`,
//! called from the one dispatch, `Gen::kind_wake` in `kinds/mod.rs`.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Gen, lit, rt, wake_name};
use crate::lower::Slot;

/// A node's wake: `NextTick` whatever its state (its parent then needs no
/// code for it), or the code that works it out.
pub(super) enum WakeCode {
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
        // Its hooks run on every tick.
        let hooks = &s.node.hooks;
        if hooks.pre_tick.is_some() || hooks.tick.is_some() {
            return WakeCode::NextTick;
        }
        let children: Vec<WakeCode> = s
            .children
            .iter()
            .map(|&c| {
                codes[c]
                    .take()
                    .expect("a child's wake is worked out before its parent's, and used once")
            })
            .collect();
        self.kind_wake(s, children)
    }
}

impl WakeCode {
    pub(super) fn into_tokens(self) -> TokenStream {
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
pub(super) fn wake_of_resumed(resume: TokenStream, children: Vec<WakeCode>) -> WakeCode {
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

/// Child `i`'s wake, out of its node's children's.
pub(super) fn nth(children: Vec<WakeCode>, i: usize) -> WakeCode {
    children.into_iter().nth(i).expect("a child's wake")
}

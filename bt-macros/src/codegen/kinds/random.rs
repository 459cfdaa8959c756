//! `random`, `weighted` and `shuffle` (a child or an order drawn on entry):
//! their tick, halt and wake.

use behaved_runtime::NodeKind;
use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote};

use super::branches::keep_choice;
use crate::codegen::tick::resume_type;
use crate::codegen::wake::{WakeCode, wake_of_resumed};
use crate::codegen::{Gen, field, lit, rt, uint};
use crate::lower::Slot;
use crate::model::Kind;
use crate::model::Weight;

impl Gen<'_> {
    /// `random`: one child drawn uniformly on entry.
    pub(in crate::codegen) fn random(&self, s: &Slot) -> TokenStream {
        let n = Literal::u32_unsuffixed(s.children.len() as u32);
        self.pick_one(s, quote!(__env.rng.below(#n) + 1))
    }

    /// `weighted(..)`: one child drawn on entry in proportion to its weight
    /// (with a `const` among the weights, the sums are worked out at compile time).
    pub(in crate::codegen) fn weighted(&self, s: &Slot, weights: &[Weight]) -> TokenStream {
        if weights.iter().any(|w| matches!(w, Weight::Const(_))) {
            self.pick_one(s, weighted_by_consts(weights))
        } else {
            let weights: Vec<u32> = weights
                .iter()
                .map(|w| match w {
                    Weight::Literal(v) => *v,
                    Weight::Const(_) => unreachable!("handled above"),
                })
                .collect();
            let total: u32 = weights.iter().sum();
            let mut bound = 0;
            let arms = weights.iter().enumerate().map(|(i, w)| {
                bound += w;
                let (b, k) = (Literal::u32_unsuffixed(bound), lit(i + 1));
                quote!(if __x < #b { #k } else)
            });
            let last = lit(weights.len());
            let total = Literal::u32_unsuffixed(total);
            self.pick_one(s, quote!({ let __x = __env.rng.below(#total); #(#arms)* { #last } }))
        }
    }

    /// Ticks child `__b - 1` where `__b` is `pick` on entry (`random`,
    /// `weighted`), or the running child's number afterwards.
    pub(in crate::codegen) fn pick_one(&self, s: &Slot, pick: TokenStream) -> TokenStream {
        let f = field(s.id);
        let ty = uint(resume_type(s));
        let dispatch = self.dispatch(s, 0, quote!(__b), quote!(self.#f = 0;));
        let chosen = quote!(let __b: #ty = if __r != 0 { __r } else { (#pick) as #ty };);
        keep_choice(s, chosen, dispatch)
    }

    /// `match __b { k => tick child (k - 1 + first), .. }` with `entering` when
    /// the chosen child is not the one recorded in `__r`.
    pub(in crate::codegen) fn dispatch(
        &self,
        s: &Slot,
        first: usize,
        chosen: TokenStream,
        cleanup: TokenStream,
    ) -> TokenStream {
        let n = s.children.len();
        let arms = (first..n).map(|i| {
            let k = lit(i + 1);
            let child = self.guarded_child(s, i, quote!(__r != #k), cleanup.clone());
            if i + 1 == n {
                quote!(_ => #child,)
            } else {
                quote!(#k => #child,)
            }
        });
        quote!(match #chosen { #(#arms)* })
    }

    /// `shuffle`: draw an order on entry (Fisher-Yates into a fixed array),
    /// then behave as a selector over that order.
    pub(in crate::codegen) fn shuffle(&self, s: &Slot) -> TokenStream {
        let rt = rt();
        let f = field(s.id);
        let n = s.children.len();
        let (n_lit, n_u32) = (lit(n), Literal::u32_unsuffixed(n as u32));
        let arms = (0..n).map(|i| {
            let k = Literal::u8_unsuffixed(i as u8);
            let child = self.guarded_child(s, i, quote!(__e), quote!(self.#f.1 = 0;));
            if i + 1 == n {
                quote!(_ => #child,)
            } else {
                quote!(#k => #child,)
            }
        });
        quote! {{
            let mut __p = self.#f.1;
            let mut __e = __p == 0;
            if __e {
                let mut __i = 0;
                while __i < #n_lit {
                    self.#f.0[__i] = __i as u8;
                    __i += 1;
                }
                let mut __i: u32 = #n_u32;
                while __i > 1 {
                    let __j = __env.rng.below(__i) as usize;
                    __i -= 1;
                    self.#f.0.swap(__i as usize, __j);
                }
                __p = 1;
            }
            loop {
                let __s = match self.#f.0[(__p - 1) as usize] { #(#arms)* };
                match __s {
                    #rt::Status::Failure if (__p as usize) < #n_lit => {
                        __p += 1;
                        __e = true;
                    }
                    #rt::Status::Running => {
                        self.#f.1 = __p;
                        break #rt::Status::Running;
                    }
                    __s => {
                        self.#f.1 = 0;
                        break __s;
                    }
                }
            }
        }}
    }
}

/// The child drawn by a `weighted` with constant weights: the running sums are
/// worked out at compile time (an overflow is a compile error), then searched.
fn weighted_by_consts(weights: &[Weight]) -> TokenStream {
    let n = lit(weights.len());
    let ws = weights.iter().map(|w| match w {
        Weight::Literal(v) => Literal::u32_unsuffixed(*v).into_token_stream(),
        Weight::Const(e) => quote!((#e)),
    });
    quote! {{
        const __BOUNDS: [u32; #n] = {
            let __w: [u32; #n] = [#(#ws),*];
            let mut __b = [0u32; #n];
            let (mut __i, mut __t) = (0, 0u32);
            while __i < #n {
                __t += __w[__i];
                __b[__i] = __t;
                __i += 1;
            }
            __b
        };
        let __x = __env.rng.below(__BOUNDS[#n - 1]);
        let mut __k = 0;
        while __k + 1 < #n && __x >= __BOUNDS[__k] {
            __k += 1;
        }
        __k + 1
    }}
}

impl Gen<'_> {
    /// A random choice's halt: the drawn child (`shuffle`: its place in the
    /// drawn order), the state cleared.
    pub(in crate::codegen) fn random_halt(&self, s: &Slot) -> TokenStream {
        if !matches!(s.node.kind, Kind::Plain(NodeKind::Shuffle)) {
            return self.resume_halt(s);
        }
        let f = field(s.id);
        let arms = (0..s.children.len()).map(|i| {
            let (k, halt) = (lit(i), self.halt_child(s, i));
            quote!(#k => #halt,)
        });
        quote! {
            let __p = self.#f.1;
            self.#f.1 = 0;
            if __p != 0 {
                match self.#f.0[(__p - 1) as usize] as usize {
                    #(#arms)*
                    _ => {}
                }
            }
        }
    }

    /// A random choice's wake: the drawn child's.
    pub(in crate::codegen) fn random_wake(&self, s: &Slot, children: Vec<WakeCode>) -> WakeCode {
        let f = field(s.id);
        if !matches!(s.node.kind, Kind::Plain(NodeKind::Shuffle)) {
            return wake_of_resumed(quote!(self.#f), children);
        }
        if children.iter().all(|w| matches!(w, WakeCode::NextTick)) {
            return WakeCode::NextTick;
        }
        let rt = rt();
        let next = quote!(#rt::Wake::NextTick);
        let arms = children.into_iter().enumerate().map(|(i, wake)| {
            let (k, wake) = (lit(i), wake.into_tokens());
            quote!(#k => #wake,)
        });
        let body = quote! {
            match self.#f.0[(self.#f.1 as usize).saturating_sub(1)] as usize {
                #(#arms)*
                _ => #next,
            }
        };
        WakeCode::Code(quote!({ #body }))
    }
}

//! `utility`'s tick: score every child (on entry, or on every tick for the
//! reactive form) into an array on the stack, choose through the runtime's
//! shared rules (`behaved_runtime::utility`: `best`, `draw`,
//! `keep_or_switch`), then run the chosen child (SEMANTICS.md "utility").

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote, quote_spanned};

use crate::codegen::wake::{WakeCode, wake_of_resumed};
use crate::codegen::{Gen, child_halt_name, field, in_place, lit, rt, rt_at, scored_at_field, uint};
use crate::lower::{Slot, State};
use crate::model::Kind;
use behaved_format::utility::Choice;

impl Gen<'_> {
    /// The tick of a `utility` node.
    pub(in crate::codegen) fn utility(&self, s: &Slot) -> TokenStream {
        let Kind::Utility {
            choose,
            scores,
            written,
        } = &s.node.kind
        else {
            unreachable!("not a utility node")
        };
        let rt = rt();
        let f = field(s.id);
        let ty = match s.state {
            State::Resume(u) => uint(u),
            _ => unreachable!("a utility node keeps its running child"),
        };
        let n = lit(scores.len());
        let each: Vec<TokenStream> = scores.iter().map(|score| self.score(s, score)).collect();
        // The observed path reports each score (`Observer::scored`), and each
        // score's parts before it when the observer considers
        // (`Observer::considered`, a constant `false` for most observers);
        // the fast path reports nothing.
        let scored = if self.fast {
            quote!(let __scores: [f32; #n] = [#(#each),*];)
        } else {
            let id = crate::codegen::flat_id(self.l, s.id);
            let parts = scores.iter().enumerate().map(|(i, score)| {
                let child = Literal::u32_unsuffixed(i as u32);
                // Labelled as the file wrote the score, or as its JSON twin writes it.
                let labels = match written {
                    Some(w) => w[i].part_labels(),
                    None => crate::to_json::score_json(score).part_labels(),
                };
                let v = self.score_parts(s, score, &labels, &id, &child.to_token_stream());
                quote!({ let __v: f32 = #v; __env.scored(#id, #child, __v); __v })
            });
            quote! {
                let __scores: [f32; #n] = if __env.considers() {
                    [#(#parts),*]
                } else {
                    let __scores: [f32; #n] = [#(#each),*];
                    for (__i, __v) in __scores.iter().enumerate() {
                        __env.scored(#id, __i as u32, *__v);
                    }
                    __scores
                };
            }
        };
        let as_pick = quote!(match __pick { #rt::Option::Some(__i) => (__i + 1) as #ty, #rt::Option::None => 0 });
        let cleanup = quote!(self.#f = 0;);
        let run = self.dispatch(s, 0, quote!(__b), cleanup);
        let chosen = match choose {
            Choice::Best => quote! {
                let __b: #ty = if __r != 0 { __r } else {
                    #scored
                    let __pick = #rt::utility::best(&__scores);
                    #as_pick
                };
            },
            Choice::Weighted { best } => {
                let k = Literal::usize_unsuffixed(*best as usize);
                quote! {
                    let __b: #ty = if __r != 0 { __r } else {
                        #scored
                        let __pick = #rt::utility::draw(&__scores, #k, &mut __env.rng);
                        #as_pick
                    };
                }
            }
            Choice::Reactive { margin } => {
                let halt_children = child_halt_name(s.id);
                let m = Literal::f32_suffixed(*margin);
                quote! {
                    #scored
                    let __pick = if __r == 0 {
                        #rt::utility::best(&__scores)
                    } else {
                        #rt::utility::keep_or_switch((__r - 1) as usize, &__scores, #m)
                    };
                    let __b: #ty = #as_pick;
                    if __r != 0 && __r != __b {
                        self.#halt_children(__ctx, __env, __r);
                    }
                }
            }
            Choice::Every { every, margin } => {
                let halt_children = child_halt_name(s.id);
                let (d, m) = (Literal::f64_suffixed(*every), Literal::f32_suffixed(*margin));
                let at = scored_at_field(s.id);
                quote! {
                    let __b: #ty = if __r != 0 && __env.now - self.#at < #d { __r } else {
                        #scored
                        self.#at = __env.now;
                        let __pick = if __r == 0 {
                            #rt::utility::best(&__scores)
                        } else {
                            #rt::utility::keep_or_switch((__r - 1) as usize, &__scores, #m)
                        };
                        #as_pick
                    };
                    if __r != 0 && __r != __b {
                        self.#halt_children(__ctx, __env, __r);
                    }
                }
            }
        };
        quote! {{
            let __r = self.#f;
            #chosen
            if __b == 0 {
                self.#f = 0;
                #rt::Status::Failure
            } else {
                let __s = #run;
                self.#f = if let #rt::Status::Running = __s { __b } else { 0 };
                __s
            }
        }}
    }

    /// A running `utility` node's wake: the chosen child's; `NextTick` for
    /// the reactive form (it scores on every tick); for the interval form the
    /// sooner of the chosen child's and its next scoring.
    pub(in crate::codegen) fn utility_wake(&self, s: &Slot, children: Vec<WakeCode>) -> WakeCode {
        let Kind::Utility { choose, .. } = &s.node.kind else {
            unreachable!("not a utility node")
        };
        let f = field(s.id);
        let child = wake_of_resumed(quote!(self.#f), children);
        match choose {
            Choice::Reactive { .. } => WakeCode::NextTick,
            Choice::Every { every, .. } => {
                let (rt, at, d) = (rt(), scored_at_field(s.id), Literal::f64_suffixed(*every));
                let child = child.into_tokens();
                WakeCode::Code(quote!({ #rt::Wake::after(self.#at, #d, __now).min(#child) }))
            }
            _ => child,
        }
    }

    /// One child's score, an `f32`, reporting its parts to the observer
    /// (`__env.considered`) as it is computed: a closure is one part; a
    /// `Consideration` value's parts are those its `score_parts` gives. Each
    /// part is labelled as its JSON twin's score labels it
    /// (`behaved_format::utility::Score::part_labels`).
    pub(in crate::codegen) fn score_parts(
        &self,
        s: &Slot,
        score: &syn::Expr,
        labels: &[String],
        id: &TokenStream,
        child: &TokenStream,
    ) -> TokenStream {
        let ctx = &self.ctx;
        match in_place::closure_parts(score) {
            Some(_) => {
                let value = self.score(s, score);
                quote!({ let __p: f32 = #value; __env.considered(#id, #child, 0, &[#(#labels),*], __p); __p })
            }
            // Spanned as `score`'s call is, so that a value that is no
            // consideration is one error (rustc merges the two identical ones).
            None => {
                let span = syn::spanned::Spanned::span(score);
                let rt = rt_at(span);
                let vars = self.var_bindings(s, &score.to_token_stream());
                quote_spanned!(span=> {
                    #vars
                    let mut __k = 0u32;
                    #rt::utility::Consideration::<#ctx>::score_parts(&(#score), &*__ctx, &mut |__p| {
                        __env.considered(#id, #child, __k, &[#(#labels),*], __p);
                        __k += 1;
                    })
                })
            }
        }
    }

    /// One child's score, an `f32`: a closure's body in place (its parameter
    /// bound to `&Ctx`; a body that is not an `f32` is rustc's "expected
    /// `f32`" at the body), or a `Consideration` value's `score`. A JSON
    /// `pick`'s score is written the same way (`kinds/pick.rs`).
    pub(in crate::codegen) fn score(&self, s: &Slot, score: &syn::Expr) -> TokenStream {
        let ctx = &self.ctx;
        let span = syn::spanned::Spanned::span(score);
        let rt = rt_at(span);
        let vars = self.var_bindings(s, &score.to_token_stream());
        match in_place::closure_parts(score) {
            Some((param, body)) => {
                let binding = match param {
                    syn::Pat::Type(_) => quote!(let #param = &*__ctx;),
                    _ => quote!(let #param: &#ctx = &*__ctx;),
                };
                let mut value = proc_macro2::Group::new(proc_macro2::Delimiter::Parenthesis, body.to_token_stream());
                value.set_span(syn::spanned::Spanned::span(body));
                quote_spanned!(span=> {
                    #vars
                    #binding
                    #[allow(unused_parens, unused_braces, clippy::all, clippy::pedantic, clippy::nursery)]
                    let __value: f32 = #value;
                    __value
                })
            }
            None => quote_spanned!(span=> {
                #vars
                #rt::utility::Consideration::<#ctx>::score(&(#score), &*__ctx)
            }),
        }
    }
}

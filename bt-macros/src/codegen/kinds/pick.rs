//! `pick`'s tick, halt and wake: on entry it reads its candidates into its
//! `ForEachItems` (as `for` reads its items), scores each with its closure
//! (the candidate bound), chooses by the runtime's rule
//! (`behaved_runtime::utility::Best`: the highest above zero, the first on
//! ties) and runs its body once with the chosen one current (SEMANTICS.md
//! "pick").

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};

use crate::codegen::tick::call_site_names;
use crate::codegen::wake::{WakeCode, nth};
use crate::codegen::{Gen, field, rt};
use crate::lower::Slot;
use crate::model::{ForSource, Kind, PickScore};

impl Gen<'_> {
    /// The tick of a `pick` node.
    pub(in crate::codegen) fn pick(&self, s: &Slot) -> TokenStream {
        let Kind::Pick { source, score, .. } = &s.node.kind else {
            unreachable!("pick code for a pick")
        };
        let rt = rt();
        let (f, ctx) = (field(s.id), &self.ctx);
        let id = crate::codegen::flat_id(self.l, s.id);
        // Candidate `__i`'s score, reporting its parts to the observer or not.
        let (fill, one, select): (TokenStream, Box<dyn Fn(bool) -> TokenStream>, TokenStream) = match (source, &**score)
        {
            (ForSource::Closure { ty, param, items, .. }, score) => {
                let id = id.clone();
                (
                    self.fill_from_closure(s, param, items),
                    Box::new(move |parts| self.candidate_score(s, ty, score, parts.then_some(&id))),
                    quote!(),
                )
            }
            // A JSON tree's: the list fills the candidates and selects each
            // in the context, where the score's considerations read it; the
            // chosen one is selected again before each tick of the body.
            (ForSource::List(_), PickScore::Selected(score, written)) => {
                let list = crate::codegen::list_field(s.id);
                let span = s.node.span;
                let rt = crate::codegen::rt_at(span);
                let select =
                    quote_spanned!(span=> #rt::ItemList::<#ctx>::select(&self.#list, __ctx, self.#f.get(__i)););
                let id = id.clone();
                (
                    quote_spanned!(span=> self.#f.fill(#rt::ItemList::<#ctx>::items(&self.#list, &*__ctx));),
                    Box::new(move |parts| {
                        let value = if parts {
                            self.score_parts(s, score, &written.part_labels(), &id, &quote!(__i as u32))
                        } else {
                            self.score(s, score)
                        };
                        quote!({ #select #value })
                    }),
                    quote_spanned!(span=> #rt::ItemList::<#ctx>::select(&self.#list, __ctx, self.#f.current());),
                )
            }
            (ForSource::List(_), _) => unreachable!("a JSON pick's score is a consideration of the context"),
        };
        // The observed path computes a score's parts (reporting them) only
        // when the observer considers; the fast path never does.
        let one = if self.fast {
            one(false)
        } else {
            let (plain, parts) = (one(false), one(true));
            quote!(if __env.considers() { #parts } else { #plain })
        };
        // The observed path reports each candidate's score; the fast path does not.
        let report = if self.fast {
            quote!()
        } else {
            quote!(__env.scored(#id, __i as u32, __score);)
        };
        let cleanup = quote!(self.#f.clear(););
        let child = self.guarded_child(s, 0, quote!(__entering), cleanup);
        quote! {{
            let __chosen = if __entering {
                #fill
                let mut __best = #rt::utility::Best::new();
                for __i in 0..self.#f.len() {
                    let __score: f32 = #one;
                    #report
                    __best.offer(__i, __score);
                }
                match __best.chosen() {
                    #rt::Option::Some(__i) => {
                        self.#f.choose(__i);
                        true
                    }
                    #rt::Option::None => {
                        self.#f.clear();
                        false
                    }
                }
            } else {
                true
            };
            if __chosen {
                #select
                let __s = #child;
                if !matches!(__s, #rt::Status::Running) {
                    self.#f.clear();
                }
                __s
            } else {
                #rt::Status::Failure
            }
        }}
    }

    /// A DSL `pick`'s score of candidate `__i`, an `f32`: its closure's body
    /// with the context and the candidate bound, or a
    /// `CandidateConsideration` value's `score`. With `report` (the node's
    /// id), each of its parts goes to the observer as it is computed
    /// (`__env.considered`), labelled as its JSON twin's score labels it.
    fn candidate_score(
        &self,
        s: &Slot,
        ty: &syn::Type,
        score: &PickScore,
        report: Option<&TokenStream>,
    ) -> TokenStream {
        let (f, ctx) = (field(s.id), &self.ctx);
        let (_, __this, _) = call_site_names();
        let labels = crate::to_json::pick_score_json(score).part_labels();
        match score {
            PickScore::Closure(c, x, body) => {
                let score_span = syn::spanned::Spanned::span(body);
                let score_vars = self.var_bindings(s, &body.to_token_stream());
                let bind_c = match c {
                    syn::Pat::Type(_) => quote!(let #c = &*__ctx;),
                    _ => quote!(let #c: &#ctx = &*__ctx;),
                };
                let bind_x = match x {
                    syn::Pat::Type(_) => quote!(let #x = #__this.#f.get(__i);),
                    _ => quote!(let #x: &#ty = #__this.#f.get(__i);),
                };
                let mut value = proc_macro2::Group::new(proc_macro2::Delimiter::Parenthesis, body.to_token_stream());
                value.set_span(score_span);
                let value = quote_spanned!(score_span=> {
                    #score_vars
                    #bind_c
                    #bind_x
                    #[allow(unused_parens, unused_braces, clippy::all, clippy::pedantic, clippy::nursery)]
                    let __value: f32 = #value;
                    __value
                });
                match report {
                    Some(id) => {
                        quote!({ let __p: f32 = #value; __env.considered(#id, __i as u32, 0, &[#(#labels),*], __p); __p })
                    }
                    None => value,
                }
            }
            // A `CandidateConsideration` value (an unimplemented trait is its error, at the value).
            PickScore::Value(value) => {
                let span = syn::spanned::Spanned::span(value);
                let rt = crate::codegen::rt_at(span);
                let vars = self.var_bindings(s, &value.to_token_stream());
                match report {
                    // Spanned as `score`'s call is: one error for a value that scores no candidates.
                    Some(id) => quote_spanned!(span=> {
                        #vars
                        let mut __k = 0u32;
                        #rt::utility::CandidateConsideration::<#ctx, #ty>::score_parts(&(#value), &*__ctx, #__this.#f.get(__i), &mut |__p| {
                            __env.considered(#id, __i as u32, __k, &[#(#labels),*], __p);
                            __k += 1;
                        })
                    }),
                    None => quote_spanned!(span=> {
                        #vars
                        #rt::utility::CandidateConsideration::<#ctx, #ty>::score(&(#value), &*__ctx, #__this.#f.get(__i))
                    }),
                }
            }
            PickScore::Selected(..) => unreachable!("a DSL pick reads its candidates with a closure"),
        }
    }

    /// A `pick`'s halt: its body's (whose halt hooks may still read the
    /// chosen candidate; a JSON tree's list selects it again first, as the
    /// interpreter does), then its candidates dropped.
    pub(in crate::codegen) fn pick_halt(&self, s: &Slot) -> TokenStream {
        let (f, child) = (field(s.id), self.halt_child(s, 0));
        let select = match &s.node.kind {
            Kind::Pick {
                source: ForSource::List(_),
                ..
            } => {
                let (list, ctx) = (crate::codegen::list_field(s.id), &self.ctx);
                let rt = crate::codegen::rt_at(s.node.span);
                quote_spanned!(s.node.span=> if self.#f.has_current() {
                    #rt::ItemList::<#ctx>::select(&self.#list, __ctx, self.#f.current());
                })
            }
            _ => quote!(),
        };
        quote! {
            #select
            #child;
            self.#f.clear();
        }
    }

    /// A running `pick`'s wake: its body's.
    pub(in crate::codegen) fn pick_wake(&self, children: Vec<WakeCode>) -> WakeCode {
        nth(children, 0)
    }
}

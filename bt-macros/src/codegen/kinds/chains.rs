//! `sequence`, `selector`, their reactive forms and `sequenceAlways`: their
//! tick, halt and wake.

use behaved_runtime::NodeKind;
use proc_macro2::TokenStream;
use quote::quote;

use crate::codegen::wake::{WakeCode, wake_of_resumed};
use crate::codegen::{Gen, child_halt_name, field, lit, rt};
use crate::lower::Slot;
use crate::model::Kind;

impl Gen<'_> {
    /// `sequence_always`: like `sequence`, but a child's failure moves on as
    /// its success does; the failure is remembered and decides the status once
    /// every child has completed.
    pub(in crate::codegen) fn sequence_always(&self, s: &Slot) -> TokenStream {
        let node = crate::codegen::node_label(s.id);
        let rt = rt();
        let f = field(s.id);
        let steps = (0..s.children.len()).map(|i| {
            let i1 = lit(i + 1);
            let child = self.guarded_child(s, i, quote!(__r != #i1), quote!(self.#f = (0, false);));
            quote! {
                if __r <= #i1 {
                    match #child {
                        #rt::Status::Running => {
                            self.#f = (#i1, __failed);
                            break #node #rt::Status::Running;
                        }
                        #rt::Status::Failure => __failed = true,
                        #rt::Status::Success => {}
                    }
                }
            }
        });
        quote! {{
            let (__r, mut __failed) = self.#f;
            #node: {
                #(#steps)*
                self.#f = (0, false);
                if __failed { #rt::Status::Failure } else { #rt::Status::Success }
            }
        }}
    }

    /// `sequence` (`cont` = Success) and `selector` (`cont` = Failure): `cont`
    /// moves on to the next child in the same tick, anything else returns.
    /// Memory forms resume at the running child; reactive forms start at child
    /// 0 every tick and halt a later child that was running when an earlier
    /// one stops the pass.
    pub(in crate::codegen) fn chain(&self, s: &Slot, cont: TokenStream, reactive: bool) -> TokenStream {
        let node = crate::codegen::node_label(s.id);
        let rt = rt();
        let f = field(s.id);
        let halt_children = child_halt_name(s.id);
        let steps = (0..s.children.len()).map(|i| {
            let i1 = lit(i + 1);
            let halt_later = (reactive && i + 1 < s.children.len()).then(|| {
                quote! {
                    if __r > #i1 {
                        self.#halt_children(__ctx, __env, __r);
                    }
                }
            });
            let child = self.guarded_child(s, i, quote!(__r != #i1), quote!(#halt_later self.#f = 0;));
            let step = quote! {
                match #child {
                    #rt::Status::#cont => {}
                    __s => {
                        #halt_later
                        self.#f = if let #rt::Status::Running = __s { #i1 } else { 0 };
                        break #node __s;
                    }
                }
            };
            if reactive {
                step
            } else {
                quote!(if __r <= #i1 { #step })
            }
        });
        quote! {{
            let __r = self.#f;
            #node: {
                #(#steps)*
                self.#f = 0;
                #rt::Status::#cont
            }
        }}
    }
}

impl Gen<'_> {
    /// A chain's halt: its running child (the resume point), the state cleared.
    pub(in crate::codegen) fn chain_halt(&self, s: &Slot) -> TokenStream {
        if !matches!(s.node.kind, Kind::Plain(NodeKind::SequenceAlways)) {
            return self.resume_halt(s);
        }
        let f = field(s.id);
        let halt = self.halt_children(s);
        quote! {
            let __r = self.#f.0;
            self.#f = (0, false);
            #halt
        }
    }

    /// A chain's wake: its running child's; a reactive one checks again on
    /// every tick.
    pub(in crate::codegen) fn chain_wake(&self, s: &Slot, children: Vec<WakeCode>) -> WakeCode {
        let f = field(s.id);
        match &s.node.kind {
            Kind::Plain(NodeKind::SequenceAlways) => wake_of_resumed(quote!(self.#f.0), children),
            Kind::Plain(NodeKind::Sequence | NodeKind::Selector) => wake_of_resumed(quote!(self.#f), children),
            _ => WakeCode::NextTick,
        }
    }
}

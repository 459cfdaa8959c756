//! The decorators (`invert`, `forceSuccess`, `forceFailure`, `limit`,
//! `runOnce`, `scope`) and the guards (`abortIf`, `latch`): their tick, halt
//! and wake.

use proc_macro2::TokenStream;
use quote::quote;

use crate::codegen::tick::count_value;
use crate::codegen::wake::{WakeCode, nth};
use crate::codegen::{Gen, field, rt, var_field};
use crate::lower::Slot;
use crate::model::{Count, Kind};
use crate::parse::LetVar;
use behaved_runtime::NodeKind;

impl Gen<'_> {
    /// `invert`: the child's success and failure swapped.
    pub(in crate::codegen) fn invert(&self, s: &Slot) -> TokenStream {
        let child = self.guarded_child(s, 0, quote!(__entering), quote!());
        quote!(#child.invert())
    }

    /// `forceSuccess` / `forceFailure`: the child's completion forced.
    pub(in crate::codegen) fn force(&self, s: &Slot) -> TokenStream {
        let rt = rt();
        let child = self.guarded_child(s, 0, quote!(__entering), quote!());
        let forced = if matches!(s.node.kind, Kind::Plain(NodeKind::ForceSuccess)) {
            quote!(Success)
        } else {
            quote!(Failure)
        };
        quote! {
            match #child {
                #rt::Status::Running => #rt::Status::Running,
                _ => #rt::Status::#forced,
            }
        }
    }

    /// `limit(n)`: fails without ticking the child once it has completed n times.
    pub(in crate::codegen) fn limit(&self, s: &Slot, count: &Count) -> TokenStream {
        let rt = rt();
        let f = field(s.id);
        let n = count_value(count, s);
        let child = self.guarded_child(s, 0, quote!(__entering), quote!());
        quote! {
            if __entering && self.#f >= #n {
                #rt::Status::Failure
            } else {
                let __s = #child;
                if __s.is_done() {
                    self.#f += 1;
                }
                __s
            }
        }
    }

    /// `runOnce`: the child to its first completion, then that status for good.
    pub(in crate::codegen) fn run_once(&self, s: &Slot) -> TokenStream {
        let rt = rt();
        let f = field(s.id);
        let child = self.guarded_child(s, 0, quote!(__entering), quote!());
        quote! {
            match self.#f {
                1 => #rt::Status::Success,
                2 => #rt::Status::Failure,
                _ => {
                    let __s = #child;
                    self.#f = match __s {
                        #rt::Status::Success => 1,
                        #rt::Status::Failure => 2,
                        #rt::Status::Running => 0,
                    };
                    __s
                }
            }
        }
    }

    /// `abortIf`: the condition every tick; its success halts a running body and fails.
    pub(in crate::codegen) fn abort_if(&self, s: &Slot) -> TokenStream {
        let rt = rt();
        let cond = self.tick_child(s, 0, quote!(true));
        let (child, halt) = (
            self.guarded_child(s, 1, quote!(__entering), quote!()),
            self.halt_child(s, 1),
        );
        quote! {
            if let #rt::Status::Success = #cond {
                if !__entering {
                    #halt;
                }
                #rt::Status::Failure
            } else {
                #child
            }
        }
    }

    /// `latch`: the condition checked only while the body is idle.
    pub(in crate::codegen) fn latch(&self, s: &Slot) -> TokenStream {
        let rt = rt();
        let cond = self.tick_child(s, 0, quote!(true));
        let child = self.guarded_child(s, 1, quote!(__entering), quote!());
        quote! {
            if __entering && !::core::matches!(#cond, #rt::Status::Success) {
                #rt::Status::Failure
            } else {
                #child
            }
        }
    }

    /// `scope`: its variables set on entry, then its child.
    pub(in crate::codegen) fn scope(&self, s: &Slot, vars: &[LetVar]) -> TokenStream {
        let inits = vars.iter().map(|v| {
            let (f, init) = (var_field(s.id, &v.name), &v.init);
            quote!(self.#f = #init;)
        });
        let child = self.guarded_child(s, 0, quote!(__entering), quote!());
        quote! {{
            if __entering {
                #(#inits)*
            }
            #child
        }}
    }
}

impl Gen<'_> {
    /// A decorator's or guard's halt: its child (the guards' body).
    pub(in crate::codegen) fn decorator_halt(&self, s: &Slot) -> TokenStream {
        let child = self.halt_child(s, s.node.kind.condition_children());
        quote!(#child;)
    }

    /// A decorator's wake: its child's (`latch`'s body's, after its
    /// condition). `abortIf`, reactive, has the watch wake instead
    /// (`watch.rs`).
    pub(in crate::codegen) fn decorator_wake(&self, s: &Slot, children: Vec<WakeCode>) -> WakeCode {
        nth(children, s.node.kind.condition_children())
    }
}

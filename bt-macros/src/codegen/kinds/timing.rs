//! The timing nodes `wait`, `timeout`, `delay` and `cooldown`: their tick,
//! halt and wake.

use proc_macro2::TokenStream;
use quote::quote;

use crate::codegen::tick::duration;
use crate::codegen::wake::{WakeCode, nth};
use crate::codegen::{Gen, field, rt};
use crate::lower::Slot;
use crate::model::Duration;
use crate::model::Kind;

impl Gen<'_> {
    /// `timeout(d)`: the child halted and failed once d has passed since entry.
    pub(in crate::codegen) fn timeout(&self, s: &Slot, d: &Duration) -> TokenStream {
        let rt = rt();
        let f = field(s.id);
        let d = duration(d);
        // The child is ticked in one place, so that its code (when it
        // has no method) appears once.
        let child = self.guarded_child(s, 0, quote!(__entering), quote!());
        let halt = self.halt_child(s, 0);
        quote! {
            if !__entering && __env.now - self.#f >= #d {
                #halt;
                #rt::Status::Failure
            } else {
                if __entering {
                    self.#f = __env.now;
                }
                #child
            }
        }
    }

    /// `delay(d)`: Running without ticking the child until d has passed since entry.
    pub(in crate::codegen) fn delay(&self, s: &Slot, d: &Duration) -> TokenStream {
        let rt = rt();
        let f = field(s.id);
        let d = duration(d);
        let child = self.guarded_child(s, 0, quote!(__e), quote!(self.#f.1 = false;));
        quote! {{
            if __entering {
                self.#f = (__env.now, false);
            }
            if !self.#f.1 && __env.now - self.#f.0 < #d {
                #rt::Status::Running
            } else {
                let __e = !self.#f.1;
                self.#f.1 = true;
                let __s = #child;
                if __s.is_done() {
                    self.#f.1 = false;
                }
                __s
            }
        }}
    }

    /// `cooldown(d)`: fails without ticking the child until d has passed since its last completion.
    pub(in crate::codegen) fn cooldown(&self, s: &Slot, d: &Duration) -> TokenStream {
        let rt = rt();
        let f = field(s.id);
        let d = duration(d);
        let child = self.guarded_child(s, 0, quote!(__entering), quote!());
        quote! {
            if __entering && __env.now - self.#f < #d {
                #rt::Status::Failure
            } else {
                let __s = #child;
                if __s.is_done() {
                    self.#f = __env.now;
                }
                __s
            }
        }
    }

    /// `wait(d)`: Running until d has passed since entry.
    pub(in crate::codegen) fn wait(&self, s: &Slot, d: &Duration) -> TokenStream {
        let rt = rt();
        let f = field(s.id);
        let d = duration(d);
        quote!(#rt::wait(&mut self.#f, __entering, __env.now, #d))
    }
}

impl Gen<'_> {
    /// A timing node's halt: its child (`delay`'s once started); `wait`
    /// has none.
    pub(in crate::codegen) fn timing_halt(&self, s: &Slot) -> TokenStream {
        match &s.node.kind {
            Kind::Wait(_) => quote!(),
            Kind::Delay(_) => {
                let (f, child) = (field(s.id), self.halt_child(s, 0));
                quote! {
                    if self.#f.1 {
                        self.#f.1 = false;
                        #child;
                    }
                }
            }
            _ => {
                let child = self.halt_child(s, 0);
                quote!(#child;)
            }
        }
    }

    /// A timing node's wake: its timer's, its child's, or the sooner.
    pub(in crate::codegen) fn timing_wake(&self, s: &Slot, children: Vec<WakeCode>) -> WakeCode {
        let (rt, f) = (rt(), field(s.id));
        let body = match &s.node.kind {
            Kind::Timeout(d) => {
                let (d, child) = (duration(d), nth(children, 0).into_tokens());
                quote!(#rt::Wake::after(self.#f, #d, __now).min(#child))
            }
            Kind::Delay(d) => {
                let (d, child) = (duration(d), nth(children, 0).into_tokens());
                quote!(if self.#f.1 { #child } else { #rt::Wake::after(self.#f.0, #d, __now) })
            }
            Kind::Wait(d) => {
                let d = duration(d);
                quote!(#rt::Wake::after(self.#f, #d, __now))
            }
            // `cooldown`: its child's.
            _ => return nth(children, 0),
        };
        WakeCode::Code(quote!({ #body }))
    }
}

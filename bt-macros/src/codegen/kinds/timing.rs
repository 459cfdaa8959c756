//! The timing nodes `wait`, `timeout`, `delay` and `cooldown`: the code of
//! their tick.

use proc_macro2::TokenStream;
use quote::quote;

use crate::codegen::tick::duration;
use crate::codegen::{Gen, field, rt};
use crate::lower::Slot;
use crate::model::Duration;

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

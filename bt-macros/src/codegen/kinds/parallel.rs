//! `parallel` and `parallelMain`: their tick, halt and wake.

use behaved_runtime::NodeKind;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::codegen::wake::WakeCode;
use crate::codegen::{Gen, bit, child_halt_name, field, lit, rt};
use crate::lower::Slot;
use crate::model::Kind;
use crate::model::{Threshold, thresholds};

impl Gen<'_> {
    /// `parallel(success, failure)`: the thresholds worked out for its children.
    pub(in crate::codegen) fn parallel_tick(&self, s: &Slot, success: Threshold, failure: Threshold) -> TokenStream {
        let n = s.children.len();
        let (need, fail) = thresholds(success, failure, n);
        // "S became unreachable" is "more than n - S failed": fold it into one threshold.
        self.parallel(s, need, fail.min(n - need + 1))
    }

    /// `parallel`: tick every child not yet completed in this activation; decide
    /// the moment `need` successes or `fail` failures are reached.
    pub(in crate::codegen) fn parallel(&self, s: &Slot, need: usize, fail: usize) -> TokenStream {
        let node = crate::codegen::node_label(s.id);
        let rt = rt();
        let f = field(s.id);
        let halt_mask = child_halt_name(s.id);
        let (need, fail) = (lit(need), lit(fail));
        let steps = (0..s.children.len()).map(|i| {
            let b = bit(i);
            let cleanup = quote! {
                self.#f = [0; 3];
                self.#halt_mask(__ctx, __env, __run & !#b);
            };
            let child = self.guarded_child(s, i, quote!(__run & #b == 0), cleanup);
            quote! {
                if (__ok | __fail) & #b == 0 {
                    match #child {
                        #rt::Status::Running => __run |= #b,
                        #rt::Status::Success => {
                            __run &= !#b;
                            __ok |= #b;
                            if __ok.count_ones() >= #need {
                                self.#f = [0; 3];
                                self.#halt_mask(__ctx, __env, __run);
                                break #node (#rt::Status::Success);
                            }
                        }
                        #rt::Status::Failure => {
                            __run &= !#b;
                            __fail |= #b;
                            if __fail.count_ones() >= #fail {
                                self.#f = [0; 3];
                                self.#halt_mask(__ctx, __env, __run);
                                break #node (#rt::Status::Failure);
                            }
                        }
                    }
                }
            }
        });
        quote! {{
            let [mut __run, mut __ok, mut __fail] = self.#f;
            #node: {
                #(#steps)*
                self.#f = [__run, __ok, __fail];
                #rt::Status::Running
            }
        }}
    }

    /// `parallel(main)`: the first child decides; the others run beside it and
    /// are halted when it completes.
    pub(in crate::codegen) fn parallel_main(&self, s: &Slot) -> TokenStream {
        let rt = rt();
        let f = field(s.id);
        let halt_mask = child_halt_name(s.id);
        let cleanup = |b: Literal| {
            quote! {
                self.#f = [0, 0];
                self.#halt_mask(__ctx, __env, __run & !#b);
            }
        };
        let main = self.guarded_child(s, 0, quote!(__run & 1 == 0), cleanup(bit(0)));
        let others = (1..s.children.len()).map(|i| {
            let b = bit(i);
            let child = self.guarded_child(s, i, quote!(__run & #b == 0), cleanup(b.clone()));
            quote! {
                if __done & #b == 0 {
                    match #child {
                        #rt::Status::Running => __run |= #b,
                        _ => {
                            __run &= !#b;
                            __done |= #b;
                        }
                    }
                }
            }
        });
        quote! {{
            let [mut __run, mut __done] = self.#f;
            let __main = #main;
            if let #rt::Status::Running = __main {
                __run |= 1;
                #(#others)*
                self.#f = [__run, __done];
            } else {
                self.#f = [0, 0];
                self.#halt_mask(__ctx, __env, __run & !1);
            }
            __main
        }}
    }
}

impl Gen<'_> {
    /// A parallel's halt: its running children (a bit mask), the state cleared.
    pub(in crate::codegen) fn parallel_halt(&self, s: &Slot) -> TokenStream {
        let (f, helper) = (field(s.id), child_halt_name(s.id));
        if matches!(s.node.kind, Kind::Plain(NodeKind::ParallelMain)) {
            quote! {
                let [__run, _] = self.#f;
                self.#f = [0, 0];
                self.#helper(__ctx, __env, __run);
            }
        } else {
            quote! {
                let [__run, _, _] = self.#f;
                self.#f = [0; 3];
                self.#helper(__ctx, __env, __run);
            }
        }
    }

    /// A parallel's wake: the soonest of its running children's.
    pub(in crate::codegen) fn parallel_wake(&self, s: &Slot, children: Vec<WakeCode>) -> WakeCode {
        let (rt, f) = (rt(), field(s.id));
        let checks = children.into_iter().enumerate().map(|(i, wake)| {
            let (b, wake) = (bit(i), wake.into_tokens());
            quote!(if self.#f[0] & #b != 0 { __w = __w.min(#wake); })
        });
        let body = quote! {{
            let mut __w = #rt::Wake::Never;
            #(#checks)*
            __w
        }};
        WakeCode::Code(quote!({ #body }))
    }
}

//! The `__halt_N` methods: halt a running node's running descendants in
//! post-order, run its own halt hook and exit hook, report the halt, and leave
//! it idle. Only ever called on a node that is Running. A small node has no
//! method: its halt is written where its parent halts it (`Gen::inlined`).
//! What a kind's halt does is in its module in `kinds/`, called from the one
//! dispatch, `Gen::kind_halt` in `kinds/mod.rs`.

use behaved_runtime::NodeKind;
use proc_macro2::TokenStream;
use quote::quote;

use super::{Gen, bit, child_halt_name, field, flat_id, halt_name, lit, rt, uint};
use crate::lower::{Slot, State};
use crate::model::Kind;

/// The largest tree (in nodes, its subtrees' not counted) in which every
/// composite has its children's halt as a method (see
/// [`Gen::has_child_halt_helper`]).
const HALT_HELPER_NODES: usize = 512;

impl Gen<'_> {
    /// `__halt_N`: the method of a node that has one (see [`Gen::inlined`]).
    pub(super) fn halt_method(&self, s: &Slot) -> TokenStream {
        let rt = rt();
        let ctx = &self.ctx;
        let name = halt_name(s.id);
        let code = self.halt_code(s);
        quote! {
            #[inline]
            fn #name<__O: #rt::Observer + ?Sized>(&mut self, __ctx: &mut #ctx, __env: &mut #rt::Env<'_, __O>) {
                #code
            }
        }
    }

    /// Node `s`'s halt as one block, which may stand in its parent's code.
    pub(super) fn halt_code(&self, s: &Slot) -> TokenStream {
        let id = flat_id(self.l, s.id);
        let body = self.kind_halt(s);
        let on_exit = self.hook(s, "on_exit");
        quote! {{
            #body
            #on_exit
            __env.halted(#id);
        }}
    }

    /// The halt of a node whose state is a resume point (the running child
    /// + 1): that child's, the state cleared.
    pub(super) fn resume_halt(&self, s: &Slot) -> TokenStream {
        let f = field(s.id);
        let halt = self.halt_children(s);
        quote! {
            let __r = self.#f;
            self.#f = 0;
            #halt
        }
    }

    /// The halt of the running children named by `__r` (see
    /// [`Gen::child_halt_helper`]): a call of the helper, or its code where
    /// the node's halt is the helper's only caller (one item less per
    /// composite, as [`Gen::inlined`] does for nodes).
    pub(super) fn halt_children(&self, s: &Slot) -> TokenStream {
        if self.has_child_halt_helper(s) {
            let helper = child_halt_name(s.id);
            quote!(self.#helper(__ctx, __env, __r);)
        } else {
            let (_, body) = self.child_halt_body(s).expect("a composite");
            quote!({ #body })
        }
    }

    /// For composites whose tick halts children as well as their halt
    /// (reactive and parallel forms), a helper that halts the running
    /// children named by the node's state: the resume point (running child
    /// + 1) or a bit mask.
    pub(super) fn child_halt_helper(&self, s: &Slot) -> Option<TokenStream> {
        if !self.has_child_halt_helper(s) {
            return None;
        }
        let rt = rt();
        let ctx = &self.ctx;
        let name = child_halt_name(s.id);
        let (arg_ty, body) = self.child_halt_body(s)?;
        Some(quote! {
            #[inline]
            fn #name<__O: #rt::Observer + ?Sized>(
                &mut self,
                __ctx: &mut #ctx,
                __env: &mut #rt::Env<'_, __O>,
                __r: #arg_ty,
            ) {
                #body
            }
        })
    }

    /// The type of `__r` and the code that halts the running children it names.
    fn child_halt_body(&self, s: &Slot) -> Option<(syn::Ident, TokenStream)> {
        Some(match &s.state {
            State::Resume(u) | State::ResumeFailed(u) => {
                let arms = (0..s.children.len()).map(|i| {
                    let (i1, halt) = (lit(i + 1), self.halt_child(s, i));
                    quote!(#i1 => #halt,)
                });
                (uint(*u), quote!(match __r { #(#arms)* _ => {} }))
            }
            State::Masks(u, _) => {
                let checks = (0..s.children.len()).map(|i| {
                    let (b, halt) = (bit(i), self.halt_child(s, i));
                    quote!(if __r & #b != 0 { #halt; })
                });
                (uint(*u), quote!(#(#checks)*))
            }
            _ => return None,
        })
    }

    /// Whether node `s` has its children's halt as a method
    /// (`__halt_children_N`): always where its tick halts children as well as
    /// its halt (reactive and parallel forms); for the other composites, in
    /// trees of at most [`HALT_HELPER_NODES`] nodes. Written in place, those
    /// halts made the code of the reactive and parallel nodes that halt them
    /// part of the tick's, and T4 executed 4% more instructions
    /// (benches/NOTES.md, 2026-11-27); a big tree writes them in place, where
    /// a method per composite was a good part of its compile time (issue 14).
    fn has_child_halt_helper(&self, s: &Slot) -> bool {
        match &s.node.kind {
            Kind::Plain(NodeKind::ReactiveSequence | NodeKind::ReactiveSelector | NodeKind::ParallelMain)
            | Kind::Parallel { .. } => true,
            Kind::If { reactive, .. } | Kind::Match { reactive, .. } if *reactive => true,
            Kind::Utility { choose, .. } if choose.switches() => true,
            _ => {
                self.l.slots.len() <= HALT_HELPER_NODES
                    && matches!(s.state, State::Resume(_) | State::ResumeFailed(_) | State::Masks(..))
            }
        }
    }
}

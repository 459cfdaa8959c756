//! The `__tick_N` methods: one per node of more than `CODE_INLINE_NODES`
//! nodes (and the root), inlined into its parent; a smaller node's tick is
//! written where its parent ticks it. What every node's tick shares (entry,
//! hooks, the report, jumps passing through) is here; what a kind does is in
//! its module in `kinds/`, called from the one dispatch, `Gen::kind_tick` in
//! `kinds/mod.rs`.
//!
//! A `break`/`continue` leaves a code in `env.jump`; only the nodes lowering
//! marked as on its path check for it (see [`Gen::guarded_child`]), so trees
//! without jumps pay nothing.

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote, quote_spanned};

use super::{Gen, flat_id, hook_field, rt, rt_at};
use crate::lower::{Slot, State, UInt, break_code, continue_code};
use crate::model::{Count, Duration, Hook, Kind, Leaf};

/// The largest subtree (in nodes) whose tick is always inlined into its parent's.
pub const INLINE_NODES: usize = 512;

impl Gen<'_> {
    /// `__tick_N`: the method of a node that has one (see [`Gen::inlined`]).
    /// Small ones are inlined into their parents, so a tick runs as one
    /// function; a large one stays a function of its own, so that no function
    /// grows past a few hundred nodes and big trees compile in time linear in
    /// their size (BENCHMARKS.md, "Compile cost").
    pub(super) fn tick_method(&self, s: &Slot) -> TokenStream {
        let rt = rt();
        let ctx = &self.ctx;
        let name = super::tick_name(s.id, self.fast);
        let code = self.tick_code(s);
        let record = super::times::record(self.l, s);
        let inline = if s.size <= INLINE_NODES {
            quote!(#[inline(always)])
        } else {
            quote!(#[inline])
        };
        quote! {
            #inline
            fn #name<__O: #rt::Observer + ?Sized>(
                &mut self,
                __ctx: &mut #ctx,
                __env: &mut #rt::Env<'_, __O>,
                __entering: bool,
            ) -> #rt::Status {
                #record
                #code
            }
        }
    }

    /// Node `s`'s tick as one block (no `return`, so that it can stand in its
    /// parent's code): reports entry, runs the node's logic and hooks, reports
    /// its status (or its halt, when a jump passes through it). `__entering`
    /// is in scope.
    pub(super) fn tick_code(&self, s: &Slot) -> TokenStream {
        let jump = super::jump_label(s.id);
        let rt = rt();
        let id = flat_id(self.l, s.id);
        let body = self.kind_tick(s);
        // The observed path offers leaves to the observer's stand-in hook
        // (behaved-testing's substitution); the fast path never asks.
        let body = if !self.fast && matches!(s.node.kind, Kind::WaitUntil(_)) {
            // A stand-in answers for the condition of a `wait_until`: only
            // `Success` ends the wait.
            quote! {
                match __env.stand_in(#id, __entering) {
                    ::core::option::Option::Some(#rt::Status::Success) => #rt::Status::Success,
                    ::core::option::Option::Some(_) => #rt::Status::Running,
                    ::core::option::Option::None => #body,
                }
            }
        } else if !self.fast && stands_in(&s.node.kind) {
            quote! {
                match __env.stand_in(#id, __entering) {
                    ::core::option::Option::Some(__s) => __s,
                    ::core::option::Option::None => #body,
                }
            }
        } else {
            body
        };
        let body = if (0..s.children.len()).any(|i| self.child(s, i).may_jump()) {
            quote!(#jump: { #body })
        } else {
            body
        };
        let hooks = &s.node.hooks;
        let on_enter = self.hook(s, "on_enter");
        let on_exit = self.hook(s, "on_exit");
        let on_pre_tick = self.hook(s, "on_pre_tick");
        let on_tick = self.hook(s, "on_tick");
        let report = |call: TokenStream| if self.fast { quote!() } else { call };
        let (entered, halted) = (report(quote!(__env.entered(#id);)), report(quote!(__env.halted(#id);)));
        let ticked = if self.fast {
            quote!(__status)
        } else {
            quote!(__env.ticked(#id, __status))
        };
        let completion = if hooks.success.is_some() || hooks.failure.is_some() || hooks.exit.is_some() {
            let on_success = self.hook(s, "on_success");
            let on_failure = self.hook(s, "on_failure");
            quote! {
                match __status {
                    #rt::Status::Success => { #on_success #on_exit }
                    #rt::Status::Failure => { #on_failure #on_exit }
                    #rt::Status::Running => {}
                }
            }
        } else {
            quote!()
        };
        let finish = quote! {
            #on_tick
            #completion
            #ticked
        };
        let finish = if s.passes_jump {
            quote! {
                if __env.jump != 0 {
                    #on_exit
                    #halted
                    __status
                } else {
                    #finish
                }
            }
        } else {
            finish
        };
        quote! {{
            if __entering {
                #entered
                #on_enter
            }
            #on_pre_tick
            let __status: #rt::Status = #body;
            #finish
        }}
    }

    /// Lifecycle hook `which` of node `s` (`on_enter`, ..), if it has one: a
    /// closure called with the node-local variables it mentions, or a JSON
    /// hook action (its field `__nN_on_enter`) ticked without entering, its
    /// status ignored, as the interpreter runs hook leaves.
    pub(super) fn hook(&self, s: &Slot, which: &str) -> Option<TokenStream> {
        let (_, hook) = s.node.hooks.all().into_iter().find(|(name, _)| *name == which)?;
        let ctx = &self.ctx;
        let (__cx, __this, __env) = call_site_names();
        Some(match hook? {
            Hook::Closure(hook) => {
                let span = syn::spanned::Spanned::span(hook);
                let rt = rt_at(span);
                let vars = self.var_bindings(s, &hook.to_token_stream());
                quote_spanned!(span=> { #vars #rt::hook::<#ctx, _, _>(#__cx, #hook); })
            }
            Hook::Action(leaf) => {
                let span = match leaf {
                    Leaf::Value { expr, .. } | Leaf::Inline(expr) => syn::spanned::Spanned::span(expr),
                };
                let (rt, f) = (rt_at(span), hook_field(s.id, which));
                quote_spanned!(span=> { let _ = #rt::action::<#ctx, _>(&mut #__this.#f, #__cx, #rt::Step::Tick(false)); })
            }
        })
    }

    /// Child `i`'s tick; when a jump may come out of it, a jump passing through
    /// this node runs `cleanup` (leave this node idle, halt its other running
    /// children) and leaves the node at once.
    pub(super) fn guarded_child(&self, s: &Slot, i: usize, entering: TokenStream, cleanup: TokenStream) -> TokenStream {
        let jump = super::jump_label(s.id);
        let call = self.tick_child(s, i, entering);
        if !self.child(s, i).may_jump() {
            return call;
        }
        quote! {{
            let __c = #call;
            if __env.jump != 0 {
                #cleanup
                break #jump __c;
            }
            __c
        }}
    }

    /// The body's tick in a loop: handles the loop's own `break` (leave with
    /// Success, after `reset`) and `continue` (as if the body succeeded), and
    /// lets other jumps pass on after `reset`.
    pub(super) fn loop_child(&self, s: &Slot, i: usize, entering: TokenStream, reset: TokenStream) -> TokenStream {
        let jump = super::jump_label(s.id);
        let rt = rt();
        let call = self.tick_child(s, i, entering);
        if !self.child(s, i).may_jump() {
            return call;
        }
        let targeted = |code: u32| self.l.jumps.contains(&code);
        let (brk, cont) = (break_code(s.id), continue_code(s.id));
        let on_break = targeted(brk).then(|| {
            quote! {
                if __env.jump == #brk {
                    __env.jump = 0;
                    #reset
                    break #jump (#rt::Status::Success);
                }
            }
        });
        let on_continue = targeted(cont).then(|| {
            quote! {
                if __env.jump == #cont {
                    __env.jump = 0;
                    __c = #rt::Status::Success;
                }
            }
        });
        let pass_on = s.passes_jump.then(|| {
            quote! {
                if __env.jump != 0 {
                    #reset
                    break #jump __c;
                }
            }
        });
        let binding = if on_continue.is_some() {
            quote!(let mut __c)
        } else {
            quote!(let __c)
        };
        quote! {{
            #binding = #call;
            #on_break
            #on_continue
            #pass_on
            __c
        }}
    }

    /// The `Step` that ticks a leaf or subtree on this path.
    pub(super) fn tick_step(&self) -> TokenStream {
        if self.fast {
            quote!(Fast(__entering))
        } else {
            quote!(Tick(__entering))
        }
    }
}

/// `let PARAM: TY = VALUE;` for a closure's argument written in place (a
/// typed argument keeps its own type).
pub(super) fn bind(param: &syn::Pat, ty: TokenStream, value: TokenStream) -> TokenStream {
    match param {
        syn::Pat::Type(_) => quote!(let #param = #value;),
        _ => quote!(let #param: #ty = #value;),
    }
}

/// The leaves an observer may stand in for: conditions, actions and `wait`.
pub(super) fn stands_in(kind: &Kind) -> bool {
    matches!(kind, Kind::Cond(_) | Kind::Act(_) | Kind::Wait(_))
}

/// The unsigned type of a node's resume point.
pub(super) fn resume_type(s: &Slot) -> UInt {
    match s.state {
        State::Resume(u) => u,
        _ => unreachable!("not a resume point"),
    }
}

pub(super) fn count_value(count: &Count, s: &Slot) -> TokenStream {
    match count {
        Count::Literal(n) => Literal::u64_unsuffixed(*n).into_token_stream(),
        Count::Expr(e) => quote_spanned!(s.node.span=> { const __N: u32 = #e; __N }),
    }
}

pub(super) fn duration(d: &Duration) -> TokenStream {
    match d {
        Duration::Literal(v) => Literal::f64_suffixed(*v).into_token_stream(),
        Duration::Expr(e) => quote!({ const __D: f64 = #e; __D }),
    }
}

/// `__ctx`, `self` and `__env` spanned where the macro was called. Code spanned
/// on a user's node takes these as interpolated tokens, so that they resolve
/// like the rest of the generated code even when the node's tokens come from
/// another macro (`macro_rules!` hygiene would otherwise hide them).
pub(super) fn call_site_names() -> (TokenStream, TokenStream, TokenStream) {
    (quote!(__ctx), quote!(self), quote!(__env))
}

//! The `__tick_N` methods: one per node of more than `CODE_INLINE_NODES`
//! nodes (and the root), inlined into its parent; a smaller node's tick is
//! written where its parent ticks it.
//!
//! A `break`/`continue` leaves a code in `env.jump`; only the nodes lowering
//! marked as on its path check for it (see [`Gen::guarded_child`]), so trees
//! without jumps pay nothing.

use proc_macro2::{Literal, TokenStream};
use quote::{ToTokens, quote, quote_spanned};

use super::{Gen, bit, child_halt_name, field, flat_id, hook_field, in_place, lit, rt, rt_at, uint, var_field};
use crate::lower::{Slot, State, UInt, break_code, continue_code};
use crate::model::{Count, Duration, ForSource, Hook, Kind, Leaf, Weight, thresholds};

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
        let body = self.tick_body(s);
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
    fn guarded_child(&self, s: &Slot, i: usize, entering: TokenStream, cleanup: TokenStream) -> TokenStream {
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
    fn loop_child(&self, s: &Slot, i: usize, entering: TokenStream, reset: TokenStream) -> TokenStream {
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

    fn tick_body(&self, s: &Slot) -> TokenStream {
        let rt = rt();
        let ctx = &self.ctx;
        let f = field(s.id);
        let span = s.node.span;
        match &s.node.kind {
            Kind::Sequence => self.chain(s, quote!(Success), false),
            Kind::Selector => self.chain(s, quote!(Failure), false),
            Kind::ReactiveSequence => self.chain(s, quote!(Success), true),
            Kind::ReactiveSelector => self.chain(s, quote!(Failure), true),
            Kind::SequenceAlways => self.sequence_always(s),
            Kind::Parallel { success, failure } => {
                let n = s.children.len();
                let (need, fail) = thresholds(*success, *failure, n);
                // "S became unreachable" is "more than n - S failed": fold it into one threshold.
                self.parallel(s, need, fail.min(n - need + 1))
            }
            Kind::ParallelMain => self.parallel_main(s),
            Kind::Random => {
                let n = Literal::u32_unsuffixed(s.children.len() as u32);
                self.pick_one(s, quote!(__env.rng.below(#n) + 1))
            }
            Kind::Weighted(weights) if weights.iter().any(|w| matches!(w, Weight::Const(_))) => {
                self.pick_one(s, weighted_by_consts(weights))
            }
            Kind::Weighted(weights) => {
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
            Kind::Shuffle => self.shuffle(s),
            Kind::If { reactive, .. } => self.branch(s, *reactive),
            Kind::Match { reactive, .. } => self.branch(s, *reactive),
            Kind::Invert => {
                let child = self.guarded_child(s, 0, quote!(__entering), quote!());
                quote!(#child.invert())
            }
            Kind::ForceSuccess | Kind::ForceFailure => {
                let child = self.guarded_child(s, 0, quote!(__entering), quote!());
                let forced = if matches!(s.node.kind, Kind::ForceSuccess) {
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
            Kind::Repeat(count) => self.bounded(s, count, quote!(Success)),
            Kind::Retry(count) => self.bounded(s, count, quote!(Failure)),
            Kind::Loop => self.unbounded(s, None),
            Kind::UntilFail => self.unbounded(s, Some(quote!(Failure))),
            Kind::UntilSuccess => self.unbounded(s, Some(quote!(Success))),
            Kind::While => self.while_loop(s),
            Kind::ForEach { source, .. } => self.for_each(s, source),
            Kind::Break(_) | Kind::Continue(_) => {
                let code = s.jump.expect("lowering resolves every jump");
                quote!({ __env.jump = #code; #rt::Status::Success })
            }
            Kind::Timeout(d) => {
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
            Kind::Delay(d) => {
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
            Kind::Cooldown(d) => {
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
            Kind::Limit(count) => {
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
            Kind::RunOnce => {
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
            Kind::AbortIf => {
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
            Kind::Latch => {
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
            Kind::Scope(vars) => {
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
            Kind::Wait(d) => {
                let d = duration(d);
                quote!(#rt::wait(&mut self.#f, __entering, __env.now, #d))
            }
            Kind::Success => quote!(#rt::Status::Success),
            Kind::Failure => quote!(#rt::Status::Failure),
            Kind::Running => quote!(#rt::Status::Running),
            Kind::Cond(leaf) => self.check(s, leaf),
            Kind::WaitUntil(leaf) => {
                let check = self.check(s, leaf);
                quote! {
                    match #check {
                        #rt::Status::Success => #rt::Status::Success,
                        _ => #rt::Status::Running,
                    }
                }
            }
            Kind::Act(Leaf::Inline(closure)) => {
                let rt = rt_at(span);
                let vars = self.var_bindings(s, &closure.to_token_stream());
                let (__cx, __this, __env) = call_site_names();
                match in_place::closure_parts(closure) {
                    Some((param, body)) => {
                        let binding = bind(param, quote!(&mut #ctx), quote!(&mut *#__cx));
                        // The body as written (`{ .. }` included): the lints that
                        // take it for a function argument's do not apply; nor do
                        // clippy's, which did not see it inside its closure.
                        quote_spanned!(span=> {
                            #vars
                            #binding
                            #[allow(unused_braces, clippy::all, clippy::pedantic, clippy::nursery)]
                            let __value = #rt::into_status(#body);
                            __value
                        })
                    }
                    None => quote_spanned!(span=> { #vars #rt::act::<#ctx, _, _>(#__cx, #closure) }),
                }
            }
            Kind::Act(Leaf::Value { .. }) => self.action_step(s, self.tick_step()),
            Kind::Subtree { .. } => self.subtree_step(s, self.tick_step()),
            Kind::Invalid => unreachable!("trees with errors are not generated"),
        }
    }

    /// A condition leaf's status: an inline closure called with the variables
    /// it mentions, or the condition value stored in this node's field.
    fn check(&self, s: &Slot, leaf: &Leaf) -> TokenStream {
        let (ctx, f, span) = (&self.ctx, field(s.id), s.node.span);
        let rt = rt_at(span);
        let (__cx, __this, __env) = call_site_names();
        match leaf {
            Leaf::Inline(closure) => {
                let vars = self.var_bindings(s, &closure.to_token_stream());
                match in_place::closure_parts(closure) {
                    Some((param, body)) => {
                        let binding = bind(param, quote!(&#ctx), quote!(&*#__cx));
                        // An `if` makes the body a `bool` with rustc's plain
                        // "expected `bool`" where it is not (as the closure's bound did).
                        // In parentheses, so that a struct literal in the body
                        // parses; spanned on the body, so that an error is there.
                        let mut value =
                            proc_macro2::Group::new(proc_macro2::Delimiter::Parenthesis, body.to_token_stream());
                        value.set_span(syn::spanned::Spanned::span(body));
                        quote_spanned!(span=> {
                            #vars
                            #binding
                            #[allow(unused_parens, unused_braces, clippy::all, clippy::pedantic, clippy::nursery)]
                            let __value = if #value { #rt::Status::Success } else { #rt::Status::Failure };
                            __value
                        })
                    }
                    None => quote_spanned!(span=> { #vars #rt::cond::<#ctx, _>(&*#__cx, #closure) }),
                }
            }
            Leaf::Value { .. } => quote_spanned!(span=> #rt::check::<#ctx, _>(&#__this.#f, &*#__cx)),
        }
    }

    /// `sequence_always`: like `sequence`, but a child's failure moves on as
    /// its success does; the failure is remembered and decides the status once
    /// every child has completed.
    fn sequence_always(&self, s: &Slot) -> TokenStream {
        let node = super::node_label(s.id);
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
    fn chain(&self, s: &Slot, cont: TokenStream, reactive: bool) -> TokenStream {
        let node = super::node_label(s.id);
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

    /// `parallel`: tick every child not yet completed in this activation; decide
    /// the moment `need` successes or `fail` failures are reached.
    fn parallel(&self, s: &Slot, need: usize, fail: usize) -> TokenStream {
        let node = super::node_label(s.id);
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
    fn parallel_main(&self, s: &Slot) -> TokenStream {
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

    /// Ticks child `__b - 1` where `__b` is `pick` on entry (`random`,
    /// `weighted`), or the running child's number afterwards.
    fn pick_one(&self, s: &Slot, pick: TokenStream) -> TokenStream {
        let rt = rt();
        let f = field(s.id);
        let ty = uint(resume_type(s));
        let dispatch = self.dispatch(s, 0, quote!(__b), quote!(self.#f = 0;));
        quote! {{
            let __r = self.#f;
            let __b: #ty = if __r != 0 { __r } else { (#pick) as #ty };
            let __s = #dispatch;
            self.#f = if let #rt::Status::Running = __s { __b } else { 0 };
            __s
        }}
    }

    /// `match __b { k => tick child (k - 1 + first), .. }` with `entering` when
    /// the chosen child is not the one recorded in `__r`.
    fn dispatch(&self, s: &Slot, first: usize, chosen: TokenStream, cleanup: TokenStream) -> TokenStream {
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
    fn shuffle(&self, s: &Slot) -> TokenStream {
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

    /// `if` (children: condition, branch, condition, branch, .., else?) and
    /// `match` (children: arms): choose a branch on entry, or on every tick
    /// when `reactive`, halting the running branch when the choice changes.
    /// `__b` is the chosen child's index + 1; 0 when an `if` chose nothing.
    fn branch(&self, s: &Slot, reactive: bool) -> TokenStream {
        let rt = rt();
        let f = field(s.id);
        let ty = uint(resume_type(s));
        let cleanup = quote!(self.#f = 0;);
        let (choose, run) = match &s.node.kind {
            Kind::If { has_else, .. } => {
                let branches = s.children.len() / 2;
                let tests = (0..branches).map(|k| {
                    let (cond, chosen) = (self.tick_child(s, 2 * k, quote!(true)), lit(2 * k + 2));
                    quote!(if let #rt::Status::Success = #cond { #chosen } else)
                });
                let otherwise = if *has_else { lit(s.children.len()) } else { lit(0) };
                let arms = (0..branches)
                    .map(|k| 2 * k + 1)
                    .chain(has_else.then_some(2 * branches))
                    .map(|i| {
                        let k = lit(i + 1);
                        let child = self.guarded_child(s, i, quote!(__r != #k), cleanup.clone());
                        quote!(#k => #child,)
                    });
                (
                    quote!(#(#tests)* { #otherwise }),
                    quote!(match __b { #(#arms)* _ => #rt::Status::Success }),
                )
            }
            Kind::Match {
                param, scrutinee, arms, ..
            } => (
                self.select_arm(s, param, scrutinee, arms),
                self.dispatch(s, 0, quote!(__b), cleanup),
            ),
            _ => unreachable!("not a branch"),
        };
        let halt_children = child_halt_name(s.id);
        let chosen = if reactive {
            quote! {
                let __b: #ty = #choose;
                if __r != 0 && __r != __b {
                    self.#halt_children(__ctx, __env, __r);
                }
            }
        } else {
            quote!(let __b: #ty = if __r != 0 { __r } else { #choose };)
        };
        quote! {{
            let __r = self.#f;
            #chosen
            let __s = #run;
            self.#f = if let #rt::Status::Running = __s { __b } else { 0 };
            __s
        }}
    }

    /// The arm number (1-based) whose pattern matches the scrutinee, evaluated
    /// inline on the context so it may borrow from it; rustc checks exhaustiveness.
    fn select_arm(
        &self,
        s: &Slot,
        param: &syn::Pat,
        scrutinee: &syn::Expr,
        arms: &[(syn::Pat, Option<syn::Expr>)],
    ) -> TokenStream {
        let ctx = &self.ctx;
        let binding = match param {
            syn::Pat::Type(_) => quote!(let #param = &*__ctx;),
            _ => quote!(let #param: &#ctx = &*__ctx;),
        };
        let mut tokens = scrutinee.to_token_stream();
        let arms = arms.iter().enumerate().map(|(i, (pat, guard))| {
            let k = lit(i + 1);
            let guard = guard.as_ref().map(|g| {
                tokens.extend(g.to_token_stream());
                quote!(if #g)
            });
            quote!(#pat #guard => #k,)
        });
        let arms: Vec<TokenStream> = arms.collect();
        let vars = self.var_bindings(s, &tokens);
        quote! {{
            #vars
            #binding
            match #scrutinee { #(#arms)* }
        }}
    }

    /// `repeat(n)` (`counted` = Success) and `retry(n)` (`counted` = Failure):
    /// bounded, so the next iteration starts in the same tick.
    fn bounded(&self, s: &Slot, count: &Count, counted: TokenStream) -> TokenStream {
        let rt = rt();
        let f = field(s.id);
        let n = count_value(count, s);
        let child = self.loop_child(s, 0, quote!(__e), quote!(self.#f = 0;));
        quote! {{
            let mut __e = __entering;
            loop {
                match #child {
                    #rt::Status::Running => break #rt::Status::Running,
                    #rt::Status::#counted => {
                        self.#f += 1;
                        if self.#f >= #n {
                            self.#f = 0;
                            break #rt::Status::#counted;
                        }
                        __e = true;
                    }
                    __s => {
                        self.#f = 0;
                        break __s;
                    }
                }
            }
        }}
    }

    /// `loop` (`stop` = None), `until_fail`, `until_success`: at most one
    /// iteration starts per tick. `__e` is true when the current iteration
    /// started in this tick.
    fn unbounded(&self, s: &Slot, stop: Option<TokenStream>) -> TokenStream {
        let rt = rt();
        let f = field(s.id);
        let child = self.loop_child(s, 0, quote!(__e), quote!(self.#f = false;));
        let stop_arm = stop.map(|st| {
            quote! {
                #rt::Status::#st => {
                    self.#f = false;
                    break #rt::Status::Success;
                }
            }
        });
        quote! {{
            let mut __e = !self.#f;
            loop {
                match #child {
                    #rt::Status::Running => {
                        self.#f = true;
                        break #rt::Status::Running;
                    }
                    #stop_arm
                    _ => {
                        self.#f = false;
                        if __e {
                            break #rt::Status::Running;
                        }
                        __e = true;
                    }
                }
            }
        }}
    }

    /// `while c { body }` (children: condition, body): the condition is
    /// checked when an iteration starts; at most one iteration starts per tick.
    fn while_loop(&self, s: &Slot) -> TokenStream {
        let rt = rt();
        let f = field(s.id);
        let cond = self.tick_child(s, 0, quote!(true));
        let body = self.loop_child(s, 1, quote!(__e), quote!(self.#f = false;));
        quote! {{
            // `__now`: the current iteration started in this tick; `__e`: the body enters.
            let mut __now = !self.#f;
            let mut __e = __now;
            loop {
                if __e && !::core::matches!(#cond, #rt::Status::Success) {
                    self.#f = false;
                    break #rt::Status::Success;
                }
                match #body {
                    #rt::Status::Running => {
                        self.#f = true;
                        break #rt::Status::Running;
                    }
                    #rt::Status::Failure => {
                        self.#f = false;
                        break #rt::Status::Failure;
                    }
                    #rt::Status::Success => {
                        self.#f = false;
                        if __now {
                            break #rt::Status::Running;
                        }
                        __now = true;
                        __e = true;
                    }
                }
            }
        }}
    }

    /// `for x: T in |c| items max N { body }`: reads the items on entry, then
    /// runs the body once per item; bounded, so the next iteration starts in
    /// the same tick. `__e`: the body enters (a new item's iteration).
    /// A JSON tree's list (`ForSource::List`) also puts the current item in
    /// the context before each tick of the body, as the interpreter does.
    fn for_each(&self, s: &Slot, source: &ForSource) -> TokenStream {
        let rt = rt();
        let (f, ctx) = (field(s.id), &self.ctx);
        let (fill, select) = match source {
            ForSource::Closure { param, items, .. } => {
                let span = syn::spanned::Spanned::span(items);
                let binding = match param {
                    syn::Pat::Type(_) => quote!(let #param = &*__ctx;),
                    _ => quote!(let #param: &#ctx = &*__ctx;),
                };
                let vars = self.var_bindings(s, &items.to_token_stream());
                let (_, __this, _) = call_site_names();
                let fill = quote_spanned!(span=> #__this.#f.fill(#items));
                (quote!(#vars #binding #fill;), quote!())
            }
            ForSource::List(_) => {
                let list = super::list_field(s.id);
                let span = s.node.span;
                let rt = rt_at(span);
                (
                    quote_spanned!(span=> self.#f.fill(#rt::ItemList::<#ctx>::items(&self.#list, &*__ctx));),
                    quote_spanned!(span=> #rt::ItemList::<#ctx>::select(&self.#list, __ctx, self.#f.current());),
                )
            }
        };
        let child = self.loop_child(s, 0, quote!(__e), quote!(self.#f.clear();));
        quote! {{
            if __entering {
                #fill
            }
            let mut __e = __entering;
            loop {
                if !self.#f.has_current() {
                    self.#f.clear();
                    break #rt::Status::Success;
                }
                #select
                match #child {
                    #rt::Status::Running => break #rt::Status::Running,
                    #rt::Status::Success => {
                        self.#f.advance();
                        __e = true;
                    }
                    #rt::Status::Failure => {
                        self.#f.clear();
                        break #rt::Status::Failure;
                    }
                }
            }
        }}
    }

    /// The `Step` that ticks a leaf or subtree on this path.
    fn tick_step(&self) -> TokenStream {
        if self.fast {
            quote!(Fast(__entering))
        } else {
            quote!(Tick(__entering))
        }
    }

    /// Ticks or halts (`step`) an action value, spanned on the leaf so that a
    /// missing `Action` impl is reported there, once.
    pub(super) fn action_step(&self, s: &Slot, step: TokenStream) -> TokenStream {
        let (f, ctx) = (field(s.id), &self.ctx);
        let span = s.node.span;
        let rt = rt_at(span);
        let (__cx, __this, __env) = call_site_names();
        if let Some(at) = super::async_span(s) {
            // The import at the macro (one of the two is unused, by design);
            // the call at `X`, where its error belongs.
            let (rt, leaf, import) = (rt_at(at), super::leaf_field(s), super::rt());
            let call = quote_spanned! {at=>
                #rt::AsyncStep::<_, #ctx>(&mut #leaf, #rt::PhantomData).step(#__cx, #rt::Step::#step)
            };
            return quote!({ use #import::AsyncNothing as _; #call });
        }
        quote_spanned!(span=> #rt::action::<#ctx, _>(&mut #__this.#f, #__cx, #rt::Step::#step))
    }

    /// Ticks or halts (`step`) a subtree on its part of the context, with the
    /// id offset of its nodes.
    pub(super) fn subtree_step(&self, s: &Slot, step: TokenStream) -> TokenStream {
        let f = field(s.id);
        let Kind::Subtree { ty, map } = &s.node.kind else {
            unreachable!("not a subtree")
        };
        let span = ty
            .to_token_stream()
            .into_iter()
            .next()
            .map_or(s.node.span, |t| t.span());
        let rt = rt_at(span);
        let base = flat_id(self.l, s.id);
        // Through `Subtree::as_tree`: a type that is no tree fails there only.
        let as_tree = super::subtree_item(ty, quote!(as_tree));
        match map {
            Some(map) => {
                let (__cx, __this, __env) = call_site_names();
                quote_spanned! {span=>
                    #rt::subtree::<_, _, _>(#as_tree(&mut #__this.#f), #rt::map_ctx(#__cx, #map), #__env, #base + 1, #rt::Step::#step)
                }
            }
            None => {
                let ctx = &self.ctx;
                let (__cx, __this, __env) = call_site_names();
                quote_spanned! {span=>
                    #rt::subtree::<#ctx, _, _>(#as_tree(&mut #__this.#f), #__cx, #__env, #base + 1, #rt::Step::#step)
                }
            }
        }
    }
}

/// `let PARAM: TY = VALUE;` for a closure's argument written in place (a
/// typed argument keeps its own type).
fn bind(param: &syn::Pat, ty: TokenStream, value: TokenStream) -> TokenStream {
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
fn resume_type(s: &Slot) -> UInt {
    match s.state {
        State::Resume(u) => u,
        _ => unreachable!("not a resume point"),
    }
}

fn count_value(count: &Count, s: &Slot) -> TokenStream {
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

/// `__ctx`, `self` and `__env` spanned where the macro was called. Code spanned
/// on a user's node takes these as interpolated tokens, so that they resolve
/// like the rest of the generated code even when the node's tokens come from
/// another macro (`macro_rules!` hygiene would otherwise hide them).
fn call_site_names() -> (TokenStream, TokenStream, TokenStream) {
    (quote!(__ctx), quote!(self), quote!(__env))
}

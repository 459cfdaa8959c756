//! Stage 5: the flat table to Rust. Each node becomes two private methods on
//! the tree struct: `__tick_N` (inlined into its parent, so the whole tick is
//! one function as if written by hand) and `__halt_N`. A parent passes
//! `entering` to its child, because the parent's own resume point already says
//! whether the child is running: no node stores an "am I running" flag.

use proc_macro2::{Literal, Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::visit_mut::VisitMut;

use crate::check::thresholds;
use crate::lower::{Lowered, Slot, State, UInt};
use crate::model::{Count, Duration, Kind, Leaf, Tree, value_expr};

/// The hidden module of the facade that generated code reaches the runtime through.
fn rt() -> TokenStream {
    quote!(::bt::__private)
}

/// The same path spanned on a user's node, so that a type error in a call
/// into the runtime is reported at the node, not at the macro call.
fn rt_at(span: Span) -> TokenStream {
    quote_spanned!(span=> ::bt::__private)
}

/// The whole expansion of one checked tree.
pub fn tree(l: &Lowered) -> TokenStream {
    let rt = rt();
    let t = l.tree;
    let (attrs, cfgs) = split_attrs(t);
    let (vis, name) = (&t.vis, &t.name);
    let ctx = elided(&t.ctx);

    let fields = l.slots.iter().filter_map(|s| field_type(s).map(|ty| (field(s.id), ty)));
    let (field_names, field_types): (Vec<_>, Vec<_>) = fields.unzip();
    let field_inits = l
        .slots
        .iter()
        .filter_map(|s| field_init(s).map(|init| (field(s.id), init)));
    let (init_names, init_values): (Vec<_>, Vec<_>) = field_inits.unzip();
    let (rng_field, rng_init, rng_in, rng_out) = if l.uses_rng {
        (
            quote!(__rng: #rt::Rng,),
            quote!(__rng: #rt::Rng::new(seed),),
            quote!(self.__rng),
            quote!(self.__rng = __env.rng;),
        )
    } else {
        (quote!(), quote!(), quote!(#rt::Rng::new(0)), quote!())
    };

    let ticks = l.slots.iter().map(|s| tick_method(l, s));
    let halts = l.slots.iter().map(|s| halt_method(l, s));
    let helpers = l.slots.iter().filter_map(|s| child_halt_helper(l, s));
    let node_count = node_count(l);
    let table = node_table(l);
    let (tick_fn, run_fn) = entry_points(l, &ctx);

    quote! {
        #(#cfgs)*
        #(#attrs)*
        #vis struct #name {
            __running: bool,
            #rng_field
            #( #field_names: #field_types, )*
        }

        #(#cfgs)*
        impl #name {
            /// This tree's node table: one row per node in depth-first pre-order
            /// (subtrees inlined), with kind, label, parent and source line.
            pub const NODES: &'static [#rt::NodeInfo] = &Self::__NODE_TABLE;
            /// The number of nodes in [`Self::NODES`].
            pub const NODE_COUNT: u32 = #node_count;
            const __NODE_TABLE: [#rt::NodeInfo; #node_count as usize] = #table;

            /// A new, idle instance whose random nodes use the default seed.
            pub fn new() -> Self {
                Self::with_seed(#rt::Rng::DEFAULT_SEED)
            }

            /// A new, idle instance whose random nodes draw from `seed`:
            /// the same seed and the same inputs give the same run.
            pub fn with_seed(seed: u64) -> Self {
                let _ = seed;
                Self { __running: false, #rng_init #( #init_names: #init_values, )* }
            }

            #tick_fn
            #run_fn

            /// Halts whatever is running (each running action gets `halt` once);
            /// the next tick starts from the beginning. Lifetime memory
            /// (`limit`, `run_once`, `cooldown`) is kept.
            pub fn reset(&mut self, ctx: &mut #ctx) {
                #rt::Tree::reset_observed(self, ctx, &mut #rt::NoopObserver)
            }

            #(#ticks)*
            #(#halts)*
            #(#helpers)*
        }

        #(#cfgs)*
        impl ::core::default::Default for #name {
            fn default() -> Self {
                Self::new()
            }
        }

        #(#cfgs)*
        impl #rt::Tree<#ctx> for #name {
            const NODES: &'static [#rt::NodeInfo] = &Self::__NODE_TABLE;

            fn tick_observed<__O: #rt::Observer + ?Sized>(
                &mut self,
                ctx: &mut #ctx,
                now: f64,
                observer: &mut __O,
            ) -> #rt::Status {
                observer.tick_started(now);
                let mut __env = #rt::Env { now, rng: #rng_in, base: 0, observer };
                let __status = self.__tick_0(ctx, &mut __env, !self.__running);
                self.__running = ::core::matches!(__status, #rt::Status::Running);
                #rng_out
                __env.observer.tick_finished(__status);
                __status
            }

            fn reset_observed<__O: #rt::Observer + ?Sized>(&mut self, ctx: &mut #ctx, observer: &mut __O) {
                if self.__running {
                    self.__running = false;
                    let mut __env = #rt::Env { now: 0.0, rng: #rng_in, base: 0, observer };
                    self.__halt_0(ctx, &mut __env);
                }
            }

            fn is_running(&self) -> bool {
                self.__running
            }

            #[inline(always)]
            fn __tick<__O: #rt::Observer + ?Sized>(
                &mut self,
                ctx: &mut #ctx,
                env: &mut #rt::Env<'_, __O>,
                entering: bool,
            ) -> #rt::Status {
                self.__tick_0(ctx, env, entering)
            }

            #[inline]
            fn __halt<__O: #rt::Observer + ?Sized>(&mut self, ctx: &mut #ctx, env: &mut #rt::Env<'_, __O>) {
                self.__halt_0(ctx, env)
            }
        }
    }
}

/// What is emitted for a tree with errors: the struct and its constructors, so
/// the rest of the user's crate still type-checks while the errors are fixed.
pub fn fallback(t: &Tree) -> TokenStream {
    let rt = rt();
    let (attrs, cfgs) = split_attrs(t);
    let (vis, name) = (&t.vis, &t.name);
    let ctx = elided(&t.ctx);
    quote! {
        #(#cfgs)*
        #(#attrs)*
        #vis struct #name {}

        #(#cfgs)*
        impl #name {
            /// Not generated: the tree has errors.
            pub fn new() -> Self {
                Self {}
            }
            /// Not generated: the tree has errors.
            pub fn with_seed(_seed: u64) -> Self {
                Self {}
            }
            /// Not generated: the tree has errors.
            pub fn tick(&mut self, _ctx: &mut #ctx) -> #rt::Status {
                ::core::unimplemented!()
            }
            /// Not generated: the tree has errors.
            pub fn reset(&mut self, _ctx: &mut #ctx) {}
        }
    }
}

/// `cfg` attributes go on every generated item; the rest only on the struct.
fn split_attrs(t: &Tree) -> (Vec<&syn::Attribute>, Vec<&syn::Attribute>) {
    t.attrs.iter().partition(|a| !a.path().is_ident("cfg"))
}

/// The context type with every lifetime elided (`Ctx<'w>` becomes `Ctx<'_>`),
/// so the generated methods are generic over them.
fn elided(ty: &syn::Type) -> syn::Type {
    struct Elide;
    impl VisitMut for Elide {
        fn visit_lifetime_mut(&mut self, l: &mut syn::Lifetime) {
            *l = syn::Lifetime::new("'_", l.span());
        }
    }
    let mut ty = ty.clone();
    Elide.visit_type_mut(&mut ty);
    ty
}

/// `tick` and `run`: they read the time from the context (via `Clock`) when
/// the tree needs it, and do without it otherwise.
fn entry_points(l: &Lowered, ctx: &syn::Type) -> (TokenStream, TokenStream) {
    let rt = rt();
    if l.uses_time {
        (
            quote! {
                /// Ticks the tree once, at the time the context's [`Clock`](::bt::Clock) tells.
                pub fn tick<__C: ?Sized + #rt::Clock>(&mut self, ctx: &mut __C) -> #rt::Status
                where
                    Self: #rt::Tree<__C>,
                {
                    let now = #rt::Clock::now(&*ctx);
                    #rt::Tree::tick_at(self, ctx, now)
                }
            },
            quote! {
                /// Ticks until the root completes or `max_ticks` ticks have run
                /// (ADR-017's on-interaction mode), reading the time from the context
                /// before each tick. Hitting the limit halts nothing.
                pub fn run<__C: ?Sized + #rt::Clock>(&mut self, ctx: &mut __C, max_ticks: u32) -> #rt::Run
                where
                    Self: #rt::Tree<__C>,
                {
                    for _ in 0..max_ticks {
                        let now = #rt::Clock::now(&*ctx);
                        let status = #rt::Tree::tick_at(self, ctx, now);
                        if status.is_done() {
                            return #rt::Run::Completed(status);
                        }
                    }
                    #rt::Run::TickLimit
                }
            },
        )
    } else {
        (
            quote! {
                /// Ticks the tree once (it has no timing nodes, so it needs no time).
                pub fn tick(&mut self, ctx: &mut #ctx) -> #rt::Status {
                    #rt::Tree::tick_at(self, ctx, 0.0)
                }
            },
            quote! {
                /// Ticks until the root completes or `max_ticks` ticks have run
                /// (ADR-017's on-interaction mode). Hitting the limit halts nothing.
                pub fn run(&mut self, ctx: &mut #ctx, max_ticks: u32) -> #rt::Run {
                    #rt::Tree::run_at(self, ctx, 0.0, max_ticks)
                }
            },
        )
    }
}

fn field(id: usize) -> syn::Ident {
    format_ident!("__n{}", id)
}

fn tick_name(id: usize) -> syn::Ident {
    format_ident!("__tick_{}", id)
}

fn halt_name(id: usize) -> syn::Ident {
    format_ident!("__halt_{}", id)
}

fn child_halt_name(id: usize) -> syn::Ident {
    format_ident!("__halt_children_{}", id)
}

fn uint(u: UInt) -> syn::Ident {
    syn::Ident::new(u.name(), Span::call_site())
}

fn lit(n: usize) -> Literal {
    Literal::usize_unsuffixed(n)
}

fn bit(i: usize) -> Literal {
    Literal::u128_unsuffixed(1u128 << i)
}

fn field_type(s: &Slot) -> Option<TokenStream> {
    Some(match &s.state {
        State::None => return None,
        State::Resume(u) | State::Counter(u) => uint(*u).into_token_stream(),
        State::Masks(u, n) => {
            let (u, n) = (uint(*u), lit(*n));
            quote!([#u; #n])
        }
        State::Flag => quote!(bool),
        State::Time => quote!(f64),
        State::Leaf(ty) | State::Subtree(ty) => ty.to_token_stream(),
    })
}

fn field_init(s: &Slot) -> Option<TokenStream> {
    Some(match &s.state {
        State::None => return None,
        State::Resume(_) | State::Counter(_) => quote!(0),
        State::Masks(_, n) => {
            let n = lit(*n);
            quote!([0; #n])
        }
        State::Flag => quote!(false),
        State::Time => quote!(0.0),
        State::Leaf(_) => match &s.node.kind {
            Kind::Cond(Leaf::Value { expr, .. }) | Kind::Act(Leaf::Value { expr, .. }) => {
                value_expr(expr).to_token_stream()
            }
            _ => unreachable!("leaf state on a non-leaf"),
        },
        State::Subtree(ty) => {
            let span = s.node.span;
            quote_spanned!(span=> <#ty>::new())
        }
    })
}

/// The id of local node `id` in the outermost table: subtrees before it in
/// pre-order shift it by their node counts.
fn flat_id(l: &Lowered, id: usize) -> TokenStream {
    let local = Literal::u32_unsuffixed(id as u32);
    let shifts = l.subtrees.iter().filter(|&&s| s < id).map(|&s| subtree_type(l, s));
    quote!((#local #( + <#shifts>::NODE_COUNT )*))
}

fn subtree_type<'a>(l: &'a Lowered, id: usize) -> &'a syn::Type {
    match &l.slots[id].state {
        State::Subtree(ty) => ty,
        _ => unreachable!("not a subtree"),
    }
}

fn node_count(l: &Lowered) -> TokenStream {
    let local = Literal::u32_unsuffixed(l.slots.len() as u32);
    let subs = l.subtrees.iter().map(|&s| subtree_type(l, s));
    quote!((#local #( + <#subs>::NODE_COUNT )*))
}

fn node_table(l: &Lowered) -> TokenStream {
    let rt = rt();
    let rows = l.slots.iter().map(|s| {
        let id = flat_id(l, s.id);
        let parent = match s.parent {
            Some(p) => {
                let p = flat_id(l, p);
                quote!(::core::option::Option::Some(#rt::NodeId(#p)))
            }
            None => quote!(::core::option::Option::None),
        };
        let kind = format_ident!("{}", format!("{:?}", s.node.kind.catalog()));
        let label = &s.node.label;
        let line = s.node.line;
        let splice = match &s.state {
            State::Subtree(ty) => quote! {
                #rt::splice(&mut __table, (#id + 1) as usize, <#ty>::NODES, #rt::NodeId(#id));
            },
            _ => quote!(),
        };
        quote! {
            __table[#id as usize] = #rt::NodeInfo {
                id: #rt::NodeId(#id),
                parent: #parent,
                kind: #rt::NodeKind::#kind,
                label: #label,
                line: #line,
            };
            #splice
        }
    });
    let count = node_count(l);
    quote! {{
        let mut __table = [#rt::NodeInfo::PLACEHOLDER; #count as usize];
        #(#rows)*
        __table
    }}
}

/// `__tick_N`: reports entry, runs the node's logic, reports its status.
fn tick_method(l: &Lowered, s: &Slot) -> TokenStream {
    let rt = rt();
    let ctx = elided(&l.tree.ctx);
    let (name, id, body) = (tick_name(s.id), flat_id(l, s.id), tick_body(l, s));
    quote! {
        #[inline(always)]
        fn #name<__O: #rt::Observer + ?Sized>(
            &mut self,
            __ctx: &mut #ctx,
            __env: &mut #rt::Env<'_, __O>,
            __entering: bool,
        ) -> #rt::Status {
            if __entering {
                __env.entered(#id);
            }
            let __status: #rt::Status = #body;
            __env.ticked(#id, __status)
        }
    }
}

/// Calls child `i` of `s` with the given `entering` expression.
fn tick_child(s: &Slot, i: usize, entering: TokenStream) -> TokenStream {
    let name = tick_name(s.children[i]);
    quote!(self.#name(__ctx, __env, #entering))
}

fn halt_child(s: &Slot, i: usize) -> TokenStream {
    let name = halt_name(s.children[i]);
    quote!(self.#name(__ctx, __env))
}

fn tick_body(l: &Lowered, s: &Slot) -> TokenStream {
    let rt = rt();
    let ctx = elided(&l.tree.ctx);
    let f = field(s.id);
    let span = s.node.span;
    match &s.node.kind {
        Kind::Sequence => resume_chain(s, quote!(Success)),
        Kind::Selector => resume_chain(s, quote!(Failure)),
        Kind::ReactiveSequence => reactive_chain(s, quote!(Success)),
        Kind::ReactiveSelector => reactive_chain(s, quote!(Failure)),
        Kind::Parallel { success, failure } => {
            let n = s.children.len();
            let (need, fail) = thresholds(*success, *failure, n);
            // "S became unreachable" is "more than n - S failed": fold it into one threshold.
            parallel(s, need, fail.min(n - need + 1))
        }
        Kind::ParallelMain => parallel_main(s),
        Kind::Invert => {
            let child = tick_child(s, 0, quote!(__entering));
            quote!(#child.invert())
        }
        Kind::ForceSuccess | Kind::ForceFailure => {
            let child = tick_child(s, 0, quote!(__entering));
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
        Kind::Repeat(count) => bounded(s, count, quote!(Success)),
        Kind::Retry(count) => bounded(s, count, quote!(Failure)),
        Kind::Loop => unbounded(s, None),
        Kind::UntilFail => unbounded(s, Some(quote!(Failure))),
        Kind::UntilSuccess => unbounded(s, Some(quote!(Success))),
        Kind::Wait(d) => {
            let d = duration(d);
            quote!(#rt::wait(&mut self.#f, __entering, __env.now, #d))
        }
        Kind::Success => quote!(#rt::Status::Success),
        Kind::Failure => quote!(#rt::Status::Failure),
        Kind::Running => quote!(#rt::Status::Running),
        Kind::Cond(Leaf::Inline(closure)) => {
            let rt = rt_at(span);
            quote_spanned!(span=> #rt::cond::<#ctx, _>(&*__ctx, #closure))
        }
        Kind::Cond(Leaf::Value { .. }) => {
            let rt = rt_at(span);
            quote_spanned!(span=> #rt::check::<#ctx, _>(&self.#f, &*__ctx))
        }
        Kind::Act(Leaf::Inline(closure)) => {
            let rt = rt_at(span);
            quote_spanned!(span=> #rt::act::<#ctx, _, _>(__ctx, #closure))
        }
        Kind::Act(Leaf::Value { .. }) => action_step(s, &ctx, quote!(Tick(__entering))),
        Kind::Subtree { .. } => subtree_step(l, s, quote!(Tick(__entering))),
        Kind::Invalid => unreachable!("trees with errors are not generated"),
    }
}

/// `sequence` (`cont` = Success) and `selector` (`cont` = Failure): resume at the
/// running child; `cont` moves on in the same tick, anything else returns.
fn resume_chain(s: &Slot, cont: TokenStream) -> TokenStream {
    let rt = rt();
    let f = field(s.id);
    let steps = (0..s.children.len()).map(|i| {
        let i1 = lit(i + 1);
        let child = tick_child(s, i, quote!(__r != #i1));
        quote! {
            if __r <= #i1 {
                match #child {
                    #rt::Status::#cont => {}
                    __s => {
                        self.#f = if let #rt::Status::Running = __s { #i1 } else { 0 };
                        break '__node __s;
                    }
                }
            }
        }
    });
    quote! {{
        let __r = self.#f;
        '__node: {
            #(#steps)*
            self.#f = 0;
            #rt::Status::#cont
        }
    }}
}

/// The reactive forms: start at child 0 every tick; when a child stops the
/// pass, a later child that was running is halted.
fn reactive_chain(s: &Slot, cont: TokenStream) -> TokenStream {
    let rt = rt();
    let f = field(s.id);
    let halt_children = child_halt_name(s.id);
    let steps = (0..s.children.len()).map(|i| {
        let i1 = lit(i + 1);
        let child = tick_child(s, i, quote!(__r != #i1));
        let halt_later = if i + 1 < s.children.len() {
            quote! {
                if __r > #i1 {
                    self.#halt_children(__ctx, __env, __r);
                }
            }
        } else {
            quote!()
        };
        quote! {
            match #child {
                #rt::Status::#cont => {}
                __s => {
                    #halt_later
                    self.#f = if let #rt::Status::Running = __s { #i1 } else { 0 };
                    break '__node __s;
                }
            }
        }
    });
    quote! {{
        let __r = self.#f;
        '__node: {
            #(#steps)*
            self.#f = 0;
            #rt::Status::#cont
        }
    }}
}

/// `parallel`: tick every child not yet completed in this activation; decide
/// the moment `need` successes or `fail` failures are reached.
fn parallel(s: &Slot, need: usize, fail: usize) -> TokenStream {
    let rt = rt();
    let f = field(s.id);
    let halt_mask = child_halt_name(s.id);
    let (need, fail) = (lit(need), lit(fail));
    let steps = (0..s.children.len()).map(|i| {
        let b = bit(i);
        let child = tick_child(s, i, quote!(__run & #b == 0));
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
                            break '__node (#rt::Status::Success);
                        }
                    }
                    #rt::Status::Failure => {
                        __run &= !#b;
                        __fail |= #b;
                        if __fail.count_ones() >= #fail {
                            self.#f = [0; 3];
                            self.#halt_mask(__ctx, __env, __run);
                            break '__node (#rt::Status::Failure);
                        }
                    }
                }
            }
        }
    });
    quote! {{
        let [mut __run, mut __ok, mut __fail] = self.#f;
        '__node: {
            #(#steps)*
            self.#f = [__run, __ok, __fail];
            #rt::Status::Running
        }
    }}
}

/// `parallel(main)`: the first child decides; the others run beside it and are
/// halted when it completes.
fn parallel_main(s: &Slot) -> TokenStream {
    let rt = rt();
    let f = field(s.id);
    let halt_mask = child_halt_name(s.id);
    let main = tick_child(s, 0, quote!(__run & 1 == 0));
    let others = (1..s.children.len()).map(|i| {
        let b = bit(i);
        let child = tick_child(s, i, quote!(__run & #b == 0));
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

/// `repeat(n)` (`counted` = Success) and `retry(n)` (`counted` = Failure):
/// bounded, so the next iteration starts in the same tick.
fn bounded(s: &Slot, count: &Count, counted: TokenStream) -> TokenStream {
    let rt = rt();
    let f = field(s.id);
    let n = match count {
        Count::Literal(n) => Literal::u64_unsuffixed(*n).into_token_stream(),
        Count::Expr(e) => quote_spanned!(s.node.span=> { const __N: u32 = #e; __N }),
    };
    let child = tick_child(s, 0, quote!(__e));
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

/// `loop` (`stop` = None), `until_fail`, `until_success`: at most one iteration
/// starts per tick. `__e` is true when the current iteration started this tick.
fn unbounded(s: &Slot, stop: Option<TokenStream>) -> TokenStream {
    let rt = rt();
    let f = field(s.id);
    let child = tick_child(s, 0, quote!(__e));
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

fn duration(d: &Duration) -> TokenStream {
    match d {
        Duration::Literal(v) => Literal::f64_suffixed(*v).into_token_stream(),
        Duration::Expr(e) => quote!({ const __D: f64 = #e; __D }),
    }
}

/// Ticks or halts (`step`) an action value, spanned on the leaf so that a
/// missing `Action` impl is reported there, once.
fn action_step(s: &Slot, ctx: &syn::Type, step: TokenStream) -> TokenStream {
    let f = field(s.id);
    let span = s.node.span;
    let rt = rt_at(span);
    quote_spanned!(span=> #rt::action::<#ctx, _>(&mut self.#f, __ctx, #rt::Step::#step))
}

/// Ticks or halts (`step`) a subtree on its part of the context, with the id
/// offset of its nodes.
fn subtree_step(l: &Lowered, s: &Slot, step: TokenStream) -> TokenStream {
    let f = field(s.id);
    let Kind::Subtree { ty, map } = &s.node.kind else {
        unreachable!("not a subtree")
    };
    let span = ty_span(ty, s.node.span);
    let rt = rt_at(span);
    let base = flat_id(l, s.id);
    match map {
        Some(map) => quote_spanned! {span=>
            #rt::subtree::<_, #ty, _>(&mut self.#f, #rt::map_ctx(__ctx, #map), __env, #base + 1, #rt::Step::#step)
        },
        None => {
            let ctx = elided(&l.tree.ctx);
            quote_spanned! {span=>
                #rt::subtree::<#ctx, #ty, _>(&mut self.#f, __ctx, __env, #base + 1, #rt::Step::#step)
            }
        }
    }
}

fn ty_span(ty: &syn::Type, fallback: Span) -> Span {
    ty.to_token_stream().into_iter().next().map_or(fallback, |t| t.span())
}

/// `__halt_N`: halts the node's running descendants (post-order), runs its own
/// halt hook, reports the halt, and leaves it idle.
fn halt_method(l: &Lowered, s: &Slot) -> TokenStream {
    let rt = rt();
    let ctx = elided(&l.tree.ctx);
    let f = field(s.id);
    let (name, id) = (halt_name(s.id), flat_id(l, s.id));
    let helper = child_halt_name(s.id);
    let body = match &s.node.kind {
        Kind::Sequence | Kind::Selector | Kind::ReactiveSequence | Kind::ReactiveSelector => quote! {
            let __r = self.#f;
            self.#f = 0;
            self.#helper(__ctx, __env, __r);
        },
        Kind::Parallel { .. } => quote! {
            let [__run, _, _] = self.#f;
            self.#f = [0; 3];
            self.#helper(__ctx, __env, __run);
        },
        Kind::ParallelMain => quote! {
            let [__run, _] = self.#f;
            self.#f = [0, 0];
            self.#helper(__ctx, __env, __run);
        },
        Kind::Invert | Kind::ForceSuccess | Kind::ForceFailure => {
            let child = halt_child(s, 0);
            quote!(#child;)
        }
        Kind::Repeat(_) | Kind::Retry(_) => {
            let child = halt_child(s, 0);
            quote! {
                self.#f = 0;
                #child;
            }
        }
        Kind::Loop | Kind::UntilFail | Kind::UntilSuccess => {
            let child = halt_child(s, 0);
            quote! {
                if self.#f {
                    self.#f = false;
                    #child;
                }
            }
        }
        Kind::Act(Leaf::Value { .. }) => {
            let call = action_step(s, &ctx, quote!(Halt));
            quote!(let _ = #call;)
        }
        Kind::Subtree { .. } => {
            let call = subtree_step(l, s, quote!(Halt));
            quote!(let _ = #call;)
        }
        Kind::Invalid => unreachable!("trees with errors are not generated"),
        Kind::Wait(_) | Kind::Success | Kind::Failure | Kind::Running | Kind::Cond(_) | Kind::Act(Leaf::Inline(_)) => {
            quote!()
        }
    };
    quote! {
        #[inline]
        fn #name<__O: #rt::Observer + ?Sized>(&mut self, __ctx: &mut #ctx, __env: &mut #rt::Env<'_, __O>) {
            #body
            __env.halted(#id);
        }
    }
}

/// For composites, a helper that halts the running children named by the
/// node's state: the resume point (running child + 1) or a bit mask.
fn child_halt_helper(l: &Lowered, s: &Slot) -> Option<TokenStream> {
    let rt = rt();
    let ctx = elided(&l.tree.ctx);
    let name = child_halt_name(s.id);
    let (arg_ty, body) = match &s.state {
        State::Resume(u) => {
            let arms = (0..s.children.len()).map(|i| {
                let (i1, halt) = (lit(i + 1), halt_child(s, i));
                quote!(#i1 => #halt,)
            });
            (uint(*u), quote!(match __r { #(#arms)* _ => {} }))
        }
        State::Masks(u, _) => {
            let checks = (0..s.children.len()).map(|i| {
                let (b, halt) = (bit(i), halt_child(s, i));
                quote!(if __r & #b != 0 { #halt; })
            });
            (uint(*u), quote!(#(#checks)*))
        }
        _ => return None,
    };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::Errors;
    use crate::{lower, model};

    fn expand(src: &str) -> String {
        let mut errors = Errors::default();
        let trees = model::build(syn::parse_str(src).unwrap(), &mut errors);
        assert!(errors.is_empty());
        tree(&lower::lower(&trees[0])).to_string()
    }

    #[test]
    fn a_tree_becomes_a_struct_with_minimal_state_and_one_method_pair_per_node() {
        let out = expand("pub tree Dog for Ctx<'w> { loop { sequence { Face, wait(1.0) } } }");
        assert!(out.contains("pub struct Dog"), "{out}");
        for field in ["__n0 : bool", "__n1 : u8", "__n2 : Face", "__n3 : f64"] {
            assert!(out.contains(field), "missing {field}");
        }
        for m in ["fn __tick_3", "fn __halt_3", "fn __halt_children_1"] {
            assert!(out.contains(m), "missing {m}");
        }
        assert!(out.contains("Ctx < '_ >"), "lifetimes are elided");
        assert!(!out.contains("__rng"), "no RNG without random nodes");
        assert!(out.contains("Clock"), "a tree with wait reads the time");
    }

    #[test]
    fn a_tree_without_timing_needs_no_clock_and_subtrees_shift_ids() {
        let out = expand("tree G for W { sequence { cond(|w| w.ok), subtree(Patrol, |w| &mut w.p), success } }");
        assert!(out.contains("Patrol > :: NODE_COUNT"), "{out}");
        assert!(out.contains("splice"));
        let plain = expand("tree G for W { selector { cond(|w| w.ok), success } }");
        assert!(!plain.contains("Clock"));
    }

    #[test]
    fn elided_rewrites_every_lifetime() {
        let ty: syn::Type = syn::parse_str("Ctx<'a, Vec<&'b u8>>").unwrap();
        assert_eq!(
            elided(&ty).to_token_stream().to_string(),
            "Ctx < '_ , Vec < & '_ u8 > >"
        );
    }
}
#[cfg(test)]
mod syntax_tests {
    /// Every node kind in one tree: the expansion must be valid Rust syntax.
    /// Set `BT_DUMP` to a tree's source to print its expansion while debugging.
    #[test]
    fn expansion_is_valid_rust() {
        let src = std::env::var("BT_DUMP").unwrap_or_else(|_| {
            String::from(
                "pub tree All for Ctx<'a> { reactive selector { sequence { cond(|c| c.ok), Face, act(|c| c.go()) }, \
                 parallel(success = 1, failure = 2) { running, success }, parallel(main) { wait(T), failure }, \
                 reactive sequence { invert { force_success { force_failure { success } } } }, \
                 selector { repeat(3) { retry(N) { until_fail { until_success { loop { wait(0) } } } } } }, \
                 subtree(Sub, |c| &mut c.sub) } }",
            )
        });
        let out = crate::expand(src.parse().unwrap()).to_string();
        if let Err(e) = syn::parse_file(&out) {
            panic!("{e} at {:?} in\n{out}", e.span().start());
        }
        if std::env::var("BT_DUMP").is_ok() {
            println!("{out}");
        }
    }
}

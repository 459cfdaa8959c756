//! Stage 5: the flat table to Rust. The root and each node of more than
//! `CODE_INLINE_NODES` nodes become private methods on the tree struct:
//! `__tick_N` and `__fast_N` (inlined into its parent, so the whole tick is
//! one function as if written by hand), `__halt_N` and `__wake_N`; a smaller
//! node's code is written inside its parent's. A parent passes
//! `entering` to its child, because the parent's own resume point already says
//! whether the child is running: no node stores an "am I running" flag.
//!
//! [`tick`], [`halt`] and [`wake`] write those methods (what each kind does:
//! [`kinds`]), [`fields`] the struct's fields, [`subtrees`] the node ids
//! across subtrees and the node table; this module puts the struct, its
//! constructors and entry points together.

mod fallback;
mod fields;
mod flow;
mod halt;
mod in_place;
mod kinds;
mod names;
mod persist;
mod subtrees;
mod tick;
mod times;
mod wake;
mod watch;

pub use fallback::fallback;
use fields::*;
use names::*;
use subtrees::*;
pub(crate) use subtrees::{first_span, subtree_item};

use proc_macro2::{Literal, Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::visit_mut::VisitMut;

use crate::lower::{Lowered, Slot, UInt};
use crate::model::{Duration, Kind, Leaf, Tree};

/// The largest subtree (in nodes) whose code is written inside its parent's
/// methods instead of methods of its own (see [`Gen::inlined`]).
pub const CODE_INLINE_NODES: usize = 16;

/// What every part of the code generator needs: the flattened tree and its
/// context type with lifetimes elided.
pub(crate) struct Gen<'a> {
    /// The flattened tree.
    pub l: &'a Lowered<'a>,
    /// The context type, lifetimes elided (`Ctx<'_>`).
    pub ctx: syn::Type,
    /// Writing the fast path (`__fast_N`: no observer calls) rather than the
    /// observed one (`__tick_N`). Both exist because LLVM does not always
    /// remove no-op observer calls from large trees (BENCHMARKS.md, T3).
    pub fast: bool,
}

/// The hidden module of the facade that generated code reaches the runtime
/// through, as the generated impls name it: they are written in a block that
/// imports it as `__bt` (see [`tree`]), so that each of the thousands of uses
/// in a big tree is one token instead of six.
fn rt() -> Rt {
    Rt(Span::call_site(), true)
}

/// The same module by its full path, for what is written outside that block
/// (the struct, the public methods, serde's impls, a tree with errors).
fn rt_path() -> Rt {
    Rt(Span::call_site(), false)
}

/// The same path spanned on a user's node, so that a type error in a call
/// into the runtime is reported at the node, not at the macro call.
fn rt_at(span: Span) -> Rt {
    Rt(span, false)
}

/// `::behaved::__private` (or the path named by `crate = ..`; or `__bt`, its name inside the impls' block, when the
/// flag is set) with every token at one span, appended token by token.
/// Written hundreds of times per tree: a token stream interpolated into
/// `quote!` is cloned and concatenated through the proc-macro bridge (three
/// calls into the compiler each time), single tokens are not.
#[derive(Clone, Copy)]
struct Rt(Span, bool);

impl ToTokens for Rt {
    fn to_tokens(&self, out: &mut TokenStream) {
        if self.1 {
            out.extend([proc_macro2::TokenTree::Ident(syn::Ident::new("__bt", self.0))]);
            return;
        }
        crate::facade::private_to_tokens(self.0, out);
    }
}

/// The whole expansion of one checked tree.
pub fn tree(l: &Lowered, work: &crate::work::Work, work_checks: &[TokenStream]) -> TokenStream {
    let g = Gen {
        l,
        ctx: elided(&l.tree.ctx),
        fast: false,
    };
    let fast = Gen {
        l,
        ctx: elided(&l.tree.ctx),
        fast: true,
    };
    let rt = rt();
    let t = l.tree;
    let (attrs, cfgs) = split_attrs(t);
    let (vis, name, ctx) = (&t.vis, &t.name, &g.ctx);

    let fields: Vec<Field> = l.slots.iter().flat_map(|s| fields_of(s, &l.tree.ctx)).collect();
    let field_names = fields.iter().map(|f| &f.name);
    let field_types = fields.iter().map(|f| &f.ty);
    let init_names = fields.iter().map(|f| &f.name);
    let init_values = fields.iter().map(|f| &f.init);
    let rt_path = rt_path();
    let (rng_field, rng_init, rng_fn, rng_out) = if l.uses_rng {
        (
            quote!(__rng: #rt_path::Rng,),
            quote!(__rng: #rt_path::Rng::new(seed),),
            quote! {
                #[inline(always)]
                fn __rng(&self) -> #rt::Rng {
                    self.__rng
                }
            },
            quote!(self.__rng = rng;),
        )
    } else {
        (quote!(), quote!(), quote!(), quote!(let _ = rng;))
    };

    let own = || l.slots.iter().filter(|s| !g.inlined(s));
    let ticks = own().map(|s| g.tick_method(s));
    let fast_ticks = own().map(|s| fast.tick_method(s));
    let halts = own().map(|s| g.halt_method(s));
    let wakes = g.wake_methods();
    let helpers = l.slots.iter().filter_map(|s| g.child_halt_helper(s));
    let resets: Vec<TokenStream> = l.slots.iter().flat_map(|s| g.reset_callbacks(s)).collect();
    let reset_callbacks = (!resets.is_empty()).then(|| {
        quote! {
            #[inline]
            fn __reset_callbacks(&mut self, __ctx: &mut #ctx) {
                #(#resets)*
            }
        }
    });
    let node_count = node_count(l);
    let shifts = shifts(l);
    let table = node_table(l);
    let (tick_fn, run_fn) = entry_points(l, ctx);
    let fingerprint = fingerprint(l);
    let json = crate::to_json::export(&l.tree.roots[0]);
    let reads = flow::reads_table(l);
    let read_fields_fn = flow::read_fields_fn(l, ctx);
    // Compiled from a file: mention it so editing the file rebuilds the crate.
    let source = l.tree.source_file.iter().map(|file| {
        quote!(
            const _: &[u8] = ::core::include_bytes!(#file);
        )
    });
    let (json_score_names, json_score_fns): (Vec<_>, Vec<_>) = l.tree.json_scores.iter().cloned().unzip();
    let async_checks = async_type_checks(l);
    let persistence = persist::impls(l, &fields, &async_checks);
    let subtree_impl = subtree_impl(name, &async_checks);
    let (now_field, now_init) = times::field_and_init(l);
    let time_methods = times::methods(l);
    let tick_work = crate::work::value(work);
    let tick_work_doc = match work {
        crate::work::Work::Known(n) => format!(" This tree's figure is {n}."),
        crate::work::Work::Const(_) => String::from(" This tree's figure depends on constants or subtrees."),
    };
    let tick_work_doc = format!(
        " The most leaf ticks (conditions, actions, waits, hooks, ...) one tick can make: \
         bounded loops' counts multiplied along each path, as the JSON loader works it out \
         (`Definition::tick_work`); at most {}.{tick_work_doc}",
        crate::work::MAX_TICK_WORK
    );
    let work_checks = work_checks.iter().map(|check| quote!(#(#cfgs)* #check));
    let duration_checks = l
        .slots
        .iter()
        .flat_map(|s| const_checks(s.node))
        .map(|check| quote!(#(#cfgs)* #check));

    quote! {
        #(#cfgs)*
        #(#attrs)*
        #vis struct #name {
            #rng_field
            #now_field
            #( #field_names: #field_types, )*
            // Last: a struct is `Sized` as its last field is, and every `-> Self`
            // asks; a plain field there keeps a wrong leaf type (one whose
            // field type cannot be worked out) reported once, at the leaf.
            __running: bool,
        }

        #(#cfgs)*
        impl #name {
            /// This tree's node table: one row per node in depth-first pre-order
            /// (subtrees inlined), with kind, label, parent and source line.
            pub const NODES: &'static [#rt_path::NodeInfo] = &Self::__NODE_TABLE;
            /// The number of nodes in [`Self::NODES`].
            pub const NODE_COUNT: u32 = #node_count;
            /// A hash of this tree's shape (and its subtrees'), saved with its
            /// running state so that state from another tree is rejected.
            pub const FINGERPRINT: u64 = #fingerprint;
            /// This tree in the JSON form that `behaved-interp` loads and JSON tools
            /// edit (Rust code it cannot hold is kept as `"inline"` leaves).
            pub const JSON: &'static str = #json;
            /// The context fields each node's own code reads, where the macro
            /// found them (inline conditions, `wait_until` closures, `match`
            /// values): `(node id, fields)`; a node not listed reads what is
            /// unknown. The studio's data-flow view draws them.
            pub const READS: &'static [(u32, &'static [&'static str])] = #reads;
            #[doc = #tick_work_doc]
            pub const TICK_WORK: u64 = #tick_work;
            #shifts

            /// A new, idle instance whose random nodes use the default seed.
            pub fn new() -> Self {
                #async_checks
                Self::with_seed(#rt_path::Rng::DEFAULT_SEED)
            }

            /// A new, idle instance whose random nodes draw from `seed`:
            /// the same seed and the same inputs give the same run.
            pub fn with_seed(seed: u64) -> Self {
                let _ = seed;
                #( let _ = Self::#json_score_names(); )*
                Self { __running: false, #rng_init #now_init #( #init_names: #init_values, )* }
            }

            #tick_fn
            #run_fn
            #read_fields_fn
            #( #json_score_fns )*

            /// Halts whatever is running (each running action gets `halt` once);
            /// the next tick starts from the beginning. Lifetime memory
            /// (`limit`, `run_once`, `cooldown`) is kept.
            pub fn reset(&mut self, ctx: &mut #ctx) {
                #rt_path::Tree::reset_observed(self, ctx, &mut #rt_path::NoopObserver)
            }

            #time_methods
        }

        // The private methods and the trait impls, in a block that imports
        // the runtime's paths as `__bt` (see `rt`); impls in a block apply
        // wherever the type is seen.
        #(#cfgs)*
        const _: () = {
        use #rt_path as __bt;

        impl #name {
            const __NODE_TABLE: [#rt::NodeInfo; Self::NODE_COUNT as usize] = #table;

            #(#ticks)*
            #(#fast_ticks)*
            #(#halts)*
            #(#wakes)*
            #(#helpers)*
        }

        impl ::core::default::Default for #name {
            fn default() -> Self {
                #async_checks
                Self::new()
            }
        }

        impl #rt::Tree<#ctx> for #name {
            type Row = #rt::NodeInfo;

            #[inline]
            fn nodes(&self) -> &[#rt::NodeInfo] {
                Self::NODES
            }

            #[inline]
            fn tick_at(&mut self, ctx: &mut #ctx, now: f64) -> #rt::Status {
                #rt::tick_at(self, ctx, now)
            }

            #[inline]
            fn tick_observed<__O: #rt::Observer + ?Sized>(&mut self, ctx: &mut #ctx, now: f64, observer: &mut __O) -> #rt::Status {
                #rt::tick_observed(self, ctx, now, observer)
            }

            #[inline]
            fn reset_observed<__O: #rt::Observer + ?Sized>(&mut self, ctx: &mut #ctx, observer: &mut __O) {
                #rt::reset_observed(self, ctx, observer)
            }

            #[inline]
            fn is_running(&self) -> bool {
                self.__running
            }

            #[inline]
            fn next_wake(&self, now: f64) -> #rt::Wake {
                #rt::next_wake(self, now)
            }
        }

        impl #rt::Generated<#ctx> for #name {
            #[inline(always)]
            fn __done(&mut self, running: bool, rng: #rt::Rng) {
                self.__running = running;
                #rng_out
            }

            #rng_fn

            #[inline(always)]
            fn __tick<__O: #rt::Observer + ?Sized>(&mut self, ctx: &mut #ctx, env: &mut #rt::Env<'_, __O>, entering: bool) -> #rt::Status {
                self.__tick_0(ctx, env, entering)
            }

            #[inline(always)]
            fn __tick_fast<__O: #rt::Observer + ?Sized>(&mut self, ctx: &mut #ctx, env: &mut #rt::Env<'_, __O>, entering: bool) -> #rt::Status {
                self.__fast_0(ctx, env, entering)
            }

            #[inline]
            fn __wake(&self, now: f64) -> #rt::Wake {
                self.__wake_0(now)
            }

            #[inline]
            fn __halt<__O: #rt::Observer + ?Sized>(&mut self, ctx: &mut #ctx, env: &mut #rt::Env<'_, __O>) {
                self.__halt_0(ctx, env)
            }

            #reset_callbacks
        }

        #subtree_impl
        };

        #(#cfgs)*
        #persistence

        #(#source)*

        #(#duration_checks)*
        #(#work_checks)*
    }
}

/// Compile-time checks of the constants a node is given: a duration
/// (`wait(PAUSE)`) must be a finite number of seconds >= 0 (a NaN would never
/// elapse, a negative one always would have); a weight (`HEAVY => node`) at least 1.
fn const_checks(node: &crate::model::Node) -> Vec<TokenStream> {
    let check = |e: &syn::Expr, test: TokenStream, message: String| {
        let span = syn::spanned::Spanned::span(e);
        quote_spanned! {span=> const _: () = ::core::assert!(#test, #message); }
    };
    match &node.kind {
        Kind::Wait(Duration::Expr(e))
        | Kind::Timeout(Duration::Expr(e))
        | Kind::Delay(Duration::Expr(e))
        | Kind::Cooldown(Duration::Expr(e)) => vec![check(
            e,
            quote!({ let __d: f64 = #e; __d >= 0.0 && __d < f64::INFINITY }),
            format!(
                "`{}`: a duration must be a finite number of seconds >= 0 (not negative, infinite or NaN)",
                node.label
            ),
        )],
        Kind::Weighted(weights) => weights
            .iter()
            .filter_map(|w| match w {
                crate::model::Weight::Const(e) => Some(check(
                    e,
                    quote!({ let __w: u32 = #e; __w > 0 }),
                    format!(
                        "the weight `{}` is 0: that child would never be chosen; remove it instead",
                        crate::render::render(&e.to_token_stream())
                    ),
                )),
                crate::model::Weight::Literal(_) => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The tree's own shape hash, mixed with its subtrees' at compile time.
fn fingerprint(l: &Lowered) -> TokenStream {
    let rt = rt_path();
    let own = Literal::u64_suffixed(l.fingerprint());
    let subs = l.subtrees.iter().map(|&s| subtree_type(l, s));
    let mut out = quote!(#own);
    for sub in subs {
        let sub = subtree_item(sub, quote!(FINGERPRINT));
        out = quote!(#rt::mix_fingerprint(#out, #sub));
    }
    out
}

/// `cfg` attributes go on every generated item; the rest only on the struct.
fn split_attrs(t: &Tree) -> (Vec<&syn::Attribute>, Vec<&syn::Attribute>) {
    t.attrs.iter().partition(|a| !a.path().is_ident("cfg"))
}

/// The context type with every lifetime elided (`Ctx<'w>` becomes `Ctx<'_>`),
/// so the generated methods are generic over them.
fn elided(ty: &syn::Type) -> syn::Type {
    with_lifetimes(ty, "'_")
}

/// `ty` with every lifetime replaced by `lifetime`. A field's type names the
/// context with `'static` (a JSON `forEach`'s item type,
/// `<List as ItemList<Ctx<'static>>>::Item`): the struct has no lifetimes,
/// and an item the tree keeps cannot borrow the context anyway.
fn with_lifetimes(ty: &syn::Type, lifetime: &str) -> syn::Type {
    struct Replace<'a>(&'a str);
    impl VisitMut for Replace<'_> {
        fn visit_lifetime_mut(&mut self, l: &mut syn::Lifetime) {
            *l = syn::Lifetime::new(self.0, l.span());
        }
    }
    let mut ty = ty.clone();
    Replace(lifetime).visit_type_mut(&mut ty);
    ty
}

/// `tick` and `run`: they read the time from the context (via `Clock`) when
/// the tree needs it, and do without it otherwise.
fn entry_points(l: &Lowered, ctx: &syn::Type) -> (TokenStream, TokenStream) {
    let rt = rt_path();
    if l.uses_time {
        (
            quote! {
                /// Ticks the tree once, at the time the context's `Clock::now` tells.
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

impl Gen<'_> {
    /// Node `s`'s part of `reset`'s callbacks: its `#[on_reset]` hook, then its
    /// action value's `Action::reset` or its subtree's callbacks.
    fn reset_callbacks(&self, s: &Slot) -> Vec<TokenStream> {
        let (f, ctx, span) = (field(s.id), &self.ctx, s.node.span);
        let rt = rt_at(span);
        let mut out: Vec<TokenStream> = self.hook(s, "on_reset").into_iter().collect();
        let via = quote!(use #rt::{ResetNothing as _, ResetVia as _};);
        match &s.node.kind {
            Kind::Act(Leaf::Value { .. }) => {
                let leaf = leaf_field(s);
                out.push(quote_spanned! {span=> {
                    #via
                    #rt::ResetOf::<_, #ctx>(&mut #leaf, #rt::PhantomData).reset(__ctx);
                }})
            }
            Kind::Subtree { map: Some(map), .. } => out.push(quote! {{
                #via
                #rt::SubtreeResetOf(&mut self.#f, #rt::part_of::<#ctx, _, _>(#map)).reset(#rt::map_ctx(__ctx, #map));
            }}),
            Kind::Subtree { map: None, .. } => out.push(quote! {{
                #via
                #rt::SubtreeResetOf::<_, #ctx>(&mut self.#f, #rt::PhantomData).reset(__ctx);
            }}),
            _ => {}
        }
        out
    }

    /// The slot of child `i` of `s`.
    fn child(&self, s: &Slot, i: usize) -> &Slot<'_> {
        &self.l.slots[s.children[i]]
    }

    /// Whether node `s` has no methods of its own: a node other than the
    /// root with at most [`CODE_INLINE_NODES`] nodes. Its tick, halt and wake
    /// are written where its parent calls them, so a big tree has a method
    /// per few dozen nodes: rustc's work per item (signature, bounds, MIR,
    /// borrowck, metadata) was most of a big tree's compile time
    /// (BENCHMARKS.md, "Compile cost"). A node's code has no `return`, its
    /// labels are named by node, and its parent ticks it in one place.
    /// (The `__halt_children_N` of composites that halt children from their
    /// tick as well stay methods: they are called from several places.)
    fn inlined(&self, s: &Slot) -> bool {
        s.size <= CODE_INLINE_NODES && s.parent.is_some()
    }

    /// Child `i`'s tick with the given `entering` expression: a call of its
    /// method, or its code.
    fn tick_child(&self, s: &Slot, i: usize, entering: TokenStream) -> TokenStream {
        let child = self.child(s, i);
        if self.inlined(child) {
            let code = self.tick_code(child);
            return quote!({
                let __entering: bool = #entering;
                #code
            });
        }
        let name = tick_name(child.id, self.fast);
        quote!(self.#name(__ctx, __env, #entering))
    }

    /// Child `i`'s halt: a call of its method, or its code.
    fn halt_child(&self, s: &Slot, i: usize) -> TokenStream {
        let child = self.child(s, i);
        if self.inlined(child) {
            return self.halt_code(child);
        }
        let name = halt_name(child.id);
        quote!(self.#name(__ctx, __env))
    }

    /// `let name = &mut self.field;` for each node-local variable visible at
    /// `s` (innermost declaration wins) that `tokens` mentions.
    fn var_bindings(&self, s: &Slot, tokens: &TokenStream) -> TokenStream {
        let mut mentioned = std::collections::BTreeSet::new();
        collect_idents(tokens.clone(), &mut mentioned);
        let mut bound = std::collections::BTreeSet::new();
        let mut out = TokenStream::new();
        let mut at = Some(s.id);
        while let Some(id) = at {
            let slot = &self.l.slots[id];
            if let Kind::Scope(vars) = &slot.node.kind {
                for v in vars {
                    let name = v.name.to_string();
                    if mentioned.contains(&name) && bound.insert(name) {
                        let (ident, f) = (&v.name, var_field(id, &v.name));
                        out.extend(quote!(let #ident = &mut self.#f;));
                    }
                }
            }
            // A `for` item is visible inside the body only (not to the loop's
            // own source or hooks): the body runs only while an item is current.
            // A `pick`'s chosen candidate, likewise (its score binds its own).
            if let Kind::ForEach {
                source: crate::model::ForSource::Closure { var, ty, .. },
                ..
            }
            | Kind::Pick {
                source: crate::model::ForSource::Closure { var, ty, .. },
                ..
            } = &slot.node.kind
                && id != s.id
            {
                let name = var.to_string();
                if mentioned.contains(&name) && bound.insert(name) {
                    let f = field(id);
                    out.extend(quote!(let #var: &#ty = self.#f.current();));
                }
            }
            at = slot.parent;
        }
        out
    }
}

fn collect_idents(tokens: TokenStream, out: &mut std::collections::BTreeSet<String>) {
    for tt in tokens {
        match tt {
            proc_macro2::TokenTree::Ident(i) => {
                out.insert(i.to_string());
            }
            proc_macro2::TokenTree::Group(g) => collect_idents(g.stream(), out),
            // `format!("{n}")` names `n` inside a string: take every `{name`.
            proc_macro2::TokenTree::Literal(l) => {
                let text = l.to_string();
                if text.starts_with('"') || text.starts_with('r') {
                    for part in text.split('{').skip(1) {
                        let name: String = part.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                        if !name.is_empty() {
                            out.insert(name);
                        }
                    }
                }
            }
            proc_macro2::TokenTree::Punct(_) => {}
        }
    }
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
        tree(&lower::lower(&trees[0]), &crate::work::Work::Known(1), &[]).to_string()
    }

    #[test]
    fn a_tree_becomes_a_struct_with_minimal_state_and_methods_for_big_subtrees_only() {
        let out = expand("pub tree Dog for Ctx<'w> { loop { sequence { Face, wait(1.0) } } }");
        assert!(out.contains("pub struct Dog"), "{out}");
        for field in ["__n0 : bool", "__n1 : u8", "__n2 : Face", "__n3 : f64"] {
            assert!(out.contains(field), "missing {field}");
        }
        for m in ["__tick_", "__fast_", "__halt_", "__wake_"] {
            assert!(out.contains(&format!("fn {m}0")), "the root has {m}");
            for small in [1, 2, 3] {
                assert!(!out.contains(&format!("fn {m}{small}")), "node {small} has {m}");
            }
        }
        assert!(
            out.contains("fn __halt_children_1"),
            "in a tree of at most 512 nodes the sequence halts its children through a method"
        );
        let leaves = vec!["running"; 600].join(", ");
        let big = expand(&format!(
            "tree Big for C {{ reactive selector {{ sequence {{ {leaves} }}, failure }} }}"
        ));
        assert!(
            big.contains("fn __halt_children_0") && !big.contains("fn __halt_children_1"),
            "in a bigger tree the sequence's halt, the only caller, halts its children in place"
        );
        let reactive = expand("tree R for C { reactive sequence { cond(|c| c.ok), running } }");
        assert!(
            reactive.contains("fn __halt_children_0"),
            "a reactive sequence halts children from its tick and its halt: {reactive}"
        );
        assert!(
            out.contains("__env . entered ((3))") && out.contains("__env . halted ((3))"),
            "the small nodes' code is written in the root's"
        );
        // A subtree of more than CODE_INLINE_NODES nodes keeps its methods.
        let leaves = vec!["success"; CODE_INLINE_NODES].join(", ");
        let big = expand(&format!(
            "tree Big for C {{ selector {{ sequence {{ {leaves} }}, failure }} }}"
        ));
        assert!(big.contains("fn __fast_1"), "the big sequence has its own methods");
        assert!(!big.contains("fn __fast_2"), "its leaves do not");
        assert!(out.contains("Ctx < '_ >"), "lifetimes are elided");
        assert!(
            !out.contains("__rng :") && !out.contains("self . __rng"),
            "no RNG without random nodes"
        );
        assert!(out.contains("Clock"), "a tree with wait reads the time");
    }

    #[test]
    fn wakes_that_are_next_tick_whatever_the_state_are_one_constant() {
        // 17 leaves: the sequence has methods of its own, but no wake method
        // (and the reactive sequence's condition reads what is unknown).
        let leaves = vec!["act(|c| c.go())"; CODE_INLINE_NODES + 1].join(", ");
        let out = expand(&format!(
            "tree T for C {{ selector {{ sequence {{ {leaves} }}, reactive sequence {{ cond(|c| c.ok()), running }} }} }}"
        ));
        assert!(out.contains("fn __tick_1"), "{out}");
        assert_eq!(out.matches("fn __wake_").count(), 1, "the root's only: {out}");
        assert!(
            out.contains("fn __wake_0 (& self , _ : f64) -> __bt :: Wake { __bt :: Wake :: NextTick }"),
            "{out}"
        );
        // A wait's wake depends on its time: its parents' do too.
        let timed = expand("tree W for C { selector { sequence { act(|c| c.go()), wait(1.0) }, success } }");
        assert!(timed.contains("Wake :: after (self . __n3"), "{timed}");
        assert!(
            timed.contains("match self . __n1"),
            "the sequence asks its running child: {timed}"
        );
    }

    #[test]
    fn a_tree_without_timing_needs_no_clock_and_subtrees_shift_ids() {
        let out = expand("tree G for W { sequence { cond(|w| w.ok), subtree(Patrol, |w| &mut w.p), success } }");
        assert!(
            out.contains("< Patrol as :: behaved :: __private :: Subtree > :: NODE_COUNT"),
            "{out}"
        );
        assert!(
            out.contains("(2 , < Patrol as :: behaved :: __private :: Subtree > :: NODES)"),
            "the subtree's rows go after row 2: {out}"
        );
        let plain = expand("tree G for W { selector { cond(|w| w.ok), success } }");
        assert!(!plain.contains("Clock"));
    }

    #[test]
    fn only_mentioned_variables_are_bound_and_only_jump_paths_check_the_signal() {
        let out = expand(
            "tree V for C { scope { let n: u32 = 0; let m: u8 = 1; 'a: loop { sequence { act(|c| *n += 1), selector { break 'a } } } } }",
        );
        assert!(out.contains("let n = & mut self . __n0_n"), "{out}");
        assert!(!out.contains("let m ="), "m is not mentioned");
        assert!(
            out.contains("__env . jump = 3u32"),
            "break 'a signals loop 1's break code: {out}"
        );
        let plain = expand("tree P for C { loop { sequence { success } } }");
        assert!(!plain.contains("jump"), "no jump checks without break/continue");
    }

    #[test]
    fn elided_rewrites_every_lifetime() {
        let ty: syn::Type = syn::parse_str("Ctx<'a, Vec<&'b u8>>").unwrap();
        assert_eq!(
            elided(&ty).to_token_stream().to_string(),
            "Ctx < '_ , Vec < & '_ u8 > >"
        );
    }

    /// Every node kind in one tree: the expansion must be valid Rust syntax.
    /// Set `BEHAVED_DUMP` to a tree's source to print its expansion while debugging.
    #[test]
    fn expansion_is_valid_rust() {
        let src = std::env::var("BEHAVED_DUMP").unwrap_or_else(|_| {
            String::from(
                "pub tree All for Ctx<'a> { reactive selector { sequence { cond(|c| c.ok), Face, act(|c| c.go()) }, \
                 parallel(success = 1, failure = 2) { running, success }, parallel(main) { wait(T), failure }, \
                 reactive sequence { invert { force_success { force_failure { success } } } }, \
                 selector { repeat(3) { retry(N) { until_fail { until_success { loop { wait(0) } } } } } }, \
                 random { success, failure }, weighted { 2 => success, 1 => failure }, shuffle { success, running }, \
                 if |c| c.a { success } else if IsB { failure } else { running }, reactive if |c| c.b { success }, \
                 match |c| c.stage { 1 => success, _ => failure }, reactive match |c| c.x { true => running, false => success }, \
                 scope { let n: u32 = 0; #[on_enter(|c| *n = 1)] #[on_exit(|c| c.done())] \
                   'outer: while |c| c.more { sequence { timeout(1.0) { delay(0.5) { cooldown(2.0) { limit(3) { run_once { \
                   abort_if(|c| c.stop) { selector { break 'outer, continue } } } } } } } } } }, \
                 subtree(Sub, |c| &mut c.sub) } }",
            )
        });
        let out = crate::expand(src.parse().unwrap()).to_string();
        if let Err(e) = syn::parse_file(&out) {
            let at = e.span().start().column;
            let window = &out[at.saturating_sub(300)..(at + 100).min(out.len())];
            panic!("{e} at column {at}: ...{window}...");
        }
        if std::env::var("BEHAVED_DUMP").is_ok() {
            println!("{out}");
        }
    }
}

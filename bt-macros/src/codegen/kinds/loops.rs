//! The loops (`repeat`, `retry`, `loop`, `untilFail`, `untilSuccess`,
//! `while`, `forEach`) and the jumps `break` and `continue`: their tick, halt
//! and wake.

use behaved_runtime::NodeKind;
use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};

use crate::codegen::tick::{call_site_names, count_value};
use crate::codegen::wake::{WakeCode, nth};
use crate::codegen::{Gen, field, rt, rt_at};
use crate::lower::Slot;
use crate::model::Kind;
use crate::model::{Count, ForSource};

impl Gen<'_> {
    /// `repeat(n)` (`counted` = Success) and `retry(n)` (`counted` = Failure):
    /// bounded, so the next iteration starts in the same tick.
    pub(in crate::codegen) fn bounded(&self, s: &Slot, count: &Count, counted: TokenStream) -> TokenStream {
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
    pub(in crate::codegen) fn unbounded(&self, s: &Slot, stop: Option<TokenStream>) -> TokenStream {
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
    pub(in crate::codegen) fn while_loop(&self, s: &Slot) -> TokenStream {
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
    pub(in crate::codegen) fn for_each(&self, s: &Slot, source: &ForSource) -> TokenStream {
        let rt = rt();
        let (f, ctx) = (field(s.id), &self.ctx);
        let (fill, select) = match source {
            ForSource::Closure { param, items, .. } => (self.fill_from_closure(s, param, items), quote!()),
            ForSource::List(_) => {
                let list = crate::codegen::list_field(s.id);
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

    /// On entry of a `for` or `pick` whose items come from a closure: the
    /// closure's body, its parameter bound to the context, fills the node's
    /// `ForEachItems`.
    pub(in crate::codegen) fn fill_from_closure(&self, s: &Slot, param: &syn::Pat, items: &syn::Expr) -> TokenStream {
        let (f, ctx) = (field(s.id), &self.ctx);
        let span = syn::spanned::Spanned::span(items);
        let binding = match param {
            syn::Pat::Type(_) => quote!(let #param = &*__ctx;),
            _ => quote!(let #param: &#ctx = &*__ctx;),
        };
        let vars = self.var_bindings(s, &items.to_token_stream());
        let (_, __this, _) = call_site_names();
        let fill = quote_spanned!(span=> #__this.#f.fill(#items));
        quote!(#vars #binding #fill;)
    }

    /// `break` / `continue`: its code left in `env.jump` (see `loop_child`).
    pub(in crate::codegen) fn jump(&self, s: &Slot) -> TokenStream {
        let rt = rt();
        let code = s.jump.expect("lowering resolves every jump");
        quote!({ __env.jump = #code; #rt::Status::Success })
    }
}

impl Gen<'_> {
    /// A loop's halt: its body, when running; the state cleared (a
    /// `forEach`'s items after the body's halt, whose hooks may read them).
    pub(in crate::codegen) fn loop_halt(&self, s: &Slot) -> TokenStream {
        let f = field(s.id);
        match &s.node.kind {
            Kind::Repeat(_) | Kind::Retry(_) => {
                let child = self.halt_child(s, 0);
                quote! {
                    self.#f = 0;
                    #child;
                }
            }
            Kind::ForEach { .. } => {
                // The body's halt hooks may still read the current item.
                let child = self.halt_child(s, 0);
                quote! {
                    #child;
                    self.#f.clear();
                }
            }
            Kind::Plain(NodeKind::Loop | NodeKind::While | NodeKind::UntilFail | NodeKind::UntilSuccess) => {
                let child = self.halt_child(s, s.node.kind.condition_children());
                quote! {
                    if self.#f {
                        self.#f = false;
                        #child;
                    }
                }
            }
            // `break` and `continue` are never Running.
            _ => quote!(),
        }
    }

    /// A loop's wake: its body's; between two iterations of an unbounded
    /// loop or `while`, the next one starts on the next tick.
    pub(in crate::codegen) fn loop_wake(&self, s: &Slot, children: Vec<WakeCode>) -> WakeCode {
        let (rt, f) = (rt(), field(s.id));
        match &s.node.kind {
            Kind::Repeat(_) | Kind::Retry(_) | Kind::ForEach { .. } => nth(children, 0),
            Kind::Plain(NodeKind::Loop | NodeKind::UntilFail | NodeKind::UntilSuccess | NodeKind::While) => {
                // Between two iterations the next one starts on the next tick.
                match nth(children, s.node.kind.condition_children()) {
                    WakeCode::NextTick => WakeCode::NextTick,
                    WakeCode::Code(body) => {
                        let body = quote!(if self.#f { #body } else { #rt::Wake::NextTick });
                        WakeCode::Code(quote!({ #body }))
                    }
                }
            }
            _ => WakeCode::NextTick,
        }
    }
}

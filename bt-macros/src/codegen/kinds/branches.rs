//! `if` and `match` (and their reactive forms): their tick, halt and wake.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use crate::codegen::tick::resume_type;
use crate::codegen::wake::{WakeCode, wake_of_resumed};
use crate::codegen::{Gen, child_halt_name, field, lit, rt, uint};
use crate::lower::Slot;
use crate::model::Kind;

impl Gen<'_> {
    /// `if` (children: condition, branch, condition, branch, .., else?) and
    /// `match` (children: arms): choose a branch on entry, or on every tick
    /// when `reactive`, halting the running branch when the choice changes.
    /// `__b` is the chosen child's index + 1; 0 when an `if` chose nothing.
    pub(in crate::codegen) fn branch(&self, s: &Slot, reactive: bool) -> TokenStream {
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
        keep_choice(s, chosen, run)
    }

    /// The arm number (1-based) whose pattern matches the scrutinee, evaluated
    /// inline on the context so it may borrow from it; rustc checks exhaustiveness.
    pub(in crate::codegen) fn select_arm(
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
}

impl Gen<'_> {
    /// An `if` or `match`'s halt: the chosen branch, the state cleared.
    pub(in crate::codegen) fn branch_halt(&self, s: &Slot) -> TokenStream {
        self.resume_halt(s)
    }

    /// An `if` or `match`'s wake: the chosen branch's; the reactive forms
    /// choose again on every tick.
    pub(in crate::codegen) fn branch_wake(&self, s: &Slot, children: Vec<WakeCode>) -> WakeCode {
        match &s.node.kind {
            Kind::If { reactive: false, .. } | Kind::Match { reactive: false, .. } => {
                let f = field(s.id);
                wake_of_resumed(quote!(self.#f), children)
            }
            _ => WakeCode::NextTick,
        }
    }
}

/// `{ let __r = saved; <chosen: binds __b>; let __s = <run>; .. }`: the choice
/// `__b` is kept in the node's field while the chosen child runs, 0 after.
pub(in crate::codegen) fn keep_choice(s: &Slot, chosen: TokenStream, run: TokenStream) -> TokenStream {
    let rt = rt();
    let f = field(s.id);
    quote! {{
        let __r = self.#f;
        #chosen
        let __s = #run;
        self.#f = if let #rt::Status::Running = __s { __b } else { 0 };
        __s
    }}
}

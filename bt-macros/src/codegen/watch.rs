//! The wake of the reactive nodes (`SEMANTICS.md`, "Sleeping on inputs"):
//! what their re-checked conditions read ([`crate::reads`] for closures,
//! `Condition::reads` for values), so that a running reactive node reports
//! `Wake::Watch` of those inputs instead of `NextTick`. Unknown reads keep
//! `NextTick`.

use std::collections::BTreeSet;

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::wake::WakeCode;
use super::{Gen, field, leaf_field, lit, rt};
use crate::lower::Slot;
use crate::model::{Kind, Leaf};
use behaved_runtime::NodeKind as K;
use behaved_runtime::catalog::Slots;

/// What a re-checked part of a tree reads.
#[derive(Clone)]
pub(super) enum ReadsCode {
    /// Some part reads what cannot be known.
    Unknown,
    /// Fields known at compile time, and expressions of `Option<Reads>`
    /// (condition values) known when the tree runs.
    Known(BTreeSet<String>, Vec<TokenStream>),
}

impl ReadsCode {
    fn none() -> ReadsCode {
        ReadsCode::Known(BTreeSet::new(), Vec::new())
    }

    fn and(self, other: ReadsCode) -> ReadsCode {
        match (self, other) {
            (ReadsCode::Known(mut f, mut r), ReadsCode::Known(g, s)) => {
                f.extend(g);
                r.extend(s);
                ReadsCode::Known(f, r)
            }
            _ => ReadsCode::Unknown,
        }
    }

    /// `wake`, or a change of these reads if earlier: `NextTick` when
    /// either is.
    fn watch_with(&self, wake: WakeCode) -> WakeCode {
        let rt = rt();
        let (fields, values) = match (self, &wake) {
            (ReadsCode::Unknown, _) | (_, WakeCode::NextTick) => return WakeCode::NextTick,
            (ReadsCode::Known(f, v), _) => (f, v),
        };
        if fields.is_empty() && values.is_empty() {
            return wake;
        }
        let names: Vec<&str> = fields.iter().map(String::as_str).collect();
        let bits = Literal::u64_unsuffixed(behaved_runtime::Reads::fields(&names).0);
        let wake = wake.into_tokens();
        let watch = if values.is_empty() {
            quote!(#rt::Wake::watch(#rt::Reads(#bits)))
        } else {
            let mut known = quote!(#rt::Option::Some(#rt::Reads(#bits)));
            for v in values {
                known = quote!(#rt::both_reads(#known, #v));
            }
            quote!(#rt::watching(#known))
        };
        WakeCode::Code(quote!((#wake).min(#watch)))
    }
}

impl Gen<'_> {
    /// What node `id` reads when it is ticked again from the start and
    /// completes in that tick with no other effect: conditions, `success`,
    /// `failure`, and `invert`, `force_*`, sequences and selectors (plain
    /// or reactive) of those, without hooks. Anything else is unknown.
    fn pure_reads(&self, id: usize) -> ReadsCode {
        let s = &self.l.slots[id];
        if s.node.hooks.in_tick() > 0 {
            return ReadsCode::Unknown;
        }
        match &s.node.kind {
            Kind::Cond(leaf) => self.leaf_reads(s, leaf),
            Kind::Plain(K::Success | K::Failure) => ReadsCode::none(),
            Kind::Plain(
                K::Invert
                | K::ForceSuccess
                | K::ForceFailure
                | K::Sequence
                | K::Selector
                | K::ReactiveSequence
                | K::ReactiveSelector,
            ) => s
                .children
                .iter()
                .fold(ReadsCode::none(), |r, &c| r.and(self.pure_reads(c))),
            _ => ReadsCode::Unknown,
        }
    }

    /// What a condition leaf reads.
    fn leaf_reads(&self, s: &Slot, leaf: &Leaf) -> ReadsCode {
        match leaf {
            Leaf::Inline(closure) => match crate::reads::closure_reads(closure) {
                Some(fields) => ReadsCode::Known(fields.into_iter().collect(), Vec::new()),
                None => ReadsCode::Unknown,
            },
            Leaf::Value { .. } => {
                let (rt, ctx, leaf) = (rt(), &self.ctx, leaf_field(s));
                ReadsCode::Known(BTreeSet::new(), vec![quote!(#rt::Condition::<#ctx>::reads(&#leaf))])
            }
        }
    }

    /// The wake of a running reactive node whose child wakes are `wakes`
    /// (in child order, each used once), or `None` for a kind that is not
    /// reactive ([`behaved_runtime::NodeKind::is_reactive`]).
    pub(super) fn reactive_wake(&self, s: &Slot, wakes: Vec<WakeCode>) -> Option<WakeCode> {
        let rt = rt();
        let f = field(s.id);
        let kind = s.node.kind.catalog();
        if !kind.is_reactive() {
            return None;
        }
        let code = match &s.node.kind {
            // The child's wake, or a change of what the condition reads: a
            // reactive kind with a condition child (`abort_if`) checks it
            // before each tick of its body.
            _ if kind.slots() == Slots::ConditionChild => {
                let wake = wakes.into_iter().nth(1).expect("a body after the condition");
                return Some(self.pure_reads(s.children[0]).watch_with(wake));
            }
            // The running child's wake, or a change of what the children
            // before it read (checked again on every tick).
            Kind::Plain(K::ReactiveSequence | K::ReactiveSelector) => {
                let mut before = ReadsCode::none();
                let mut arms = Vec::new();
                for (i, wake) in wakes.into_iter().enumerate() {
                    arms.push((lit(i + 1), before.watch_with(wake)));
                    before = before.and(self.pure_reads(s.children[i]));
                }
                match_arms(quote!(self.#f), arms)
            }
            // The running branch's wake, or a change of the conditions
            // tested before it is chosen again.
            Kind::If { reactive: true, .. } => {
                let n = s.children.len();
                let mut conds = ReadsCode::none();
                let mut arms = Vec::new();
                for (i, wake) in wakes.into_iter().enumerate() {
                    if i % 2 == 0 && i + 1 < n {
                        conds = conds.and(self.pure_reads(s.children[i]));
                    } else {
                        arms.push((lit(i + 1), conds.watch_with(wake)));
                    }
                }
                match_arms(quote!(self.#f), arms)
            }
            // The running arm's wake, or a change of what the scrutinee reads.
            Kind::Match {
                reactive: true,
                param,
                scrutinee,
                arms,
            } => {
                let reads = match crate::reads::param_name(param) {
                    Some(name) if arms.iter().all(|(_, guard)| guard.is_none()) => {
                        match crate::reads::body_reads(name.as_deref().unwrap_or(""), scrutinee) {
                            Some(fields) => ReadsCode::Known(fields.into_iter().collect(), Vec::new()),
                            None => ReadsCode::Unknown,
                        }
                    }
                    _ => ReadsCode::Unknown,
                };
                let arms = wakes
                    .into_iter()
                    .enumerate()
                    .map(|(i, wake)| (lit(i + 1), reads.watch_with(wake)))
                    .collect();
                match_arms(quote!(self.#f), arms)
            }
            // A change of what the condition reads.
            Kind::WaitUntil(leaf) => {
                return Some(match self.leaf_reads(s, leaf) {
                    ReadsCode::Unknown => WakeCode::NextTick,
                    ReadsCode::Known(fields, values) => {
                        let never = WakeCode::Code(quote!(#rt::Wake::Never));
                        ReadsCode::Known(fields, values).watch_with(never)
                    }
                });
            }
            _ => return None,
        };
        Some(code)
    }
}

/// `match resume { k => wake, .. _ => NextTick }`, or `NextTick` when every arm is.
fn match_arms(resume: TokenStream, arms: Vec<(Literal, WakeCode)>) -> WakeCode {
    if arms.iter().all(|(_, w)| matches!(w, WakeCode::NextTick)) {
        return WakeCode::NextTick;
    }
    let rt = rt();
    let arms = arms.into_iter().map(|(k, wake)| {
        let wake = wake.into_tokens();
        quote!(#k => #wake,)
    });
    WakeCode::Code(quote!({ match #resume { #(#arms)* _ => #rt::Wake::NextTick } }))
}

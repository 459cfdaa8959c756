//! Saved times (SEMANTICS.md, "Saved state and the clock"): a tree that
//! keeps times (its timers' or its subtrees') keeps the time of its last
//! tick (`__now`) and saves it last, as its `savedAt`; loading checks every
//! saved timer against it; `shift_times` and `resume_at` move the times for
//! a game whose clock restarted, as the interpreter's `Agent::shift_times`
//! and `AgentSeed::resume_at` do.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{field, rt_path, scored_at_field, subtree_item};
use crate::lower::{Lowered, Slot, State};
use crate::model::Kind;

/// Whether the tree keeps the time of its last tick: it has timers, or
/// subtrees (which may).
pub(super) fn kept(l: &Lowered) -> bool {
    l.uses_time
}

/// The place of node `s`'s saved time (`self.__nN`, or its first half for
/// a `delay`) and its value in a new tree, if it has one.
fn timer(s: &Slot, of: &TokenStream) -> Option<(TokenStream, TokenStream)> {
    let f = field(s.id);
    match s.state {
        State::Time => Some((quote!(#of.#f), quote!(0.0f64))),
        State::Delay => Some((quote!(#of.#f.0), quote!(0.0f64))),
        // Never completed: far in the past, and never shifted.
        State::LastTime => Some((quote!(#of.#f), quote!(f64::MIN))),
        // The interval `utility`'s last scoring.
        State::Resume(_) if matches!(&s.node.kind, Kind::Utility { choose, .. } if choose.every().is_some()) => {
            let at = scored_at_field(s.id);
            Some((quote!(#of.#at), quote!(0.0f64)))
        }
        _ => None,
    }
}

/// The struct's field and its value in `new()`.
pub(super) fn field_and_init(l: &Lowered) -> (TokenStream, TokenStream) {
    if kept(l) {
        (quote!(__now: f64,), quote!(__now: 0.0,))
    } else {
        (quote!(), quote!())
    }
}

/// What the root's tick method does first: records the time of the tick
/// (also when the tree is ticked as a subtree).
pub(super) fn record(l: &Lowered, s: &Slot) -> TokenStream {
    if s.id == 0 && kept(l) {
        quote!(self.__now = __env.now;)
    } else {
        quote!()
    }
}

/// `shift_times` and `resume_at`, the public methods (the runtime's
/// `no_saved_times!` for a tree that keeps no times).
pub(super) fn methods(l: &Lowered) -> TokenStream {
    if !kept(l) {
        let rt = rt_path();
        return quote!(#rt::no_saved_times!(););
    }
    let this = quote!(self);
    let own = l.slots.iter().filter_map(|s| timer(s, &this)).map(|(at, initial)| {
        quote! {
            if #at.to_bits() != #initial.to_bits() {
                #at += by;
            }
        }
    });
    let subs = l.slots.iter().filter_map(|s| match &s.state {
        State::Subtree(ty) => {
            let (shift, f) = (subtree_item(ty, quote!(shift_times)), field(s.id));
            Some(quote!(#shift(&mut self.#f, by);))
        }
        _ => None,
    });
    quote! {
        /// Moves every saved time of this tree by `by` seconds: its timers'
        /// starts, its cooldowns' last completions (one never completed
        /// stays so), its subtrees' times and the time of its last tick. For
        /// a game whose clock does not go on from where the save was made
        /// (SEMANTICS.md, "Saved state and the clock"): `by` is the clock's
        /// time now minus its time at the save ([`Self::resume_at`] works it out).
        pub fn shift_times(&mut self, by: f64) {
            #(#own)*
            #(#subs)*
            self.__now += by;
        }

        /// After loading a saved state, for a game whose clock now reads
        /// `now`: shifts every saved time by `now` minus the time of the
        /// tree's last tick before the save (its `savedAt`), so that a timer
        /// with 2 s left when saved has 2 s left at `now`. A state saved
        /// before `savedAt` was recorded counts as saved at 0.
        pub fn resume_at(&mut self, now: f64) {
            self.shift_times(now - self.__now);
        }
    }
}

/// The state's last element when saved.
pub(super) fn save(l: &Lowered) -> TokenStream {
    if kept(l) {
        quote!(__bt::save(&mut __save, &self.__now);)
    } else {
        quote!()
    }
}

/// Read after the other elements: `savedAt` (optional, for states saved
/// before it was recorded), then every timer checked against it.
pub(super) fn load(l: &Lowered) -> TokenStream {
    if !kept(l) {
        return quote!();
    }
    let rt = rt_path();
    let tree = quote!(__tree);
    let checks = l.slots.iter().filter_map(|s| {
        let (at, initial) = timer(s, &tree)?;
        let (id, label) = (Literal::u32_unsuffixed(s.id as u32), &s.node.label);
        Some(quote!(__bt::check_time(&mut __load, __saved_at, #at, #initial, #id, #label);))
    });
    quote! {
        let mut __saved_at: ::core::option::Option<f64> = ::core::option::Option::None;
        #rt::load_saved_at(&mut __load, &mut __saved_at);
        #(#checks)*
        if let ::core::option::Option::Some(__t) = __saved_at {
            __tree.__now = __t;
        }
    }
}

/// How many elements [`save`] adds.
pub(super) fn saved_len(l: &Lowered) -> usize {
    usize::from(kept(l))
}

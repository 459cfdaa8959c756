//! Each node kind's generated code, one module per kind or small family of
//! kinds that share code, and the one place where kinds meet phases: the
//! dispatch of each phase (tick, halt, wake) to the kind's module. A new kind
//! is a module here (or code in its family's) and its line in each `match`
//! below; `tick.rs`, `halt.rs` and `wake.rs` hold what every kind shares.

mod branches;
mod chains;
mod decorators;
mod leaves;
mod loops;
mod parallel;
mod pick;
mod random;
mod timing;
mod utility;

use proc_macro2::TokenStream;
use quote::quote;

use super::wake::WakeCode;
use super::{Gen, rt};
use crate::lower::Slot;
use crate::model::{Kind, Leaf};

impl Gen<'_> {
    /// Node `s`'s own tick, without what every node's tick shares (hooks,
    /// the observer's events): an expression of its status.
    pub(super) fn kind_tick(&self, s: &Slot) -> TokenStream {
        let rt = rt();
        match &s.node.kind {
            Kind::Sequence => self.chain(s, quote!(Success), false),
            Kind::Selector => self.chain(s, quote!(Failure), false),
            Kind::ReactiveSequence => self.chain(s, quote!(Success), true),
            Kind::ReactiveSelector => self.chain(s, quote!(Failure), true),
            Kind::SequenceAlways => self.sequence_always(s),
            Kind::Parallel { success, failure } => self.parallel_tick(s, *success, *failure),
            Kind::ParallelMain => self.parallel_main(s),
            Kind::Random => self.random(s),
            Kind::Weighted(weights) => self.weighted(s, weights),
            Kind::Shuffle => self.shuffle(s),
            Kind::Utility { .. } => self.utility(s),
            Kind::If { reactive, .. } => self.branch(s, *reactive),
            Kind::Match { reactive, .. } => self.branch(s, *reactive),
            Kind::Invert => self.invert(s),
            Kind::ForceSuccess | Kind::ForceFailure => self.force(s),
            Kind::Repeat(count) => self.bounded(s, count, quote!(Success)),
            Kind::Retry(count) => self.bounded(s, count, quote!(Failure)),
            Kind::Loop => self.unbounded(s, None),
            Kind::UntilFail => self.unbounded(s, Some(quote!(Failure))),
            Kind::UntilSuccess => self.unbounded(s, Some(quote!(Success))),
            Kind::While => self.while_loop(s),
            Kind::ForEach { source, .. } => self.for_each(s, source),
            Kind::Pick { .. } => self.pick(s),
            Kind::Break(_) | Kind::Continue(_) => self.jump(s),
            Kind::Timeout(d) => self.timeout(s, d),
            Kind::Delay(d) => self.delay(s, d),
            Kind::Cooldown(d) => self.cooldown(s, d),
            Kind::Limit(count) => self.limit(s, count),
            Kind::RunOnce => self.run_once(s),
            Kind::AbortIf => self.abort_if(s),
            Kind::Latch => self.latch(s),
            Kind::Scope(vars) => self.scope(s, vars),
            Kind::Wait(d) => self.wait(s, d),
            Kind::Success => quote!(#rt::Status::Success),
            Kind::Failure => quote!(#rt::Status::Failure),
            Kind::Running => quote!(#rt::Status::Running),
            Kind::Cond(leaf) => self.check(s, leaf),
            Kind::WaitUntil(leaf) => self.wait_until(s, leaf),
            Kind::Act(Leaf::Inline(closure)) => self.inline_action(s, closure),
            Kind::Act(Leaf::Value { .. }) => self.action_step(s, self.tick_step()),
            Kind::Subtree { .. } => self.subtree_step(s, self.tick_step()),
            Kind::Invalid => unreachable!("trees with errors are not generated"),
        }
    }

    /// Node `s`'s own halt: its running children's, its state cleared.
    pub(super) fn kind_halt(&self, s: &Slot) -> TokenStream {
        match &s.node.kind {
            Kind::Sequence
            | Kind::Selector
            | Kind::ReactiveSequence
            | Kind::ReactiveSelector
            | Kind::SequenceAlways => self.chain_halt(s),
            Kind::Parallel { .. } | Kind::ParallelMain => self.parallel_halt(s),
            Kind::Random | Kind::Weighted(_) | Kind::Shuffle => self.random_halt(s),
            Kind::If { .. } | Kind::Match { .. } => self.branch_halt(s),
            // The state is the chosen child's index + 1, as a branch's.
            Kind::Utility { .. } => self.branch_halt(s),
            Kind::Pick { .. } => self.pick_halt(s),
            Kind::Invert
            | Kind::ForceSuccess
            | Kind::ForceFailure
            | Kind::Limit(_)
            | Kind::RunOnce
            | Kind::AbortIf
            | Kind::Latch
            | Kind::Scope(_) => self.decorator_halt(s),
            Kind::Repeat(_)
            | Kind::Retry(_)
            | Kind::ForEach { .. }
            | Kind::Loop
            | Kind::While
            | Kind::UntilFail
            | Kind::UntilSuccess
            | Kind::Break(_)
            | Kind::Continue(_) => self.loop_halt(s),
            Kind::Wait(_) | Kind::Timeout(_) | Kind::Delay(_) | Kind::Cooldown(_) => self.timing_halt(s),
            Kind::Act(_)
            | Kind::Subtree { .. }
            | Kind::Cond(_)
            | Kind::WaitUntil(_)
            | Kind::Success
            | Kind::Failure
            | Kind::Running => self.leaf_halt(s),
            Kind::Invalid => unreachable!("trees with errors are not generated"),
        }
    }

    /// Node `s`'s wake, from its children's (`children`, each used once).
    pub(super) fn kind_wake(&self, s: &Slot, children: Vec<WakeCode>) -> WakeCode {
        match &s.node.kind {
            // Checked again on every tick: until a change of what they read
            // (`watch.rs`).
            Kind::ReactiveSequence
            | Kind::ReactiveSelector
            | Kind::If { reactive: true, .. }
            | Kind::Match { reactive: true, .. }
            | Kind::AbortIf
            | Kind::WaitUntil(_) => self.reactive_wake(s, children).expect("a reactive kind"),
            Kind::Sequence | Kind::Selector | Kind::SequenceAlways => self.chain_wake(s, children),
            Kind::Parallel { .. } | Kind::ParallelMain => self.parallel_wake(s, children),
            Kind::Random | Kind::Weighted(_) | Kind::Shuffle => self.random_wake(s, children),
            Kind::If { .. } | Kind::Match { .. } => self.branch_wake(s, children),
            Kind::Utility { .. } => self.utility_wake(s, children),
            Kind::Pick { .. } => self.pick_wake(children),
            Kind::Invert
            | Kind::ForceSuccess
            | Kind::ForceFailure
            | Kind::Limit(_)
            | Kind::RunOnce
            | Kind::Latch
            | Kind::Scope(_) => self.decorator_wake(s, children),
            Kind::Repeat(_)
            | Kind::Retry(_)
            | Kind::ForEach { .. }
            | Kind::Loop
            | Kind::While
            | Kind::UntilFail
            | Kind::UntilSuccess
            | Kind::Break(_)
            | Kind::Continue(_) => self.loop_wake(s, children),
            Kind::Wait(_) | Kind::Timeout(_) | Kind::Delay(_) | Kind::Cooldown(_) => self.timing_wake(s, children),
            Kind::Act(_) | Kind::Subtree { .. } | Kind::Cond(_) | Kind::Success | Kind::Failure | Kind::Running => {
                self.leaf_wake(s)
            }
            Kind::Invalid => unreachable!("trees with errors are not generated"),
        }
    }
}

//! Each node kind's generated code, one module per kind or small family of
//! kinds that share code, and the one place where kinds meet phases: the
//! dispatch of each phase (tick, halt, wake) to the kind's module, the halt
//! and the wake by the kind's [`family`]. A new kind is a module here (or
//! code in its family's), its line in the tick's `match` and its family;
//! `tick.rs`, `halt.rs` and `wake.rs` hold what every kind shares.

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
use behaved_runtime::NodeKind as K;

use crate::model::{Kind, Leaf};

impl Gen<'_> {
    /// Node `s`'s own tick, without what every node's tick shares (hooks,
    /// the observer's events): an expression of its status.
    pub(super) fn kind_tick(&self, s: &Slot) -> TokenStream {
        let rt = rt();
        match &s.node.kind {
            Kind::Plain(K::Sequence) => self.chain(s, quote!(Success), false),
            Kind::Plain(K::Selector) => self.chain(s, quote!(Failure), false),
            Kind::Plain(K::ReactiveSequence) => self.chain(s, quote!(Success), true),
            Kind::Plain(K::ReactiveSelector) => self.chain(s, quote!(Failure), true),
            Kind::Plain(K::SequenceAlways) => self.sequence_always(s),
            Kind::Parallel { success, failure } => self.parallel_tick(s, *success, *failure),
            Kind::Plain(K::ParallelMain) => self.parallel_main(s),
            Kind::Plain(K::Random) => self.random(s),
            Kind::Weighted(weights) => self.weighted(s, weights),
            Kind::Plain(K::Shuffle) => self.shuffle(s),
            Kind::Utility { .. } => self.utility(s),
            Kind::If { reactive, .. } => self.branch(s, *reactive),
            Kind::Match { reactive, .. } => self.branch(s, *reactive),
            Kind::Plain(K::Invert) => self.invert(s),
            Kind::Plain(K::ForceSuccess | K::ForceFailure) => self.force(s),
            Kind::Repeat(count) => self.bounded(s, count, quote!(Success)),
            Kind::Retry(count) => self.bounded(s, count, quote!(Failure)),
            Kind::Plain(K::Loop) => self.unbounded(s, None),
            Kind::Plain(K::UntilFail) => self.unbounded(s, Some(quote!(Failure))),
            Kind::Plain(K::UntilSuccess) => self.unbounded(s, Some(quote!(Success))),
            Kind::Plain(K::While) => self.while_loop(s),
            Kind::ForEach { source, .. } => self.for_each(s, source),
            Kind::Pick { .. } => self.pick(s),
            Kind::Break(_) | Kind::Continue(_) => self.jump(s),
            Kind::Timeout(d) => self.timeout(s, d),
            Kind::Delay(d) => self.delay(s, d),
            Kind::Cooldown(d) => self.cooldown(s, d),
            Kind::Limit(count) => self.limit(s, count),
            Kind::Plain(K::RunOnce) => self.run_once(s),
            Kind::Plain(K::AbortIf) => self.abort_if(s),
            Kind::Plain(K::Latch) => self.latch(s),
            Kind::Scope(vars) => self.scope(s, vars),
            Kind::Wait(d) => self.wait(s, d),
            Kind::Plain(K::Success) => quote!(#rt::Status::Success),
            Kind::Plain(K::Failure) => quote!(#rt::Status::Failure),
            Kind::Plain(K::Running) => quote!(#rt::Status::Running),
            Kind::Cond(leaf) => self.check(s, leaf),
            Kind::WaitUntil(leaf) => self.wait_until(s, leaf),
            Kind::Act(Leaf::Inline(closure)) => self.inline_action(s, closure),
            Kind::Act(Leaf::Value { .. }) => self.action_step(s, self.tick_step()),
            Kind::Subtree { .. } => self.subtree_step(s, self.tick_step()),
            Kind::Plain(other) => unreachable!("no code for {other:?}"),
            Kind::Invalid => unreachable!("trees with errors are not generated"),
        }
    }

    /// Node `s`'s own halt: its running children's, its state cleared.
    pub(super) fn kind_halt(&self, s: &Slot) -> TokenStream {
        match family(&s.node.kind) {
            Family::Chain => self.chain_halt(s),
            Family::Parallel => self.parallel_halt(s),
            Family::Random => self.random_halt(s),
            // A utility's state is the chosen child's index + 1, as a branch's.
            Family::Branch | Family::Utility => self.branch_halt(s),
            Family::Pick => self.pick_halt(s),
            Family::Decorator => self.decorator_halt(s),
            Family::Loop => self.loop_halt(s),
            Family::Timing => self.timing_halt(s),
            Family::Leaf => self.leaf_halt(s),
        }
    }

    /// Node `s`'s wake, from its children's (`children`, each used once).
    pub(super) fn kind_wake(&self, s: &Slot, children: Vec<WakeCode>) -> WakeCode {
        if s.node.kind.catalog().is_reactive() {
            // Until a change of what its conditions read (`watch.rs`).
            return self.reactive_wake(s, children).expect("a reactive kind");
        }
        match family(&s.node.kind) {
            Family::Chain => self.chain_wake(s, children),
            Family::Parallel => self.parallel_wake(s, children),
            Family::Random => self.random_wake(s, children),
            Family::Branch => self.branch_wake(s, children),
            Family::Utility => self.utility_wake(s, children),
            Family::Pick => self.pick_wake(children),
            Family::Decorator => self.decorator_wake(s, children),
            Family::Loop => self.loop_wake(s, children),
            Family::Timing => self.timing_wake(s, children),
            Family::Leaf => self.leaf_wake(s),
        }
    }
}

/// The families of kinds whose halt and wake are the same code, each in
/// its module here.
enum Family {
    Chain,
    Parallel,
    Random,
    Branch,
    Utility,
    Pick,
    Decorator,
    Loop,
    Timing,
    Leaf,
}

/// The family of `kind`: a new kind's one line for its halt and wake.
fn family(kind: &Kind) -> Family {
    if matches!(kind, Kind::Invalid) {
        unreachable!("trees with errors are not generated");
    }
    match kind.catalog() {
        K::Sequence | K::Selector | K::ReactiveSequence | K::ReactiveSelector | K::SequenceAlways => Family::Chain,
        K::Parallel | K::ParallelMain => Family::Parallel,
        K::Random | K::Weighted | K::Shuffle => Family::Random,
        K::If | K::ReactiveIf | K::Match | K::ReactiveMatch => Family::Branch,
        K::Utility => Family::Utility,
        K::Pick => Family::Pick,
        K::Invert | K::ForceSuccess | K::ForceFailure | K::Limit | K::RunOnce | K::AbortIf | K::Latch | K::Scope => {
            Family::Decorator
        }
        K::Repeat
        | K::Retry
        | K::ForEach
        | K::Loop
        | K::While
        | K::UntilFail
        | K::UntilSuccess
        | K::Break
        | K::Continue => Family::Loop,
        K::Wait | K::Timeout | K::Delay | K::Cooldown => Family::Timing,
        K::Action | K::Subtree | K::Condition | K::WaitUntil | K::Success | K::Failure | K::Running => Family::Leaf,
        other => unreachable!("no code for {other:?}"),
    }
}

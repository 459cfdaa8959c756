//! Each node kind's code, one module per kind or small family of kinds that
//! share code: its tick, the running child its halt follows (`*_halted`) and
//! its wake (`*_wake`). This file is the one place where kinds meet phases:
//! the tick's dispatch for the kinds without code of their own on the hot
//! path, and for every node with hooks ([`Exec::general`]), the halt's
//! ([`Exec::halted_child`]) and the wake's ([`kind_wake`]). A new kind is a
//! module here (or code in its family's) and its line in each dispatch;
//! `halt.rs` and `wake.rs` hold what every kind shares.

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

use branches::branch_wake;
use chains::chain_wake;
use decorators::decorator_wake;
use leaves::leaf_wake;
use loops::loop_wake;
use parallel::parallel_wake;
use random::random_wake;
use timing::timing_wake;
use utility::utility_wake;

use behaved_runtime::{NodeId, NodeKind, Observer, Status, Wake};

use super::State;
use crate::definition::{Definition, Fast, Flat, UNKNOWN_KIND};

use super::exec::*;

impl<C: 'static, O: Observer + ?Sized> Exec<'_, C, O> {
    /// Any node, hooks included: the kinds without code of their own, and
    /// every node with hooks.
    #[inline(never)]
    pub(super) fn general(&mut self, id: u32, entering: bool) -> Out {
        let n = self.node(id);
        let def = self.def;
        let node = &def.cold[id as usize];
        if entering {
            self.obs.entered(NodeId(id));
            self.hook(id, ON_ENTER);
        }
        // `n` is this node's record: test its hook flag without indexing again.
        if n.hooked {
            self.run_hook(id, ON_PRE_TICK);
        }
        // One line per kind (or family): the code is in the kind's module.
        let out = match node.op {
            NodeKind::Sequence => self.chain_body::<true, D0>(id, n.slot, n.end),
            NodeKind::Selector => self.chain_body::<false, D0>(id, n.slot, n.end),
            NodeKind::ReactiveSequence => self.reactive_body::<true, D0>(id, n.slot, n.end),
            NodeKind::ReactiveSelector => self.reactive_body::<false, D0>(id, n.slot, n.end),
            NodeKind::SequenceAlways => self.sequence_always(id, node, n.end),
            NodeKind::Parallel => self.parallel(id, node),
            NodeKind::ParallelMain => self.parallel_main(id, node),
            NodeKind::Random | NodeKind::Weighted => self.random(node, entering),
            NodeKind::Shuffle => self.shuffle(node, entering),
            NodeKind::Utility => self.utility(id, node),
            NodeKind::If | NodeKind::Match => self.choose(node, entering),
            NodeKind::ReactiveIf | NodeKind::ReactiveMatch => self.reactive_choose(node),
            NodeKind::Loop => self.unbounded_body::<D0>(id, node.slot, Fast::Loop),
            NodeKind::UntilFail => self.unbounded_body::<D0>(id, node.slot, Fast::UntilFail),
            NodeKind::UntilSuccess => self.unbounded_body::<D0>(id, node.slot, Fast::UntilSuccess),
            NodeKind::Repeat | NodeKind::Retry => self.bounded(id, node, entering),
            NodeKind::ForEach => self.for_each(id, node, entering),
            NodeKind::Pick => self.pick_best(id, node, entering),
            NodeKind::While => self.while_loop(id, node),
            NodeKind::Break | NodeKind::Continue => self.jump(node),
            NodeKind::Invert => self.invert(id, entering),
            NodeKind::ForceSuccess => self.force_success(id, entering),
            NodeKind::ForceFailure => self.force_failure(id, entering),
            NodeKind::Timeout => self.timeout(id, node, entering),
            NodeKind::Delay => self.delay(id, node, entering),
            NodeKind::Cooldown => self.cooldown(id, node, entering),
            NodeKind::Limit => self.limit(id, node, entering),
            NodeKind::RunOnce => self.run_once(id, node, entering),
            NodeKind::AbortIf => self.abort_if(id, node, entering),
            NodeKind::Latch => self.latch(id, node, entering),
            NodeKind::Scope | NodeKind::Subtree => self.tick(id + 1, entering),
            NodeKind::Success => Out::Success,
            NodeKind::Failure => Out::Failure,
            NodeKind::Running => Out::Running,
            NodeKind::Wait => self
                .stood_in(id, entering)
                .unwrap_or_else(|| self.wait(n.arg, entering)),
            NodeKind::Condition => self.condition(id, n, entering),
            NodeKind::WaitUntil => self.wait_until(id, n, entering),
            NodeKind::Action => self.action(id, n, entering),
            _ => unreachable!("{UNKNOWN_KIND}"),
        };
        match out {
            Out::Jump if !matches!(node.op, NodeKind::Break | NodeKind::Continue) => self.pass_jump(id),
            o => {
                // A `break`/`continue` itself completes with Success.
                let status = o.status();
                if n.hooked {
                    self.run_hook(id, ON_TICK);
                }
                match status {
                    Status::Success => {
                        self.hook(id, ON_SUCCESS);
                        self.hook(id, ON_EXIT);
                    }
                    Status::Failure => {
                        self.hook(id, ON_FAILURE);
                        self.hook(id, ON_EXIT);
                    }
                    Status::Running => {}
                }
                if o == Out::Jump {
                    self.st.from = id;
                }
                self.obs.ticked(NodeId(id), status);
            }
        }
        out
    }

    /// The child whose halt node `node`'s halt follows (`None`: it has no
    /// running child), by its kind; `halt_kids` halts it unless it is
    /// `except`.
    pub(super) fn halted_child(&mut self, node: &Flat, except: u32) -> Option<u32> {
        match node.op {
            NodeKind::Sequence
            | NodeKind::Selector
            | NodeKind::ReactiveSequence
            | NodeKind::ReactiveSelector
            | NodeKind::SequenceAlways => self.chain_halted(node),
            NodeKind::Random | NodeKind::Weighted | NodeKind::Shuffle => self.random_halted(node),
            // The state word is the chosen child's index + 1, as a branch's.
            NodeKind::Utility => self.branch_halted(node),
            NodeKind::If | NodeKind::ReactiveIf | NodeKind::Match | NodeKind::ReactiveMatch => self.branch_halted(node),
            NodeKind::Parallel | NodeKind::ParallelMain => self.parallel_halted(node, except),
            NodeKind::Loop
            | NodeKind::UntilFail
            | NodeKind::UntilSuccess
            | NodeKind::While
            | NodeKind::Repeat
            | NodeKind::Retry
            | NodeKind::ForEach
            | NodeKind::Pick
            | NodeKind::Break
            | NodeKind::Continue => self.loop_halted(node),
            NodeKind::Wait | NodeKind::Timeout | NodeKind::Delay | NodeKind::Cooldown => self.timing_halted(node),
            NodeKind::Invert
            | NodeKind::ForceSuccess
            | NodeKind::ForceFailure
            | NodeKind::Limit
            | NodeKind::RunOnce
            | NodeKind::AbortIf
            | NodeKind::Latch
            | NodeKind::Scope
            | NodeKind::Subtree => self.decorator_halted(node),
            // Leaves have no children; an action's own halt is in `halt`.
            NodeKind::Success
            | NodeKind::Failure
            | NodeKind::Running
            | NodeKind::WaitUntil
            | NodeKind::Condition
            | NodeKind::Action => None,
            _ => unreachable!("{UNKNOWN_KIND}"),
        }
    }
}

/// The wake of running node `id` of kind `node.op` (its hooks checked
/// already, in `wake.rs`).
pub(super) fn kind_wake<C: 'static>(def: &Definition<C>, st: &State<C>, id: u32, node: &Flat, now: f64) -> Wake {
    match node.op {
        // Checked again on every tick: until a change of what they read (`watch.rs`).
        NodeKind::ReactiveSequence
        | NodeKind::ReactiveSelector
        | NodeKind::ReactiveIf
        | NodeKind::ReactiveMatch
        | NodeKind::AbortIf
        | NodeKind::WaitUntil => super::watch::reactive(def, st, id, now).unwrap_or(Wake::NextTick),
        NodeKind::Sequence | NodeKind::Selector | NodeKind::SequenceAlways => chain_wake(def, st, node, now),
        NodeKind::Random | NodeKind::Weighted | NodeKind::Shuffle => random_wake(def, st, node, now),
        NodeKind::Utility => utility_wake(def, st, node, now, || branch_wake(def, st, node, now)),
        NodeKind::If | NodeKind::Match => branch_wake(def, st, node, now),
        NodeKind::Parallel | NodeKind::ParallelMain => parallel_wake(def, st, node, now),
        NodeKind::Loop
        | NodeKind::UntilFail
        | NodeKind::UntilSuccess
        | NodeKind::While
        | NodeKind::Repeat
        | NodeKind::Retry
        | NodeKind::ForEach
        | NodeKind::Pick
        | NodeKind::Break
        | NodeKind::Continue => loop_wake(def, st, id, node, now),
        NodeKind::Wait | NodeKind::Timeout | NodeKind::Delay | NodeKind::Cooldown => {
            timing_wake(def, st, id, node, now)
        }
        NodeKind::Invert
        | NodeKind::ForceSuccess
        | NodeKind::ForceFailure
        | NodeKind::Limit
        | NodeKind::RunOnce
        | NodeKind::Latch
        | NodeKind::Scope
        | NodeKind::Subtree => decorator_wake(def, st, id, node, now),
        NodeKind::Success | NodeKind::Failure | NodeKind::Running | NodeKind::Condition | NodeKind::Action => {
            leaf_wake(def, st, id, node, now)
        }
        // A kind the interpreter does not run: the next tick is always safe.
        _ => Wake::NextTick,
    }
}

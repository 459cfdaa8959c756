//! Each node kind's code, one module per kind or small family of kinds that
//! share code: its tick, the running child its halt follows (`*_halted`) and
//! its wake (`*_wake`). This file is the tick's dispatch for the kinds
//! without code of their own on the hot path, and for every node with hooks
//! ([`Exec::general`]); `halt.rs` and `wake.rs` dispatch the other phases.
//! A new kind is a module here and one line in each dispatch.

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

pub(super) use branches::branch_wake;
pub(super) use chains::chain_wake;
pub(super) use decorators::decorator_wake;
pub(super) use leaves::leaf_wake;
pub(super) use loops::loop_wake;
pub(super) use parallel::parallel_wake;
pub(super) use random::random_wake;
pub(super) use timing::timing_wake;
pub(super) use utility::utility_wake;

use behaved_runtime::{NodeId, NodeKind, Observer, Status};

use crate::definition::{Fast, UNKNOWN_KIND};

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
}

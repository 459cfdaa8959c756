//! Each node kind's code, one module per kind or small family of kinds that
//! share code: its tick, the running child its halt follows (`*_halted`) and
//! its wake (`*_wake`). This file is the one place where kinds meet phases:
//! the tick's dispatch for the kinds without code of their own on the hot
//! path, and for every node with hooks ([`Exec::general`]), the halt's
//! ([`Exec::halted_child`]) and the wake's ([`kind_wake`]), both by the
//! kind's [`family`]. A new kind is a module here (or code in its family's),
//! its line in the tick's dispatch and its family; `halt.rs` and `wake.rs`
//! hold what every kind shares.

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

use behaved_runtime::{NodeId, NodeKind, Observer, Status, Wake};

use super::wake::Waking;
use crate::definition::{Fast, Flat, UNKNOWN_KIND};

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
            NodeKind::Sequence => self.chain_body::<true, false, false, D0>(id, n.slot, n.end),
            NodeKind::Selector => self.chain_body::<false, false, false, D0>(id, n.slot, n.end),
            NodeKind::ReactiveSequence => self.chain_body::<true, true, false, D0>(id, n.slot, n.end),
            NodeKind::ReactiveSelector => self.chain_body::<false, true, false, D0>(id, n.slot, n.end),
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
    /// running child), by its kind's family; `halt_kids` halts it unless it
    /// is `except`.
    pub(super) fn halted_child(&mut self, node: &Flat, except: u32) -> Option<u32> {
        match family(node.op) {
            Family::Chain => self.chain_halted(node),
            Family::Random => self.random_halted(node),
            // A utility's state word is the chosen child's index + 1, as a branch's.
            Family::Branch | Family::Utility => self.branch_halted(node),
            Family::Parallel => self.parallel_halted(node, except),
            Family::Loop => self.loop_halted(node),
            Family::Timing => self.timing_halted(node),
            Family::Decorator => self.decorator_halted(node),
            // Leaves have no children; an action's own halt is in `halt`.
            Family::Leaf => None,
        }
    }
}

/// The wake of running node `id` of kind `node.op` (its hooks checked
/// already, in `wake.rs`).
pub(super) fn kind_wake<C: 'static>(w: &Waking<'_, C>, id: u32, node: &Flat) -> Wake {
    if node.op.is_reactive() {
        // Until a change of what they read (`watch.rs`).
        return w.reactive(id).unwrap_or(Wake::NextTick);
    }
    match family(node.op) {
        Family::Chain => w.chain_wake(node),
        Family::Random => w.random_wake(node),
        Family::Utility => w.utility_wake(node, || w.branch_wake(node)),
        Family::Branch => w.branch_wake(node),
        Family::Parallel => w.parallel_wake(node),
        Family::Loop => w.loop_wake(id, node),
        Family::Timing => w.timing_wake(id, node),
        Family::Decorator => w.decorator_wake(node),
        Family::Leaf => w.leaf_wake(id, node),
    }
}

/// The families of kinds whose halt and wake are the same code, each in
/// its module here.
#[derive(Clone, Copy)]
enum Family {
    Chain,
    Random,
    Branch,
    Utility,
    Parallel,
    Loop,
    Timing,
    Decorator,
    Leaf,
}

/// The family of kind `op`: a new kind's one line for its halt and wake.
const fn family(op: NodeKind) -> Family {
    use NodeKind as K;
    match op {
        K::Sequence | K::Selector | K::ReactiveSequence | K::ReactiveSelector | K::SequenceAlways => Family::Chain,
        K::Random | K::Weighted | K::Shuffle => Family::Random,
        K::If | K::ReactiveIf | K::Match | K::ReactiveMatch => Family::Branch,
        K::Utility => Family::Utility,
        K::Parallel | K::ParallelMain => Family::Parallel,
        K::Loop
        | K::UntilFail
        | K::UntilSuccess
        | K::While
        | K::Repeat
        | K::Retry
        | K::ForEach
        | K::Pick
        | K::Break
        | K::Continue => Family::Loop,
        K::Wait | K::Timeout | K::Delay | K::Cooldown => Family::Timing,
        K::Invert
        | K::ForceSuccess
        | K::ForceFailure
        | K::Limit
        | K::RunOnce
        | K::AbortIf
        | K::Latch
        | K::Scope
        | K::Subtree => Family::Decorator,
        K::Success | K::Failure | K::Running | K::WaitUntil | K::Condition | K::Action => Family::Leaf,
        _ => panic!("{}", UNKNOWN_KIND),
    }
}

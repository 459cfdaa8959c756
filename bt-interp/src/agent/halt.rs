//! Lifecycle hooks, the reset-only callbacks and halts: what runs when a
//! node starts or ends, and the post-order halt of a running subtree. A part
//! of the agent's engine (`exec.rs`).

use behaved_runtime::{LeafCall, NodeId, NodeKind, Observer};

use crate::definition::{NO_HOOK, UNKNOWN_KIND};

use super::exec::*;

impl<C: 'static, O: Observer + ?Sized> Exec<'_, C, O> {
    /// Runs lifecycle hook `which` of node `id`, if it has one.
    #[inline(always)]
    pub(super) fn hook(&mut self, id: u32, which: usize) {
        if self.def.nodes[id as usize].hooked {
            self.run_hook(id, which);
        }
    }

    #[inline(never)]
    pub(super) fn run_hook(&mut self, id: u32, which: usize) {
        let hooks = self.def.cold[id as usize].hooks;
        let (col, i) = self.def.hooks[hooks as usize][which];
        if col != NO_HOOK {
            let _ = self.leaves[col as usize].tick(i, false, self.ctx);
        }
    }

    /// `reset`'s callbacks: for each node in node-table order, its `onReset`
    /// hook, then (for an action) its `Action::reset`.
    pub(super) fn reset_callbacks(&mut self) {
        for id in 0..self.def.cold.len() as u32 {
            self.hook(id, ON_RESET);
            if self.def.cold[id as usize].op == NodeKind::Action {
                let n = self.node(id);
                self.leaves[n.slot as usize].reset(n.arg, self.ctx);
            }
        }
    }

    /// Halts running node `id`: its running descendants first (post-order),
    /// then its own halt hook; its state returns to idle.
    #[inline(never)]
    pub(super) fn halt(&mut self, id: u32) {
        self.halt_kids(id, u32::MAX);
        let n = self.node(id);
        // A stand-in (behaved-testing) takes the halt of the action it replaced.
        if self.def.cold[id as usize].op == NodeKind::Action && self.obs.stand_in(NodeId(id), LeafCall::Halt).is_none()
        {
            self.leaves[n.slot as usize].halt(n.arg, self.ctx);
        }
        self.hook(id, ON_EXIT);
        self.obs.halted(NodeId(id));
    }

    /// Halts node `id`'s running children (left to right) except `except`, and
    /// returns its activation state to idle (lifetime memory is kept).
    pub(super) fn halt_kids(&mut self, id: u32, except: u32) {
        let def = self.def;
        let node = &def.cold[id as usize];
        // One line per kind (or family): the code is in `kinds/`.
        let child = match node.op {
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
        };
        if let Some(kid) = child
            && kid != except
        {
            self.halt(kid);
        }
    }
}

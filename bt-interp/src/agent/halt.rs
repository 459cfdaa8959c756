//! Lifecycle hooks, the reset-only callbacks and halts: what runs when a
//! node starts or ends, and the post-order halt of a running subtree. A part
//! of the agent's engine (`exec.rs`).

use behaved_runtime::{LeafCall, NodeId, NodeKind, Observer};

use crate::definition::NO_HOOK;

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
        let child = self.halted_child(node, except);
        if let Some(kid) = child
            && kid != except
        {
            self.halt(kid);
        }
    }
}

//! The leaves off the hot path (or with hooks): `success`, `failure`,
//! `running`, conditions, `waitUntil` and actions: tick, halt and wake. A
//! stand-in (behaved-testing's observer) may answer for a condition or an
//! action instead of running it.

use behaved_runtime::{NodeKind, Observer, Wake};

use crate::agent::exec::*;
use crate::agent::wake::Waking;
use crate::definition::{Flat, Node};

impl<C: 'static, O: Observer + ?Sized> Exec<'_, C, O> {
    /// A condition: checked (or stood in for).
    #[inline]
    pub(in crate::agent) fn condition(&mut self, id: u32, n: Node, entering: bool) -> Out {
        self.stood_in(id, entering)
            .unwrap_or_else(|| Out::from(self.def.conds[n.arg as usize].check(self.ctx)))
    }

    /// `waitUntil`: Running until its condition holds. A stand-in answers for
    /// the condition: only `Success` ends the wait.
    #[inline]
    pub(in crate::agent) fn wait_until(&mut self, id: u32, n: Node, entering: bool) -> Out {
        match self.stood_in(id, entering) {
            Some(Out::Success) => Out::Success,
            Some(_) => Out::Running,
            None if self.def.conds[n.arg as usize].check(self.ctx) => Out::Success,
            None => Out::Running,
        }
    }

    /// An action: ticked (or stood in for).
    #[inline]
    pub(in crate::agent) fn action(&mut self, id: u32, n: Node, entering: bool) -> Out {
        self.stood_in(id, entering)
            .unwrap_or_else(|| Out::from(self.leaves[n.slot as usize].tick(n.arg, entering, self.ctx)))
    }
}

impl<C: 'static> Waking<'_, C> {
    /// The wake of a running leaf: an action's own answer; `running` never
    /// wakes; a `waitUntil` checks again on every tick (the others are never
    /// Running).
    pub(in crate::agent) fn leaf_wake(&self, id: u32, node: &Flat) -> Wake {
        match node.op {
            NodeKind::Action => {
                let n = self.def.nodes[id as usize];
                self.st.leaves[n.slot as usize].wake(n.arg, self.now)
            }
            NodeKind::Running => Wake::Never,
            _ => Wake::NextTick,
        }
    }
}

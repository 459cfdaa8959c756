//! `if`, `match` and their reactive forms: tick (the branch chosen on entry,
//! or every tick), halt and wake.
use behaved_runtime::{NodeKind, Observer, Wake};

use crate::agent::exec::*;
use crate::agent::wake::Waking;
use crate::definition::Flat;

impl<C: 'static, O: Observer + ?Sized> Exec<'_, C, O> {
    /// The child (index + 1) an `if` or `match` chooses now; 0 for none.
    pub(in crate::agent) fn pick(&mut self, node: &Flat) -> u32 {
        if matches!(node.op, NodeKind::If | NodeKind::ReactiveIf) {
            for k in 0..node.a {
                if self.tick(self.kid(node, 2 * k), true) == Out::Success {
                    return 2 * k + 2;
                }
            }
            if node.b == 1 { node.n } else { 0 }
        } else {
            let def = self.def;
            let value = def.values[node.leaf as usize].get(self.ctx);
            let keys = &def.keys[node.a as usize..(node.a + node.b) as usize];
            match keys.iter().find(|(k, _)| k.matches(value)) {
                Some(&(_, case)) => case + 1,
                None => node.n,
            }
        }
    }

    /// `if` / `match`: the branch is chosen on entry and run to completion.
    pub(in crate::agent) fn choose(&mut self, node: &Flat, entering: bool) -> Out {
        let s = node.slot as usize;
        if entering {
            let chosen = self.pick(node);
            if chosen == 0 {
                return Out::Success;
            }
            self.ints[s] = chosen;
        }
        let o = self.tick(self.kid(node, self.ints[s] - 1), entering);
        if o != Out::Running {
            self.ints[s] = 0;
        }
        o
    }

    /// `reactiveIf` / `reactiveMatch`: chosen every tick; a change of branch
    /// halts the running one and enters the new one.
    pub(in crate::agent) fn reactive_choose(&mut self, node: &Flat) -> Out {
        let prev = self.ints[node.slot as usize];
        let chosen = self.pick(node);
        self.run_chosen(node, prev, chosen, Out::Success)
    }

    /// Runs the child a node that chooses again on every tick chose now
    /// (`chosen`, its index + 1; 0 for none, which ends the node with
    /// `none`), after `prev`: a change of choice halts the running child
    /// and enters the new one. The state word keeps the choice while it
    /// runs. The rule of the reactive branches and `utility`.
    pub(in crate::agent) fn run_chosen(&mut self, node: &Flat, prev: u32, chosen: u32, none: Out) -> Out {
        let s = node.slot as usize;
        if prev != 0 && prev != chosen {
            self.ints[s] = 0;
            self.halt(self.kid(node, prev - 1));
        }
        if chosen == 0 {
            return none;
        }
        let o = self.tick(self.kid(node, chosen - 1), prev != chosen);
        self.ints[s] = if o == Out::Running { chosen } else { 0 };
        o
    }

    /// Halting an `if` or `match`: the chosen branch (the state word is its
    /// index + 1).
    pub(in crate::agent) fn branch_halted(&mut self, node: &Flat) -> Option<u32> {
        match std::mem::take(&mut self.ints[node.slot as usize]) {
            0 => None,
            r => Some(self.kid(node, r - 1)),
        }
    }
}

impl<C: 'static> Waking<'_, C> {
    /// The wake of a running `if` or `match`: its chosen branch's; the reactive
    /// forms choose again on every tick.
    pub(in crate::agent) fn branch_wake(&self, node: &Flat) -> Wake {
        match node.op {
            NodeKind::ReactiveIf | NodeKind::ReactiveMatch => Wake::NextTick,
            _ => self.wake(self.def.kids[(node.kids + self.st.ints[node.slot as usize] - 1) as usize]),
        }
    }
}

//! `random`, `weighted` and `shuffle`: tick (a child or an order drawn on
//! entry), halt and wake.
use behaved_runtime::{NodeKind, Observer, Wake};

use crate::agent::exec::*;
use crate::agent::wake::Waking;
use crate::definition::Flat;

impl<C: 'static, O: Observer + ?Sized> Exec<'_, C, O> {
    /// `random` / `weighted`: one child picked on entry, run to completion.
    pub(in crate::agent) fn random(&mut self, node: &Flat, entering: bool) -> Out {
        let s = node.slot as usize;
        if entering {
            let pick = if node.op == NodeKind::Random {
                self.st.rng.below(node.n)
            } else {
                let r = self.st.rng.below(node.b);
                let cumulative = &self.def.weights[node.a as usize..(node.a + node.n) as usize];
                cumulative.iter().position(|&w| w > r).unwrap_or(0) as u32
            };
            self.ints[s] = pick + 1;
        }
        let o = self.tick(self.kid(node, self.ints[s] - 1), entering);
        if o != Out::Running {
            self.ints[s] = 0;
        }
        o
    }

    /// `shuffle`: an order drawn on entry (Fisher-Yates from the identity),
    /// then a selector in that order. State: resume point, then the order.
    pub(in crate::agent) fn shuffle(&mut self, node: &Flat, entering: bool) -> Out {
        let s = node.slot as usize;
        let n = node.n as usize;
        if entering {
            let order = &mut self.ints[s + 1..s + 1 + n];
            for (i, o) in order.iter_mut().enumerate() {
                *o = i as u32;
            }
            for i in (1..n).rev() {
                let j = self.st.rng.below(i as u32 + 1) as usize;
                order.swap(i, j);
            }
        }
        let r = self.ints[s];
        for p in r.saturating_sub(1)..node.n {
            let child = self.kid(node, self.ints[s + 1 + p as usize]);
            let o = self.tick(child, r != p + 1);
            if o != Out::Failure {
                self.ints[s] = if o == Out::Running { p + 1 } else { 0 };
                return o;
            }
        }
        self.ints[s] = 0;
        Out::Failure
    }

    /// Halting a random choice: the drawn child (`random`, `weighted`: the
    /// state word is its index + 1; `shuffle`: its place in the order + 1).
    pub(in crate::agent) fn random_halted(&mut self, node: &Flat) -> Option<u32> {
        let s = node.slot as usize;
        match std::mem::take(&mut self.ints[s]) {
            0 => None,
            r if node.op == NodeKind::Shuffle => Some(self.kid(node, self.ints[s + r as usize])),
            r => Some(self.kid(node, r - 1)),
        }
    }
}

impl<C: 'static> Waking<'_, C> {
    /// The wake of a running random choice: its drawn child's.
    pub(in crate::agent) fn random_wake(&self, node: &Flat) -> Wake {
        let s = node.slot as usize;
        let ints = &self.st.ints;
        let kid = |i: u32| self.def.kids[(node.kids + i) as usize];
        if node.op == NodeKind::Shuffle {
            self.wake(kid(ints[s + ints[s] as usize]))
        } else {
            self.wake(kid(ints[s] - 1))
        }
    }
}

//! The timing nodes: `wait` (a leaf, on the hot path), `timeout`, `delay`,
//! `cooldown`: tick, halt and wake. Each keeps one timestamp in
//! `Side::times` (index `time`, its duration in `Definition::secs`).
use behaved_runtime::{NodeKind, Observer, Wake};

use crate::agent::exec::*;
use crate::agent::wake::Waking;
use crate::definition::Flat;

impl<C: 'static, O: Observer + ?Sized> Exec<'_, C, O> {
    /// `wait(d)`: Running on entry, then Success on the first tick at which d has passed.
    #[inline(always)]
    pub(in crate::agent) fn wait(&mut self, t: u32, entering: bool) -> Out {
        let t = t as usize;
        if entering {
            self.st.times[t] = self.st.now;
            Out::Running
        } else if self.st.now - self.st.times[t] >= self.def.secs[t] {
            Out::Success
        } else {
            Out::Running
        }
    }

    /// `timeout(d)`: ticks the child on entry; on a later tick at which d has
    /// passed, halts it and fails without ticking it.
    pub(in crate::agent) fn timeout(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
        let t = node.time as usize;
        if entering {
            self.st.times[t] = self.st.now;
        } else if self.st.now - self.st.times[t] >= node.secs {
            self.halt(id + 1);
            return Out::Failure;
        }
        self.tick(id + 1, entering)
    }

    /// `delay(d)`: Running without ticking the child until d has passed since
    /// entry. The state word is 1 once the child has started.
    pub(in crate::agent) fn delay(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
        let (s, t) = (node.slot as usize, node.time as usize);
        if entering {
            self.st.times[t] = self.st.now;
            self.ints[s] = 0;
        }
        let child_entering = self.ints[s] == 0;
        if child_entering && self.st.now - self.st.times[t] < node.secs {
            return Out::Running;
        }
        self.ints[s] = 1;
        let o = self.tick(id + 1, child_entering);
        if o != Out::Running {
            self.ints[s] = 0;
        }
        o
    }

    /// `cooldown(d)`: fails without ticking the child until d has passed since
    /// its last completion (lifetime memory; a halt is not a completion).
    pub(in crate::agent) fn cooldown(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
        let t = node.time as usize;
        if entering && self.st.now - self.st.times[t] < node.secs {
            return Out::Failure;
        }
        let o = self.tick(id + 1, entering);
        if o.done() {
            self.st.times[t] = self.st.now;
        }
        o
    }

    /// Halting a timing node: its child (`delay`'s only once started; the
    /// state word is 1 then, and cleared).
    pub(in crate::agent) fn timing_halted(&mut self, node: &Flat) -> Option<u32> {
        match node.op {
            NodeKind::Wait => None,
            NodeKind::Delay => match std::mem::take(&mut self.ints[node.slot as usize]) {
                0 => None,
                _ => Some(self.kid(node, node.n - 1)),
            },
            _ => Some(self.kid(node, 0)),
        }
    }
}

impl<C: 'static> Waking<'_, C> {
    /// The wake of a running timing node: its timer's, its child's, or the
    /// sooner of the two.
    pub(in crate::agent) fn timing_wake(&self, id: u32, node: &Flat) -> Wake {
        let (def, st) = (self.def, self.st);
        let timer = || {
            Wake::after(
                st.side.times[node.time as usize],
                def.secs[node.time as usize],
                self.now,
            )
        };
        match node.op {
            NodeKind::Delay => match st.ints[node.slot as usize] {
                0 => timer(),
                _ => self.wake(id + 1),
            },
            NodeKind::Timeout => timer().min(self.wake(id + 1)),
            NodeKind::Wait => timer(),
            // `cooldown`: its child's.
            _ => self.wake(id + 1),
        }
    }
}

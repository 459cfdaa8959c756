//! The loops: `loop`, `untilFail`, `untilSuccess` (unbounded: on the hot
//! path, one iteration started per tick), `repeat`, `retry`, `forEach`
//! (bounded: the next iteration in the same tick), `while`, and the jumps
//! `break` and `continue`: tick, halt and wake.
use behaved_runtime::{NodeId, NodeKind, Observer, Wake};

use crate::agent::exec::*;
use crate::agent::wake::Waking;
use crate::definition::{Fast, Flat};

impl<C: 'static, O: Observer + ?Sized> Exec<'_, C, O> {
    /// [`Exec::unbounded_inline`] as a call.
    #[inline(never)]
    pub(in crate::agent) fn unbounded(&mut self, id: u32, slot: u32, kind: Fast, entering: bool) -> Out {
        self.unbounded_inline::<D1>(id, slot, kind, entering)
    }

    /// `loop`, `untilFail`, `untilSuccess` without hooks, inlined in its parent.
    #[inline(always)]
    pub(in crate::agent) fn unbounded_inline<D: Depth>(
        &mut self,
        id: u32,
        slot: u32,
        kind: Fast,
        entering: bool,
    ) -> Out {
        if entering {
            self.obs.entered(NodeId(id));
        }
        let o = self.unbounded_body::<D>(id, slot, kind);
        self.finish(id, o)
    }

    /// `loop`, `untilFail`, `untilSuccess`: at most one iteration starts per
    /// tick. The state word is 1 while the body is running.
    #[inline(always)]
    pub(in crate::agent) fn unbounded_body<D: Depth>(&mut self, id: u32, slot: u32, kind: Fast) -> Out {
        let s = slot as usize;
        let mut started_now = self.ints[s] == 0;
        let body = id + 1;
        let bn = self.node(body);
        loop {
            let o = self.tick_node::<D>(body, bn, started_now);
            let Some(o) = self.own_jump(id, s, o) else {
                return Out::Success;
            };
            match (kind, o) {
                (_, Out::Running) => {
                    self.ints[s] = 1;
                    return Out::Running;
                }
                (_, Out::Jump) => return Out::Jump,
                (Fast::UntilFail, Out::Failure) | (Fast::UntilSuccess, Out::Success) => {
                    self.ints[s] = 0;
                    return Out::Success;
                }
                _ => {
                    self.ints[s] = 0;
                    if started_now {
                        return Out::Running;
                    }
                    started_now = true;
                }
            }
        }
    }

    /// Outcome `o` of loop `id`'s body after the loop's own jumps: `None`
    /// for a `break` (the loop succeeds, its state word `s` cleared),
    /// Success for a `continue` (the iteration ends as if the body had
    /// succeeded), `o` otherwise. Every loop's one rule for its jumps.
    #[inline(always)]
    pub(in crate::agent) fn own_jump(&mut self, id: u32, s: usize, o: Out) -> Option<Out> {
        if o != Out::Jump || self.st.jump != id {
            return Some(o);
        }
        if self.st.brk {
            self.ints[s] = 0;
            return None;
        }
        Some(Out::Success)
    }

    /// `repeater(n)` / `retry(n)`: bounded, so the next iteration starts in the same tick.
    pub(in crate::agent) fn bounded(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
        let s = node.slot as usize;
        let counted = if node.op == NodeKind::Repeat {
            Out::Success
        } else {
            Out::Failure
        };
        let mut e = entering;
        loop {
            let o = self.tick(id + 1, e);
            let Some(o) = self.own_jump(id, s, o) else {
                return Out::Success;
            };
            match o {
                Out::Running | Out::Jump => return o,
                _ if o == counted => {
                    self.ints[s] += 1;
                    if self.ints[s] >= node.a {
                        self.ints[s] = 0;
                        return o;
                    }
                    e = true;
                }
                _ => {
                    self.ints[s] = 0;
                    return o;
                }
            }
        }
    }

    /// `forEach`: reads its items on entry, then ticks its child once per
    /// item (selecting it in the context before each tick); bounded, so the
    /// next iteration starts in the same tick. The state word is 1 + the
    /// current item's position while running.
    pub(in crate::agent) fn for_each(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
        let (s, k) = (node.slot as usize, node.leaf as usize);
        if entering {
            self.items[k].fill(self.ctx);
            self.ints[s] = 1;
        }
        let mut e = entering;
        loop {
            let at = self.ints[s] as usize - 1;
            if at >= self.items[k].len() {
                self.ints[s] = 0;
                self.items[k].clear();
                return Out::Success;
            }
            self.items[k].select(at, self.ctx);
            let o = self.tick(id + 1, e);
            let Some(o) = self.own_jump(id, s, o) else {
                self.items[k].clear();
                return Out::Success;
            };
            match o {
                Out::Running | Out::Jump => return o,
                Out::Success => {
                    self.ints[s] += 1;
                    e = true;
                }
                Out::Failure => {
                    self.ints[s] = 0;
                    self.items[k].clear();
                    return o;
                }
            }
        }
    }

    /// `while`: the condition is checked at the start of each iteration; one
    /// iteration starts per tick at most.
    pub(in crate::agent) fn while_loop(&mut self, id: u32, node: &Flat) -> Out {
        let s = node.slot as usize;
        let body = self.kid(node, 1);
        let mut started_now = self.ints[s] == 0;
        loop {
            if started_now && self.tick(id + 1, true) != Out::Success {
                self.ints[s] = 0;
                return Out::Success;
            }
            let o = self.tick(body, started_now);
            let Some(o) = self.own_jump(id, s, o) else {
                return Out::Success;
            };
            match o {
                Out::Running => {
                    self.ints[s] = 1;
                    return Out::Running;
                }
                Out::Failure | Out::Jump => {
                    self.ints[s] = 0;
                    return o;
                }
                _ => {
                    self.ints[s] = 0;
                    if started_now {
                        return Out::Running;
                    }
                    started_now = true;
                }
            }
        }
    }

    /// `break` / `continue`: leaves its target loop in `Exec::st` and jumps.
    #[inline]
    pub(in crate::agent) fn jump(&mut self, node: &Flat) -> Out {
        self.st.jump = node.leaf;
        self.st.brk = node.op == NodeKind::Break;
        Out::Jump
    }

    /// Halting a loop: its body, when running; its state cleared (and
    /// `forEach`'s items).
    pub(in crate::agent) fn loop_halted(&mut self, node: &Flat) -> Option<u32> {
        let s = node.slot as usize;
        match node.op {
            NodeKind::Break | NodeKind::Continue => None,
            NodeKind::Repeat | NodeKind::Retry => {
                self.ints[s] = 0;
                Some(self.kid(node, 0))
            }
            // `pick` holds its candidates as `forEach` its items; its chosen
            // one is selected again for the body's halt to see.
            NodeKind::ForEach | NodeKind::Pick => {
                if node.op == NodeKind::Pick && self.ints[s] != 0 {
                    self.items[node.leaf as usize].select(self.ints[s] as usize - 1, self.ctx);
                }
                self.ints[s] = 0;
                self.items[node.leaf as usize].clear();
                Some(self.kid(node, 0))
            }
            // `loop`, `untilFail`, `untilSuccess`, `while`: 1 while the body runs.
            _ => match std::mem::take(&mut self.ints[s]) {
                0 => None,
                _ => Some(self.kid(node, node.n - 1)),
            },
        }
    }
}

impl<C: 'static> Waking<'_, C> {
    /// The wake of a running loop: its body's; between two iterations of an
    /// unbounded loop or `while`, the next one starts on the next tick.
    pub(in crate::agent) fn loop_wake(&self, id: u32, node: &Flat) -> Wake {
        match node.op {
            NodeKind::Loop | NodeKind::UntilFail | NodeKind::UntilSuccess | NodeKind::While => {
                match self.st.ints[node.slot as usize] {
                    0 => Wake::NextTick,
                    _ => self.wake(self.def.kids[(node.kids + node.n - 1) as usize]),
                }
            }
            NodeKind::Repeat | NodeKind::Retry | NodeKind::ForEach | NodeKind::Pick => self.wake(id + 1),
            // `break` and `continue` are never Running.
            _ => Wake::NextTick,
        }
    }
}

//! `sequence`, `selector`, their reactive forms and `sequenceAlways`: tick
//! (the hot path's inlined forms, and the forms over leaves only), halt and
//! wake. The state word is the running child's id.
use behaved_runtime::{NodeId, NodeKind, Observer, Wake};

use crate::agent::exec::*;
use crate::agent::wake::Waking;
use crate::definition::Flat;

impl<C: 'static, O: Observer + ?Sized> Exec<'_, C, O> {
    /// [`Exec::chain_inline`] as a call.
    #[inline(never)]
    pub(in crate::agent) fn chain<const SEQ: bool, const REACTIVE: bool, const LEAVES: bool>(
        &mut self,
        id: u32,
        slot: u32,
        end: u32,
        entering: bool,
    ) -> Out {
        self.chain_inline::<SEQ, REACTIVE, LEAVES, D1>(id, slot, end, entering)
    }

    /// `sequence` (`SEQ`) or `selector`, plain or `REACTIVE`, over any
    /// children or over `LEAVES` only ([`Fast::LeafSequence`]), without
    /// hooks, inlined in its parent.
    #[inline(always)]
    pub(in crate::agent) fn chain_inline<const SEQ: bool, const REACTIVE: bool, const LEAVES: bool, D: Depth>(
        &mut self,
        id: u32,
        slot: u32,
        end: u32,
        entering: bool,
    ) -> Out {
        if entering {
            self.obs.entered(NodeId(id));
        }
        let o = self.chain_body::<SEQ, REACTIVE, LEAVES, D>(id, slot, end);
        if LEAVES {
            // A leaf never jumps.
            self.obs.ticked(NodeId(id), o.status());
            o
        } else {
            self.finish(id, o)
        }
    }

    /// A sequence goes on while its children succeed, a selector while they
    /// fail. The plain forms resume at the running child, whose id is the
    /// state word; the reactive forms start from the first child every
    /// tick, and a later running child is halted when an earlier one stops
    /// the pass. Over `LEAVES` only, the children are consecutive nodes
    /// ticked in place by one loop (the fast path). The parameters are
    /// constants: each form compiles to its own code, with no test of them
    /// left.
    #[inline(always)]
    pub(in crate::agent) fn chain_body<const SEQ: bool, const REACTIVE: bool, const LEAVES: bool, D: Depth>(
        &mut self,
        id: u32,
        slot: u32,
        end: u32,
    ) -> Out {
        let cont = if SEQ { Out::Success } else { Out::Failure };
        let s = slot as usize;
        let r = self.ints[s];
        let mut c = if REACTIVE || r == 0 { id + 1 } else { r };
        if LEAVES {
            let def = self.def;
            // A counter beside the slice: the `zip` clippy suggests measured 10%
            // slower on T2 (a loop of two children, three times a tick).
            #[allow(clippy::explicit_counter_loop)]
            for &n in &def.nodes[c as usize..end as usize] {
                let o = self.leaf(c, n, r != c);
                if o != cont {
                    // A leaf never jumps.
                    if REACTIVE && r > c {
                        self.halt(r);
                    }
                    self.ints[s] = if o == Out::Running { c } else { 0 };
                    return o;
                }
                c += 1;
            }
            self.ints[s] = 0;
            return cont;
        }
        loop {
            let cn = self.node(c);
            let o = self.tick_node::<D>(c, cn, r != c);
            if o != cont {
                if REACTIVE {
                    if o == Out::Jump {
                        // A later running child is left for the jump's clean-up to halt.
                        if r <= c {
                            self.ints[s] = 0;
                        }
                        return o;
                    }
                    if r > c {
                        self.halt(r);
                    }
                }
                self.ints[s] = if o == Out::Running { c } else { 0 };
                return o;
            }
            c = cn.end;
            if c >= end {
                self.ints[s] = 0;
                return cont;
            }
        }
    }

    /// `sequence_always`: like a sequence, but a child's failure moves on as
    /// its success does. State: the running child's id, then 1 once a child
    /// has failed in this activation.
    pub(in crate::agent) fn sequence_always(&mut self, id: u32, node: &Flat, end: u32) -> Out {
        let s = node.slot as usize;
        let r = self.ints[s];
        let mut c = if r == 0 { id + 1 } else { r };
        loop {
            match self.tick(c, r != c) {
                Out::Running => {
                    self.ints[s] = c;
                    return Out::Running;
                }
                Out::Jump => {
                    self.ints[s..s + 2].fill(0);
                    return Out::Jump;
                }
                Out::Failure => self.ints[s + 1] = 1,
                Out::Success => {}
            }
            c = self.node(c).end;
            if c >= end {
                let failed = self.ints[s + 1] != 0;
                self.ints[s..s + 2].fill(0);
                return if failed { Out::Failure } else { Out::Success };
            }
        }
    }

    /// Halting a chain: the running child (the state word), the state
    /// (and `sequenceAlways`'s failure flag) cleared.
    pub(in crate::agent) fn chain_halted(&mut self, node: &Flat) -> Option<u32> {
        let s = node.slot as usize;
        if node.op == NodeKind::SequenceAlways {
            self.ints[s + 1] = 0;
        }
        match std::mem::take(&mut self.ints[s]) {
            0 => None,
            r => Some(r),
        }
    }
}

impl<C: 'static> Waking<'_, C> {
    /// The wake of a running chain: its running child's; a reactive chain checks
    /// again on every tick.
    pub(in crate::agent) fn chain_wake(&self, node: &Flat) -> Wake {
        match node.op {
            NodeKind::ReactiveSequence | NodeKind::ReactiveSelector => Wake::NextTick,
            _ => self.wake(self.st.ints[node.slot as usize]),
        }
    }
}

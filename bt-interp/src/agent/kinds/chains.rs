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
    pub(in crate::agent) fn chain<const SEQ: bool>(&mut self, id: u32, slot: u32, end: u32, entering: bool) -> Out {
        self.chain_inline::<SEQ, D1>(id, slot, end, entering)
    }

    /// `sequence` (`SEQ`) or `selector` without hooks, inlined in its parent.
    #[inline(always)]
    pub(in crate::agent) fn chain_inline<const SEQ: bool, D: Depth>(
        &mut self,
        id: u32,
        slot: u32,
        end: u32,
        entering: bool,
    ) -> Out {
        if entering {
            self.obs.entered(NodeId(id));
        }
        let o = self.chain_body::<SEQ, D>(id, slot, end);
        self.finish(id, o)
    }

    /// A sequence goes on while its children succeed, a selector while they
    /// fail; both resume at the running child, whose id is the state word.
    #[inline(always)]
    pub(in crate::agent) fn chain_body<const SEQ: bool, D: Depth>(&mut self, id: u32, slot: u32, end: u32) -> Out {
        let cont = if SEQ { Out::Success } else { Out::Failure };
        let s = slot as usize;
        let r = self.ints[s];
        let mut c = if r == 0 { id + 1 } else { r };
        loop {
            let cn = self.node(c);
            let o = self.tick_node::<D>(c, cn, r != c);
            if o != cont {
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

    /// [`Exec::reactive_inline`] as a call.
    #[inline(never)]
    pub(in crate::agent) fn reactive<const SEQ: bool>(&mut self, id: u32, slot: u32, end: u32, entering: bool) -> Out {
        self.reactive_inline::<SEQ, D1>(id, slot, end, entering)
    }

    /// `reactiveSequence` (`SEQ`) or `reactiveSelector` without hooks, inlined in its parent.
    #[inline(always)]
    pub(in crate::agent) fn reactive_inline<const SEQ: bool, D: Depth>(
        &mut self,
        id: u32,
        slot: u32,
        end: u32,
        entering: bool,
    ) -> Out {
        if entering {
            self.obs.entered(NodeId(id));
        }
        let o = self.reactive_body::<SEQ, D>(id, slot, end);
        self.finish(id, o)
    }

    /// The reactive forms: from the first child every tick; a later running
    /// child is halted when an earlier one stops the pass.
    #[inline(always)]
    pub(in crate::agent) fn reactive_body<const SEQ: bool, D: Depth>(&mut self, id: u32, slot: u32, end: u32) -> Out {
        let cont = if SEQ { Out::Success } else { Out::Failure };
        let s = slot as usize;
        let r = self.ints[s];
        let mut c = id + 1;
        loop {
            let cn = self.node(c);
            let o = self.tick_node::<D>(c, cn, r != c);
            if o != cont {
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

    /// [`Exec::leaf_chain`] as a call.
    #[inline(never)]
    pub(in crate::agent) fn leaf_chain_call<const SEQ: bool>(
        &mut self,
        id: u32,
        slot: u32,
        end: u32,
        entering: bool,
    ) -> Out {
        self.leaf_chain::<SEQ>(id, slot, end, entering)
    }

    /// [`Exec::leaf_reactive`] as a call.
    #[inline(never)]
    pub(in crate::agent) fn leaf_reactive_call<const SEQ: bool>(
        &mut self,
        id: u32,
        slot: u32,
        end: u32,
        entering: bool,
    ) -> Out {
        self.leaf_reactive::<SEQ>(id, slot, end, entering)
    }

    /// A sequence or selector (`SEQ`) whose children are all leaves
    /// ([`Fast::LeafSequence`]): one loop over the consecutive children.
    #[inline(always)]
    pub(in crate::agent) fn leaf_chain<const SEQ: bool>(
        &mut self,
        id: u32,
        slot: u32,
        end: u32,
        entering: bool,
    ) -> Out {
        if entering {
            self.obs.entered(NodeId(id));
        }
        let cont = if SEQ { Out::Success } else { Out::Failure };
        let s = slot as usize;
        let r = self.ints[s];
        let mut c = if r == 0 { id + 1 } else { r };
        let def = self.def;
        // A counter beside the slice: the `zip` clippy suggests measured 10%
        // slower on T2 (a loop of two children, three times a tick).
        #[allow(clippy::explicit_counter_loop)]
        for &n in &def.nodes[c as usize..end as usize] {
            let o = self.leaf(c, n, r != c);
            if o != cont {
                self.ints[s] = if o == Out::Running { c } else { 0 };
                self.obs.ticked(NodeId(id), o.status());
                return o;
            }
            c += 1;
        }
        self.ints[s] = 0;
        self.obs.ticked(NodeId(id), cont.status());
        cont
    }

    /// A reactive sequence or selector (`SEQ`) whose children are all leaves.
    #[inline(always)]
    pub(in crate::agent) fn leaf_reactive<const SEQ: bool>(
        &mut self,
        id: u32,
        slot: u32,
        end: u32,
        entering: bool,
    ) -> Out {
        if entering {
            self.obs.entered(NodeId(id));
        }
        let cont = if SEQ { Out::Success } else { Out::Failure };
        let s = slot as usize;
        let r = self.ints[s];
        let mut c = id + 1;
        let def = self.def;
        // As in `leaf_chain`.
        #[allow(clippy::explicit_counter_loop)]
        for &n in &def.nodes[c as usize..end as usize] {
            let o = self.leaf(c, n, r != c);
            if o != cont {
                if r > c {
                    self.halt(r);
                }
                self.ints[s] = if o == Out::Running { c } else { 0 };
                self.obs.ticked(NodeId(id), o.status());
                return o;
            }
            c += 1;
        }
        self.ints[s] = 0;
        self.obs.ticked(NodeId(id), cont.status());
        cont
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

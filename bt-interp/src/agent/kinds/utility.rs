//! `utility`'s tick in the interpreter: the children's scores into the
//! agent's scratch (no allocation), the choice by the runtime's rules
//! (`behaved_runtime::utility`), then the chosen child (SEMANTICS.md
//! "utility"). A part of the agent's engine (`exec.rs`).

use behaved_format::utility::Choice;
use behaved_runtime::utility::{best, draw, keep_or_switch};
use behaved_runtime::{NodeId, Observer, Wake};

use crate::agent::wake::Waking;
use crate::definition::Flat;

use crate::agent::exec::*;

impl<C: 'static, O: Observer + ?Sized> Exec<'_, C, O> {
    /// `utility`: the state word is the chosen child's index + 1.
    pub(in crate::agent) fn utility(&mut self, id: u32, node: &Flat) -> Out {
        let s = node.slot as usize;
        let def = self.def;
        let u = def.scoring.utility[node.a as usize];
        let prev = self.ints[s];
        let scores_now = match u.choice {
            Choice::Reactive { .. } => true,
            // The interval form: again once `secs` have passed since it last scored.
            Choice::Every { .. } => {
                let t = node.time as usize;
                let due = prev == 0 || self.st.now - self.st.times[t] >= node.secs;
                if due {
                    self.st.times[t] = self.st.now;
                }
                due
            }
            _ => prev == 0,
        };
        let pick = if !scores_now {
            prev
        } else {
            let scores = &mut self.st.scores[..u.n as usize];
            // Each score's parts only for an observer that considers (a
            // constant `false` for most): then before each child's score.
            let considers = self.obs.considers();
            for (k, slot) in scores.iter_mut().enumerate() {
                let child = k as u32;
                *slot = if considers {
                    let obs = &mut *self.obs;
                    def.scoring
                        .score_parts(u.first + child, self.ctx, &mut |part, label, v| {
                            obs.considered(NodeId(id), child, part, label, v)
                        })
                } else {
                    def.scoring.score(u.first + child, self.ctx)
                };
                self.obs.scored(NodeId(id), child, *slot);
            }
            let chosen = match u.choice {
                Choice::Best => best(scores),
                Choice::Weighted { best } => draw(scores, best as usize, &mut self.st.rng),
                Choice::Reactive { .. } | Choice::Every { .. } if prev == 0 => best(scores),
                Choice::Reactive { margin } | Choice::Every { margin, .. } => {
                    keep_or_switch(prev as usize - 1, scores, margin)
                }
            };
            chosen.map_or(0, |i| i as u32 + 1)
        };
        self.run_chosen(node, prev, pick, Out::Failure)
    }
}

impl<C: 'static> Waking<'_, C> {
    /// A running `utility` node's wake: the reactive form re-scores on every
    /// tick (`NextTick`); the interval form wakes at the sooner of its next
    /// scoring and its running child's wake; the others sleep as their running
    /// child (`child`).
    pub(in crate::agent) fn utility_wake(&self, node: &Flat, child: impl FnOnce() -> Wake) -> Wake {
        match self.def.scoring.utility[node.a as usize].choice {
            Choice::Reactive { .. } => Wake::NextTick,
            Choice::Every { .. } => {
                Wake::after(self.st.side.times[node.time as usize], node.secs, self.now).min(child())
            }
            _ => child(),
        }
    }
}

//! `pick` in the interpreter: on entry it reads its candidates (as
//! `forEach` reads its items), selects each in the context in turn and
//! scores it with its score program (the considerations read the selected
//! candidate), chooses by the runtime's rule (`behaved_runtime::utility::Best`,
//! shared with compiled trees), and runs its child once with the chosen one
//! selected (SEMANTICS.md "pick"). A part of the agent's engine (`exec.rs`).

use behaved_runtime::utility::Best;
use behaved_runtime::{NodeId, Observer};

use crate::agent::exec::*;
use crate::definition::Flat;

impl<C: 'static, O: Observer + ?Sized> Exec<'_, C, O> {
    /// `pick`: the state word is 1 + the chosen candidate's position while
    /// running; its candidates are in the agent's items, `Flat::leaf`.
    pub(in crate::agent) fn pick_best(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
        let (s, k) = (node.slot as usize, node.leaf as usize);
        let def = self.def;
        if entering {
            self.items[k].fill(self.ctx);
            let score = def.scoring.utility[node.b as usize].first;
            let mut best = Best::new();
            // The score's parts only for an observer that considers.
            let considers = self.obs.considers();
            for i in 0..self.items[k].len() {
                self.items[k].select(i, self.ctx);
                let v = if considers {
                    let obs = &mut *self.obs;
                    def.scoring.score_parts(score, self.ctx, &mut |part, label, v| {
                        obs.considered(NodeId(id), i as u32, part, label, v)
                    })
                } else {
                    def.scoring.score(score, self.ctx)
                };
                self.obs.scored(NodeId(id), i as u32, v);
                best.offer(i, v);
            }
            match best.chosen() {
                Some(i) => self.ints[s] = i as u32 + 1,
                None => {
                    self.ints[s] = 0;
                    self.items[k].clear();
                    return Out::Failure;
                }
            }
        }
        self.items[k].select(self.ints[s] as usize - 1, self.ctx);
        let o = self.tick(id + 1, entering);
        if o != Out::Running {
            self.ints[s] = 0;
            self.items[k].clear();
        }
        o
    }
}

//! `parallel` and `parallelMain`: tick, halt and wake. State: (`parallel`
//! only) the successes and failures so far, then each child's state (`IDLE`,
//! `RUNNING`, `DONE`).
use behaved_runtime::{NodeKind, Observer, Wake};

use crate::agent::exec::*;
use crate::agent::wake::Waking;
use crate::definition::Flat;

impl<C: 'static, O: Observer + ?Sized> Exec<'_, C, O> {
    /// `parallel`: ticks the children not completed in this activation and
    /// decides the moment a threshold is reached.
    pub(in crate::agent) fn parallel(&mut self, id: u32, node: &Flat) -> Out {
        let s = node.slot as usize;
        let (mut ok, mut failed) = (self.ints[s], self.ints[s + 1]);
        for i in 0..node.n {
            let c = s + 2 + i as usize;
            let state = self.ints[c];
            if state == DONE {
                continue;
            }
            let o = self.tick(self.kid(node, i), state == IDLE);
            self.ints[c] = match o {
                Out::Running => RUNNING,
                Out::Jump => return Out::Jump,
                _ => DONE,
            };
            let decided = match o {
                Out::Success => {
                    ok += 1;
                    ok >= node.a
                }
                Out::Failure => {
                    failed += 1;
                    failed >= node.b
                }
                _ => false,
            };
            if decided {
                self.halt_kids(id, u32::MAX);
                return o;
            }
        }
        self.ints[s] = ok;
        self.ints[s + 1] = failed;
        Out::Running
    }

    /// `parallelMain`: the first child decides; the others run beside it and
    /// are halted when it completes.
    pub(in crate::agent) fn parallel_main(&mut self, id: u32, node: &Flat) -> Out {
        let s = node.slot as usize;
        let main = self.tick(self.kid(node, 0), self.ints[s] == IDLE);
        match main {
            Out::Running => {
                self.ints[s] = RUNNING;
                for i in 1..node.n {
                    let c = s + i as usize;
                    let state = self.ints[c];
                    if state == DONE {
                        continue;
                    }
                    self.ints[c] = match self.tick(self.kid(node, i), state == IDLE) {
                        Out::Running => RUNNING,
                        Out::Jump => return Out::Jump,
                        _ => DONE,
                    };
                }
                Out::Running
            }
            Out::Jump => Out::Jump,
            done => {
                self.ints[s] = IDLE;
                self.halt_kids(id, u32::MAX);
                done
            }
        }
    }

    /// Halting a parallel: its running children except `except`, left to
    /// right; its counts and children's states cleared.
    pub(in crate::agent) fn parallel_halted(&mut self, node: &Flat, except: u32) -> Option<u32> {
        let s = node.slot as usize;
        let first = if node.op == NodeKind::Parallel { s + 2 } else { s };
        self.ints[s..first].fill(0);
        for i in 0..node.n {
            let kid = self.kid(node, i);
            if std::mem::take(&mut self.ints[first + i as usize]) == RUNNING && kid != except {
                self.halt(kid);
            }
        }
        None
    }
}

impl<C: 'static> Waking<'_, C> {
    /// The wake of a running parallel: the soonest of its running children's.
    pub(in crate::agent) fn parallel_wake(&self, node: &Flat) -> Wake {
        let s = node.slot as usize;
        let first = if node.op == NodeKind::Parallel { s + 2 } else { s };
        (0..node.n)
            .filter(|&i| self.st.ints[first + i as usize] == RUNNING)
            .fold(Wake::Never, |w, i| {
                w.min(self.wake(self.def.kids[(node.kids + i) as usize]))
            })
    }
}

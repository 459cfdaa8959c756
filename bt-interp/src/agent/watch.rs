//! The wake of the reactive nodes (the rule is in `behaved_runtime::Wake`):
//! the running child's wake, or a change of what the conditions checked
//! again on every tick read (`Definition::pure`, from `reads.rs`); the
//! next tick when those are unknown. The twin of the macro's `codegen/watch.rs`.

use behaved_runtime::catalog::Slots;
use behaved_runtime::{NodeKind, Reads, Wake};

use super::wake::Waking;

impl<C: 'static> Waking<'_, C> {
    /// The wake of running reactive node `id` (a kind whose
    /// [`NodeKind::is_reactive`] holds), or `None` for another kind.
    pub(super) fn reactive(&self, id: u32) -> Option<Wake> {
        let (def, st) = (self.def, self.st);
        let node = &def.cold[id as usize];
        let s = node.slot as usize;
        let kid = |i: u32| def.kids[(node.kids + i) as usize];
        let pure = |k: u32| def.pure[k as usize];
        let watching = |reads: Option<Reads>, child: Wake| match (reads, child) {
            (_, Wake::NextTick) | (None, _) => Wake::NextTick,
            (Some(r), w) => w.min(Wake::watch(r)),
        };
        Some(match node.op {
            // The state word is the running child's id; the children before it are checked again.
            NodeKind::ReactiveSequence | NodeKind::ReactiveSelector => {
                let running = st.ints[s];
                let before = (0..node.n)
                    .map(kid)
                    .take_while(|&k| k != running)
                    .try_fold(Reads::NONE, |r, k| pure(k).map(|k| r | k));
                watching(before, self.wake(running))
            }
            // The state word is the chosen child's index + 1; the conditions
            // (children 0, 2, ..) before it are tested again.
            NodeKind::ReactiveIf => {
                let chosen = st.ints[s] - 1;
                let conds = (0..node.a)
                    .map(|j| 2 * j)
                    .take_while(|&c| c < chosen)
                    .try_fold(Reads::NONE, |r, c| pure(kid(c)).map(|k| r | k));
                watching(conds, self.wake(kid(chosen)))
            }
            NodeKind::WaitUntil => watching(def.conds[def.nodes[id as usize].arg as usize].reads(), Wake::Never),
            // The value is matched again on every tick; the state word is the
            // chosen child's index + 1.
            NodeKind::ReactiveMatch => watching(def.values[node.leaf as usize].reads(), self.wake(kid(st.ints[s] - 1))),
            // A reactive guard, a condition (child 0), then the body (child 1):
            // the condition is checked again while the body runs. The shape says
            // it all, so a reactive kind of this shape needs no line here.
            op if op.is_reactive() && op.slots() == Slots::ConditionChild => watching(pure(kid(0)), self.wake(kid(1))),
            _ => return None,
        })
    }
}

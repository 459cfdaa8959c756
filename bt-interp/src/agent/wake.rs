//! When an agent next needs a tick (the rule is in `behaved_runtime::Wake`): a walk
//! down the running path only, following each node's state to its running
//! children exactly as its halt does. The twin of the compiled trees'
//! `__wake_N` methods. The dispatch: each kind's rule is in its module in
//! `kinds/`.

use behaved_runtime::{NodeKind, Wake};

use super::{State, kinds};
use crate::definition::{Definition, NO_HOOK};

/// The wake of running node `id`.
pub(crate) fn wake<C: 'static>(def: &Definition<C>, st: &State<C>, id: u32, now: f64) -> Wake {
    let node = &def.cold[id as usize];
    // `onPreTick` and `onTick` (hooks 4 and 5) run on every tick.
    if node.hooks != NO_HOOK
        && def.hooks[node.hooks as usize][4..6]
            .iter()
            .any(|(col, _)| *col != NO_HOOK)
    {
        return Wake::NextTick;
    }
    // One line per kind (or family): the code is in `kinds/`.
    match node.op {
        // Checked again on every tick: until a change of what they read (`watch.rs`).
        NodeKind::ReactiveSequence
        | NodeKind::ReactiveSelector
        | NodeKind::ReactiveIf
        | NodeKind::ReactiveMatch
        | NodeKind::AbortIf
        | NodeKind::WaitUntil => super::watch::reactive(def, st, id, now).unwrap_or(Wake::NextTick),
        NodeKind::Sequence | NodeKind::Selector | NodeKind::SequenceAlways => kinds::chain_wake(def, st, node, now),
        NodeKind::Random | NodeKind::Weighted | NodeKind::Shuffle => kinds::random_wake(def, st, node, now),
        NodeKind::Utility => kinds::utility_wake(def, st, node, now, || kinds::branch_wake(def, st, node, now)),
        NodeKind::If | NodeKind::Match => kinds::branch_wake(def, st, node, now),
        NodeKind::Parallel | NodeKind::ParallelMain => kinds::parallel_wake(def, st, node, now),
        NodeKind::Loop
        | NodeKind::UntilFail
        | NodeKind::UntilSuccess
        | NodeKind::While
        | NodeKind::Repeat
        | NodeKind::Retry
        | NodeKind::ForEach
        | NodeKind::Pick
        | NodeKind::Break
        | NodeKind::Continue => kinds::loop_wake(def, st, id, node, now),
        NodeKind::Wait | NodeKind::Timeout | NodeKind::Delay | NodeKind::Cooldown => {
            kinds::timing_wake(def, st, id, node, now)
        }
        NodeKind::Invert
        | NodeKind::ForceSuccess
        | NodeKind::ForceFailure
        | NodeKind::Limit
        | NodeKind::RunOnce
        | NodeKind::Latch
        | NodeKind::Scope
        | NodeKind::Subtree => kinds::decorator_wake(def, st, id, node, now),
        NodeKind::Success | NodeKind::Failure | NodeKind::Running | NodeKind::Condition | NodeKind::Action => {
            kinds::leaf_wake(def, st, id, node, now)
        }
        // A kind the interpreter does not run: the next tick is always safe.
        _ => Wake::NextTick,
    }
}

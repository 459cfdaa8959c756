//! When an agent next needs a tick (the rule is in `behaved_runtime::Wake`): a walk
//! down the running path only, following each node's state to its running
//! children exactly as its halt does. The twin of the compiled trees'
//! `__wake_N` methods. A part of the agent, kept in a file of its own.

use behaved_runtime::{NodeKind, Wake};

use super::State;
use crate::definition::{Definition, NO_HOOK};

/// A parallel child that returned Running (see `agent.rs`).
const RUNNING: u32 = 1;

/// The wake of running node `id`.
pub(crate) fn wake<C: 'static>(def: &Definition<C>, st: &State<C>, id: u32, now: f64) -> Wake {
    let node = &def.cold[id as usize];
    let s = node.slot as usize;
    let ints = &st.ints;
    let kid = |i: u32| def.kids[(node.kids + i) as usize];
    let timer = || Wake::after(st.side.times[node.time as usize], def.secs[node.time as usize], now);
    // `onPreTick` and `onTick` (hooks 4 and 5) run on every tick.
    if node.hooks != NO_HOOK
        && def.hooks[node.hooks as usize][4..6]
            .iter()
            .any(|(col, _)| *col != NO_HOOK)
    {
        return Wake::NextTick;
    }
    match node.op {
        // The state word is the running child's id.
        NodeKind::Sequence | NodeKind::Selector | NodeKind::SequenceAlways => wake(def, st, ints[s], now),
        // The state word is the chosen child's index + 1.
        NodeKind::Random | NodeKind::Weighted | NodeKind::If | NodeKind::Match => wake(def, st, kid(ints[s] - 1), now),
        NodeKind::Shuffle => wake(def, st, kid(ints[s + ints[s] as usize]), now),
        NodeKind::Parallel | NodeKind::ParallelMain => {
            let first = if node.op == NodeKind::Parallel { s + 2 } else { s };
            (0..node.n)
                .filter(|&i| ints[first + i as usize] == RUNNING)
                .fold(Wake::Never, |w, i| w.min(wake(def, st, kid(i), now)))
        }
        // Between two iterations the next one starts on the next tick.
        NodeKind::Loop | NodeKind::UntilFail | NodeKind::UntilSuccess | NodeKind::While => match ints[s] {
            0 => Wake::NextTick,
            _ => wake(def, st, kid(node.n - 1), now),
        },
        NodeKind::Delay => match ints[s] {
            0 => timer(),
            _ => wake(def, st, id + 1, now),
        },
        NodeKind::Latch => wake(def, st, kid(1), now),
        NodeKind::Timeout => timer().min(wake(def, st, id + 1, now)),
        NodeKind::Wait => timer(),
        NodeKind::Running => Wake::Never,
        NodeKind::Repeat
        | NodeKind::ForEach
        | NodeKind::Retry
        | NodeKind::Invert
        | NodeKind::ForceSuccess
        | NodeKind::ForceFailure
        | NodeKind::Cooldown
        | NodeKind::Limit
        | NodeKind::RunOnce
        | NodeKind::Scope
        | NodeKind::Subtree => wake(def, st, id + 1, now),
        NodeKind::Action => {
            let n = def.nodes[id as usize];
            st.leaves[n.slot as usize].wake(n.arg, now)
        }
        // Checked again on every tick, or never Running.
        NodeKind::ReactiveSequence
        | NodeKind::ReactiveSelector
        | NodeKind::ReactiveIf
        | NodeKind::ReactiveMatch
        | NodeKind::AbortIf
        | NodeKind::WaitUntil
        | NodeKind::Condition
        | NodeKind::Success
        | NodeKind::Failure
        | NodeKind::Break
        | NodeKind::Continue => Wake::NextTick,
        // A kind the interpreter does not run: the next tick is always safe.
        _ => Wake::NextTick,
    }
}

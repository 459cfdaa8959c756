//! When an agent next needs a tick (the rule is in `behaved_runtime::Wake`): a walk
//! down the running path only, following each node's state to its running
//! children exactly as its halt does. The twin of the compiled trees'
//! `__wake_N` methods. The dispatch: each kind's rule is in its module in
//! `kinds/`.

use behaved_runtime::Wake;

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
    kinds::kind_wake(def, st, id, node, now)
}

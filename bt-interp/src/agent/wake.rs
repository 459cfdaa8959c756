//! When an agent next needs a tick (the rule is in `behaved_runtime::Wake`): a walk
//! down the running path only, following each node's state to its running
//! children exactly as its halt does. The twin of the compiled trees'
//! `__wake_N` methods. The dispatch: each kind's rule is in its module in
//! `kinds/`, a method of [`Waking`].

use behaved_runtime::Wake;

use super::{State, kinds};
use crate::definition::{Definition, NO_HOOK};

/// One wake walk: what every kind's rule reads (the definition and the
/// agent's state) and the time it is asked at, passed as one value down
/// the running path.
pub(super) struct Waking<'a, C: 'static> {
    pub(super) def: &'a Definition<C>,
    pub(super) st: &'a State<C>,
    pub(super) now: f64,
}

impl<C: 'static> Waking<'_, C> {
    /// The wake of running node `id`.
    pub(super) fn wake(&self, id: u32) -> Wake {
        let node = &self.def.cold[id as usize];
        // `onPreTick` and `onTick` (hooks 4 and 5) run on every tick.
        if node.hooks != NO_HOOK
            && self.def.hooks[node.hooks as usize][4..6]
                .iter()
                .any(|(col, _)| *col != NO_HOOK)
        {
            return Wake::NextTick;
        }
        kinds::kind_wake(self, id, node)
    }
}

//! A frame gate: something outside the app (a debugger, such as
//! behaved-studio's live view) decides, once an update, whether the trees
//! and the game's virtual time may go on.

use bevy_ecs::prelude::*;
use bevy_time::{Time, Virtual};

/// Asked once at the start of each update (in `First`, before Bevy's time
/// is updated) whether this update may run: when it says `false`,
/// `Time<Virtual>` is paused for the update (so every system on virtual time,
/// the trees' waits among them, stands still) and the [`BehaviorSystems`](crate::BehaviorSystems)
/// do not run (the [`frame_gate_open`] run condition, for your own systems
/// too). When it says `true` again, the virtual time it paused goes on; a
/// pause of your own is left alone.
///
/// behaved-studio's live view controls a game through it:
///
/// ```ignore
/// let debugger = studio.debugger();
/// app.insert_resource(behaved_bevy::FrameGate::new(move || debugger.frame_allowed()));
/// ```
///
/// Without the resource every update runs, at the cost of one resource lookup.
#[derive(Resource)]
pub struct FrameGate(Box<dyn FnMut() -> bool + Send + Sync>);

impl FrameGate {
    /// A gate that asks `allowed` once an update.
    pub fn new(allowed: impl FnMut() -> bool + Send + Sync + 'static) -> FrameGate {
        FrameGate(Box::new(allowed))
    }
}

impl std::fmt::Debug for FrameGate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FrameGate")
    }
}

/// What the [`FrameGate`] said for this update (a resource of every app
/// with a [`BehaviorPlugin`](crate::BehaviorPlugin)), and whether it paused the virtual time.
#[derive(Resource, Debug)]
pub struct GateState {
    pub(crate) open: bool,
    paused_time: bool,
}

impl GateState {
    /// Whether the gate let this update through.
    pub fn is_open(&self) -> bool {
        self.open
    }
}

impl Default for GateState {
    fn default() -> Self {
        GateState {
            open: true,
            paused_time: false,
        }
    }
}

/// Asks the gate, and pauses or unpauses the virtual time it paused.
pub(crate) fn apply_frame_gate(
    gate: Option<ResMut<FrameGate>>,
    mut state: ResMut<GateState>,
    time: Option<ResMut<Time<Virtual>>>,
) {
    state.open = gate.is_none_or(|mut gate| (gate.0)());
    let Some(mut time) = time else { return };
    if !state.open && !time.is_paused() {
        time.pause();
        state.paused_time = true;
    } else if state.open && state.paused_time {
        time.unpause();
        state.paused_time = false;
    }
}

/// A run condition: whether the [`FrameGate`] let this update through
/// (always, without a gate). The trees' systems run under it.
pub fn frame_gate_open(state: Option<Res<GateState>>) -> bool {
    state.is_none_or(|s| s.open)
}

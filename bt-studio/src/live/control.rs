//! Control of a running game from the live view: pause, resume, step one
//! frame, step to the followed agent's next event, and breakpoints on its
//! nodes ([`Breaks`], evaluated by its [`ObservedAgent`](super::ObservedAgent)
//! on the events it records).
//!
//! The game cooperates through one call in its loop, [`Debugger::frame_gate`]
//! (or [`Debugger::frame_allowed`], which never waits, for an engine's run
//! condition). While no page has taken control it is one relaxed atomic load.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use serde::Serialize;
use serde_json::{Value, json};

/// Breakpoint bits of a node ([`Breaks::nodes`]).
pub(crate) const ON_ENTER: u8 = 1;
/// The node completes with success.
pub(crate) const ON_SUCCESS: u8 = 2;
/// The node completes with failure.
pub(crate) const ON_FAILURE: u8 = 4;
/// The node returns running.
pub(crate) const ON_RUNNING: u8 = 8;
/// The node is halted.
pub(crate) const ON_HALT: u8 = 16;

/// The bit of a breakpoint's name as the page sends it, or `None`.
pub(crate) fn bit_of(on: &str) -> Option<u8> {
    Some(match on {
        "enter" => ON_ENTER,
        "success" => ON_SUCCESS,
        "failure" => ON_FAILURE,
        "running" => ON_RUNNING,
        "halt" => ON_HALT,
        _ => return None,
    })
}

/// The names of the bits set in `bits`, as the page sends them.
fn names_of(bits: u8) -> Vec<&'static str> {
    [
        (ON_ENTER, "enter"),
        (ON_SUCCESS, "success"),
        (ON_FAILURE, "failure"),
        (ON_RUNNING, "running"),
        (ON_HALT, "halt"),
    ]
    .into_iter()
    .filter(|(bit, _)| bits & bit != 0)
    .map(|(_, name)| name)
    .collect()
}

/// The breakpoints of one agent, as its page set them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Breaks {
    /// Per node, the events that stop the game (`ON_*` bits); empty for none.
    pub nodes: Vec<u8>,
    /// Any node of the agent failing stops the game.
    pub any_failure: bool,
    /// The agent's next event stops the game (a step to the next event),
    /// once: the observer clears it when it takes it.
    pub next_event: bool,
    /// Per node, a forced result: the leaf returns this status instead of
    /// running its own code (through the `Observer::stand_in` hook that
    /// behaved-testing's stand-ins use), once or until cleared; empty for none.
    pub forces: Vec<Option<Force>>,
}

/// A result the page forces on a leaf of the followed agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Force {
    /// What the leaf returns.
    pub status: behaved_runtime::Status,
    /// Only its next tick; otherwise until the page clears it.
    pub once: bool,
}

/// A status's name, as the page writes it.
pub(crate) fn status_name(status: behaved_runtime::Status) -> &'static str {
    match status {
        behaved_runtime::Status::Success => "success",
        behaved_runtime::Status::Failure => "failure",
        behaved_runtime::Status::Running => "running",
    }
}

impl Breaks {
    /// Whether any breakpoint is set.
    pub fn any(&self) -> bool {
        self.any_failure || self.next_event || self.nodes.iter().any(|&b| b != 0)
    }

    /// Whether any result is forced.
    pub fn forcing(&self) -> bool {
        self.forces.iter().any(Option::is_some)
    }

    /// The breakpoints as the page is sent them.
    pub fn to_json(&self) -> Value {
        let nodes: Vec<Value> = self
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, b)| **b != 0)
            .map(|(node, &bits)| json!({ "node": node, "on": names_of(bits) }))
            .collect();
        let forces: Vec<Value> = self
            .forces
            .iter()
            .enumerate()
            .filter_map(|(node, f)| f.map(|f| json!({ "node": node, "status": status_name(f.status), "once": f.once })))
            .collect();
        json!({ "nodes": nodes, "anyFailure": self.any_failure, "forces": forces })
    }
}

/// Why the game stopped, as the observer saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum Reason {
    /// A node's breakpoint.
    Breakpoint,
    /// A node failed and "any failure" was set.
    AnyFailure,
    /// A step to the agent's next event.
    NextEvent,
}

/// What the game and the server share about control.
#[derive(Debug, Default)]
pub(crate) struct Control {
    /// A page has taken control: [`Debugger::frame_gate`] takes the slow path.
    active: AtomicBool,
    /// Counts changes of `state`, so that a page is sent it when it changed.
    pub version: AtomicU64,
    state: Mutex<State>,
    wake: Condvar,
}

/// The state of control, under [`Control`]'s lock.
#[derive(Debug, Default)]
struct State {
    /// Pages that took control and are still connected.
    controllers: usize,
    /// The game waits at its gate (after the frames of `steps`).
    paused: bool,
    /// Frames the gate lets through while paused (a step).
    steps: u64,
    /// Frames the gate let through since a page first took control.
    frame: u64,
    /// The frame in which the game was last stopped by an event, and why.
    stopped: Option<(u64, Reason)>,
}

impl Control {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Changes the state and wakes a waiting gate.
    fn change(&self, f: impl FnOnce(&mut State)) {
        f(&mut self.state());
        self.version.fetch_add(1, Ordering::SeqCst);
        self.wake.notify_all();
    }

    /// A page takes control (its first command); [`release`](Self::release) when it goes.
    pub fn take(&self) {
        self.change(|s| {
            if s.controllers == 0 {
                // A stop left over from a page that went (in the tick it went) is forgotten.
                *s = State {
                    frame: s.frame,
                    ..State::default()
                };
            }
            s.controllers += 1;
            // Under the lock: a page that goes at the same time cannot turn the gate off after this.
            self.active.store(true, Ordering::SeqCst);
        });
    }

    /// A page that took control went: when it was the last, the game runs
    /// free again and the gate goes back to its fast path.
    pub fn release(&self) {
        self.change(|s| {
            s.controllers -= 1;
            if s.controllers == 0 {
                s.paused = false;
                s.steps = 0;
                s.stopped = None;
                self.active.store(false, Ordering::SeqCst);
            }
        });
    }

    /// Pauses the game at its next gate.
    pub fn pause(&self) {
        self.change(|s| {
            s.paused = true;
            s.steps = 0;
        });
    }

    /// Lets the game run on.
    pub fn resume(&self) {
        self.change(|s| {
            s.paused = false;
            s.steps = 0;
            s.stopped = None;
        });
    }

    /// Lets one more frame through a paused game.
    pub fn step_frame(&self) {
        self.change(|s| {
            s.paused = true;
            s.steps += 1;
            s.stopped = None;
        });
    }

    /// An agent's observer met a breakpoint: the game pauses at its next gate,
    /// after the frame it is in.
    pub fn stop(&self, reason: Reason) {
        self.change(|s| {
            s.paused = true;
            s.steps = 0;
            s.stopped = Some((s.frame, reason));
        });
    }

    /// The state as the page is sent it: `paused`, `frame` (the frames the
    /// gate let through since control was taken) and `stoppedIn` (the
    /// frame of the last stop by an event, if the game is still stopped there).
    pub fn to_json(&self) -> Value {
        let s = self.state();
        json!({
            "paused": s.paused && s.steps == 0,
            "frame": s.frame,
            "stoppedIn": s.stopped.map(|(frame, reason)| json!({ "frame": frame, "reason": reason })),
        })
    }

    /// Whether a frame may run now (taking a step if it is one's).
    fn allowed(&self, s: &mut State) -> bool {
        if s.paused && s.steps == 0 {
            return false;
        }
        if s.paused {
            s.steps -= 1;
        }
        s.frame += 1;
        self.version.fetch_add(1, Ordering::SeqCst);
        true
    }
}

/// The game's side of control from the live view: one call per frame, made
/// by [`Studio::debugger`](crate::Studio::debugger). Cloning it gives
/// another handle on the same control.
///
/// ```no_run
/// let studio = behaved_studio::Studio::serve("127.0.0.1:7878")?;
/// let debugger = studio.debugger();
/// loop {
///     debugger.frame_gate(); // waits here while the live view has the game paused
///     // ... tick the agents, one frame
///     # break;
/// }
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Debugger {
    pub(crate) control: Arc<Control>,
}

impl Debugger {
    /// Call once at the top of each frame: returns at once while no page has
    /// taken control (one relaxed atomic load), and otherwise waits while the
    /// game is paused (by the page, or by a breakpoint met in the last
    /// frame). A step lets exactly one frame through; a page that goes lets
    /// the game run free.
    #[inline]
    pub fn frame_gate(&self) {
        if !self.control.active.load(Ordering::Relaxed) {
            return;
        }
        let mut s = self.control.state();
        while !self.control.allowed(&mut s) {
            s = self.control.wake.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// [`frame_gate`](Self::frame_gate) without waiting, for a game whose
    /// loop must go on (an engine's run condition, as behaved-bevy's):
    /// whether the game's trees may run this frame. Each `true` counts as a
    /// frame, and takes a step when the game is paused.
    #[inline]
    pub fn frame_allowed(&self) -> bool {
        if !self.control.active.load(Ordering::Relaxed) {
            return true;
        }
        let mut s = self.control.state();
        self.control.allowed(&mut s)
    }

    /// Whether the live view has the game paused now (for a game that shows it).
    pub fn is_paused(&self) -> bool {
        self.control.active.load(Ordering::Relaxed) && {
            let s = self.control.state();
            s.paused && s.steps == 0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_lets_exactly_one_frame_through_and_a_page_that_goes_lets_the_game_run() {
        let debugger = Debugger {
            control: Arc::new(Control::default()),
        };
        let control = &debugger.control;
        assert!(debugger.frame_allowed(), "nobody controls: every frame runs");
        control.take();
        control.pause();
        assert!(!debugger.frame_allowed());
        control.step_frame();
        assert!(debugger.frame_allowed());
        assert!(!debugger.frame_allowed(), "one frame per step");
        control.step_frame();
        control.step_frame();
        assert_eq!((debugger.frame_allowed(), debugger.frame_allowed()), (true, true));
        assert!(!debugger.frame_allowed());
        assert_eq!(control.to_json()["frame"], 3);
        control.stop(Reason::Breakpoint);
        assert_eq!(
            control.to_json()["stoppedIn"],
            json!({ "frame": 3, "reason": "breakpoint" })
        );
        control.release();
        assert!(debugger.frame_allowed() && !debugger.is_paused());
    }

    #[test]
    fn a_waiting_gate_opens_when_the_page_resumes() {
        let debugger = Debugger {
            control: Arc::new(Control::default()),
        };
        debugger.control.take();
        debugger.control.pause();
        let gate = debugger.clone();
        let game = std::thread::spawn(move || gate.frame_gate());
        debugger.control.resume();
        game.join().unwrap();
        assert_eq!(debugger.control.to_json()["frame"], 1);
    }
}

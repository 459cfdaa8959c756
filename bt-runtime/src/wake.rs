//! When a tree next needs a tick: what lets a game put idle agents to sleep.

use crate::{Reads, Status};

/// When a tree (or an action) next needs a tick, as `next_wake(now)` reports
/// it after a tick at time `now`. Ordered by urgency: `NextTick` < `At(t)`
/// (earlier first) < `Never`; a [`Watch`](Wake::Watch) is due at its time
/// or on a marked change of its inputs, whichever comes first.
///
/// # When a tree may sleep
///
/// A tree may skip a tick when that tick could change nothing: every node on
/// its running path would return `Running` again, no node would enter or be
/// halted, no leaf would run, and neither the context nor the RNG would be
/// touched. A tree that is not running always needs the next tick (it starts
/// again); a running tree needs the earliest wake of its running path: a
/// timer its time, `running` `Never`, an action its
/// [`Action::next_wake`](crate::Action::next_wake), a reactive node's
/// re-checked conditions a [`Watch`](Wake::Watch) of what they read, and
/// most other nodes their running child's wake. The rule of every node kind
/// is one table, in
/// [`SEMANTICS.md#sleeping`](https://docs.rs/behaved/latest/behaved/semantics/index.html#sleeping).
///
/// Ticking earlier than the wake is always allowed and changes nothing; a
/// caller that changes what a condition reads, or that an action waits for,
/// wakes the agent itself (a scheduler's `wake(id)`). `difftest` checks the
/// rule on hundreds of random trees, compiled and interpreted: ticking only
/// when the wake is due gives exactly the statuses and events of ticking on
/// every frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Wake {
    /// Tick again on the next frame.
    NextTick,
    /// No tick is needed before time `t` (seconds, on the clock the tree is
    /// ticked with); ticking earlier is allowed and changes nothing.
    At(f64),
    /// No tick is needed until something outside the tree changes (an
    /// event: the caller wakes the agent, or resets it).
    Never,
    /// No tick is needed before time `at` (`f64::INFINITY`: none) unless
    /// the game marks a change of one of `reads` (the inputs of the
    /// conditions a reactive node re-checks): then the next tick is. The
    /// game's promise is that it marks every change of a watched input
    /// (`SEMANTICS.md`, "Sleeping on inputs").
    Watch {
        /// The inputs whose change wakes the tree.
        reads: Reads,
        /// The time at which the tree wakes in any case.
        at: f64,
    },
}

impl Wake {
    /// The more urgent of two wakes: what a node with two running children needs.
    #[inline]
    #[must_use]
    pub fn min(self, other: Wake) -> Wake {
        match (self, other) {
            (Wake::NextTick, _) | (_, Wake::NextTick) => Wake::NextTick,
            (Wake::Watch { reads: a, at: s }, Wake::Watch { reads: b, at: t }) => Wake::Watch {
                reads: a | b,
                at: s.min(t),
            },
            (Wake::Watch { reads, at }, Wake::At(t)) | (Wake::At(t), Wake::Watch { reads, at }) => {
                Wake::Watch { reads, at: at.min(t) }
            }
            (w @ Wake::Watch { .. }, Wake::Never) | (Wake::Never, w @ Wake::Watch { .. }) => w,
            (Wake::At(a), Wake::At(b)) => Wake::At(a.min(b)),
            (Wake::At(t), Wake::Never) | (Wake::Never, Wake::At(t)) => Wake::At(t),
            (Wake::Never, Wake::Never) => Wake::Never,
        }
    }

    /// Whether a tick at time `now` is due: always for `NextTick`, from `t`
    /// on for `At(t)` and `Watch { at: t, .. }`, never for `Never` (a watch
    /// is also due on a change: [`Wake::wakes_on`]).
    #[inline]
    pub fn is_due(self, now: f64) -> bool {
        match self {
            Wake::NextTick => true,
            Wake::At(t) | Wake::Watch { at: t, .. } => now >= t,
            Wake::Never => false,
        }
    }

    /// Whether a change of `changed` makes a tick due: only for a
    /// [`Watch`](Wake::Watch) whose inputs it meets (the other forms do not
    /// depend on inputs; `NextTick` is due anyway).
    #[inline]
    pub fn wakes_on(self, changed: Reads) -> bool {
        matches!(self, Wake::Watch { reads, .. } if reads.meets(changed))
    }

    /// The wake of a condition re-checked on every tick that reads `reads`:
    /// a change of one of them (`Never` when it reads nothing: it is constant).
    #[inline]
    pub fn watch(reads: Reads) -> Wake {
        if reads.is_empty() {
            Wake::Never
        } else {
            Wake::Watch {
                reads,
                at: f64::INFINITY,
            }
        }
    }

    /// The time from which a tick is due whatever changes: `-inf` for
    /// `NextTick`, `t` for `At(t)` and `Watch { at: t, .. }`, `+inf` for
    /// `Never`.
    #[inline]
    pub fn due_time(self) -> f64 {
        match self {
            Wake::NextTick => f64::NEG_INFINITY,
            Wake::At(t) | Wake::Watch { at: t, .. } => t,
            Wake::Never => f64::INFINITY,
        }
    }

    /// `At(t)`, or `NextTick` when `t` is not after `now`.
    #[inline]
    pub fn at(t: f64, now: f64) -> Wake {
        if t > now { Wake::At(t) } else { Wake::NextTick }
    }

    /// The wake of a timer started at `start` that fires once `d` seconds
    /// have passed (`now - start >= d`, the test `wait`, `delay` and
    /// `timeout` make). Reported a few units in the last place early, so that
    /// rounding in `start + d` never makes a sleeping tree miss the tick at
    /// which the timer fires; an early tick changes nothing.
    #[inline]
    pub fn after(start: f64, d: f64, now: f64) -> Wake {
        let t = start + d;
        Wake::at(t - t.abs() * (4.0 * f64::EPSILON), now)
    }
}

/// What one scheduled tick did ([`Tree::step`](crate::Tree::step)): the
/// root's status and when the next tick is needed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ticked {
    /// The root's status.
    pub status: Status,
    /// When the next tick is needed.
    pub wake: Wake,
}

#[cfg(test)]
mod tests {
    use super::Wake;

    #[test]
    fn min_prefers_the_most_urgent() {
        use Wake::*;
        assert_eq!(At(2.0).min(At(1.0)), At(1.0));
        assert_eq!(At(2.0).min(NextTick), NextTick);
        assert_eq!(Never.min(At(3.0)), At(3.0));
        assert_eq!(Never.min(Never), Never);
        let (a, b) = (crate::Reads::field("a"), crate::Reads::field("b"));
        assert_eq!(Wake::watch(a).min(At(2.0)), Watch { reads: a, at: 2.0 });
        assert_eq!(Wake::watch(a).min(Wake::watch(b)), Wake::watch(a | b));
        assert_eq!(Wake::watch(a).min(NextTick), NextTick);
        assert_eq!(Never.min(Wake::watch(a)), Wake::watch(a));
        assert_eq!(Wake::watch(crate::Reads::NONE), Never);
    }

    #[test]
    fn a_watch_is_due_at_its_time_or_on_a_change_of_its_inputs() {
        let (a, b) = (crate::Reads::field("a"), crate::Reads::field("b"));
        let w = Wake::Watch { reads: a, at: 5.0 };
        assert!(!w.is_due(4.0) && w.is_due(5.0));
        assert!(w.wakes_on(a) && !w.wakes_on(b));
        assert!(!Wake::At(1.0).wakes_on(crate::Reads::ALL));
    }

    #[test]
    fn a_timer_never_wakes_after_the_tick_at_which_it_fires() {
        // Wherever now - start >= d holds, the reported wake is due.
        for start in [0.0, 0.1, 0.7, 3.3, 1e6 + 0.1, 12345.678] {
            for d in [0.0, 0.1, 0.2, 0.3, 1.5, 1e-9] {
                let wake = Wake::after(start, d, start);
                let mut now: f64 = start + d;
                for _ in 0..8 {
                    now = now.next_down();
                }
                for _ in 0..16 {
                    if now - start >= d {
                        assert!(wake.is_due(now), "start {start} d {d} now {now}: {wake:?}");
                    }
                    now = now.next_up();
                }
            }
        }
        assert_eq!(Wake::after(1.0, 0.0, 1.0), Wake::NextTick);
        assert!(matches!(Wake::after(1.0, 2.0, 1.0), Wake::At(t) if t < 3.0 && t > 2.99));
    }
}

//! Walking on the grid: a cadence of one hex per movement step, and greedy
//! steps toward or away from a hex. Shared by dogs, players, the guard and the
//! fleeing NPC.

use std::collections::{HashSet, VecDeque};

use crate::hex::{Heading, Hex, closest};

/// Movement cadence: an actor may take one step every `step_every` seconds.
/// It belongs to the body, not to the action that moves it, so restarting a
/// move does not buy an extra step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stride {
    /// Seconds between two steps.
    pub step_every: f64,
    /// The earliest time of the next step.
    pub ready_at: f64,
}

impl Stride {
    /// One step every `step_every` seconds, the first one at once.
    pub const fn new(step_every: f64) -> Stride {
        Stride {
            step_every,
            ready_at: 0.0,
        }
    }

    /// `true` when a step may be taken at time `now`.
    pub fn ready(&self, now: f64) -> bool {
        now >= self.ready_at
    }

    /// Records a step taken at `now`.
    pub fn stepped(&mut self, now: f64) {
        self.ready_at = now + self.step_every;
    }
}

/// The heading of the free neighbour of `from` that brings it one hex closer to
/// `goal`, preferring the one closest to the straight line; `None` when at
/// `goal` or when every such neighbour is taken.
pub fn step_toward(from: Hex, goal: Hex, is_free: impl Fn(Hex) -> bool) -> Option<Heading> {
    let dist = from.distance(goal);
    best_step(from, goal - from, |n| n.distance(goal) < dist && is_free(n))
}

/// A step toward a free hex next to `target` (ADR-006's `Nearby { min: 1,
/// max: 1 }` + `PathTo`): straight toward the target when a closer hex is
/// free (the common case, no search); otherwise the first step of a shortest
/// way around the blockers, searched breadth-first within one ring beyond
/// `from`'s distance. `None` when every hex next to the target is taken or no
/// way is found (then wait).
pub fn approach(from: Hex, target: Hex, is_free: impl Fn(Hex) -> bool) -> Option<Heading> {
    if let Some(h) = step_toward(from, target, &is_free) {
        return Some(h);
    }
    if !Heading::ALL.iter().any(|h| is_free(target.neighbor(*h))) {
        return None;
    }
    let bound = from.distance(target) + 1;
    let open = |n: Hex| (1..=bound).contains(&n.distance(target)) && is_free(n);
    // Breadth-first; each entry carries the first step of the way that reached it.
    let mut seen = HashSet::from([from]);
    let mut queue: VecDeque<(Hex, Option<Heading>)> = VecDeque::from([(from, None)]);
    while let Some((at, lead)) = queue.pop_front() {
        for h in Heading::ALL {
            let n = at.neighbor(h);
            if open(n) && seen.insert(n) {
                let lead = lead.unwrap_or(h);
                if n.distance(target) == 1 {
                    return Some(lead);
                }
                queue.push_back((n, Some(lead)));
            }
        }
    }
    None
}

/// The heading of the free neighbour of `from` that takes it one hex farther
/// from `threat`, preferring straight away; `None` when there is none.
pub fn step_away(from: Hex, threat: Hex, is_free: impl Fn(Hex) -> bool) -> Option<Heading> {
    let dist = from.distance(threat);
    best_step(from, from - threat, |n| n.distance(threat) > dist && is_free(n))
}

/// Among the neighbours of `from` that pass `ok`, the heading closest in angle
/// to `direction` (first in [`Heading::ALL`] order on a tie).
fn best_step(from: Hex, direction: Hex, ok: impl Fn(Hex) -> bool) -> Option<Heading> {
    let want = direction.bearing()?;
    closest(Heading::ALL.into_iter().filter(|h| ok(from.neighbor(*h))), want)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_toward_goal_along_the_line() {
        assert_eq!(step_toward(Hex::ORIGIN, Hex::new(5, 0), |_| true), Some(Heading::E));
        assert_eq!(step_toward(Hex::ORIGIN, Hex::ORIGIN, |_| true), None);
        // Blocked straight ahead: the other closer neighbour is taken.
        let goal = Hex::new(2, -1);
        let first = step_toward(Hex::ORIGIN, goal, |_| true).unwrap();
        let second = step_toward(Hex::ORIGIN, goal, |h| h != Hex::ORIGIN.neighbor(first)).unwrap();
        assert_ne!(first, second);
        assert_eq!(Hex::ORIGIN.neighbor(second).distance(goal), 1);
        assert_eq!(step_toward(Hex::ORIGIN, goal, |_| false), None);
    }

    #[test]
    fn approach_goes_around_a_blocked_target() {
        // The two hexes between (2,-1) and the origin are taken: walk the ring.
        let taken = [Hex::new(1, -1), Hex::new(1, 0), Hex::ORIGIN];
        let free = |h: Hex| !taken.contains(&h);
        let mut at = Hex::new(2, -1);
        let mut steps = 0;
        while at.distance(Hex::ORIGIN) > 1 {
            let h = approach(at, Hex::ORIGIN, free).expect("a way around");
            at = at.neighbor(h);
            assert!(free(at));
            steps += 1;
        }
        assert_eq!(steps, 3, "(2,-2), (1,-2), (0,-1): the shortest way round");
        // Every hex next to the target taken: wait.
        let ring: Vec<Hex> = Heading::ALL.iter().map(|h| Hex::ORIGIN.neighbor(*h)).collect();
        assert_eq!(
            approach(Hex::new(2, -1), Hex::ORIGIN, |h| !ring.contains(&h) && h != Hex::ORIGIN),
            None
        );
    }

    #[test]
    fn steps_away_from_threat() {
        let h = step_away(Hex::ORIGIN, Hex::new(-1, 0), |_| true).unwrap();
        assert_eq!(h, Heading::E);
        assert_eq!(step_away(Hex::ORIGIN, Hex::new(-1, 0), |_| false), None);
    }

    #[test]
    fn stride_paces_steps() {
        let mut s = Stride::new(0.25);
        assert!(s.ready(0.0));
        s.stepped(0.0);
        assert!(!s.ready(0.2));
        assert!(s.ready(0.25));
    }
}

//! A hashed timer wheel: sleeping agents keyed by wake time. A slot holds the
//! timers whose time falls in its `width`-second span, modulo the wheel's
//! length; a timer further away than one turn waits in its slot and is
//! passed over until its turn comes. Inserting and expiring are O(1) per timer.

/// One sleeping agent: its wake time, its index, and the ticket that says
/// whether the timer still stands (see `Scheduler`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Timer {
    pub t: f64,
    pub idx: u32,
    pub ticket: u32,
}

#[derive(Debug)]
pub(crate) struct Wheel {
    slots: Vec<Vec<Timer>>,
    width: f64,
    /// The slot number (time / width) expired last; timers before it go into it.
    cur: i64,
}

impl Wheel {
    /// `slots` slots of `width` seconds each.
    pub fn new(slots: usize, width: f64) -> Wheel {
        Wheel {
            slots: (0..slots.max(1)).map(|_| Vec::new()).collect(),
            width,
            cur: i64::MIN,
        }
    }

    fn number(&self, t: f64) -> i64 {
        // `as` saturates: far times land in the last slot number.
        (t / self.width).floor() as i64
    }

    fn slot(&self, number: i64) -> usize {
        number.rem_euclid(self.slots.len() as i64) as usize
    }

    pub fn insert(&mut self, timer: Timer) {
        let number = self.number(timer.t).max(self.cur);
        let slot = self.slot(number);
        self.slots[slot].push(timer);
    }

    /// Calls `due` for every timer at or before `now` and drops it; visits
    /// the slots from the last expired one to `now`'s (at most one turn).
    pub fn expire(&mut self, now: f64, mut due: impl FnMut(Timer)) {
        let target = self.number(now);
        let from = if self.cur == i64::MIN {
            target.saturating_sub(self.slots.len() as i64 - 1)
        } else {
            self.cur.max(target.saturating_sub(self.slots.len() as i64 - 1))
        };
        let mut number = from;
        while number <= target {
            let slot = self.slot(number);
            self.slots[slot].retain(|timer| {
                if timer.t <= now {
                    due(*timer);
                    false
                } else {
                    true
                }
            });
            number += 1;
        }
        self.cur = self.cur.max(target);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expired(wheel: &mut Wheel, now: f64) -> Vec<u32> {
        let mut out = Vec::new();
        wheel.expire(now, |t| out.push(t.idx));
        out
    }

    #[test]
    fn timers_fire_once_at_or_after_their_time_even_a_turn_away() {
        let mut wheel = Wheel::new(8, 0.5);
        wheel.expire(0.0, |_| {});
        for (idx, t) in [(0, 0.2), (1, 1.0), (2, 5.75), (3, 1.1), (4, 0.0)] {
            wheel.insert(Timer { t, idx, ticket: 0 });
        }
        assert_eq!(expired(&mut wheel, 0.1), [4]);
        assert_eq!(
            expired(&mut wheel, 1.05),
            [0, 1],
            "0.2 and 1.0; 1.1 is in the same slot, later"
        );
        assert_eq!(expired(&mut wheel, 1.1), [3]);
        // 5.75 is more than a turn (4 s) away from 1.1: passed over once.
        assert_eq!(expired(&mut wheel, 5.7), Vec::<u32>::new());
        assert_eq!(
            expired(&mut wheel, 100.0),
            [2],
            "a jump of many turns visits each slot once"
        );
        assert_eq!(expired(&mut wheel, 200.0), Vec::<u32>::new());
    }

    #[test]
    fn a_timer_in_the_past_fires_on_the_next_expiry() {
        let mut wheel = Wheel::new(4, 1.0);
        wheel.expire(10.0, |_| {});
        wheel.insert(Timer {
            t: 3.0,
            idx: 7,
            ticket: 0,
        });
        assert_eq!(expired(&mut wheel, 10.0), [7]);
    }
}

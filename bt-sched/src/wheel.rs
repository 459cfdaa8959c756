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
    /// A power of two of slots, so a slot number's slot is a mask away.
    slots: Vec<Vec<Timer>>,
    /// 1 / the width of a slot in seconds: a multiplication per timer, not a division.
    per_second: f64,
    /// The slot number (time / width) expired last; timers before it go into it.
    cur: i64,
    /// The buffers of slots that emptied, for the next slots that fill: a
    /// slot's buffer is not left holding the capacity of its busiest turn
    /// (4096 slots x 50,000 timers would be 3 GB), and filling a slot
    /// reuses memory instead of growing a new buffer.
    spare: Vec<Vec<Timer>>,
}

impl Wheel {
    /// `slots` slots (rounded up to a power of two) of `width` seconds each.
    pub fn new(slots: usize, width: f64) -> Wheel {
        Wheel {
            slots: (0..slots.max(1).next_power_of_two()).map(|_| Vec::new()).collect(),
            per_second: 1.0 / width,
            cur: i64::MIN,
            spare: Vec::new(),
        }
    }

    /// The slot number of time `t`: floor(t / width), without a call to libm's `floor`.
    fn number(&self, t: f64) -> i64 {
        let x = t * self.per_second;
        // `as` truncates toward zero and saturates: far times land in the last slot number.
        let n = x as i64;
        if (n as f64) > x { n - 1 } else { n }
    }

    fn slot(&self, number: i64) -> usize {
        // Two's complement: the mask is the Euclidean remainder for negative numbers too.
        (number as usize) & (self.slots.len() - 1)
    }

    #[inline]
    pub fn insert(&mut self, timer: Timer) {
        let number = self.number(timer.t).max(self.cur);
        let at = self.slot(number);
        let slot = &mut self.slots[at];
        if slot.capacity() == 0
            && let Some(buffer) = self.spare.pop()
        {
            *slot = buffer;
        }
        slot.push(timer);
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
            if self.slots[slot].is_empty() && self.slots[slot].capacity() > 0 {
                self.spare.push(std::mem::take(&mut self.slots[slot]));
            }
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

    #[test]
    fn slots_round_up_to_a_power_of_two_and_negative_times_floor() {
        // 5 slots become 8: a turn is 8 s, so 7.5 s away is within the turn.
        let mut wheel = Wheel::new(5, 1.0);
        wheel.expire(-2.5, |_| {});
        wheel.insert(Timer {
            t: -1.5,
            idx: 1,
            ticket: 0,
        });
        wheel.insert(Timer {
            t: 5.0,
            idx: 2,
            ticket: 0,
        });
        assert_eq!(wheel.slots.len(), 8);
        assert_eq!(wheel.number(-1.5), -2, "floor, not truncation");
        assert_eq!(expired(&mut wheel, -1.6), Vec::<u32>::new());
        assert_eq!(expired(&mut wheel, -1.5), [1]);
        assert_eq!(expired(&mut wheel, 4.9), Vec::<u32>::new());
        assert_eq!(expired(&mut wheel, 5.0), [2]);
    }

    #[test]
    fn an_emptied_slot_gives_its_buffer_to_the_next_slot_that_fills() {
        let mut wheel = Wheel::new(64, 1.0);
        wheel.expire(0.0, |_| {});
        for idx in 0..1000 {
            wheel.insert(Timer { t: 1.0, idx, ticket: 0 });
        }
        let big = wheel.slots[1].capacity();
        assert_eq!(expired(&mut wheel, 1.0).len(), 1000);
        assert_eq!(wheel.slots[1].capacity(), 0, "the emptied slot holds no memory");
        wheel.insert(Timer {
            t: 2.0,
            idx: 0,
            ticket: 0,
        });
        assert_eq!(wheel.slots[2].capacity(), big, "the next slot to fill reuses it");
        assert!(wheel.spare.is_empty());
    }
}

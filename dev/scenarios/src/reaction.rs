//! The reaction queue of ADR-003 as ADR-006 uses it: incoming attacks wait in
//! a queue (3 slots at Focus 0) with a timer each (1.0 s at Instinct 0) before
//! they hurt, so the player can react. A full queue overflows: the oldest
//! threat resolves at once. An expired timer resolves its threat.

use std::collections::VecDeque;

use crate::id::DogId;

/// One attack waiting to land.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QueuedThreat {
    /// The attacker.
    pub source: DogId,
    /// The damage it does when it resolves.
    pub damage: u32,
    /// When it entered the queue.
    pub inserted_at: f64,
    /// How long the player has to react.
    pub timer_duration: f64,
}

impl QueuedThreat {
    /// `true` once its timer has run out at time `now`. Written as
    /// `now - inserted_at >= duration`, the same test `wait(d)` uses, so a
    /// threat and a wait of equal length started in one frame end in one frame.
    pub fn is_expired(&self, now: f64) -> bool {
        now - self.inserted_at >= self.timer_duration
    }
}

/// Why a threat resolved (its damage applied).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResolveReason {
    /// Its timer ran out.
    TimerExpired,
    /// A new threat arrived while the queue was full.
    QueueOverflow,
}

/// A player's queue of incoming threats, oldest first.
#[derive(Debug, Clone, PartialEq)]
pub struct ReactionQueue {
    threats: VecDeque<QueuedThreat>,
    capacity: usize,
    window: f64,
}

impl ReactionQueue {
    /// Slots at Focus 0 (ADR-003).
    pub const DEFAULT_CAPACITY: usize = 3;
    /// Timer length at Instinct 0 (ADR-003), in seconds.
    pub const DEFAULT_WINDOW: f64 = 1.0;

    /// A queue of `capacity` slots (at least 1) whose threats wait `window` seconds.
    pub fn new(capacity: usize, window: f64) -> ReactionQueue {
        let capacity = capacity.max(1);
        ReactionQueue {
            threats: VecDeque::with_capacity(capacity + 1),
            capacity,
            window,
        }
    }

    /// Number of slots.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Timer length of new threats.
    pub fn window(&self) -> f64 {
        self.window
    }

    /// Threats waiting.
    pub fn len(&self) -> usize {
        self.threats.len()
    }

    /// `true` when no threat waits.
    pub fn is_empty(&self) -> bool {
        self.threats.is_empty()
    }

    /// `true` when every slot is taken: the next threat overflows.
    pub fn is_full(&self) -> bool {
        self.threats.len() >= self.capacity
    }

    /// The waiting threats, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &QueuedThreat> {
        self.threats.iter()
    }

    /// Queues a threat from `source` at time `now`. If the queue was full, the
    /// oldest threat is pushed out and returned: the caller resolves it now.
    pub fn insert(&mut self, source: DogId, damage: u32, now: f64) -> Option<QueuedThreat> {
        let overflow = if self.is_full() { self.threats.pop_front() } else { None };
        self.threats.push_back(QueuedThreat {
            source,
            damage,
            inserted_at: now,
            timer_duration: self.window,
        });
        overflow
    }

    /// Removes and returns the oldest threat if its timer has run out at `now`.
    /// Call until `None` to collect every expired threat.
    pub fn pop_expired(&mut self, now: f64) -> Option<QueuedThreat> {
        match self.threats.front() {
            Some(t) if t.is_expired(now) => self.threats.pop_front(),
            _ => None,
        }
    }

    /// Clears every threat (Dodge, ADR-003 `ClearType::All`); returns how many.
    pub fn clear(&mut self) -> usize {
        let n = self.threats.len();
        self.threats.clear();
        n
    }
}

impl Default for ReactionQueue {
    fn default() -> ReactionQueue {
        ReactionQueue::new(Self::DEFAULT_CAPACITY, Self::DEFAULT_WINDOW)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflow_pushes_out_the_oldest() {
        let mut q = ReactionQueue::default();
        for (i, t) in [0.0, 0.1, 0.2].into_iter().enumerate() {
            assert_eq!(q.insert(DogId(i as u32), 10, t), None);
        }
        assert!(q.is_full());
        let out = q.insert(DogId(9), 10, 0.3).expect("overflow");
        assert_eq!(out.source, DogId(0));
        assert_eq!(
            q.iter().map(|t| t.source).collect::<Vec<_>>(),
            [DogId(1), DogId(2), DogId(9)]
        );
    }

    #[test]
    fn threats_expire_after_the_window_in_order() {
        let mut q = ReactionQueue::default();
        q.insert(DogId(0), 10, 0.0);
        q.insert(DogId(1), 10, 0.5);
        assert_eq!(q.pop_expired(0.99), None);
        assert_eq!(q.pop_expired(1.0).map(|t| t.source), Some(DogId(0)));
        assert_eq!(q.pop_expired(1.0), None);
        assert_eq!(q.pop_expired(1.5).map(|t| t.source), Some(DogId(1)));
        assert!(q.is_empty());
    }

    #[test]
    fn dodge_clears_all() {
        let mut q = ReactionQueue::default();
        q.insert(DogId(0), 10, 0.0);
        q.insert(DogId(1), 10, 0.0);
        assert_eq!(q.clear(), 2);
        assert!(q.is_empty());
    }
}

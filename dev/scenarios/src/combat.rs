//! The combat components of ADR-006: `Health`, `Gcd` and `TargetLock`, and the
//! one ability dogs use. Time is in seconds of simulation time.

use crate::hex::Hex;
use crate::id::PlayerId;

/// Hit points. An actor at 0 is dead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Health {
    /// Current hit points.
    pub current: u32,
    /// Hit points when fully healed.
    pub max: u32,
}

impl Health {
    /// Full health of `max` points.
    pub const fn new(max: u32) -> Health {
        Health { current: max, max }
    }

    /// `true` while above 0.
    pub const fn is_alive(self) -> bool {
        self.current > 0
    }

    /// Removes up to `amount` points; returns the points actually removed.
    pub fn take_damage(&mut self, amount: u32) -> u32 {
        let dealt = amount.min(self.current);
        self.current -= dealt;
        dealt
    }
}

/// The kinds of global cooldown (ADR-006: the `GcdType` enum).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GcdType {
    /// The cooldown after an attack.
    Attack,
}

/// Global cooldown, shared by players and NPCs (ADR-006 Decision 3). Stores
/// when it ends rather than how long it lasts, so the check is `now < expires_at`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Gcd {
    /// The kind of cooldown running, `None` when none was ever started or it was cleared.
    pub gcd_type: Option<GcdType>,
    /// The time at which the cooldown ends.
    pub expires_at: f64,
}

impl Gcd {
    /// No cooldown running.
    pub const fn new() -> Gcd {
        Gcd {
            gcd_type: None,
            expires_at: 0.0,
        }
    }

    /// `true` while the cooldown runs at time `now`.
    pub fn is_active(&self, now: f64) -> bool {
        now < self.expires_at
    }

    /// Starts a cooldown of `duration` seconds at time `now`.
    pub fn activate(&mut self, gcd_type: GcdType, duration: f64, now: f64) {
        self.gcd_type = Some(gcd_type);
        self.expires_at = now + duration;
    }

    /// Ends any cooldown.
    pub fn clear(&mut self) {
        *self = Gcd::new();
    }
}

/// Sticky target acquisition (ADR-006 Decision 4, ADR-012): kept until the
/// target dies, despawns or is beyond the leash. No time limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TargetLock {
    /// The player the NPC is committed to.
    pub locked_target: PlayerId,
    /// Leash: the largest distance at which the lock holds (0 = infinite).
    pub max_chase_distance: u32,
}

impl TargetLock {
    /// A lock on `target` with leash `leash` (0 = infinite).
    pub const fn new(target: PlayerId, leash: u32) -> TargetLock {
        TargetLock {
            locked_target: target,
            max_chase_distance: leash,
        }
    }

    /// `true` when the target still exists (`target_loc` is `Some`) and is
    /// within the leash of `npc_loc`. Whether it is alive is checked apart.
    pub fn is_target_valid(&self, target_loc: Option<Hex>, npc_loc: Hex) -> bool {
        match target_loc {
            Some(loc) => self.max_chase_distance == 0 || npc_loc.distance(loc) <= self.max_chase_distance,
            None => false,
        }
    }
}

/// The abilities in this simulation (named as in JSON trees: `"BasicAttack"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Deserialize)]
pub enum Ability {
    /// The Wild Dog's bite: melee, adjacent targets only.
    BasicAttack,
}

impl Ability {
    /// The threat damage one use queues on the target.
    pub const fn damage(self) -> u32 {
        match self {
            Ability::BasicAttack => 10,
        }
    }

    /// The global cooldown it starts (ADR-006: under 0.5 s between abilities is refused).
    pub const fn gcd(self) -> (GcdType, f64) {
        match self {
            Ability::BasicAttack => (GcdType::Attack, 0.5),
        }
    }

    /// The exact distance the target must be at.
    pub const fn range(self) -> u32 {
        match self {
            Ability::BasicAttack => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gcd_runs_from_activation_until_expiry() {
        let mut gcd = Gcd::new();
        assert!(!gcd.is_active(0.0));
        gcd.activate(GcdType::Attack, 0.5, 10.0);
        assert!(gcd.is_active(10.0));
        assert!(gcd.is_active(10.49));
        assert!(!gcd.is_active(10.5));
        gcd.clear();
        assert!(!gcd.is_active(10.0));
        assert_eq!(gcd.gcd_type, None);
    }

    #[test]
    fn lock_validity_follows_the_leash() {
        let lock = TargetLock::new(PlayerId(0), 30);
        assert!(lock.is_target_valid(Some(Hex::new(30, 0)), Hex::ORIGIN));
        assert!(!lock.is_target_valid(Some(Hex::new(31, 0)), Hex::ORIGIN));
        assert!(
            !lock.is_target_valid(None, Hex::ORIGIN),
            "a despawned target is invalid"
        );
        let unleashed = TargetLock::new(PlayerId(0), 0);
        assert!(
            unleashed.is_target_valid(Some(Hex::new(1000, 0)), Hex::ORIGIN),
            "0 = infinite leash"
        );
    }

    #[test]
    fn damage_stops_at_zero() {
        let mut h = Health::new(15);
        assert_eq!(h.take_damage(10), 10);
        assert_eq!(h.take_damage(10), 5);
        assert!(!h.is_alive());
    }
}

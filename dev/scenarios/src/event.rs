//! What happens in the combat simulation, as a log: the example prints it, the
//! tests and [`Metrics`](crate::metrics::Metrics) read it.

use crate::combat::Ability;
use crate::hex::Hex;
use crate::id::{DogId, PlayerId};
use crate::reaction::ResolveReason;

/// One thing that happened, at simulation time `at`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Event {
    /// Simulation time in seconds.
    pub at: f64,
    /// What happened.
    pub kind: EventKind,
}

/// The kinds of [`Event`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EventKind {
    /// `FindOrKeepTarget` locked `dog` on `target`.
    LockAcquired {
        /// The dog.
        dog: DogId,
        /// Its new target.
        target: PlayerId,
    },
    /// `FindOrKeepTarget` dropped an invalid lock.
    LockReleased {
        /// The dog.
        dog: DogId,
        /// Its former target.
        target: PlayerId,
        /// Why the lock no longer held.
        reason: ReleaseReason,
    },
    /// `UseAbilityIfAdjacent` failed one of its checks (ADR-006 "Failure Cases").
    CheckFailed {
        /// The dog.
        dog: DogId,
        /// The check that failed.
        reason: CheckFailure,
    },
    /// The server executed an ability (ADR-004 `Do::AbilityUsed`).
    AbilityUsed {
        /// The attacker.
        dog: DogId,
        /// The player hit.
        target: PlayerId,
        /// The ability.
        ability: Ability,
    },
    /// The server refused an ability (ADR-004 `Do::AbilityFailed`).
    AbilityFailed {
        /// The would-be attacker.
        dog: DogId,
        /// The ability.
        ability: Ability,
        /// Why.
        reason: Refusal,
    },
    /// A threat entered a player's reaction queue (ADR-003 `Do::InsertThreat`).
    ThreatQueued {
        /// The player.
        player: PlayerId,
        /// The attacker.
        source: DogId,
        /// Threats waiting after the insertion (overflow already taken out).
        queued: usize,
    },
    /// An insertion filled every slot of a player's queue.
    QueueFull {
        /// The player.
        player: PlayerId,
    },
    /// A queued threat resolved and dealt its damage (ADR-005).
    ThreatResolved {
        /// The player hurt.
        player: PlayerId,
        /// The attacker.
        source: DogId,
        /// Damage dealt.
        damage: u32,
        /// Timer expiry or queue overflow.
        reason: ResolveReason,
    },
    /// A player dodged, clearing its queue.
    Dodged {
        /// The player.
        player: PlayerId,
        /// Threats cleared.
        cleared: usize,
    },
    /// A player's health reached 0.
    PlayerDied {
        /// The player.
        player: PlayerId,
    },
    /// A player left the world.
    PlayerDespawned {
        /// The player.
        player: PlayerId,
    },
    /// A player recalled far away ([`Recall`](crate::actor::Recall)).
    Recalled {
        /// The player.
        player: PlayerId,
        /// Where it stood.
        from: Hex,
        /// Where it landed.
        to: Hex,
    },
}

/// Why a target lock was released (ADR-006: only these three).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReleaseReason {
    /// The target's health reached 0.
    Died,
    /// The target left the world.
    Despawned,
    /// The target went beyond the leash.
    Leash,
}

/// Why `UseAbilityIfAdjacent` did not attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CheckFailure {
    /// The dog has no target.
    NoTarget,
    /// The global cooldown is running.
    Gcd,
    /// The target despawned.
    TargetGone,
    /// The target is not at distance 1.
    NotAdjacent,
    /// The target is outside the 60° facing cone.
    NotFacing,
}

/// Why the server refused an ability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// The caster is dead or gone.
    CasterGone,
    /// The caster's global cooldown is running ("Ability on cooldown").
    OnCooldown,
    /// The target despawned.
    TargetGone,
    /// The target is dead.
    TargetDead,
    /// The target is not at the ability's range.
    OutOfRange,
    /// The target is outside the caster's facing cone.
    NotFacing,
}

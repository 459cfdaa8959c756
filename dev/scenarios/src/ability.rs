//! The server side of an attack (ADR-004 `execute_ability`, ADR-003 threat
//! insertion and resolution, ADR-005 damage). The dogs' trees only *ask* to
//! attack; the server re-checks everything, so a misbehaving tree cannot spam.

use crate::actor::{Dog, Player, Players};
use crate::combat::Ability;
use crate::event::{Event, EventKind, Refusal};
use crate::hex::is_in_facing_cone;
use crate::id::{DogId, PlayerId};
use crate::reaction::{QueuedThreat, ResolveReason};
use crate::spatial::Occupancy;

/// A request to use an ability (ADR-004 `Try::UseAbility`), emitted by
/// `UseAbilityIfAdjacent` and executed by [`execute_ability`] in the same frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TryUseAbility {
    /// The caster.
    pub dog: DogId,
    /// What it uses.
    pub ability: Ability,
    /// On whom.
    pub target: PlayerId,
}

/// Executes and drains `tries` in order: re-checks the caster, its GCD, the
/// target, the range and the facing cone; on success starts the GCD and
/// queues a threat on the target (an overflow resolves the oldest at once).
pub fn execute_ability(
    now: f64,
    tries: &mut Vec<TryUseAbility>,
    dogs: &mut [Dog],
    players: &mut Players,
    occupancy: &mut Occupancy,
    events: &mut Vec<Event>,
) {
    for t in tries.drain(..) {
        let mut emit = |kind| events.push(Event { at: now, kind });
        let refuse = |reason| EventKind::AbilityFailed {
            dog: t.dog,
            ability: t.ability,
            reason,
        };
        let Some(dog) = dogs.get_mut(t.dog.0 as usize).filter(|d| d.health.is_alive()) else {
            emit(refuse(Refusal::CasterGone));
            continue;
        };
        if dog.gcd.is_active(now) {
            emit(refuse(Refusal::OnCooldown));
            continue;
        }
        let Some(player) = players.get_mut(t.target) else {
            emit(refuse(Refusal::TargetGone));
            continue;
        };
        let refusal = if !player.health.is_alive() {
            Some(Refusal::TargetDead)
        } else if dog.loc.distance(player.loc) != t.ability.range() {
            Some(Refusal::OutOfRange)
        } else if !is_in_facing_cone(dog.heading, dog.loc, player.loc) {
            Some(Refusal::NotFacing)
        } else {
            None
        };
        if let Some(reason) = refusal {
            emit(refuse(reason));
            continue;
        }
        let (gcd_type, gcd_duration) = t.ability.gcd();
        dog.gcd.activate(gcd_type, gcd_duration, now);
        emit(EventKind::AbilityUsed {
            dog: t.dog,
            target: t.target,
            ability: t.ability,
        });
        let overflow = player.queue.insert(t.dog, t.ability.damage(), now);
        emit(EventKind::ThreatQueued {
            player: t.target,
            source: t.dog,
            queued: player.queue.len(),
        });
        if player.queue.is_full() {
            emit(EventKind::QueueFull { player: t.target });
        }
        if let Some(oldest) = overflow {
            resolve_threat(now, player, oldest, ResolveReason::QueueOverflow, occupancy, events);
        }
    }
}

/// Resolves every threat whose timer has run out (ADR-003 `process_expired_threats`).
pub fn resolve_expired(now: f64, players: &mut Players, occupancy: &mut Occupancy, events: &mut Vec<Event>) {
    for player in players.iter_mut() {
        while let Some(threat) = player.queue.pop_expired(now) {
            resolve_threat(now, player, threat, ResolveReason::TimerExpired, occupancy, events);
        }
    }
}

/// Applies a threat's damage; a player brought to 0 dies: its queue is
/// cleared and its hex freed (the body stays in the world until it despawns).
pub fn resolve_threat(
    now: f64,
    player: &mut Player,
    threat: QueuedThreat,
    reason: ResolveReason,
    occupancy: &mut Occupancy,
    events: &mut Vec<Event>,
) {
    if !player.health.is_alive() {
        return;
    }
    let damage = player.health.take_damage(threat.damage);
    events.push(Event {
        at: now,
        kind: EventKind::ThreatResolved {
            player: player.id,
            source: threat.source,
            damage,
            reason,
        },
    });
    if !player.health.is_alive() {
        player.queue.clear();
        player.goal = None;
        occupancy.free(player.loc);
        events.push(Event {
            at: now,
            kind: EventKind::PlayerDied { player: player.id },
        });
    }
}

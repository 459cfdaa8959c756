//! The Wild Dog's brain: its context, the four leaves of ADR-006 and the tree
//! of ADR-012.

use behaved::prelude::*;

use crate::ability::TryUseAbility;
use crate::actor::{Dog, Player, Players};
use crate::combat::{Ability, TargetLock};
use crate::event::{CheckFailure, Event, EventKind, ReleaseReason};
use crate::hex::{Heading, Hex, is_in_facing_cone};
use crate::movement::approach;
use crate::spatial::{Occupancy, PlayerIndex};

/// What one dog's tree sees during a tick: its own body, the world it may
/// read, and the outboxes it writes to. Built by the world for each dog.
pub struct DogCtx<'w> {
    /// Simulation time of this frame.
    pub now: f64,
    /// The dog being ticked.
    pub dog: &'w mut Dog,
    /// Every player (read only: dogs change players only through the server).
    pub players: &'w Players,
    /// Living players by position, for target search.
    pub index: &'w PlayerIndex,
    /// Taken hexes; the dog moves itself in it.
    pub occupancy: &'w mut Occupancy,
    /// Ability requests for the server to execute this frame.
    pub tries: &'w mut Vec<TryUseAbility>,
    /// The simulation log.
    pub events: &'w mut Vec<Event>,
}

impl Clock for DogCtx<'_> {
    fn now(&self) -> f64 {
        self.now
    }
}

impl DogCtx<'_> {
    fn emit(&mut self, kind: EventKind) {
        self.events.push(Event { at: self.now, kind });
    }

    /// The player the dog targets, if it still exists.
    fn target(&self) -> Option<&Player> {
        self.players.get(self.dog.target?)
    }
}

/// What behaved-studio's inspector shows beside a dog's tree (its context, for
/// `record_context`): where the dog stands, its target, and where that
/// target is and how far: the values that say why a run failed (a target
/// beyond the 30-hex leash fails `MoveAdjacent`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct DogView {
    /// Where the dog stands.
    pub hex: Hex,
    /// The id of the player it targets.
    pub target: Option<u32>,
    /// Where that player stands (`None` without a target, or once it despawned).
    pub target_hex: Option<Hex>,
    /// How far that player is, in hexes.
    pub target_distance: Option<u32>,
}

impl DogView {
    /// `dog` among `players`.
    pub fn of(dog: &Dog, players: &Players) -> DogView {
        let prey = dog.target.and_then(|p| players.get(p));
        DogView {
            hex: dog.loc,
            target: dog.target.map(|p| p.0),
            target_hex: prey.map(|p| p.loc),
            target_distance: prey.map(|p| dog.loc.distance(p.loc)),
        }
    }
}

/// ADR-006 Decision 4: keeps a valid lock (even when another player is
/// closer); releases it only when the target died, despawned or is beyond the
/// leash; then locks on the nearest living player within `dist`. Fails when
/// there is nobody to lock on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
pub struct FindOrKeepTarget {
    /// Acquisition range, in hexes.
    pub dist: u32,
    /// Leash of new locks, in hexes (0 = infinite).
    pub leash: u32,
}

impl Action<DogCtx<'_>> for FindOrKeepTarget {
    fn tick(&mut self, ctx: &mut DogCtx<'_>) -> Status {
        if let Some(lock) = ctx.dog.lock {
            let target = ctx.players.get(lock.locked_target);
            let release = match target {
                None => Some(ReleaseReason::Despawned),
                Some(p) if !p.health.is_alive() => Some(ReleaseReason::Died),
                Some(p) if !lock.is_target_valid(Some(p.loc), ctx.dog.loc) => Some(ReleaseReason::Leash),
                Some(_) => None,
            };
            let Some(reason) = release else {
                ctx.dog.target = Some(lock.locked_target);
                return Status::Success;
            };
            ctx.dog.lock = None;
            ctx.dog.target = None;
            let dog = ctx.dog.id;
            ctx.emit(EventKind::LockReleased {
                dog,
                target: lock.locked_target,
                reason,
            });
        }
        match ctx.index.nearest_within(ctx.players, ctx.dog.loc, self.dist) {
            Some(target) => {
                ctx.dog.lock = Some(TargetLock::new(target, self.leash));
                ctx.dog.target = Some(target);
                let dog = ctx.dog.id;
                ctx.emit(EventKind::LockAcquired { dog, target });
                Status::Success
            }
            None => {
                ctx.dog.target = None;
                Status::Failure
            }
        }
    }
}

/// ADR-006 Decision 1: turns the dog toward its target (to the nearest of the
/// six headings). Fails without a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FaceTarget;

impl Action<DogCtx<'_>> for FaceTarget {
    fn tick(&mut self, ctx: &mut DogCtx<'_>) -> Status {
        let Some(target) = ctx.target().map(|p| p.loc) else {
            return Status::Failure;
        };
        if let Some(h) = Heading::towards(target - ctx.dog.loc) {
            ctx.dog.heading = h;
        }
        Status::Success
    }
}

/// ADR-006's `Nearby { min: 1, max: 1, origin: Target }` + `PathTo` in one
/// action: runs toward a free hex next to the target, one hex per movement
/// step (turning to face each step, as pathfinding does), `Running` until
/// adjacent. Fails when the target is dead, gone or beyond the lock's leash;
/// waits while every hex next to the target is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MoveAdjacent;

impl Action<DogCtx<'_>> for MoveAdjacent {
    fn tick(&mut self, ctx: &mut DogCtx<'_>) -> Status {
        let Some(goal) = ctx.target().filter(|p| p.health.is_alive()).map(|p| p.loc) else {
            return Status::Failure;
        };
        if ctx
            .dog
            .lock
            .is_some_and(|l| !l.is_target_valid(Some(goal), ctx.dog.loc))
        {
            return Status::Failure;
        }
        if ctx.dog.loc.distance(goal) <= 1 {
            return Status::Success;
        }
        if !ctx.dog.stride.ready(ctx.now) {
            return Status::Running;
        }
        let occupancy = &*ctx.occupancy;
        let Some(h) = approach(ctx.dog.loc, goal, |hex| occupancy.is_free(hex)) else {
            return Status::Running;
        };
        let to = ctx.dog.loc.neighbor(h);
        ctx.occupancy.relocate(ctx.dog.loc, to);
        ctx.dog.loc = to;
        ctx.dog.heading = h;
        ctx.dog.stride.stepped(ctx.now);
        if to.distance(goal) <= 1 {
            Status::Success
        } else {
            Status::Running
        }
    }
}

/// ADR-006 Decision 2: when the GCD is ready, the target adjacent and inside
/// the facing cone, asks the server to use `ability` on it and succeeds;
/// otherwise fails (and logs which check failed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
pub struct UseAbilityIfAdjacent {
    /// The ability to use.
    pub ability: Ability,
}

impl Action<DogCtx<'_>> for UseAbilityIfAdjacent {
    fn tick(&mut self, ctx: &mut DogCtx<'_>) -> Status {
        let failed = match check(self.ability, ctx) {
            Ok(target) => {
                let (dog, ability) = (ctx.dog.id, self.ability);
                ctx.tries.push(TryUseAbility {
                    dog,
                    ability,
                    target: target.id,
                });
                return Status::Success;
            }
            Err(reason) => reason,
        };
        let dog = ctx.dog.id;
        ctx.emit(EventKind::CheckFailed { dog, reason: failed });
        Status::Failure
    }
}

/// The checks of `UseAbilityIfAdjacent`, in ADR-006's order.
fn check<'p>(ability: Ability, ctx: &'p DogCtx<'_>) -> Result<&'p Player, CheckFailure> {
    let id = ctx.dog.target.ok_or(CheckFailure::NoTarget)?;
    if ctx.dog.gcd.is_active(ctx.now) {
        return Err(CheckFailure::Gcd);
    }
    let target = ctx.players.get(id).ok_or(CheckFailure::TargetGone)?;
    if ctx.dog.loc.distance(target.loc) != ability.range() {
        return Err(CheckFailure::NotAdjacent);
    }
    if !is_in_facing_cone(ctx.dog.heading, ctx.dog.loc, target.loc) {
        return Err(CheckFailure::NotFacing);
    }
    Ok(target)
}

behave! {
    /// The Wild Dog of ADR-012 (ADR-006 Decision 5): find or keep a target
    /// (acquire within 20 hexes, leash 30), face it, run next to it, face it
    /// again (running turned the dog), bite if the GCD, distance and facing
    /// allow, wait a second; forever.
    pub tree WildDog for DogCtx<'w> {
        loop {
            sequence {
                FindOrKeepTarget { dist: 20, leash: 30 },
                FaceTarget,
                MoveAdjacent,
                FaceTarget,
                UseAbilityIfAdjacent { ability: Ability::BasicAttack },
                wait(1.0),
            }
        }
    }
}

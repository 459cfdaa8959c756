//! The actors: players (who move, react, die or despawn) and Wild Dogs.

use crate::combat::{Gcd, Health, TargetLock};
use crate::hex::{Heading, Hex};
use crate::id::{DogId, PlayerId};
use crate::movement::Stride;
use crate::reaction::ReactionQueue;

/// Seconds per hex for a walking player.
pub const PLAYER_STEP: f64 = 0.4;
/// Seconds per hex for a running dog: faster than players, so it catches up.
pub const DOG_STEP: f64 = 0.2;
/// Hit points of a new player.
pub const PLAYER_HEALTH: u32 = 300;
/// Hit points of a new dog.
pub const DOG_HEALTH: u32 = 50;

/// A player: the dogs' prey.
#[derive(Debug, Clone, PartialEq)]
pub struct Player {
    /// Its id.
    pub id: PlayerId,
    /// Shown in logs.
    pub name: String,
    /// Where it stands.
    pub loc: Hex,
    /// Hit points; 0 is dead.
    pub health: Health,
    /// Incoming threats (ADR-003).
    pub queue: ReactionQueue,
    /// Walking cadence.
    pub stride: Stride,
    /// Where it is walking to, if anywhere.
    pub goal: Option<Hex>,
    /// Where it spawned: the centre of its wandering.
    pub home: Hex,
    /// When set, a new random goal within this radius of `home` is drawn on arrival.
    pub wander: Option<u32>,
    /// How the player uses Dodge, if at all.
    pub dodge: Option<Dodge>,
    /// How often the player recalls far away, if at all.
    pub recall: Option<Recall>,
}

impl Player {
    /// A standing player with full health and the default queue.
    pub fn new(id: PlayerId, name: impl Into<String>, loc: Hex) -> Player {
        Player {
            id,
            name: name.into(),
            loc,
            health: Health::new(PLAYER_HEALTH),
            queue: ReactionQueue::default(),
            stride: Stride::new(PLAYER_STEP),
            goal: None,
            home: loc,
            wander: None,
            dodge: None,
            recall: None,
        }
    }
}

/// A simple player reflex: Dodge (clear the whole queue) once at least
/// `min_threats` threats wait, at most once per `cooldown` seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dodge {
    /// Threats waiting before the player dodges.
    pub min_threats: usize,
    /// Seconds between dodges (stands in for the stamina cost).
    pub cooldown: f64,
    /// The earliest time of the next dodge.
    pub ready_at: f64,
}

impl Dodge {
    /// Dodges at `min_threats` threats, at most once per `cooldown` seconds.
    pub const fn new(min_threats: usize, cooldown: f64) -> Dodge {
        Dodge {
            min_threats,
            cooldown,
            ready_at: 0.0,
        }
    }
}

/// A player's escape: every `every` seconds or so (each wait drawn between
/// half and one and a half times it by the world's seeded RNG), the player
/// recalls to a hex `distance` hexes from home, in one of the six directions,
/// and walks back home from there. A recall farther than a dog's leash (30
/// hexes for the Wild Dog) breaks the lock of every dog on the player: a dog
/// running after it fails its `MoveAdjacent`, and its next run locks on
/// someone else (ADR-006: "target out of leash range").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Recall {
    /// The mean wait between two recalls, in seconds.
    pub every: f64,
    /// How far from home a recall lands, in hexes.
    pub distance: u32,
    /// The time of the next recall.
    pub next_at: f64,
}

impl Recall {
    /// Recalls `distance` hexes away about every `every` seconds; the first
    /// one's time is drawn when the world is given it.
    pub const fn new(every: f64, distance: u32) -> Recall {
        Recall {
            every,
            distance,
            next_at: f64::INFINITY,
        }
    }

    /// The wait before the next recall, given a uniform `draw` in `0..1000`.
    pub fn wait(&self, draw: u32) -> f64 {
        self.every * (0.5 + f64::from(draw) / 1000.0)
    }
}

/// A Wild Dog's body: the components ADR-006 gives it. Its brain (the tree) is kept apart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dog {
    /// Its id.
    pub id: DogId,
    /// Where it stands.
    pub loc: Hex,
    /// Where it faces.
    pub heading: Heading,
    /// Hit points; a dead dog does not think.
    pub health: Health,
    /// Global cooldown.
    pub gcd: Gcd,
    /// The player it is committed to, if any.
    pub lock: Option<TargetLock>,
    /// The player it is acting on (ADR-006 `Target`), set from the lock.
    pub target: Option<PlayerId>,
    /// Running cadence.
    pub stride: Stride,
}

impl Dog {
    /// A healthy dog with no target.
    pub fn new(id: DogId, loc: Hex) -> Dog {
        Dog {
            id,
            loc,
            heading: Heading::default(),
            health: Health::new(DOG_HEALTH),
            gcd: Gcd::new(),
            lock: None,
            target: None,
            stride: Stride::new(DOG_STEP),
        }
    }
}

/// Every player ever spawned, by id; despawned ones leave an empty slot.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Players {
    slots: Vec<Option<Player>>,
}

impl Players {
    /// No players.
    pub fn new() -> Players {
        Players::default()
    }

    /// Adds a player built from its new id; returns the id.
    pub fn spawn(&mut self, make: impl FnOnce(PlayerId) -> Player) -> PlayerId {
        let id = PlayerId(self.slots.len() as u32);
        self.slots.push(Some(make(id)));
        id
    }

    /// Removes a player; returns it, or `None` if it was not there.
    pub fn despawn(&mut self, id: PlayerId) -> Option<Player> {
        self.slots.get_mut(id.0 as usize)?.take()
    }

    /// The player with `id`, unless it never existed or despawned.
    pub fn get(&self, id: PlayerId) -> Option<&Player> {
        self.slots.get(id.0 as usize)?.as_ref()
    }

    /// The player with `id`, mutably.
    pub fn get_mut(&mut self, id: PlayerId) -> Option<&mut Player> {
        self.slots.get_mut(id.0 as usize)?.as_mut()
    }

    /// The players present (alive or dead), in id order.
    pub fn iter(&self) -> impl Iterator<Item = &Player> {
        self.slots.iter().flatten()
    }

    /// The players present, mutably, in id order.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Player> {
        self.slots.iter_mut().flatten()
    }

    /// Number of ids ever given out (present or not).
    pub fn id_count(&self) -> usize {
        self.slots.len()
    }
}

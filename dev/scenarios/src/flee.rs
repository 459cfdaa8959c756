//! ClosureBT's reactive example: flee while the player is closer than 2 until
//! farther than 5, otherwise walk to the centre and idle.
//!
//! Written as ClosureBT writes it: a node-local `distance`, updated by an
//! `on_pre_tick` hook on every tick, and a `latch` ("once fleeing, keep
//! fleeing until farther than 5"): its condition is checked only while the
//! flee is idle. The branches sit in a `reactive selector`, so the latch's
//! condition is checked on every tick while the walk runs, and the walk is
//! halted the moment it holds.

use behaved::prelude::*;

use crate::hex::Hex;
use crate::movement::{step_away, step_toward};

/// The player closer than this (in hexes) scares the NPC.
pub const FLEE_BELOW: u32 = 2;
/// Once fleeing, the NPC stops when the player is farther than this.
pub const SAFE_BEYOND: u32 = 5;
/// The NPC never leaves this radius around the centre.
pub const ARENA_RADIUS: u32 = 12;

/// What the NPC did, for logs and tests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FleeEvent {
    /// Began (or resumed) walking to the centre.
    WalkStarted {
        /// Time.
        at: f64,
    },
    /// Reached the centre.
    Arrived {
        /// Time.
        at: f64,
    },
    /// The walk was interrupted.
    WalkHalted {
        /// Time.
        at: f64,
        /// Where the NPC stopped.
        loc: Hex,
    },
    /// Began fleeing.
    FleeStarted {
        /// Time.
        at: f64,
    },
    /// Got farther than [`SAFE_BEYOND`] from the player.
    FleeEnded {
        /// Time.
        at: f64,
    },
    /// One hex moved.
    Stepped {
        /// Time.
        at: f64,
        /// The hex reached.
        loc: Hex,
    },
}

/// The scene: one skittish NPC, one player.
#[derive(Debug, Clone, PartialEq)]
pub struct FleeCtx {
    /// Time in seconds.
    pub now: f64,
    /// Where the NPC stands.
    pub npc: Hex,
    /// Where the player stands.
    pub player: Hex,
    /// Where the NPC idles.
    pub centre: Hex,
    /// Seconds per hex for the NPC.
    pub step_every: f64,
    /// What the NPC did.
    pub log: Vec<FleeEvent>,
}

impl FleeCtx {
    /// A scene at time 0.
    pub fn new(npc: Hex, player: Hex, centre: Hex, step_every: f64) -> FleeCtx {
        FleeCtx {
            now: 0.0,
            npc,
            player,
            centre,
            step_every,
            log: Vec::new(),
        }
    }

    /// Hexes between the NPC and the player.
    pub fn player_distance(&self) -> u32 {
        self.npc.distance(self.player)
    }

    fn step(&mut self, to: Hex) {
        self.npc = to;
        self.log.push(FleeEvent::Stepped { at: self.now, loc: to });
    }
}

impl Clock for FleeCtx {
    fn now(&self) -> f64 {
        self.now
    }
}

/// Runs from the player one hex per step (the first at once), staying in the
/// arena; `Running` until the player is farther than [`SAFE_BEYOND`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Flee {
    next_step_at: f64,
}

impl Action<FleeCtx> for Flee {
    fn enter(&mut self, ctx: &mut FleeCtx) {
        self.next_step_at = ctx.now;
        ctx.log.push(FleeEvent::FleeStarted { at: ctx.now });
    }

    fn tick(&mut self, ctx: &mut FleeCtx) -> Status {
        if ctx.player_distance() > SAFE_BEYOND {
            ctx.log.push(FleeEvent::FleeEnded { at: ctx.now });
            return Status::Success;
        }
        if ctx.now >= self.next_step_at {
            let centre = ctx.centre;
            if let Some(h) = step_away(ctx.npc, ctx.player, |n| n.distance(centre) <= ARENA_RADIUS) {
                ctx.step(ctx.npc.neighbor(h));
                self.next_step_at = ctx.now + ctx.step_every;
            }
        }
        Status::Running
    }
}

/// Walks to the centre one hex per step (the first at once); `Running` until there.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct WalkToCentre {
    next_step_at: f64,
}

impl Action<FleeCtx> for WalkToCentre {
    fn enter(&mut self, ctx: &mut FleeCtx) {
        self.next_step_at = ctx.now;
        ctx.log.push(FleeEvent::WalkStarted { at: ctx.now });
    }

    fn tick(&mut self, ctx: &mut FleeCtx) -> Status {
        if ctx.npc != ctx.centre && ctx.now >= self.next_step_at {
            if let Some(h) = step_toward(ctx.npc, ctx.centre, |_| true) {
                ctx.step(ctx.npc.neighbor(h));
            }
            self.next_step_at = ctx.now + ctx.step_every;
        }
        if ctx.npc == ctx.centre {
            ctx.log.push(FleeEvent::Arrived { at: ctx.now });
            Status::Success
        } else {
            Status::Running
        }
    }

    fn halt(&mut self, ctx: &mut FleeCtx) {
        ctx.log.push(FleeEvent::WalkHalted {
            at: ctx.now,
            loc: ctx.npc,
        });
    }
}

behave! {
    /// ClosureBT's reactive flee: the distance to the player, read on every
    /// tick; a latched flee (until farther than [`SAFE_BEYOND`]) while it is
    /// below [`FLEE_BELOW`]; otherwise the walk to the centre, then idling.
    pub tree Skittish for FleeCtx {
        scope {
            let distance: u32 = 0;
            #[on_pre_tick(|c| *distance = c.player_distance())]
            loop {
                reactive selector {
                    latch(|_| *distance < FLEE_BELOW) { Flee::default() },
                    sequence { WalkToCentre::default(), running },
                }
            }
        }
    }
}

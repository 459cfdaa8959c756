//! T2, the guard NPC of ADR-017, ticked continuously: every tick the guard
//! re-evaluates his priorities from the top (ADR-017's evaluate loop, i.e. a
//! reactive selector) and says the line of the first branch that applies:
//!
//! ```text
//! reactive selector
//! ├── sequence          quest: brush the player off
//! ├── reactive sequence night: at the post say the night line, else walk there (Running)
//! │   └── reactive selector { sequence { at post, say }, move to post }
//! ├── sequence          the player has a bribe
//! └── say default
//! ```
//!
//! The scripted context changes every tick so that every branch wins in turn
//! and the walk is interrupted (halted) by the quest and by dawn. The same tree
//! compiled by `behave!` and written by hand; `tests/twin_guard.rs` checks they
//! agree.
#![allow(dead_code)]

use bt::prelude::*;

/// The lines the guard can say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum Line {
    /// The quest's brush-off.
    #[default]
    BrushOff,
    /// The night line, at his post.
    Night,
    /// The bribe line.
    Bribe,
    /// The default line.
    Default,
}

/// What the guard knows of the world, and what he did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GuardCtx {
    /// The player is on the quest stage the guard reacts to.
    pub quest_active: bool,
    /// It is night.
    pub night: bool,
    /// The player carries a bribe.
    pub has_bribe: bool,
    /// Hexes between the guard and his post.
    pub dist_to_post: u32,
    /// How often each [`Line`] was said.
    pub said: [u32; 4],
    /// Walks started (the move's `enter` hook).
    pub walks: u32,
    /// Walks interrupted (the move's `halt` hook).
    pub interrupted: u32,
}

/// Is the player on the quest stage?
#[derive(Debug, Clone, Copy, Default)]
pub struct QuestActive;
impl Condition<GuardCtx> for QuestActive {
    #[inline]
    fn check(&self, ctx: &GuardCtx) -> bool {
        ctx.quest_active
    }
}

/// Is it night?
#[derive(Debug, Clone, Copy, Default)]
pub struct IsNight;
impl Condition<GuardCtx> for IsNight {
    #[inline]
    fn check(&self, ctx: &GuardCtx) -> bool {
        ctx.night
    }
}

/// Is the guard at his post?
#[derive(Debug, Clone, Copy, Default)]
pub struct AtPost;
impl Condition<GuardCtx> for AtPost {
    #[inline]
    fn check(&self, ctx: &GuardCtx) -> bool {
        ctx.dist_to_post == 0
    }
}

/// Does the player carry a bribe?
#[derive(Debug, Clone, Copy, Default)]
pub struct HasBribe;
impl Condition<GuardCtx> for HasBribe {
    #[inline]
    fn check(&self, ctx: &GuardCtx) -> bool {
        ctx.has_bribe
    }
}

/// Says a line (ADR-017's `dialogue` action): always succeeds.
#[derive(Debug, Clone, Copy, Default)]
pub struct Say(pub Line);
impl Action<GuardCtx> for Say {
    #[inline]
    fn tick(&mut self, ctx: &mut GuardCtx) -> Status {
        ctx.said[self.0 as usize] += 1;
        Status::Success
    }
}

/// Walks one hex per tick towards the post (ADR-017's `moveTo`): Running
/// until the step that arrives, which succeeds.
#[derive(Debug, Clone, Copy, Default)]
pub struct MoveToPost;
impl Action<GuardCtx> for MoveToPost {
    #[inline]
    fn enter(&mut self, ctx: &mut GuardCtx) {
        ctx.walks += 1;
    }
    #[inline]
    fn tick(&mut self, ctx: &mut GuardCtx) -> Status {
        if ctx.dist_to_post == 0 {
            return Status::Success;
        }
        ctx.dist_to_post -= 1;
        if ctx.dist_to_post == 0 {
            Status::Success
        } else {
            Status::Running
        }
    }
    #[inline]
    fn halt(&mut self, ctx: &mut GuardCtx) {
        ctx.interrupted += 1;
    }
}

behave! {
    /// T2 compiled.
    pub tree Guard for GuardCtx {
        reactive selector {
            sequence { cond(QuestActive), Say(Line::BrushOff) },
            reactive sequence {
                cond(IsNight),
                reactive selector {
                    sequence { cond(AtPost), Say(Line::Night) },
                    MoveToPost,
                },
            },
            sequence { cond(HasBribe), Say(Line::Bribe) },
            Say(Line::Default),
        }
    }
}

/// T2 written by hand, correct for any leaf statuses. Conditions never run,
/// so at most one action is Running at a time and the whole control state is
/// which one: every resume point of the tree follows from it.
#[derive(Debug)]
pub struct GuardByHand {
    running: u8,
    brush_off: Say,
    night: Say,
    walk: MoveToPost,
    bribe: Say,
    default: Say,
}

impl Default for GuardByHand {
    fn default() -> Self {
        GuardByHand {
            running: IDLE,
            brush_off: Say(Line::BrushOff),
            night: Say(Line::Night),
            walk: MoveToPost,
            bribe: Say(Line::Bribe),
            default: Say(Line::Default),
        }
    }
}

/// Values of `GuardByHand::running`: no action, or the action of that branch.
const IDLE: u8 = 0;
const BRUSH_OFF: u8 = 1;
const NIGHT: u8 = 2;
const WALK: u8 = 3;
const BRIBE: u8 = 4;
const DEFAULT: u8 = 5;

impl GuardByHand {
    /// Ticks once.
    #[inline]
    pub fn tick(&mut self, ctx: &mut GuardCtx) -> Status {
        let was = self.running;
        // Branch 0: sequence { quest, brush-off }, resumed at the action if it runs.
        let s = if was == BRUSH_OFF {
            self.brush_off.tick(ctx)
        } else if QuestActive.check(ctx) {
            enter_tick(&mut self.brush_off, ctx)
        } else {
            Status::Failure
        };
        if s != Status::Failure {
            self.halt_if_after(ctx, was, BRUSH_OFF);
            return self.finish(s, BRUSH_OFF);
        }
        // Branch 1: reactive sequence { night, reactive selector { sequence { at post, say }, walk } }.
        let s = if IsNight.check(ctx) {
            let at_post = if was == NIGHT {
                self.night.tick(ctx)
            } else if AtPost.check(ctx) {
                enter_tick(&mut self.night, ctx)
            } else {
                Status::Failure
            };
            match at_post {
                Status::Failure => {
                    let s = if was == WALK {
                        self.walk.tick(ctx)
                    } else {
                        enter_tick(&mut self.walk, ctx)
                    };
                    self.running = if s == Status::Running { WALK } else { IDLE };
                    s
                }
                s => {
                    if was == WALK {
                        self.walk.halt(ctx);
                    }
                    self.running = if s == Status::Running { NIGHT } else { IDLE };
                    s
                }
            }
        } else {
            if was == NIGHT || was == WALK {
                self.halt(ctx, was);
            }
            Status::Failure
        };
        if s != Status::Failure {
            self.halt_if_after(ctx, was, WALK);
            return s;
        }
        // Branch 2: sequence { bribe, say }.
        let s = if was == BRIBE {
            self.bribe.tick(ctx)
        } else if HasBribe.check(ctx) {
            enter_tick(&mut self.bribe, ctx)
        } else {
            Status::Failure
        };
        if s != Status::Failure {
            self.halt_if_after(ctx, was, BRIBE);
            return self.finish(s, BRIBE);
        }
        // Branch 3: the default line.
        let s = if was == DEFAULT {
            self.default.tick(ctx)
        } else {
            enter_tick(&mut self.default, ctx)
        };
        self.finish(s, DEFAULT)
    }

    /// Records whether `action` is left running.
    #[inline(always)]
    fn finish(&mut self, s: Status, action: u8) -> Status {
        self.running = if s == Status::Running { action } else { IDLE };
        s
    }

    /// The reactive root settled on a branch: halts the action of a later branch if it ran.
    #[inline(always)]
    fn halt_if_after(&mut self, ctx: &mut GuardCtx, was: u8, last_of_branch: u8) {
        if was > last_of_branch {
            self.halt(ctx, was);
        }
    }

    #[inline(never)]
    fn halt(&mut self, ctx: &mut GuardCtx, action: u8) {
        match action {
            BRUSH_OFF => self.brush_off.halt(ctx),
            NIGHT => self.night.halt(ctx),
            WALK => self.walk.halt(ctx),
            BRIBE => self.bribe.halt(ctx),
            DEFAULT => self.default.halt(ctx),
            _ => {}
        }
    }
}

#[inline(always)]
fn enter_tick<A: Action<GuardCtx>>(leaf: &mut A, ctx: &mut GuardCtx) -> Status {
    leaf.enter(ctx);
    leaf.tick(ctx)
}

/// Ticks of a day: night falls at tick 48, day breaks at 0.
pub const DAY: u32 = 64;

/// The scripted world at tick `tick`: at dawn the guard is sent 6 to 17 hexes
/// off his post; night falls at tick 48 of each day (so the longest walks are
/// cut short by dawn); the quest comes up for a few ticks every day and now
/// and then at night; the player shows a bribe one tick in five.
pub fn script(tick: u32, ctx: &mut GuardCtx) {
    let t = tick % DAY;
    if t == 0 {
        ctx.dist_to_post = 6 + tick / DAY % 12;
    }
    ctx.night = t >= 48;
    ctx.quest_active = (10..14).contains(&t) || tick.is_multiple_of(29);
    ctx.has_bribe = tick % 5 == 2;
}

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

use behaved::prelude::*;

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

/// T2 written by hand, correct for any leaf statuses: one resume point per
/// composite (running child + 1, 0 when idle), as plain fields and methods.
/// (A variant that kept only "which action runs", in one byte, executed fewer
/// instructions but took about 30% longer per tick.)
#[derive(Debug)]
pub struct GuardByHand {
    root: u8,
    quest: u8,
    night: u8,
    post: u8,
    at_post: u8,
    bribe: u8,
    brush_off_line: Say,
    night_line: Say,
    walk: MoveToPost,
    bribe_line: Say,
    default_line: Say,
}

impl Default for GuardByHand {
    fn default() -> Self {
        GuardByHand {
            root: 0,
            quest: 0,
            night: 0,
            post: 0,
            at_post: 0,
            bribe: 0,
            brush_off_line: Say(Line::BrushOff),
            night_line: Say(Line::Night),
            walk: MoveToPost,
            bribe_line: Say(Line::Bribe),
            default_line: Say(Line::Default),
        }
    }
}

/// `resume` for a child that returned `s`: `k` if it runs, 0 otherwise.
#[inline(always)]
fn resume_at(s: Status, k: u8) -> u8 {
    if s == Status::Running { k } else { 0 }
}

/// `sequence { cond(c), action }` with its resume point.
#[inline(always)]
fn guarded<C: Condition<GuardCtx>, A: Action<GuardCtx>>(
    resume: &mut u8,
    c: C,
    action: &mut A,
    ctx: &mut GuardCtx,
) -> Status {
    let s = if *resume == 2 {
        action.tick(ctx)
    } else if c.check(ctx) {
        action.enter(ctx);
        action.tick(ctx)
    } else {
        return Status::Failure;
    };
    *resume = resume_at(s, 2);
    s
}

impl GuardByHand {
    /// Ticks once: the reactive root.
    #[inline(always)]
    pub fn tick(&mut self, ctx: &mut GuardCtx) -> Status {
        let r = self.root;
        let s = guarded(&mut self.quest, QuestActive, &mut self.brush_off_line, ctx);
        if s != Status::Failure {
            return self.settle(ctx, r, s, 1);
        }
        let s = self.night_branch(ctx);
        if s != Status::Failure {
            return self.settle(ctx, r, s, 2);
        }
        let s = guarded(&mut self.bribe, HasBribe, &mut self.bribe_line, ctx);
        if s != Status::Failure {
            return self.settle(ctx, r, s, 3);
        }
        let s = if r == 4 {
            self.default_line.tick(ctx)
        } else {
            self.default_line.enter(ctx);
            self.default_line.tick(ctx)
        };
        self.settle(ctx, r, s, 4)
    }

    /// The root settles on child `k` (1-based): halts a later child that ran.
    #[inline(always)]
    fn settle(&mut self, ctx: &mut GuardCtx, r: u8, s: Status, k: u8) -> Status {
        if r > k {
            self.halt_root_child(ctx, r);
        }
        self.root = resume_at(s, k);
        s
    }

    /// `reactive sequence { cond(IsNight), reactive selector { sequence { cond(AtPost), say }, walk } }`.
    #[inline(always)]
    fn night_branch(&mut self, ctx: &mut GuardCtx) -> Status {
        if !IsNight.check(ctx) {
            if self.night == 2 {
                self.halt_post(ctx);
            }
            self.night = 0;
            return Status::Failure;
        }
        let r = self.post;
        let s = guarded(&mut self.at_post, AtPost, &mut self.night_line, ctx);
        let s = if s != Status::Failure {
            if r == 2 {
                self.walk.halt(ctx);
            }
            self.post = resume_at(s, 1);
            s
        } else {
            let s = if r == 2 {
                self.walk.tick(ctx)
            } else {
                self.walk.enter(ctx);
                self.walk.tick(ctx)
            };
            self.post = resume_at(s, 2);
            s
        };
        self.night = resume_at(s, 2);
        s
    }

    /// Halts the running child `r` (1-based) of the root.
    #[inline(never)]
    fn halt_root_child(&mut self, ctx: &mut GuardCtx, r: u8) {
        match r {
            1 => halt_guarded(&mut self.quest, &mut self.brush_off_line, ctx),
            2 => {
                if self.night == 2 {
                    self.halt_post(ctx);
                }
                self.night = 0;
            }
            3 => halt_guarded(&mut self.bribe, &mut self.bribe_line, ctx),
            _ => self.default_line.halt(ctx),
        }
    }

    /// Halts the running reactive selector of the night branch.
    #[inline(never)]
    fn halt_post(&mut self, ctx: &mut GuardCtx) {
        match self.post {
            1 => halt_guarded(&mut self.at_post, &mut self.night_line, ctx),
            2 => self.walk.halt(ctx),
            _ => {}
        }
        self.post = 0;
    }
}

/// Halts a running `sequence { cond, action }` (only the action can run).
fn halt_guarded<A: Action<GuardCtx>>(resume: &mut u8, action: &mut A, ctx: &mut GuardCtx) {
    if *resume == 2 {
        action.halt(ctx);
    }
    *resume = 0;
}

/// Ticks of a day: night falls at tick 48, day breaks at 0.
pub const DAY: u32 = 64;

/// The scripted world at tick `tick`: at dawn the guard is sent 6 to 17 hexes
/// off his post; night falls at tick 48 of each day (so the longest walks are
/// cut short by dawn); the quest comes up for a few ticks every day and now
/// and then at night; the player shows a bribe one tick in five.
// Inlinable into the benches as when the trees were compiled into them (a crate
// of its own since), so the script costs what it did.
#[inline]
pub fn script(tick: u32, ctx: &mut GuardCtx) {
    let t = tick % DAY;
    if t == 0 {
        ctx.dist_to_post = 6 + tick / DAY % 12;
    }
    ctx.night = t >= 48;
    ctx.quest_active = (10..14).contains(&t) || tick.is_multiple_of(29);
    ctx.has_bribe = tick % 5 == 2;
}

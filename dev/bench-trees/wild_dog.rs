//! T1, the Wild Dog of ADR-006/ADR-012, with cheap leaves on a small context:
//! `loop { sequence { find target, face, move adjacent, face, attack if adjacent, wait(1) } }`.
//! The same tree compiled by `behave!` and written by hand against the runtime
//! (the speed limit for this design); `tests/twin.rs` checks they agree.

use behaved::prelude::*;

/// The dog's view of the world.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DogCtx {
    /// Game time in seconds.
    pub now: f64,
    /// Whether a target is in range.
    pub has_target: bool,
    /// Hexes to the target.
    pub dist: u32,
    /// Whether the dog faces its target.
    pub facing: bool,
    /// Attacks made.
    pub attacks: u32,
}

impl Clock for DogCtx {
    fn now(&self) -> f64 {
        self.now
    }
}

/// Succeeds while a target is in range.
#[derive(Debug, Clone, Copy, Default)]
pub struct FindTarget;
impl Condition<DogCtx> for FindTarget {
    #[inline]
    fn check(&self, ctx: &DogCtx) -> bool {
        ctx.has_target
    }
}

/// Turns to the target.
#[derive(Debug, Clone, Copy, Default)]
pub struct FaceTarget;
impl Action<DogCtx> for FaceTarget {
    #[inline]
    fn tick(&mut self, ctx: &mut DogCtx) -> Status {
        ctx.facing = true;
        Status::Success
    }
}

/// One hex per tick until adjacent; moving breaks the facing.
#[derive(Debug, Clone, Copy, Default)]
pub struct MoveAdjacent;
impl Action<DogCtx> for MoveAdjacent {
    #[inline]
    fn tick(&mut self, ctx: &mut DogCtx) -> Status {
        if ctx.dist <= 1 {
            return Status::Success;
        }
        ctx.dist -= 1;
        ctx.facing = false;
        Status::Running
    }
}

/// Attacks when adjacent and facing; the target then backs off.
#[derive(Debug, Clone, Copy, Default)]
pub struct AttackIfAdjacent;
impl Action<DogCtx> for AttackIfAdjacent {
    #[inline]
    fn tick(&mut self, ctx: &mut DogCtx) -> Status {
        if ctx.dist == 1 && ctx.facing {
            ctx.attacks += 1;
            ctx.dist = 3;
            Status::Success
        } else {
            Status::Failure
        }
    }
}

behave! {
    /// T1 compiled.
    pub tree WildDog for DogCtx {
        loop {
            sequence {
                cond(FindTarget),
                FaceTarget,
                MoveAdjacent,
                FaceTarget,
                AttackIfAdjacent,
                wait(1.0),
            }
        }
    }
}

/// T1 written by hand: the same state (a loop flag, a resume point, a wait
/// start) and the same calls, in plain Rust.
#[derive(Debug, Default)]
pub struct WildDogByHand {
    running: bool,
    body_running: bool,
    resume: u8,
    wait_start: f64,
    face1: FaceTarget,
    move_adjacent: MoveAdjacent,
    face2: FaceTarget,
    attack: AttackIfAdjacent,
}

impl WildDogByHand {
    /// Ticks once at time `now`.
    #[inline]
    pub fn tick_at(&mut self, ctx: &mut DogCtx, now: f64) -> Status {
        let mut fresh = !self.body_running;
        loop {
            match self.sequence(ctx, now) {
                Status::Running => {
                    self.body_running = true;
                    self.running = true;
                    return Status::Running;
                }
                _ => {
                    self.body_running = false;
                    if fresh {
                        self.running = true;
                        return Status::Running;
                    }
                    fresh = true;
                }
            }
        }
    }

    /// The sequence, resuming at `self.resume` (running child + 1, 0 when idle).
    #[inline(always)]
    fn sequence(&mut self, ctx: &mut DogCtx, now: f64) -> Status {
        let r = self.resume;
        macro_rules! step {
            ($index:literal, $tick:expr) => {
                if r <= $index {
                    match $tick {
                        Status::Success => {}
                        status => {
                            self.resume = if status == Status::Running { $index } else { 0 };
                            return status;
                        }
                    }
                }
            };
        }
        step!(1, Status::from(FindTarget.check(ctx)));
        step!(2, action(&mut self.face1, ctx, r != 2));
        step!(3, action(&mut self.move_adjacent, ctx, r != 3));
        step!(4, action(&mut self.face2, ctx, r != 4));
        step!(5, action(&mut self.attack, ctx, r != 5));
        step!(6, {
            if r != 6 {
                self.wait_start = now;
                Status::Running
            } else if now - self.wait_start >= 1.0 {
                Status::Success
            } else {
                Status::Running
            }
        });
        self.resume = 0;
        Status::Success
    }

    /// Halts whatever runs; only the move can be running among the actions.
    pub fn reset(&mut self, ctx: &mut DogCtx) {
        if self.resume == 3 {
            self.move_adjacent.halt(ctx);
        }
        *self = WildDogByHand {
            face1: self.face1,
            move_adjacent: self.move_adjacent,
            ..Default::default()
        };
    }
}

#[inline(always)]
fn action<A: Action<DogCtx>>(leaf: &mut A, ctx: &mut DogCtx, entering: bool) -> Status {
    if entering {
        leaf.enter(ctx);
    }
    leaf.tick(ctx)
}

/// Seconds per tick: 8 Hz, a power of two, so that peers that accumulate time
/// step by step (bonsai-bt's `Wait`) see exactly the same instants.
pub const DT: f64 = 0.125;

/// The scripted world at tick `tick` (8 Hz): the target comes and goes.
// Inlinable into the benches as when the trees were compiled into them (a crate
// of its own since), so the script costs what it did.
#[inline]
pub fn script(tick: u32, ctx: &mut DogCtx) {
    ctx.now = f64::from(tick) * DT;
    ctx.has_target = tick % 97 < 80;
}

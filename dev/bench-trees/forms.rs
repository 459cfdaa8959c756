//! What the benches compare: a [`Workload`] (a tree's context and the
//! scripted world that changes it every tick) and the [`Form`]s that tick the
//! tree on it (compiled, hand-written, peers, interpreter). The benches, the
//! footprint report and the differential tests all go through these two traits,
//! so every form is driven by exactly the same loop. The compiled and
//! interpreted forms are [`Tree`]s and tick through that trait; only the
//! hand-written twins and the peers, which are not trees of this library,
//! have `Form` impls of their own.

use behaved::prelude::*;

use super::guard::{Guard, GuardByHand, GuardCtx};
use super::squad::{Squad, SquadByHand, SquadCtx};
use super::synthetic::{SynCtx, Synthetic, SyntheticByHand};
use super::wild_dog::{DogCtx, WildDog, WildDogByHand};

/// One of the benchmark trees: its context and scripted world.
pub trait Workload {
    /// The tree's context.
    type Ctx: Clone;
    /// Short name (`t1_wild_dog`, ..).
    const NAME: &'static str;
    /// The context before the first tick.
    fn context() -> Self::Ctx;
    /// Updates the world for tick number `tick`; returns the tick's time.
    fn step(tick: u32, ctx: &mut Self::Ctx) -> f64;
}

/// A way of ticking a workload's tree: every [`Tree`] (`Tree::tick_at`), the
/// hand-written twins and the peers.
pub trait Form<C> {
    /// Ticks once at time `now`. Peers whose root is wrapped so that it never
    /// finishes always report `Running`.
    fn tick(&mut self, ctx: &mut C, now: f64) -> Status;
}

/// T1: the Wild Dog.
pub struct T1;
impl Workload for T1 {
    type Ctx = DogCtx;
    const NAME: &'static str = "t1_wild_dog";
    fn context() -> DogCtx {
        DogCtx {
            dist: 5,
            ..DogCtx::default()
        }
    }
    #[inline(always)]
    fn step(tick: u32, ctx: &mut DogCtx) -> f64 {
        super::wild_dog::script(tick, ctx);
        ctx.now
    }
}

/// T2: the guard.
pub struct T2;
impl Workload for T2 {
    type Ctx = GuardCtx;
    const NAME: &'static str = "t2_guard";
    fn context() -> GuardCtx {
        GuardCtx::default()
    }
    #[inline(always)]
    fn step(tick: u32, ctx: &mut GuardCtx) -> f64 {
        super::guard::script(tick, ctx);
        0.0
    }
}

/// T3: the synthetic tree.
pub struct T3;
impl Workload for T3 {
    type Ctx = SynCtx;
    const NAME: &'static str = "t3_synthetic";
    fn context() -> SynCtx {
        SynCtx::default()
    }
    #[inline(always)]
    fn step(tick: u32, ctx: &mut SynCtx) -> f64 {
        ctx.tick = tick;
        0.0
    }
}

/// T4: the squad soldier (10 Hz).
pub struct T4;
impl Workload for T4 {
    type Ctx = SquadCtx;
    const NAME: &'static str = "t4_squad";
    fn context() -> SquadCtx {
        SquadCtx::default()
    }
    #[inline(always)]
    fn step(tick: u32, ctx: &mut SquadCtx) -> f64 {
        super::squad::script(tick, ctx);
        f64::from(tick) * super::squad::DT
    }
}

impl<C, T: Tree<C>> Form<C> for T {
    #[inline(always)]
    fn tick(&mut self, ctx: &mut C, now: f64) -> Status {
        self.tick_at(ctx, now)
    }
}

impl Form<DogCtx> for WildDogByHand {
    #[inline(always)]
    fn tick(&mut self, ctx: &mut DogCtx, now: f64) -> Status {
        self.tick_at(ctx, now)
    }
}

impl Form<GuardCtx> for GuardByHand {
    #[inline(always)]
    fn tick(&mut self, ctx: &mut GuardCtx, _now: f64) -> Status {
        GuardByHand::tick(self, ctx)
    }
}

impl Form<SynCtx> for SyntheticByHand {
    #[inline(always)]
    fn tick(&mut self, ctx: &mut SynCtx, _now: f64) -> Status {
        SyntheticByHand::tick(self, ctx)
    }
}

impl Form<SquadCtx> for SquadByHand {
    #[inline(always)]
    fn tick(&mut self, ctx: &mut SquadCtx, now: f64) -> Status {
        self.tick_at(ctx, now)
    }
}

/// The compiled form of each workload.
pub fn compiled_t1() -> WildDog {
    WildDog::new()
}
/// T2 compiled.
pub fn compiled_t2() -> Guard {
    Guard::new()
}
/// T3 compiled.
pub fn compiled_t3() -> Synthetic {
    Synthetic::new()
}

/// T4 compiled.
pub fn compiled_t4() -> Squad {
    Squad::new()
}

/// Ticks `reference` and `other` side by side on two fresh contexts for
/// `ticks` ticks, asserting the same status and context after every tick
/// (the twin and interpreter tests); returns the last context and the
/// statuses seen (Success, Failure, Running).
pub fn identical<W: Workload, R: Form<W::Ctx>, O: Form<W::Ctx>>(
    mut reference: R,
    mut other: O,
    ticks: u32,
) -> (W::Ctx, [u32; 3])
where
    W::Ctx: std::fmt::Debug + PartialEq,
{
    let (mut a, mut b) = (W::context(), W::context());
    let mut seen = [0; 3];
    for tick in 0..ticks {
        let (now_a, now_b) = (W::step(tick, &mut a), W::step(tick, &mut b));
        let (x, y) = (reference.tick(&mut a, now_a), other.tick(&mut b, now_b));
        assert_eq!((x, &a), (y, &b), "{} at tick {tick}", W::NAME);
        seen[x as usize] += 1;
    }
    (a, seen)
}

/// Runs `ticks` ticks of `form` from tick `from`, returning the statuses seen
/// (Success, Failure, Running).
pub fn run<W: Workload, F: Form<W::Ctx>>(form: &mut F, ctx: &mut W::Ctx, from: u32, ticks: u32) -> [u32; 3] {
    let mut seen = [0; 3];
    for tick in from..from + ticks {
        let now = W::step(tick, ctx);
        seen[form.tick(ctx, now) as usize] += 1;
    }
    seen
}

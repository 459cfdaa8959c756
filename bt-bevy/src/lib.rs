//! Behavior trees on Bevy NPCs (ADR-017): the tree is a [`Behavior`]
//! component on the NPC entity itself (no entity per leaf), ticked by one
//! system in parallel on a context that your [`Brain`] builds from the NPC's
//! own components and read-only world data.
//!
//! Two modes, as ADR-017 has them:
//!
//! - **Continuous** ([`Behavior::continuous`], with an optional
//!   [`every`](Behavior::every) tick interval): ticked when due. Due-ness is
//!   kept by a [`behaved_sched::Scheduler`] of entities (the [`Behaviors`]
//!   resource): a tree that reports it has nothing to do before a time
//!   ([`Wake`]: it is in a `wait`, or only a `running` leaf runs) sleeps in
//!   its timer wheel until then. A frame costs what its due trees cost:
//!   sleeping trees are not visited at all, and sleeping changes no
//!   archetype and marks no component changed. [`Behaviors::wake`] ends a
//!   sleep early (an event the tree should see).
//! - **On interaction** ([`Behavior::on_interaction`]): never ticked by
//!   frames; an [`Interact`] message runs the tree to completion through
//!   [`Brain::evaluate`], and the choice comes back as an [`Answer`]
//!   message (ADR-017's `evaluateForInteraction`).
//!
//! Time is the [`BehaviorClock`] resource: it advances by its `step` before
//! each update (set `step` to 0 and write `now` yourself to follow another
//! clock). Times never go backwards.
//!
//! ```
//! use bevy_app::App;
//! use bevy_ecs::prelude::*;
//! use bevy_ecs::query::QueryItem;
//! use bevy_ecs::system::SystemParamItem;
//! use behaved::prelude::*;
//! use behaved_bevy::{Behavior, BehaviorPlugin, Brain, Ticked};
//!
//! #[derive(Component, Default)]
//! struct Barks(u32);
//!
//! struct Ctx<'a> { barks: &'a mut Barks, now: f64 }
//! impl Clock for Ctx<'_> { fn now(&self) -> f64 { self.now } }
//!
//! behave! {
//!     tree Barker for Ctx<'a> { loop { sequence { act(|c| c.barks.0 += 1), wait(1.0) } } }
//! }
//!
//! struct DogBrain(Barker);
//!
//! impl Brain for DogBrain {
//!     type Npc = &'static mut Barks;
//!     type World = ();
//!     type Choice = ();
//!     fn tick(&mut self, barks: QueryItem<'_, '_, Self::Npc>, _: &SystemParamItem<'_, '_, ()>, now: f64) -> Ticked {
//!         self.0.step(&mut Ctx { barks: barks.into_inner(), now }, now)
//!     }
//!     fn evaluate(&mut self, _: QueryItem<'_, '_, Self::Npc>, _: &SystemParamItem<'_, '_, ()>, _: f64) {}
//! }
//!
//! let mut app = App::new();
//! app.add_plugins(BehaviorPlugin::<DogBrain>::default());
//! let dog = app.world_mut().spawn((Barks(0), Behavior::continuous(DogBrain(Barker::new())))).id();
//! for _ in 0..120 {
//!     app.update(); // 1/60 s each
//! }
//! let behavior = app.world().get::<Behavior<DogBrain>>(dog).unwrap();
//! // Barked at the first update and when each one-second wait ended: 2 ticks, not 120.
//! assert_eq!((app.world().get::<Barks>(dog).unwrap().0, behavior.ticks()), (2, 2));
//! ```
#![forbid(unsafe_code)]

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

use behaved_sched::{Budget, Config, Scheduler};
use bevy_app::{App, First, Plugin, Update};
use bevy_ecs::entity::EntityIndexSet;
use bevy_ecs::prelude::*;
use bevy_ecs::query::{IterQueryData, QueryItem};
use bevy_ecs::system::{ReadOnlySystemParam, StaticSystemParam, SystemParamItem};

pub use behaved_runtime::{Schedulable, Status, Ticked, Wake};
pub use behaved_sched::FrameStats;

/// How the trees of one kind of NPC meet the ECS: what each tick reads and
/// writes, and how it builds the tree's context from that.
pub trait Brain: Send + Sync + 'static {
    /// The NPC's own components the tree works on, e.g. `(&'static mut Position, &'static Health)`.
    type Npc: IterQueryData;
    /// Read-only data shared by every NPC: resources, queries of other entities.
    type World: ReadOnlySystemParam;
    /// What an on-interaction evaluation answers (ADR-017's chosen action).
    type Choice: Send + Sync + 'static;

    /// One tick at `now`: builds the context from `npc` and `world` and ticks
    /// the tree, usually `self.tree.step(&mut ctx, now)`. Trees tick in
    /// parallel: anything shared that a tick writes needs a lock.
    fn tick(
        &mut self,
        npc: QueryItem<'_, '_, Self::Npc>,
        world: &SystemParamItem<'_, '_, Self::World>,
        now: f64,
    ) -> Ticked;

    /// On interaction: runs the tree to completion at `now` and returns what it chose.
    fn evaluate(
        &mut self,
        npc: QueryItem<'_, '_, Self::Npc>,
        world: &SystemParamItem<'_, '_, Self::World>,
        now: f64,
    ) -> Self::Choice;
}

/// The game time the trees see.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct BehaviorClock {
    /// The current time, in seconds.
    pub now: f64,
    /// Added to `now` before each update (in `First`); 1/60 s by default.
    pub step: f64,
}

impl Default for BehaviorClock {
    fn default() -> BehaviorClock {
        BehaviorClock {
            now: 0.0,
            step: 1.0 / 60.0,
        }
    }
}

/// How a [`Behavior`] is run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mode {
    /// Ticked when due, at most once per `interval` seconds (0: every update).
    Continuous {
        /// The least time between two ticks (ADR-017's `tickInterval`).
        interval: f64,
    },
    /// Run only by [`Interact`] messages.
    OnInteraction,
}

/// A behavior tree on an NPC entity: the [`Brain`] (tree and leaves), its
/// [`Mode`], and what its last tick reported.
#[derive(Component)]
pub struct Behavior<B: Brain> {
    /// The tree and what it needs.
    pub brain: B,
    mode: Mode,
    status: Option<Status>,
    wake: Wake,
    ticks: u64,
}

impl<B: Brain> Behavior<B> {
    /// Ticked on every update it is due.
    pub fn continuous(brain: B) -> Behavior<B> {
        Behavior {
            brain,
            mode: Mode::Continuous { interval: 0.0 },
            status: None,
            wake: Wake::NextTick,
            ticks: 0,
        }
    }

    /// Run only on interaction.
    pub fn on_interaction(brain: B) -> Behavior<B> {
        Behavior {
            mode: Mode::OnInteraction,
            ..Behavior::continuous(brain)
        }
    }

    /// At most one tick per `seconds` (a level of detail for distant NPCs);
    /// the first tick comes after a fraction of the interval fixed per
    /// entity, so NPCs with the same interval spread over it. Set it before
    /// the component is added; negative or not-a-number intervals count as 0.
    pub fn every(mut self, seconds: f64) -> Behavior<B> {
        let interval = if seconds > 0.0 { seconds } else { 0.0 };
        self.mode = Mode::Continuous { interval };
        self
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The status of the last tick, if any.
    pub fn status(&self) -> Option<Status> {
        self.status
    }

    /// When the tree is next due, as its last tick reported it (with the
    /// tick interval applied); `NextTick` before the first tick.
    pub fn next_wake(&self) -> Wake {
        self.wake
    }

    /// The number of ticks so far (continuous mode).
    pub fn ticks(&self) -> u64 {
        self.ticks
    }
}

/// The schedule of the continuous [`Behavior<B>`]s: which entity is due on
/// which frame (a [`Scheduler`] of entities, keyed by `Entity::to_bits`).
/// NPCs are registered and unregistered as their `Behavior<B>` is added and
/// removed.
#[derive(Resource)]
pub struct Behaviors<B: Brain> {
    scheduler: Scheduler<Entity>,
    last: FrameStats,
    brain: PhantomData<fn() -> B>,
}

impl<B: Brain> Behaviors<B> {
    fn new(budget: Budget) -> Behaviors<B> {
        let config = Config {
            budget,
            ..Config::default()
        };
        Behaviors {
            scheduler: Scheduler::new(config).expect("the default configuration with a checked budget is valid"),
            last: FrameStats::default(),
            brain: PhantomData,
        }
    }

    /// Ends `npc`'s sleep: its tree is ticked on the next update (an event
    /// it should see happened, e.g. its target moved). Returns whether `npc`
    /// has a continuous `Behavior<B>`.
    pub fn wake(&mut self, npc: Entity) -> bool {
        self.scheduler.wake(npc.to_bits()).is_ok()
    }

    /// The number of continuous NPCs scheduled.
    pub fn len(&self) -> usize {
        self.scheduler.len()
    }

    /// Whether no continuous NPC is scheduled.
    pub fn is_empty(&self) -> bool {
        self.scheduler.is_empty()
    }

    /// What the last update did: trees ticked, left over by the budget,
    /// asleep, parked.
    pub fn last_frame(&self) -> FrameStats {
        self.last
    }
}

/// Ask an NPC to evaluate its tree now (ADR-017's `evaluateForInteraction`).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interact {
    /// The NPC.
    pub npc: Entity,
}

/// An NPC's answer to an [`Interact`]: what its tree chose. One answer per
/// interaction with an NPC that has a `Behavior<B>` whose choice type is `C`.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct Answer<C: Send + Sync + 'static> {
    /// The NPC.
    pub npc: Entity,
    /// What its tree chose.
    pub choice: C,
}

/// The systems of every brain's plugin, in `Update`.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct BehaviorSet;

/// Runs the [`Behavior<B>`] components: adds the clock (once), the
/// [`Behaviors<B>`] schedule, the messages, and the systems that answer
/// interactions and tick due trees.
pub struct BehaviorPlugin<B> {
    budget: Budget,
    brain: PhantomData<fn() -> B>,
}

impl<B> Default for BehaviorPlugin<B> {
    /// Every due tree is ticked on every update.
    fn default() -> Self {
        BehaviorPlugin {
            budget: Budget::Unlimited,
            brain: PhantomData,
        }
    }
}

impl<B> BehaviorPlugin<B> {
    /// At most `ticks` ticks per update; due trees left over go first on the
    /// next update (round robin, so nobody starves). 0 counts as 1.
    pub fn budget(mut self, ticks: usize) -> Self {
        self.budget = Budget::Ticks(ticks.max(1));
        self
    }
}

impl<B: Brain> Plugin for BehaviorPlugin<B>
where
    for<'w, 's> SystemParamItem<'w, 's, B::World>: Sync,
{
    fn build(&self, app: &mut App) {
        // The clock may be inserted first (with another step); it advances once per update
        // however many brains there are.
        app.init_resource::<BehaviorClock>();
        if !app.world().contains_resource::<ClockAdvances>() {
            app.init_resource::<ClockAdvances>().add_systems(First, advance_clock);
        }
        if !app.world().contains_resource::<Messages<Interact>>() {
            app.add_message::<Interact>();
        }
        app.insert_resource(Behaviors::<B>::new(self.budget))
            .add_message::<Answer<B::Choice>>()
            .add_observer(register::<B>)
            .add_observer(unregister::<B>)
            .add_systems(
                Update,
                (answer_interactions::<B>, tick_behaviors::<B>)
                    .chain()
                    .in_set(BehaviorSet),
            );
    }
}

/// Marks that the clock's system is added (by the first brain's plugin).
#[derive(Resource, Default)]
struct ClockAdvances;

fn advance_clock(mut clock: ResMut<BehaviorClock>) {
    let step = clock.step;
    clock.now += step;
}

/// A fixed fraction in [0, 1) per entity, to spread NPCs over their interval.
fn phase(entity: Entity) -> f64 {
    let mut z = entity.to_bits().wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
}

/// The wake of a tree that reported `wake` after a tick at `now`, with its
/// tick interval applied.
fn with_interval(wake: Wake, now: f64, interval: f64) -> Wake {
    if interval <= 0.0 {
        return wake;
    }
    // A hair early, so that a tick exactly one interval later is never missed to rounding.
    let earliest = now + interval * (1.0 - 1e-9);
    match wake {
        Wake::NextTick => Wake::At(earliest),
        Wake::At(t) if t.is_nan() => Wake::At(earliest),
        Wake::At(t) => Wake::At(t.max(earliest)),
        Wake::Never => Wake::Never,
    }
}

/// Schedules a continuous NPC when its `Behavior<B>` is added: due on the
/// next update, or after its phase of a tick interval.
fn register<B: Brain>(
    add: On<Add<Behavior<B>>>,
    clock: Res<BehaviorClock>,
    npcs: Query<&Behavior<B>>,
    mut schedule: ResMut<Behaviors<B>>,
) {
    let npc = add.entity;
    let Ok(&Behavior {
        mode: Mode::Continuous { interval },
        ..
    }) = npcs.get(npc)
    else {
        return;
    };
    let id = npc.to_bits();
    // An entity's bits are unique while it lives: the insert cannot find a duplicate.
    if schedule.scheduler.insert(id, npc, 0).is_ok() && interval > 0.0 {
        let first = clock.now + interval * phase(npc);
        let _ = schedule.scheduler.set_wake(id, Wake::At(first), clock.now);
    }
}

/// Unschedules an NPC whose `Behavior<B>` is removed (or which is despawned).
fn unregister<B: Brain>(remove: On<Remove<Behavior<B>>>, mut schedule: ResMut<Behaviors<B>>) {
    // On-interaction NPCs were never scheduled: nothing to remove.
    let _ = schedule.scheduler.remove(remove.entity.to_bits());
}

/// What [`tick_behaviors`] keeps from frame to frame (for its memory, not
/// its contents): no allocation in a steady frame.
#[derive(Default)]
pub struct TickScratch {
    /// The due NPCs, in the scheduler's order (a sparse frame).
    due: EntityIndexSet,
    /// One bit per entity index: due in this frame (a dense frame).
    marks: Vec<u64>,
    /// Per entity index: the time from which it is due again, written by the
    /// parallel ticks (`-inf`: the next frame, `+inf`: never).
    wakes: Vec<AtomicU64>,
}

/// Ticks every due continuous tree, in parallel.
///
/// A frame with few due trees looks each one up (`par_iter_many_unique_mut`,
/// in the scheduler's order: registration order, mostly the tables' order),
/// and visits no sleeping tree at all. When more than one tree in
/// `DENSE` is due, one parallel pass over every tree (a bit test each) is
/// cheaper than a lookup per due tree, and that is what it does. Either way a
/// tree that is not ticked is not marked changed.
pub fn tick_behaviors<B: Brain>(
    clock: Res<BehaviorClock>,
    world: StaticSystemParam<B::World>,
    mut schedule: ResMut<Behaviors<B>>,
    mut npcs: Query<(Entity, &mut Behavior<B>, B::Npc)>,
    mut scratch: Local<TickScratch>,
) where
    for<'w, 's> SystemParamItem<'w, 's, B::World>: Sync,
{
    let now = clock.now;
    let world = &*world;
    let schedule = &mut *schedule;
    let scheduled = schedule.scheduler.len();
    let batch = schedule.scheduler.batch(now);
    let TickScratch { due, marks, wakes } = &mut *scratch;
    let top = batch
        .iter()
        .map(|(_, npc)| npc.index_u32() as usize + 1)
        .max()
        .unwrap_or(0);
    if wakes.len() < top {
        wakes.resize_with(top, || AtomicU64::new(0));
    }
    let tick = |entity: Entity, mut behavior: Mut<Behavior<B>>, npc| {
        let b = &mut *behavior;
        let ticked = b.brain.tick(npc, world, now);
        b.status = Some(ticked.status);
        b.ticks += 1;
        let interval = match b.mode {
            Mode::Continuous { interval } => interval,
            Mode::OnInteraction => 0.0,
        };
        b.wake = with_interval(ticked.wake, now, interval);
        wakes[entity.index_u32() as usize].store(due_time(b.wake).to_bits(), Ordering::Relaxed);
    };
    if batch.len() * DENSE > scheduled {
        marks.clear();
        marks.resize(top.div_ceil(64), 0);
        for (_, npc) in batch.iter() {
            let i = npc.index_u32() as usize;
            marks[i / 64] |= 1 << (i % 64);
        }
        let marks = &*marks;
        npcs.par_iter_mut().for_each(|(entity, behavior, npc)| {
            let i = entity.index_u32() as usize;
            if marks.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0) {
                tick(entity, behavior, npc);
            }
        });
    } else {
        due.clear();
        due.extend(batch.iter().map(|(_, &npc)| npc));
        npcs.par_iter_many_unique_mut(&*due).for_each(|item| {
            // Every scheduled entity has the component: it is unscheduled as it goes.
            if let Ok((entity, behavior, npc)) = item {
                tick(entity, behavior, npc);
            }
        });
    }
    let wakes = &*wakes;
    schedule.last =
        batch.finish(|_, npc| Wake::At(f64::from_bits(wakes[npc.index_u32() as usize].load(Ordering::Relaxed))));
}

/// Above one due tree in `DENSE`, a frame passes over every tree instead of
/// looking up each due one.
const DENSE: usize = 8;

/// The time from which a tree with `wake` is due: the scheduler reads
/// `At(-inf)` as the next frame and `At(+inf)` as never.
fn due_time(wake: Wake) -> f64 {
    match wake {
        Wake::NextTick => f64::NEG_INFINITY,
        Wake::At(t) if t.is_nan() => f64::NEG_INFINITY,
        Wake::At(t) => t,
        Wake::Never => f64::INFINITY,
    }
}

/// Answers the [`Interact`] messages addressed to NPCs with a `Behavior<B>`,
/// in the order they were sent.
pub fn answer_interactions<B: Brain>(
    clock: Res<BehaviorClock>,
    world: StaticSystemParam<B::World>,
    mut asks: MessageReader<Interact>,
    mut npcs: Query<(&mut Behavior<B>, B::Npc)>,
    mut answers: MessageWriter<Answer<B::Choice>>,
) {
    for ask in asks.read() {
        if let Ok((mut behavior, npc)) = npcs.get_mut(ask.npc) {
            let choice = behavior.brain.evaluate(npc, &world, clock.now);
            answers.write(Answer { npc: ask.npc, choice });
        }
    }
}

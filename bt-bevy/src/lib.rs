//! Behavior trees on Bevy NPCs (ADR-017): the tree is a [`Behavior`]
//! component on the NPC entity itself (no entity per leaf), ticked by one
//! system in parallel on a context that your [`Brain`] builds from the NPC's
//! own components and read-only world data.
//!
//! Two modes, as ADR-017 has them:
//!
//! - **Continuous** ([`Behavior::continuous`], with an optional
//!   [`every`](Behavior::every) tick interval): ticked when due, through
//!   [`Brain::tick`]. Due-ness is kept by a [`behaved_sched::Scheduler`] of
//!   entities (the [`Behaviors`] resource): a tree that reports it has
//!   nothing to do before a time ([`Wake`]: it is in a `wait`, or only a
//!   `running` leaf runs) sleeps in its timer wheel until then. A frame costs
//!   what its due trees cost: sleeping trees are not visited at all, and
//!   sleeping changes no archetype and marks no component changed.
//!   [`Behaviors::wake`] ends a sleep early (an event the tree should see).
//!   A reactive tree whose conditions' inputs are known sleeps on a watch
//!   of them ([`Wake::Watch`]) and is woken by Bevy's change detection when
//!   a component or resource its brain reads changes ([`mark_changes`],
//!   [`mark_resource_changes`]; for big crowds,
//!   [`BehaviorPlugin::watch_changes`]).
//! - **On interaction** ([`Behavior::on_interaction`]): never ticked by
//!   frames; an [`Interact`] message runs the tree to completion through
//!   [`Brain::evaluate`], and the choice comes back as an [`Answer`]
//!   message (ADR-017's `evaluateForInteraction`).
//!
//! A brain writes the method of the mode it is used in; both have defaults
//! that report, once, that they were needed and not written.
//!
//! # The plugin, its schedule and its time
//!
//! [`BehaviorPlugin::<B>`](BehaviorPlugin) runs the `Behavior<B>`
//! components, in the [`BehaviorSystems`] set of `Update` by default (or the
//! schedule given to [`BehaviorPlugin::in_schedule`], e.g. `FixedUpdate`).
//! NPCs spawned before the plugin was added are scheduled when it is. An app
//! with `Behavior<B>` components and no plugin for `B` says so, once, through
//! the [`log`] facade (what bevy_ecs and bevy_time report through, and what
//! bevy_log's `LogPlugin` shows).
//!
//! The trees' time is Bevy's [`Time`] (bevy_time's `TimePlugin`, part of
//! `MinimalPlugins` and `DefaultPlugins`) as the trees' schedule sees it:
//! virtual time in `Update` (a paused `Time<Virtual>` freezes the trees, a
//! faster one hurries their waits), fixed time in `FixedUpdate`. For runs
//! that must not depend on the machine, insert a [`BehaviorClock`]: then it
//! is the time instead, advanced by its `step` at every update. An update
//! in which the time has not advanced ticks nothing. [`BehaviorTime`] reads
//! the trees' time in your own systems.
//!
//! A [`FrameGate`] resource lets something outside the app hold updates, a
//! debugger such as behaved-studio's live view (`Debugger::frame_allowed`):
//! asked once an update, before the time is updated, it pauses
//! `Time<Virtual>` and the trees' systems (the [`frame_gate_open`] run
//! condition) while it says no, and lets exactly the updates through that it
//! says yes to (a step).
//!
//! # Trees from JSON
//!
//! With the `interp` feature (default), [`AgentBrain<C>`](AgentBrain) is a
//! ready-made brain for a tree loaded from JSON by `behaved-interp`: its
//! context `C` is a component of the NPC. `behaved_interp::Agent` is
//! `Send + Sync`, so a brain of your own can hold one too. The `json_npc`
//! example reads an NPC's tree from a file and reloads it when the file
//! changes.
//!
//! # An app
//!
//! ```
//! use std::time::Duration;
//! use bevy_app::App;
//! use bevy_ecs::prelude::*;
//! use bevy_time::{TimePlugin, TimeUpdateStrategy};
//! use behaved::prelude::*;
//! use behaved_bevy::{Behavior, BehaviorPlugin, Brain, NpcItem, Ticked, WorldItem};
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
//!     type Choice = (); // never asked: it is never on interaction
//!     fn tick(&mut self, barks: NpcItem<'_, '_, Self>, _: &WorldItem<'_, '_, Self>, now: f64) -> Ticked {
//!         self.0.step(&mut Ctx { barks: barks.into_inner(), now }, now)
//!     }
//! }
//!
//! let mut app = App::new();
//! // `TimePlugin` comes with `MinimalPlugins` and `DefaultPlugins` in a game.
//! app.add_plugins((TimePlugin, BehaviorPlugin::<DogBrain>::default()));
//! // Each update is 1/60 s of game time here; a game leaves the real clock on.
//! app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 60.0)));
//! let dog = app.world_mut().spawn((Barks(0), Behavior::continuous(DogBrain(Barker::new())))).id();
//! for _ in 0..120 {
//!     app.update();
//! }
//! let behavior = app.world().get::<Behavior<DogBrain>>(dog).unwrap();
//! // Barked at the first update and when its one-second wait ended: 2 ticks, not 120.
//! assert_eq!((app.world().get::<Barks>(dog).unwrap().0, behavior.ticks()), (2, 2));
//! ```
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

use behaved_sched::{Budget, Config, Scheduler};
use bevy_app::{App, First, Plugin, Update};
use bevy_ecs::component::{Mutable, StorageType};
use bevy_ecs::entity::EntityIndexSet;
use bevy_ecs::lifecycle::ComponentHook;
use bevy_ecs::prelude::*;
use bevy_ecs::query::{IterQueryData, QueryFilter, QueryItem};
use bevy_ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use bevy_ecs::system::{ReadOnlySystemParam, StaticSystemParam, SystemParam, SystemParamItem};
use bevy_time::{Time, TimeSystems};

#[cfg(feature = "interp")]
mod agent;
mod changes;
mod gate;
mod report;

#[cfg(feature = "interp")]
pub use agent::AgentBrain;
pub use behaved_runtime::{Reads, Run, Status, Ticked, Tree, Wake};
pub use behaved_sched::FrameStats;
pub use changes::{
    ChangedScratch, WatchedComponents, WatchedResources, mark_changes, mark_resource_changes, tick_changed,
};
pub use gate::{FrameGate, GateState, frame_gate_open};

/// What a [`Brain`]'s `tick` and `evaluate` get of the NPC: the query item
/// of [`Brain::Npc`] (a `Mut<T>` for `&'static mut T`, a `&T` for
/// `&'static T`, a tuple of them for a tuple).
pub type NpcItem<'w, 's, B> = QueryItem<'w, 's, <B as Brain>::Npc>;

/// What a [`Brain`]'s `tick` and `evaluate` get of the world: its
/// [`Brain::World`] as fetched (a `Res<T>` for `Res<'static, T>`, `()` for `()`).
pub type WorldItem<'w, 's, B> = SystemParamItem<'w, 's, <B as Brain>::World>;

/// How the trees of one kind of NPC meet the ECS: what each tick reads and
/// writes, and how it builds the tree's context from that.
///
/// A brain used in one mode writes one method: [`tick`](Brain::tick) for
/// continuous NPCs, [`evaluate`](Brain::evaluate) for NPCs on interaction.
/// The other keeps its default, which reports once (through [`log`]) that
/// it was needed, naming the brain type.
pub trait Brain: Send + Sync + 'static {
    /// The NPC's own components the tree works on, e.g. `(&'static mut Position, &'static Health)`.
    type Npc: IterQueryData;
    /// Read-only data shared by every NPC: resources, queries of other
    /// entities (`()` for none).
    type World: ReadOnlySystemParam;
    /// What an on-interaction evaluation answers (ADR-017's chosen action);
    /// `()` for a brain that is never asked.
    type Choice: Send + Sync + 'static;

    /// One tick at `now` of a continuous NPC: builds the context from `npc`
    /// and `world` and ticks the tree, usually `self.tree.step(&mut ctx,
    /// now)`. Trees tick in parallel: anything shared that a tick writes
    /// needs a lock.
    ///
    /// Not written, it reports once that a continuous NPC needed it and
    /// parks the tree (`Failure`, [`Wake::Never`]).
    fn tick(&mut self, npc: NpcItem<'_, '_, Self>, world: &WorldItem<'_, '_, Self>, now: f64) -> Ticked {
        let _ = (npc, world, now);
        report::not_written::<Self>(
            "tick",
            "an NPC with it is continuous (`Behavior::continuous`): its tree is parked and never ticks. \
             Write `tick`, or spawn the NPC with `Behavior::on_interaction`",
        );
        Ticked {
            status: Status::Failure,
            wake: Wake::Never,
        }
    }

    /// On interaction: runs the tree to completion at `now` and returns what
    /// it chose, answered as an [`Answer`]; `None` answers nothing.
    ///
    /// Not written, it reports once that an [`Interact`] needed it and
    /// answers nothing.
    fn evaluate(
        &mut self,
        npc: NpcItem<'_, '_, Self>,
        world: &WorldItem<'_, '_, Self>,
        now: f64,
    ) -> Option<Self::Choice> {
        let _ = (npc, world, now);
        report::not_written::<Self>(
            "evaluate",
            "an `Interact` message asked an NPC with it: no `Answer` is sent. \
             Write `evaluate`, or do not send `Interact` to these NPCs",
        );
        None
    }
}

/// An explicit game time for the trees, instead of Bevy's [`Time`]: for runs
/// that must give the same ticks on any machine (tests, replays, benches).
/// While this resource exists, the trees of every brain run on it.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct BehaviorClock {
    /// The current time, in seconds.
    pub now: f64,
    /// Added to `now` at the start of each update (in `First`); 1/60 s by
    /// default. With 0, write `now` yourself to follow another clock (times
    /// never go backwards: an earlier `now` ticks nothing).
    pub step: f64,
}

impl BehaviorClock {
    /// A clock at 0 that advances by `step` seconds per update.
    pub fn stepping(step: f64) -> BehaviorClock {
        BehaviorClock { now: 0.0, step }
    }
}

impl Default for BehaviorClock {
    /// At 0, advancing 1/60 s per update.
    fn default() -> BehaviorClock {
        BehaviorClock::stepping(1.0 / 60.0)
    }
}

/// The trees' time, for your own systems: the [`BehaviorClock`] if there is
/// one, else Bevy's [`Time`] as the system's schedule sees it (virtual time
/// in `Update`, fixed time in `FixedUpdate`).
#[derive(SystemParam)]
pub struct BehaviorTime<'w> {
    clock: Option<Res<'w, BehaviorClock>>,
    time: Option<Res<'w, Time>>,
}

impl BehaviorTime<'_> {
    /// The time now, in seconds; `None` when the app has neither a
    /// `BehaviorClock` nor bevy_time's `TimePlugin`.
    pub fn now(&self) -> Option<f64> {
        match (&self.clock, &self.time) {
            (Some(clock), _) => Some(clock.now),
            (None, Some(time)) => Some(time.elapsed_secs_f64()),
            (None, None) => None,
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
///
/// It is run by a [`BehaviorPlugin<B>`]; an app with this component and no
/// such plugin reports it once (through [`log`]) at its next update.
pub struct Behavior<B: Brain> {
    /// The tree and what it needs.
    pub brain: B,
    mode: Mode,
    status: Option<Status>,
    wake: Wake,
    ticks: u64,
}

impl<B: Brain> Component for Behavior<B> {
    const STORAGE_TYPE: StorageType = StorageType::Table;
    type Mutability = Mutable;

    /// Checks that the app runs `Behavior<B>`s (see [`BehaviorPlugin`]).
    fn on_add() -> Option<ComponentHook> {
        Some(report::check_plugin::<B>)
    }
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
/// removed (and, for those spawned before the plugin, when it is added).
#[derive(Resource)]
pub struct Behaviors<B: Brain> {
    scheduler: Scheduler<Entity>,
    last: FrameStats,
    /// The time of the last frame that ticked (`None` before the first).
    last_now: Option<f64>,
    /// Bevy's change tick of the last run of [`tick_behaviors`]: changes
    /// after it wake the watching trees (`changes.rs`).
    ticked_at: Option<bevy_ecs::change_detection::Tick>,
    /// Each scheduled NPC's slot, by entity index.
    slots: changes::Slots,
    /// Trees ticked in this update by [`tick_changed`], before [`tick_behaviors`].
    ticked_on_change: usize,
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
            last_now: None,
            ticked_at: None,
            slots: changes::Slots::default(),
            ticked_on_change: 0,
            brain: PhantomData,
        }
    }

    /// Ends `npc`'s sleep: its tree is ticked on the next update (an event
    /// it should see happened, e.g. its target moved). Returns whether `npc`
    /// has a continuous `Behavior<B>`.
    pub fn wake(&mut self, npc: Entity) -> bool {
        self.slots
            .get(npc)
            .is_some_and(|slot| self.scheduler.wake_slot(slot).is_ok())
    }

    /// Marks a change of every input of `npc`'s context (one of its
    /// components changed): its tree is ticked on the next update if it
    /// watches anything. Returns whether it was woken.
    #[inline]
    fn changed_npc(&mut self, npc: Entity) -> bool {
        self.slots
            .get(npc)
            .is_some_and(|slot| self.scheduler.changed_slot(slot, Reads::ALL) == Ok(true))
    }

    /// Marks a change of `changed` in what every NPC's context reads (world
    /// data Bevy's change detection does not see, such as a value behind a
    /// lock in a resource): the trees watching one of them are ticked on the
    /// next update. Components and resources (`Res`) their brain reads need
    /// no mark: their changes are Bevy's own (`SEMANTICS.md`, "Sleeping on
    /// inputs").
    pub fn changed_all(&mut self, changed: Reads) {
        self.scheduler.changed_all(changed);
    }

    /// The number of continuous NPCs scheduled.
    pub fn len(&self) -> usize {
        self.scheduler.len()
    }

    /// Whether no continuous NPC is scheduled.
    pub fn is_empty(&self) -> bool {
        self.scheduler.is_empty()
    }

    /// What the last update that ticked did: trees ticked, left over by the
    /// budget, asleep, parked.
    pub fn last_frame(&self) -> FrameStats {
        self.last
    }

    /// Schedules `npc` in `mode`, seen at `now`: due on the next update, or
    /// after its phase of a tick interval. On-interaction NPCs are not scheduled.
    fn register(&mut self, npc: Entity, mode: Mode, now: f64) {
        let Mode::Continuous { interval } = mode else {
            return;
        };
        let id = npc.to_bits();
        // An entity's bits are unique while it lives: an insert that finds a
        // duplicate is the same NPC, already registered.
        if self.scheduler.insert(id, npc, 0).is_ok() {
            if let Some(slot) = self.scheduler.slot(id) {
                self.slots.set(npc, slot);
            }
            if interval > 0.0 {
                let first = now + interval * phase(npc);
                let _ = self.scheduler.set_wake(id, Wake::At(first), now);
            }
        }
    }
}

/// Ask an NPC to evaluate its tree now (ADR-017's `evaluateForInteraction`).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interact {
    /// The NPC.
    pub npc: Entity,
}

/// An NPC's answer to an [`Interact`]: what its tree chose. One answer per
/// interaction with an NPC that has a `Behavior<B>` whose choice type is
/// `C`, when its [`Brain::evaluate`] chose something.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct Answer<C: Send + Sync + 'static> {
    /// The NPC.
    pub npc: Entity,
    /// What its tree chose.
    pub choice: C,
}

/// The systems of every brain's plugin (answering interactions, then
/// ticking due trees), in the plugin's schedule (`Update` by default).
/// Order your systems against it: `.before(BehaviorSystems)` to write what
/// the trees read, `.after(BehaviorSystems)` to act on what they did.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct BehaviorSystems;

/// Runs the [`Behavior<B>`] components: adds the [`Behaviors<B>`]
/// schedule, the messages, and the systems that answer interactions and
/// tick due trees, in [`BehaviorSystems`].
///
/// ```
/// # use bevy_app::{App, FixedUpdate};
/// # use behaved_bevy::{BehaviorPlugin, Brain};
/// # struct Guard;
/// # impl Brain for Guard { type Npc = (); type World = (); type Choice = (); }
/// let mut app = App::new();
/// // The guards think 64 times a second of fixed time, at most 500 ticks an update.
/// app.add_plugins(BehaviorPlugin::<Guard>::default().in_schedule(FixedUpdate).budget(500));
/// ```
pub struct BehaviorPlugin<B> {
    budget: Budget,
    schedule: InternedScheduleLabel,
    /// Adds the system that marks changes ([`mark_changes`] unless
    /// [`watch_changes`](BehaviorPlugin::watch_changes) named a filter).
    marks: Option<MarkSystem>,
    brain: PhantomData<fn() -> B>,
}

/// Adds a brain's change-marking system to the plugin's schedule.
type MarkSystem = Box<dyn Fn(&mut App, InternedScheduleLabel) + Send + Sync>;

impl<B> Default for BehaviorPlugin<B> {
    /// Every due tree is ticked on every update, in `Update`.
    fn default() -> Self {
        BehaviorPlugin {
            budget: Budget::Unlimited,
            schedule: Update.intern(),
            marks: None,
            brain: PhantomData,
        }
    }
}

impl<B> BehaviorPlugin<B> {
    /// At most `ticks` ticks per run of the schedule; due trees left over go
    /// first on the next run (round robin, so nobody starves). 0 counts as 1.
    pub fn budget(mut self, ticks: usize) -> Self {
        self.budget = Budget::Ticks(ticks.max(1));
        self
    }

    /// Runs the trees in `schedule` instead of `Update`: `FixedUpdate` (then
    /// they run on fixed time), or a schedule of your own that you run when
    /// you like. [`BehaviorSystems`] is there.
    pub fn in_schedule(mut self, schedule: impl ScheduleLabel) -> Self {
        self.schedule = schedule.intern();
        self
    }

    /// Finds the NPCs whose inputs changed with Bevy's own `Changed` filter
    /// `F`, e.g. `Or<(Changed<Night>, Changed<Post>)>` for the components
    /// the trees' conditions read, and ticks the watching ones among them
    /// in that same dense pass ([`tick_changed`]), instead of reading every
    /// watching NPC's change ticks by component id and waking it through
    /// the schedule ([`mark_changes`], the default): under a nanosecond an
    /// NPC instead of several, and no lookup of a woken one, for crowds
    /// where few change (`SEMANTICS.md`, "Sleeping on inputs"). A component
    /// the filter leaves out never wakes a tree: the filter is the game's
    /// promise that nothing else the conditions read changes. Trees ticked
    /// on a change are not counted against a tick
    /// [`budget`](BehaviorPlugin::budget).
    pub fn watch_changes<F: QueryFilter + 'static>(mut self) -> Self
    where
        B: Brain,
        for<'w, 's> SystemParamItem<'w, 's, B::World>: Sync,
    {
        self.marks = Some(Box::new(|app, schedule| {
            app.add_systems(
                schedule,
                tick_changed::<B, F>
                    .after(answer_interactions::<B>)
                    .before(tick_behaviors::<B>)
                    .in_set(BehaviorSystems),
            );
        }));
        self
    }
}

impl<B: Brain> Plugin for BehaviorPlugin<B>
where
    for<'w, 's> SystemParamItem<'w, 's, B::World>: Sync,
{
    fn build(&self, app: &mut App) {
        // The explicit clock, if inserted, advances once per update however many brains there are.
        if !app.world().contains_resource::<ClockAdvances>() {
            app.init_resource::<ClockAdvances>()
                .init_resource::<GateState>()
                .add_systems(
                    First,
                    (gate::apply_frame_gate, advance_clock).chain().before(TimeSystems),
                );
        }
        if !app.world().contains_resource::<Messages<Interact>>() {
            app.add_message::<Interact>();
        }
        app.insert_resource(Behaviors::<B>::new(self.budget))
            .add_message::<Answer<B::Choice>>()
            .add_observer(register::<B>)
            .add_observer(unregister::<B>)
            // `TimeSystems` (in `First`) updates `Time`: trees run in `First` see this update's.
            .configure_sets(
                self.schedule,
                BehaviorSystems.after(TimeSystems).run_if(frame_gate_open),
            )
            .add_systems(
                self.schedule,
                (
                    answer_interactions::<B>,
                    mark_resource_changes::<B>,
                    tick_behaviors::<B>,
                )
                    .chain()
                    .in_set(BehaviorSystems),
            );
        match &self.marks {
            Some(add) => add(app, self.schedule),
            None => {
                app.add_systems(
                    self.schedule,
                    mark_changes::<B>
                        .after(answer_interactions::<B>)
                        .before(tick_behaviors::<B>)
                        .in_set(BehaviorSystems),
                );
            }
        }
        register_existing::<B>(app.world_mut());
    }
}

/// Marks that the clock's system is added (by the first brain's plugin).
#[derive(Resource, Default)]
struct ClockAdvances;

/// Advances the explicit clock, unless the [`FrameGate`] holds this update.
fn advance_clock(clock: Option<ResMut<BehaviorClock>>, gate: Res<GateState>) {
    if !gate.open {
        return;
    }
    if let Some(mut clock) = clock {
        let step = clock.step;
        clock.now += step;
    }
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
        Wake::At(t) if t.is_nan() => Wake::At(earliest),
        // A watch woken by a change is ticked at once, which an interval
        // does not allow: it is ticked as often as a tree that needs every tick.
        Wake::NextTick | Wake::Watch { .. } => Wake::At(earliest),
        Wake::At(t) => Wake::At(t.max(earliest)),
        Wake::Never => Wake::Never,
    }
}

/// Schedules a continuous NPC when its `Behavior<B>` is added.
fn register<B: Brain>(
    add: On<Add<Behavior<B>>>,
    time: BehaviorTime,
    npcs: Query<&Behavior<B>>,
    mut schedule: ResMut<Behaviors<B>>,
) {
    if let Ok(behavior) = npcs.get(add.entity) {
        schedule.register(add.entity, behavior.mode, time.now().unwrap_or(0.0));
    }
}

/// Schedules the NPCs whose `Behavior<B>` was added before the plugin.
fn register_existing<B: Brain>(world: &mut World) {
    let now = {
        let clock = world.get_resource::<BehaviorClock>().map(|c| c.now);
        clock.or_else(|| world.get_resource::<Time>().map(Time::elapsed_secs_f64))
    };
    let mut npcs = world.query::<(Entity, &Behavior<B>)>();
    let found: Vec<(Entity, Mode)> = npcs.iter(world).map(|(e, b)| (e, b.mode)).collect();
    let mut schedule = world.resource_mut::<Behaviors<B>>();
    for (npc, mode) in found {
        schedule.register(npc, mode, now.unwrap_or(0.0));
    }
}

/// Unschedules an NPC whose `Behavior<B>` is removed (or which is despawned).
fn unregister<B: Brain>(remove: On<Remove<Behavior<B>>>, mut schedule: ResMut<Behaviors<B>>) {
    // On-interaction NPCs were never scheduled: nothing to remove.
    let _ = schedule.scheduler.remove(remove.entity.to_bits());
    schedule.slots.clear(remove.entity);
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
    /// Per entity index: the inputs its tree watches (0: none).
    watches: Vec<AtomicU64>,
    /// Whether the lack of a time has been reported.
    reported: bool,
}

/// Ticks every due continuous tree, in parallel, at the trees' time
/// ([`BehaviorTime`]); nothing when that time has not advanced since the
/// last run (a paused game).
///
/// A frame with few due trees looks each one up (`par_iter_many_unique_mut`,
/// in the scheduler's order: registration order, mostly the tables' order),
/// and visits no sleeping tree at all. When more than one tree in
/// `DENSE` is due, one parallel pass over every tree (a bit test each) is
/// cheaper than a lookup per due tree, and that is what it does. Either way a
/// tree that is not ticked is not marked changed.
pub fn tick_behaviors<B: Brain>(
    time: BehaviorTime,
    world: StaticSystemParam<B::World>,
    mut schedule: ResMut<Behaviors<B>>,
    mut npcs: Query<(Entity, &mut Behavior<B>, B::Npc)>,
    mut scratch: Local<TickScratch>,
    ticks: bevy_ecs::system::SystemChangeTick,
) where
    for<'w, 's> SystemParamItem<'w, 's, B::World>: Sync,
{
    let TickScratch {
        due,
        marks,
        wakes,
        watches,
        reported,
    } = &mut *scratch;
    let Some(now) = time.now() else {
        if !std::mem::replace(reported, true) {
            report::no_time::<B>();
        }
        return;
    };
    let schedule = &mut *schedule;
    if schedule.last_now.is_some_and(|last| now <= last) {
        return;
    }
    schedule.last_now = Some(now);
    schedule.ticked_at = Some(ticks.this_run());
    let world = &*world;
    let scheduled = schedule.scheduler.len();
    let batch = schedule.scheduler.batch(now);
    let top = batch
        .iter()
        .map(|(_, npc)| npc.index_u32() as usize + 1)
        .max()
        .unwrap_or(0);
    if wakes.len() < top {
        wakes.resize_with(top, || AtomicU64::new(0));
        watches.resize_with(top, || AtomicU64::new(0));
    }
    let tick = |entity: Entity, mut behavior: Mut<Behavior<B>>, npc| {
        let wake = tick_one(&mut behavior, npc, world, now);
        wakes[entity.index_u32() as usize].store(due_time(wake).to_bits(), Ordering::Relaxed);
        watches[entity.index_u32() as usize].store(changes::watched(wake), Ordering::Relaxed);
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
    } else if one_thread() {
        // One after the other: no set of unique entities to build (and hash).
        let mut items = npcs.iter_many_mut(batch.iter().map(|(_, &npc)| npc));
        while let Some(item) = items.fetch_next() {
            // Written out rather than through `tick`, whose items' lifetimes
            // are those of the parallel passes.
            if let Ok((entity, mut behavior, npc)) = item {
                let wake = tick_one(&mut behavior, npc, world, now);
                let i = entity.index_u32() as usize;
                wakes[i].store(due_time(wake).to_bits(), Ordering::Relaxed);
                watches[i].store(changes::watched(wake), Ordering::Relaxed);
            }
        }
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
    let (wakes, watches) = (&*wakes, &*watches);
    schedule.last = batch.finish(|_, npc| {
        let i = npc.index_u32() as usize;
        changes::scheduled(
            f64::from_bits(wakes[i].load(Ordering::Relaxed)),
            watches[i].load(Ordering::Relaxed),
        )
    });
    schedule.last.ticked += std::mem::take(&mut schedule.ticked_on_change);
}

/// Ticks `b`'s tree at `now` on `npc` and `world`, keeps what the tick
/// reported, and returns its wake (with the tick interval applied).
#[inline]
fn tick_one<B: Brain>(
    b: &mut Behavior<B>,
    npc: QueryItem<'_, '_, B::Npc>,
    world: &SystemParamItem<'_, '_, B::World>,
    now: f64,
) -> Wake {
    let ticked = b.brain.tick(npc, world, now);
    b.status = Some(ticked.status);
    b.ticks += 1;
    let interval = match b.mode {
        Mode::Continuous { interval } => interval,
        Mode::OnInteraction => 0.0,
    };
    b.wake = with_interval(ticked.wake, now, interval);
    b.wake
}

/// Whether due trees are ticked on one thread anyway (no `multi_threaded`
/// feature, or a compute pool of one thread): then a sparse frame visits
/// them in turn instead of building a set of unique entities, which
/// parallel mutable access needs and which hashes every entity.
fn one_thread() -> bool {
    !cfg!(feature = "multi_threaded")
        || bevy_tasks::ComputeTaskPool::try_get().is_none_or(|pool| pool.thread_num() <= 1)
}

/// Above one due tree in `DENSE`, a frame passes over every tree instead of
/// looking up each due one.
const DENSE: usize = 8;

/// The time from which a tree with `wake` is due: the scheduler reads
/// `At(-inf)` as the next frame and `At(+inf)` as never.
fn due_time(wake: Wake) -> f64 {
    match wake {
        Wake::NextTick => f64::NEG_INFINITY,
        Wake::At(t) | Wake::Watch { at: t, .. } if t.is_nan() => f64::NEG_INFINITY,
        // A watch also wakes on a change (`changes.rs`).
        Wake::At(t) | Wake::Watch { at: t, .. } => t,
        Wake::Never => f64::INFINITY,
    }
}

/// Answers the [`Interact`] messages addressed to NPCs with a `Behavior<B>`,
/// in the order they were sent, at the trees' time (paused or not).
pub fn answer_interactions<B: Brain>(
    time: BehaviorTime,
    world: StaticSystemParam<B::World>,
    mut asks: MessageReader<Interact>,
    mut npcs: Query<(&mut Behavior<B>, B::Npc)>,
    mut answers: MessageWriter<Answer<B::Choice>>,
) {
    // Without a time, `tick_behaviors` reports it; the messages wait for one.
    let Some(now) = time.now() else {
        return;
    };
    for ask in asks.read() {
        if let Ok((mut behavior, npc)) = npcs.get_mut(ask.npc)
            && let Some(choice) = behavior.brain.evaluate(npc, &world, now)
        {
            answers.write(Answer { npc: ask.npc, choice });
        }
    }
}

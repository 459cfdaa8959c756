//! Behavior trees on Bevy NPCs (ADR-017): the tree is a [`Behavior`]
//! component on the NPC entity itself (no entity per leaf), ticked by one
//! system in parallel (`par_iter_mut`) on a context that your [`Brain`]
//! builds from the NPC's own components and read-only world data.
//!
//! Two modes, as ADR-017 has them:
//!
//! - **Continuous** ([`Behavior::continuous`], with an optional
//!   [`every`](Behavior::every) tick interval): ticked when due. A tree that
//!   reports it has nothing to do before a time ([`Wake`]: it is in a `wait`,
//!   or only a `running` leaf runs) sleeps until then; its wake time lives in
//!   the component, so sleeping changes no archetype and costs one
//!   comparison per frame. [`Behavior::wake`] ends a sleep early (an event).
//! - **On interaction** ([`Behavior::on_interaction`]): never ticked by
//!   frames; an [`Interact`] message runs the tree to completion through
//!   [`Brain::evaluate`], and the choice comes back as an [`Answer`].
//!
//! Time is the [`BehaviorClock`] resource: it advances by its `step` before
//! each update (set `step` to 0 and write `now` yourself to follow another
//! clock).
#![forbid(unsafe_code)]

use std::marker::PhantomData;

use bevy_app::{App, First, Plugin, Update};
use bevy_ecs::prelude::*;
use bevy_ecs::query::{QueryData, QueryItem};
use bevy_ecs::system::{ReadOnlySystemParam, StaticSystemParam, SystemParamItem};

pub use bt_runtime::{Schedulable, Status, Ticked, Wake};

/// How the trees of one kind of NPC meet the ECS: what each tick reads and
/// writes, and how it builds the tree's context from that.
pub trait Brain: Send + Sync + 'static {
    /// The NPC's own components the tree works on, e.g. `(&mut Position, &Health)`.
    type Npc: QueryData;
    /// Read-only data shared by every NPC: resources, queries of other entities.
    type World: ReadOnlySystemParam;
    /// What an on-interaction evaluation answers (ADR-017's chosen action).
    type Choice: Send + Sync + 'static;

    /// One tick at `now`: builds the context from `npc` and `world` and ticks
    /// the tree, usually `self.tree.step(&mut ctx, now)`.
    fn tick(&mut self, npc: QueryItem<'_, '_, Self::Npc>, world: &SystemParamItem<'_, '_, Self::World>, now: f64)
    -> Ticked;

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
    /// Added to `now` before each update (`First`); 1/60 s by default.
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
/// [`Mode`], and when it is next due.
#[derive(Component)]
pub struct Behavior<B: Brain> {
    /// The tree and what it needs.
    pub brain: B,
    mode: Mode,
    /// The time from which it is due: `-inf` at once, `+inf` never, NaN not placed yet.
    due: f64,
    status: Option<Status>,
    ticks: u64,
}

impl<B: Brain> Behavior<B> {
    /// Ticked on every update it is due.
    pub fn continuous(brain: B) -> Behavior<B> {
        Behavior {
            brain,
            mode: Mode::Continuous { interval: 0.0 },
            due: f64::NAN,
            status: None,
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
    /// NPCs with the same interval are spread over it by entity. Negative or
    /// not-a-number intervals count as 0.
    pub fn every(mut self, seconds: f64) -> Behavior<B> {
        let interval = if seconds > 0.0 { seconds } else { 0.0 };
        self.mode = Mode::Continuous { interval };
        self
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Ends a sleep: the tree is ticked on the next update (an event it
    /// should see, e.g. its target moved, happened).
    pub fn wake(&mut self) {
        if self.mode != Mode::OnInteraction {
            self.due = f64::NEG_INFINITY;
        }
    }

    /// The time from which it is next ticked (`-inf`: the next update,
    /// `+inf`: only when woken).
    pub fn due(&self) -> f64 {
        if self.due.is_nan() { f64::NEG_INFINITY } else { self.due }
    }

    /// The status of the last tick, if any.
    pub fn status(&self) -> Option<Status> {
        self.status
    }

    /// The number of ticks so far (continuous mode).
    pub fn ticks(&self) -> u64 {
        self.ticks
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

/// Runs the [`Behavior<B>`] components: adds the clock (once), the messages,
/// and the systems that answer interactions and tick due trees.
pub struct BehaviorPlugin<B>(PhantomData<fn() -> B>);

impl<B> Default for BehaviorPlugin<B> {
    fn default() -> Self {
        BehaviorPlugin(PhantomData)
    }
}

impl<B: Brain> Plugin for BehaviorPlugin<B>
where
    for<'w, 's> SystemParamItem<'w, 's, B::World>: Sync,
{
    fn build(&self, app: &mut App) {
        if !app.world().contains_resource::<BehaviorClock>() {
            app.init_resource::<BehaviorClock>();
            app.add_systems(First, advance_clock);
        }
        app.add_message::<Interact>()
            .add_message::<Answer<B::Choice>>()
            .add_systems(Update, (answer_interactions::<B>, tick_behaviors::<B>).chain().in_set(BehaviorSet));
    }
}

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

/// When a tree that reported `wake` after a tick at `now` is next due.
fn next_due(wake: Wake, now: f64, interval: f64) -> f64 {
    // A hair early, so that a tick exactly one interval later is never missed to rounding.
    let earliest = if interval > 0.0 {
        now + interval * (1.0 - 1e-9)
    } else {
        f64::NEG_INFINITY
    };
    match wake {
        Wake::NextTick => earliest,
        Wake::At(t) if t.is_nan() => earliest,
        Wake::At(t) => t.max(earliest),
        Wake::Never => f64::INFINITY,
    }
}

/// Ticks every due continuous tree, in parallel.
pub fn tick_behaviors<B: Brain>(
    clock: Res<BehaviorClock>,
    world: StaticSystemParam<B::World>,
    mut npcs: Query<(Entity, &mut Behavior<B>, B::Npc)>,
) where
    for<'w, 's> SystemParamItem<'w, 's, B::World>: Sync,
{
    let now = clock.now;
    let world = &*world;
    npcs.par_iter_mut().for_each(|(entity, mut behavior, npc)| {
        // Reading through `Mut` leaves sleeping NPCs unchanged (no change ticks).
        let due = behavior.due;
        let Mode::Continuous { interval } = behavior.mode else {
            return;
        };
        if due.is_nan() && interval > 0.0 {
            // First seen: spread over the interval.
            behavior.due = now + interval * phase(entity);
            if behavior.due > now {
                return;
            }
        } else if due > now {
            return;
        }
        let b = &mut *behavior;
        let ticked = b.brain.tick(npc, world, now);
        b.status = Some(ticked.status);
        b.ticks += 1;
        b.due = next_due(ticked.wake, now, interval);
    });
}

/// Answers the [`Interact`] messages addressed to NPCs with a `Behavior<B>`.
pub fn answer_interactions<B: Brain>(
    clock: Res<BehaviorClock>,
    world: StaticSystemParam<B::World>,
    mut asks: MessageReader<Interact>,
    mut npcs: Query<(&mut Behavior<B>, B::Npc)>,
    mut answers: MessageWriter<Answer<B::Choice>>,
) {
    for ask in asks.read() {
        if let Ok((mut behavior, npc)) = npcs.get_mut(ask.npc) {
            let choice = behavior.brain.evaluate(npc, &*world, clock.now);
            answers.write(Answer { npc: ask.npc, choice });
        }
    }
}

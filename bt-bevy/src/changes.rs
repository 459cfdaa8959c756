//! Marks from Bevy's change detection (`SEMANTICS.md`, "Sleeping on
//! inputs"): a tree that sleeps on a watch of its inputs ([`Wake::Watch`])
//! is woken when a component its brain reads ([`Brain::Npc`]) was changed
//! since the trees were last ticked, by anyone but the tick itself. No code
//! from the user: the components are those of the brain's query, and their
//! change ticks are Bevy's own.
//!
//! Two ways to find the changed NPCs, both one dense pass over the NPCs'
//! tables with no lookup of an entity by id and no hashing; a changed NPC's
//! scheduler [`Slot`] is an array read away ([`Behaviors`] keeps one per
//! entity index):
//!
//! - by default ([`mark_changes`]), the components of [`Brain::Npc`] found
//!   once, and each watching NPC's change ticks of them read by component
//!   id (about 6 ns an NPC per update in BENCHMARKS.md's crowd of guards);
//! - with [`BehaviorPlugin::watch_changes`](crate::BehaviorPlugin::watch_changes)
//!   (`Or<(Changed<A>, Changed<B>)>` of the components the conditions
//!   read), Bevy's own `Changed` filter, which tests one change tick per
//!   row in its dense loop and hands over only the changed NPCs (under a
//!   nanosecond an NPC), and [`tick_changed`] ticks them right there,
//!   with no lookup at all.
//!
//! Bevy tracks changes per component, not per field, so a changed component
//! marks every input of its NPC's context ([`Reads::ALL`]): the tree wakes
//! if it watches anything. Likewise a changed resource that the brain's
//! `World` reads (a `Res<T>` in it) wakes every watching tree of that brain
//! ([`mark_resource_changes`]). A resource that changes on every update,
//! such as `Res<Time>`, therefore wakes those trees on every update: read
//! the time from the `now` the plugin ticks with ([`Brain::tick`])
//! instead, so that timers are what wakes them. What Bevy cannot see (a
//! value behind a lock in a resource, a `Local`) the game marks with
//! [`Behaviors::changed_all`].

use std::sync::atomic::{AtomicU64, Ordering};

use bevy_ecs::change_detection::Tick;
use bevy_ecs::component::ComponentId;
use bevy_ecs::prelude::*;
use bevy_ecs::query::QueryFilter;
use bevy_ecs::system::{StaticSystemParam, SystemParam, SystemParamItem};
use bevy_ecs::world::EntityRef;

use behaved_runtime::{Reads, Wake};
use behaved_sched::Slot;

use crate::{Behavior, BehaviorTime, Behaviors, Brain};

/// What [`mark_changes`] keeps between runs: the components a brain's query
/// reads (found once) and its query of the NPCs.
#[allow(clippy::type_complexity)]
pub struct WatchedComponents<B: Brain> {
    ids: Vec<ComponentId>,
    npcs: QueryState<(Entity, &'static Behavior<B>, EntityRef<'static>)>,
}

impl<B: Brain> FromWorld for WatchedComponents<B> {
    fn from_world(world: &mut World) -> Self {
        let query = world.query::<B::Npc>();
        let reads = query.component_access().access().reads();
        let ids = reads
            .as_finite_set()
            .map(|set| set.iter().collect())
            .unwrap_or_default();
        WatchedComponents {
            ids,
            npcs: world.query(),
        }
    }
}

/// Wakes the watching trees whose NPC's components (those [`Brain::Npc`]
/// reads) changed since the last tick of the trees: one dense pass over the
/// NPCs, a change-tick test per component of each watching one.
pub fn mark_changes<B: Brain>(world: &mut World, mut watched: Local<WatchedComponents<B>>) {
    let watched = &mut *watched;
    let this_run = world.read_change_tick();
    with_behaviors::<B>(world, |world, schedule, since| {
        if schedule.scheduler.watching() == 0 {
            // No tree sleeps on a watch (a crowd of timers): no pass at all.
            return;
        }
        for (npc, behavior, entity) in watched.npcs.iter(world) {
            if matches!(behavior.wake, Wake::Watch { .. })
                && watched.ids.iter().any(|&c| {
                    entity
                        .get_change_ticks_by_id(c)
                        .is_some_and(|t| t.is_changed(since, this_run))
                })
            {
                schedule.changed_npc(npc);
            }
        }
    });
}

/// What [`tick_changed`] keeps from run to run (for its memory, not its
/// contents): no allocation in a steady frame.
#[derive(Default)]
pub struct ChangedScratch {
    /// One bit per entity index: ticked in this run.
    ticked: Vec<AtomicU64>,
    /// Per entity index: the time from which its tree is due again.
    wakes: Vec<AtomicU64>,
    /// Per entity index: the inputs its tree watches.
    watches: Vec<AtomicU64>,
}

/// The pass of [`BehaviorPlugin::watch_changes`](crate::BehaviorPlugin::watch_changes):
/// ticks, in parallel, the watching trees whose NPC Bevy's `Changed`
/// filter `F` lets through (changed since this system last ran), in the
/// query's dense pass itself, so a woken tree costs no lookup; their new
/// wakes go to the schedule through their [`Slot`]s, and
/// [`tick_behaviors`](crate::tick_behaviors) then ticks the trees whose
/// time came. An NPC ticked by `tick_behaviors` whose tick wrote a
/// component of `F` is ticked once more here on the next update if it
/// watches: an early tick, which changes nothing.
#[allow(clippy::type_complexity)]
pub fn tick_changed<B: Brain, F: QueryFilter>(
    time: BehaviorTime,
    world: StaticSystemParam<B::World>,
    mut schedule: ResMut<Behaviors<B>>,
    mut npcs: Query<(Entity, &mut Behavior<B>, B::Npc), F>,
    mut scratch: Local<ChangedScratch>,
) where
    for<'w, 's> SystemParamItem<'w, 's, B::World>: Sync,
{
    let schedule = &mut *schedule;
    let Some(now) = time.now() else {
        return;
    };
    if schedule.last_now.is_none_or(|last| now <= last) {
        // Nothing ticks in this update (paused, or before the first tick):
        // the changes are marked, for the next update that ticks.
        for (npc, ..) in &npcs {
            schedule.changed_npc(npc);
        }
        return;
    }
    let n = schedule.slots.len();
    let ChangedScratch { ticked, wakes, watches } = &mut *scratch;
    if wakes.len() < n {
        wakes.resize_with(n, || AtomicU64::new(0));
        watches.resize_with(n, || AtomicU64::new(0));
        ticked.resize_with(n.div_ceil(64), || AtomicU64::new(0));
    }
    let world = &*world;
    let (ticked, wakes, watches) = (&*ticked, &*wakes, &*watches);
    npcs.par_iter_mut().for_each(|(npc, mut behavior, item)| {
        let i = npc.index_u32() as usize;
        // Only a tree asleep on a watch; reading `wake` marks nothing changed.
        if i >= n || !matches!(behavior.wake, Wake::Watch { .. }) {
            return;
        }
        let wake = crate::tick_one(&mut behavior, item, world, now);
        wakes[i].store(crate::due_time(wake).to_bits(), Ordering::Relaxed);
        watches[i].store(watched(wake), Ordering::Relaxed);
        ticked[i / 64].fetch_or(1 << (i % 64), Ordering::Relaxed);
    });
    let mut count = 0;
    for (w, word) in ticked.iter().enumerate() {
        let mut bits = word.swap(0, Ordering::Relaxed);
        while bits != 0 {
            let i = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if let Some(slot) = schedule.slots.at(i) {
                let wake = scheduled(
                    f64::from_bits(wakes[i].load(Ordering::Relaxed)),
                    watches[i].load(Ordering::Relaxed),
                );
                let _ = schedule.scheduler.set_wake_slot(slot, wake, now);
                count += 1;
            }
        }
    }
    schedule.ticked_on_change += count;
}

/// The resources a brain's `World` reads, found once.
pub struct WatchedResources<B: Brain> {
    ids: Vec<ComponentId>,
    brain: std::marker::PhantomData<fn() -> B>,
}

impl<B: Brain> FromWorld for WatchedResources<B> {
    fn from_world(world: &mut World) -> Self {
        // The access of a system taking the brain's `World` is what it reads.
        fn probe<P: SystemParam + 'static>(_: StaticSystemParam<P>) {}
        let mut system = IntoSystem::into_system(probe::<B::World>);
        let access = system.initialize(world);
        let set = access.to_filtered_access_set();
        let ids = match set.combined_access().reads().as_finite_set() {
            Some(reads) => reads
                .iter()
                .filter(|&id| world.resource_entities().get(id).is_some())
                .collect(),
            None => Vec::new(),
        };
        WatchedResources {
            ids,
            brain: std::marker::PhantomData,
        }
    }
}

/// Wakes every watching tree when a resource its brain's `World` reads
/// (a `Res<T>` of it) changed since the trees' last tick: a change-tick test
/// per resource, and a pass over the schedule's watch words only when one
/// changed ([`Behaviors::changed_all`]). No code from the user, as for the
/// components.
pub fn mark_resource_changes<B: Brain>(world: &mut World, watched: Local<WatchedResources<B>>) {
    if watched.ids.is_empty() {
        return;
    }
    let this_run = world.read_change_tick();
    with_behaviors::<B>(world, |world, schedule, since| {
        if schedule.scheduler.watching() > 0
            && watched.ids.iter().any(|&id| {
                world
                    .get_resource_change_ticks_by_id(id)
                    .is_some_and(|t| t.is_changed(since, this_run))
            })
        {
            schedule.changed_all(Reads::ALL);
        }
    });
}

/// Runs `f` with the world, the schedule of `B`'s trees and the change tick
/// of their last tick; nothing before their first tick or without the plugin.
fn with_behaviors<B: Brain>(world: &mut World, f: impl FnOnce(&mut World, &mut Behaviors<B>, Tick)) {
    if !world.contains_resource::<Behaviors<B>>() {
        return;
    }
    world.resource_scope(|world, mut schedule: Mut<Behaviors<B>>| {
        if let Some(since) = schedule.ticked_at {
            f(world, &mut schedule, since);
        }
    });
}

/// Per entity index, the scheduler slot of its continuous tree: a changed
/// or woken NPC is found with an array read, not a hash of its id.
#[derive(Default)]
pub(crate) struct Slots(Vec<Option<Slot>>);

impl Slots {
    /// Keeps `npc`'s slot.
    pub(crate) fn set(&mut self, npc: Entity, slot: Slot) {
        let i = npc.index_u32() as usize;
        if self.0.len() <= i {
            self.0.resize(i + 1, None);
        }
        self.0[i] = Some(slot);
    }

    /// Forgets `npc`'s slot (its tree is unscheduled).
    pub(crate) fn clear(&mut self, npc: Entity) {
        if let Some(slot) = self.0.get_mut(npc.index_u32() as usize)
            && slot.is_some_and(|s| s.id() == npc.to_bits())
        {
            *slot = None;
        }
    }

    /// `npc`'s slot, if its tree is scheduled (the scheduler checks the
    /// entity's generation through the slot's id).
    #[inline]
    pub(crate) fn get(&self, npc: Entity) -> Option<Slot> {
        self.at(npc.index_u32() as usize)
    }

    /// The slot of the tree of the entity with index `index`.
    #[inline]
    pub(crate) fn at(&self, index: usize) -> Option<Slot> {
        self.0.get(index).copied().flatten()
    }

    /// One past the largest entity index with a slot so far.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }
}

/// The wake the scheduler keeps for a tree that reported `wake` (its due
/// time already worked out): a watch keeps its inputs.
pub(crate) fn scheduled(due: f64, reads: u64) -> Wake {
    if reads == 0 {
        Wake::At(due)
    } else {
        Wake::Watch {
            reads: Reads(reads),
            at: due,
        }
    }
}

/// The inputs a tree with `wake` watches (0 for none).
pub(crate) fn watched(wake: Wake) -> u64 {
    match wake {
        Wake::Watch { reads, .. } => reads.0,
        _ => 0,
    }
}

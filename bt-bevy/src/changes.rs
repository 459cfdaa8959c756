//! Marks from Bevy's change detection (`SEMANTICS.md`, "Sleeping on
//! inputs"): a tree that sleeps on a watch of its inputs ([`Wake::Watch`])
//! is woken when a component its brain reads ([`Brain::Npc`]) was changed
//! since the trees were last ticked, by anyone but the tick itself. No code
//! from the user: the components are those of the brain's query, and their
//! change ticks are Bevy's own.
//!
//! Bevy tracks changes per component, not per field, so a changed component
//! marks every input of its NPC's context ([`Reads::ALL`]): the tree wakes
//! if it watches anything. Resources the brain's `World` reads are not
//! tracked: a game that changes one marks it with [`Behaviors::changed_all`].

use bevy_ecs::component::ComponentId;
use bevy_ecs::prelude::*;

use behaved_runtime::{Reads, Wake};

use crate::{Behaviors, Brain};

/// The components a brain's query reads, found once.
#[derive(Default)]
pub struct WatchedComponents(Option<Vec<ComponentId>>);

/// Wakes the watching trees whose NPC's components (those [`Brain::Npc`]
/// reads) changed since the last tick of the trees: one pass over the
/// scheduled trees, a change-tick test per component of each watching one.
pub fn mark_changes<B: Brain>(world: &mut World, mut watched: Local<WatchedComponents>) {
    if !world.contains_resource::<Behaviors<B>>() {
        return;
    }
    let ids = watched.0.get_or_insert_with(|| {
        let query = world.query::<B::Npc>();
        let reads = query.component_access().access().reads();
        reads
            .as_finite_set()
            .map(|set| set.iter().collect())
            .unwrap_or_default()
    });
    let this_run = world.read_change_tick();
    world.resource_scope(|world, mut schedule: Mut<Behaviors<B>>| {
        let Some(since) = schedule.ticked_at else {
            return;
        };
        schedule.scheduler.changed_if(Reads::ALL, |_, &npc| {
            world.get_entity(npc).is_ok_and(|e| {
                ids.iter().any(|&c| {
                    e.get_change_ticks_by_id(c)
                        .is_some_and(|t| t.is_changed(since, this_run))
                })
            })
        });
    });
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

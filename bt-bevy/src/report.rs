//! The reports of what would otherwise fail silently, each made once: a
//! `Behavior<B>` with no plugin for `B`, trees with no time to run on, a
//! brain method needed and not written. They go through the `log` facade,
//! as bevy_ecs's and bevy_time's own warnings do: bevy_log's `LogPlugin`
//! (in `DefaultPlugins`) shows them, and so does any `log` logger.

use std::any::{TypeId, type_name};
use std::marker::PhantomData;
use std::sync::Mutex;

use bevy_app::{First, Last};
use bevy_ecs::lifecycle::HookContext;
use bevy_ecs::prelude::*;
use bevy_ecs::world::DeferredWorld;

use crate::{Behavior, Behaviors, Brain};

/// Reports, once per brain type and method in this process, that `B`'s
/// default `method` ran: it was needed and not written. `why` says what
/// needed it and what happens instead.
pub(crate) fn not_written<B: Brain + ?Sized>(method: &'static str, why: &str) {
    static REPORTED: Mutex<Vec<(TypeId, &'static str)>> = Mutex::new(Vec::new());
    let key = (TypeId::of::<B>(), method);
    let mut reported = REPORTED.lock().unwrap_or_else(|e| e.into_inner());
    if !reported.contains(&key) {
        reported.push(key);
        log::warn!(
            "behaved-bevy: the brain `{}` has no `Brain::{method}`, but {why}.",
            type_name::<B>()
        );
    }
}

/// Reports that the trees of `B` have neither a `BehaviorClock` nor `Time`.
pub(crate) fn no_time<B: Brain>() {
    log::warn!(
        "behaved-bevy: the trees of `{}` have no time to run on, and are not ticked until they have: \
         add bevy_time's `TimePlugin` (it comes with `MinimalPlugins` and `DefaultPlugins`), \
         or insert a `BehaviorClock` resource.",
        type_name::<B>()
    );
}

/// Reports that `npcs` entities have a `Behavior<B>` and no plugin runs them.
fn no_plugin<B: Brain>(npcs: usize) {
    log::warn!(
        "behaved-bevy: {npcs} entit{has} a `Behavior<{brain}>`, but the app has no `BehaviorPlugin::<{brain}>`: \
         their trees never tick. Add it: `app.add_plugins(BehaviorPlugin::<{brain}>::default())`.",
        brain = type_name::<B>(),
        has = if npcs == 1 { "y has" } else { "ies have" },
    );
}

/// Marks that the check for `B`'s plugin is armed in this world.
#[derive(Resource)]
struct Armed<B>(PhantomData<fn() -> B>);

/// The `on_add` hook of `Behavior<B>`: while no plugin runs `B`, the first
/// one added arms a check at the next update (the plugin may still come:
/// NPCs spawned before it are scheduled when it is added).
pub(crate) fn check_plugin<B: Brain>(mut world: DeferredWorld, _: HookContext) {
    if world.contains_resource::<Behaviors<B>>() || world.contains_resource::<Armed<B>>() {
        return;
    }
    world.commands().queue(arm::<B>);
}

/// Arms the check (once per world): adds [`check`] to a schedule that is
/// not running now (`First`, or `Last` while `First` runs); reports at once
/// in a world with no schedules (no app to add the plugin to).
fn arm<B: Brain>(world: &mut World) {
    if world.contains_resource::<Behaviors<B>>() || world.contains_resource::<Armed<B>>() {
        return;
    }
    world.insert_resource(Armed::<B>(PhantomData));
    let Some(mut schedules) = world.get_resource_mut::<Schedules>() else {
        let npcs = world.query_filtered::<(), With<Behavior<B>>>().iter(world).count();
        no_plugin::<B>(npcs);
        return;
    };
    if schedules.contains(First) {
        schedules.add_systems(First, check::<B>);
    } else {
        schedules.add_systems(Last, check::<B>);
    }
}

/// At its first run, reports if no plugin runs `B`; then nothing.
fn check<B: Brain>(plugin: Option<Res<Behaviors<B>>>, npcs: Query<(), With<Behavior<B>>>, mut done: Local<bool>) {
    if !std::mem::replace(&mut *done, true) && plugin.is_none() {
        no_plugin::<B>(npcs.iter().count());
    }
}

//! Sleeping on inputs in a real `App` (`SEMANTICS.md`, "Sleeping on
//! inputs"): a guard whose reactive condition reads a component sleeps
//! until that component changes, woken by Bevy's change detection with no
//! wake call in the game's code; its own writes during its tick do not
//! wake it.
#![allow(missing_docs)]

use behaved::prelude::*;
use behaved_bevy::{Behavior, BehaviorClock, BehaviorPlugin, Behaviors, Brain, NpcItem, Ticked, WorldItem};
use bevy_app::App;
use bevy_ecs::prelude::*;

/// Whether it is night where the guard stands.
#[derive(Component, Default)]
struct Night(bool);

/// What the guard did: one letter per tick of its running action.
#[derive(Component, Default)]
struct Acts(String);

/// What a guard's tree sees: whether its watch holds (the night for the
/// post's guard, the curfew for the town's) and its log of acts.
struct GuardCtx<'a> {
    watch: bool,
    acts: &'a mut Acts,
}

/// A continuous action: Running until halted, nothing changes it by itself.
#[derive(Clone)]
struct Keep(char);

impl<'a> Action<GuardCtx<'a>> for Keep {
    fn tick(&mut self, ctx: &mut GuardCtx<'a>) -> Status {
        ctx.acts.0.push(self.0);
        Status::Running
    }
    fn next_wake(&self, _: f64) -> Wake {
        Wake::Never
    }
}

behave! {
    /// Stands at the post by night, patrols by day.
    tree Guard for GuardCtx<'a> {
        reactive if |c| c.watch { Keep('s') } else { Keep('p') }
    }
}

struct GuardBrain(Guard);

impl Brain for GuardBrain {
    type Npc = (&'static Night, &'static mut Acts);
    type World = ();
    type Choice = ();

    fn tick(&mut self, npc: NpcItem<'_, '_, Self>, _: &WorldItem<'_, '_, Self>, now: f64) -> Ticked {
        let (night, acts) = npc;
        let mut ctx = GuardCtx {
            watch: night.0,
            acts: acts.into_inner(),
        };
        self.0.step(&mut ctx, now)
    }
}

/// An app stepping 1/64 s an update, with `plugin`.
fn guard_app(plugin: BehaviorPlugin<GuardBrain>) -> App {
    let mut app = App::new();
    app.insert_resource(BehaviorClock::stepping(1.0 / 64.0))
        .add_plugins(plugin);
    app
}

/// A guard by day at its post, its tree not yet ticked.
fn spawn_guard(app: &mut App) -> Entity {
    app.world_mut()
        .spawn((
            Night(false),
            Acts::default(),
            Behavior::continuous(GuardBrain(Guard::new())),
        ))
        .id()
}

fn ticks(app: &App, e: Entity) -> u64 {
    app.world().get::<Behavior<GuardBrain>>(e).unwrap().ticks()
}

fn updates(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

#[test]
fn a_guard_wakes_on_a_change_of_the_component_its_condition_reads() {
    guard_wakes_on_a_change(BehaviorPlugin::default());
}

#[test]
fn a_guard_wakes_on_a_change_that_bevys_changed_filter_finds() {
    guard_wakes_on_a_change(BehaviorPlugin::default().watch_changes::<Changed<Night>>());
}

#[test]
fn a_component_left_out_of_the_filter_wakes_nobody() {
    // The filter names `Acts` only: a change of `Night` goes unseen (the
    // filter broke the game's promise to mark every change of an input).
    let mut app = guard_app(BehaviorPlugin::default().watch_changes::<Changed<Acts>>());
    let guard = spawn_guard(&mut app);
    updates(&mut app, 3);
    assert_eq!(
        ticks(&app, guard),
        2,
        "its first tick wrote `Acts`, which the filter names: one early tick on the next update"
    );
    app.world_mut().get_mut::<Night>(guard).unwrap().0 = true;
    updates(&mut app, 3);
    assert_eq!(ticks(&app, guard), 2, "unseen");
    app.world_mut().get_mut::<Acts>(guard).unwrap().0.push('x');
    updates(&mut app, 1);
    assert_eq!(ticks(&app, guard), 3, "a change the filter names wakes it");
    assert_eq!(app.world().get::<Acts>(guard).unwrap().0, "ppxs");
    updates(&mut app, 3);
    assert_eq!(ticks(&app, guard), 3, "its own write on a change is not a change");
}

fn guard_wakes_on_a_change(plugin: BehaviorPlugin<GuardBrain>) {
    let mut app = guard_app(plugin);
    let (guard, other) = (spawn_guard(&mut app), spawn_guard(&mut app));
    updates(&mut app, 10);
    assert_eq!(
        (ticks(&app, guard), ticks(&app, other)),
        (1, 1),
        "asleep after the first tick"
    );
    assert!(
        matches!(
            app.world().get::<Behavior<GuardBrain>>(guard).unwrap().next_wake(),
            Wake::Watch { at, .. } if at == f64::INFINITY
        ),
        "watching `night`"
    );
    // The game changes the component; nobody calls wake.
    app.world_mut().get_mut::<Night>(guard).unwrap().0 = true;
    updates(&mut app, 1);
    assert_eq!(ticks(&app, guard), 2, "woken by the change");
    assert_eq!(
        app.world().get::<Acts>(guard).unwrap().0,
        "ps",
        "and standing at the post"
    );
    updates(&mut app, 10);
    assert_eq!(
        (ticks(&app, guard), ticks(&app, other)),
        (2, 1),
        "its own write of `Acts` in that tick does not wake it, and the other guard never woke"
    );
    let stats = app.world().resource::<Behaviors<GuardBrain>>().last_frame();
    assert_eq!((stats.ticked, stats.parked), (0, 2));
    // Back to day.
    app.world_mut().get_mut::<Night>(guard).unwrap().0 = false;
    updates(&mut app, 3);
    assert_eq!(ticks(&app, guard), 3);
    assert_eq!(app.world().get::<Acts>(guard).unwrap().0, "psp");
}

#[test]
fn a_change_while_the_trees_time_stands_still_is_ticked_when_it_moves() {
    for filtered in [false, true] {
        let plugin = BehaviorPlugin::<GuardBrain>::default();
        let plugin = if filtered {
            plugin.watch_changes::<Changed<Night>>()
        } else {
            plugin
        };
        let mut app = guard_app(plugin);
        let guard = spawn_guard(&mut app);
        updates(&mut app, 3);
        app.world_mut().resource_mut::<BehaviorClock>().step = 0.0;
        app.world_mut().get_mut::<Night>(guard).unwrap().0 = true;
        updates(&mut app, 3);
        assert_eq!(ticks(&app, guard), 1, "the time stands still: nothing ticks");
        app.world_mut().resource_mut::<BehaviorClock>().step = 1.0 / 64.0;
        updates(&mut app, 1);
        assert_eq!(ticks(&app, guard), 2, "filtered: {filtered}");
        assert_eq!(app.world().get::<Acts>(guard).unwrap().0, "ps");
        let stats = app.world().resource::<Behaviors<GuardBrain>>().last_frame();
        assert_eq!(stats.ticked, 1, "counted once in the update's stats");
    }
}

#[test]
fn a_woken_guard_whose_input_changed_too_is_ticked_once() {
    let mut app = guard_app(BehaviorPlugin::default().watch_changes::<Changed<Night>>());
    let guard = spawn_guard(&mut app);
    updates(&mut app, 3);
    app.world_mut().get_mut::<Night>(guard).unwrap().0 = true;
    assert!(app.world_mut().resource_mut::<Behaviors<GuardBrain>>().wake(guard));
    updates(&mut app, 1);
    assert_eq!(ticks(&app, guard), 2, "one tick for the change and the wake");
    updates(&mut app, 3);
    assert_eq!(ticks(&app, guard), 2, "and asleep again");
    assert_eq!(app.world().get::<Acts>(guard).unwrap().0, "ps");
}

/// Whether the town's curfew holds: a resource every guard's brain reads.
#[derive(Resource, Default)]
struct Curfew(bool);

behave! {
    /// Stands at the gate during the curfew, patrols otherwise.
    tree TownGuard for GuardCtx<'a> {
        reactive if |c| c.watch { Keep('g') } else { Keep('p') }
    }
}

struct TownBrain(TownGuard);

impl Brain for TownBrain {
    type Npc = &'static mut Acts;
    type World = Res<'static, Curfew>;
    type Choice = ();

    fn tick(&mut self, acts: NpcItem<'_, '_, Self>, curfew: &WorldItem<'_, '_, Self>, now: f64) -> Ticked {
        let mut ctx = GuardCtx {
            watch: curfew.0,
            acts: acts.into_inner(),
        };
        self.0.step(&mut ctx, now)
    }
}

#[test]
fn a_guard_wakes_on_a_change_of_a_resource_its_brain_reads() {
    let mut app = App::new();
    app.insert_resource(BehaviorClock::stepping(1.0 / 64.0))
        .init_resource::<Curfew>()
        .add_plugins(BehaviorPlugin::<TownBrain>::default());
    let guard = app
        .world_mut()
        .spawn((Acts::default(), Behavior::continuous(TownBrain(TownGuard::new()))))
        .id();
    let ticks = |app: &App| app.world().get::<Behavior<TownBrain>>(guard).unwrap().ticks();
    updates(&mut app, 5);
    assert_eq!(ticks(&app), 1, "asleep on a watch of `curfew`");
    // The game changes the resource; nobody marks it.
    app.world_mut().resource_mut::<Curfew>().0 = true;
    updates(&mut app, 1);
    assert_eq!(ticks(&app), 2, "woken by the resource's change");
    updates(&mut app, 5);
    assert_eq!(ticks(&app), 2, "and asleep again");
    assert_eq!(app.world().get::<Acts>(guard).unwrap().0, "pg");
}

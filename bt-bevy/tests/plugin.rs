//! The plugin in a real `App`, driven by `app.update()` (one update = one
//! 1/64 s frame of an explicit `BehaviorClock`, so that the ticks do not
//! depend on the machine; `time.rs` runs the trees on Bevy's `Time`).
#![allow(missing_docs)]

mod common;

use behaved::prelude::*;
use behaved_bevy::{
    Answer, Behavior, BehaviorClock, BehaviorPlugin, BehaviorSystems, Behaviors, Brain, Interact, NpcItem, Ticked,
    WorldItem,
};
use bevy_app::{App, Update};
use bevy_ecs::prelude::*;

/// A patrolling NPC's position along its route.
#[derive(Component, Default, Debug, PartialEq)]
struct Pos(i32);

/// Read by every NPC, written by nobody during the tick.
#[derive(Resource, Default)]
struct Alarm(bool);

/// What one patroller's tree sees.
struct PatrolCtx<'a> {
    pos: &'a mut Pos,
    alarm: bool,
}

behave! {
    /// Step, then stand for a second; forever. An alarm sends it home.
    tree Patrol for PatrolCtx<'a> {
        loop { sequence { act(|c| { if c.alarm { c.pos.0 = 0 } else { c.pos.0 += 1 } }), wait(1.0) } }
    }
}

behave! {
    /// Busy on every tick.
    tree Fidget for PatrolCtx<'a> { act(|c| { c.pos.0 += 1; Status::Running }) }
}

behave! {
    /// Steps once, then waits for an event.
    tree Statue for PatrolCtx<'a> { sequence { act(|c| c.pos.0 += 1), running } }
}

/// The brain of the test NPCs: one of three trees.
enum Walker {
    Patrol(Patrol),
    Fidget(Fidget),
    Statue(Statue),
}

impl Brain for Walker {
    type Npc = &'static mut Pos;
    type World = Res<'static, Alarm>;
    /// Where it would go: its position after running to completion.
    type Choice = i32;

    fn tick(&mut self, pos: NpcItem<'_, '_, Self>, alarm: &WorldItem<'_, '_, Self>, now: f64) -> Ticked {
        let mut ctx = PatrolCtx {
            pos: pos.into_inner(),
            alarm: alarm.0,
        };
        match self {
            Walker::Patrol(t) => t.step(&mut ctx, now),
            Walker::Fidget(t) => t.step(&mut ctx, now),
            Walker::Statue(t) => t.step(&mut ctx, now),
        }
    }

    fn evaluate(&mut self, pos: NpcItem<'_, '_, Self>, alarm: &WorldItem<'_, '_, Self>, now: f64) -> Option<i32> {
        // A fresh patrol on a copy: choosing must not move the NPC.
        let mut copy = Pos(pos.0);
        let mut ctx = PatrolCtx {
            pos: &mut copy,
            alarm: alarm.0,
        };
        let _ = Statue::new().run_at(&mut ctx, now, 10);
        Some(copy.0)
    }
}

const STEP: f64 = 1.0 / 64.0;

fn app() -> App {
    let mut app = App::new();
    // 64 updates a second: update n runs at exactly n/64 s (1/60 is not exact
    // in binary, and a wait may then end a hair after its frame).
    app.insert_resource(BehaviorClock { now: 0.0, step: STEP })
        .add_plugins(BehaviorPlugin::<Walker>::default())
        .init_resource::<Alarm>()
        .init_resource::<Changed>()
        .add_systems(Update, count_changed.after(BehaviorSystems));
    app
}

/// How many `Behavior<Walker>` components the last update marked changed.
#[derive(Resource, Default)]
struct Changed(usize);

fn count_changed(mut changed: ResMut<Changed>, trees: Query<(), bevy_ecs::query::Changed<Behavior<Walker>>>) {
    changed.0 = trees.iter().count();
}

fn spawn(app: &mut App, walker: Walker, pos: i32) -> Entity {
    app.world_mut().spawn((Pos(pos), Behavior::continuous(walker))).id()
}

fn ticks(app: &App, e: Entity) -> u64 {
    app.world().get::<Behavior<Walker>>(e).unwrap().ticks()
}

fn pos(app: &App, e: Entity) -> i32 {
    app.world().get::<Pos>(e).unwrap().0
}

/// Runs `updates` updates; per NPC, the updates (numbered from 1) in which its tree ticked.
fn tick_log(app: &mut App, npcs: &[Entity], updates: u64) -> Vec<Vec<u64>> {
    common::tick_log_of::<Walker>(app, npcs, 1, updates)
}

#[test]
fn each_tree_ticks_exactly_when_due_and_sleeps_otherwise() {
    let mut app = app();
    let patrol = spawn(&mut app, Walker::Patrol(Patrol::new()), 0);
    let fidget = spawn(&mut app, Walker::Fidget(Fidget::new()), 0);
    let statue = spawn(&mut app, Walker::Statue(Statue::new()), 0);
    let log = tick_log(&mut app, &[patrol, fidget, statue], 130);
    // Update n runs at n/64 s. The patrol steps at once, then waits a second:
    // its wait ends at update 65 (the next step starts in the same tick), and 129.
    assert_eq!(log[0], [1, 65, 129]);
    assert_eq!(log[1], (1..=130).collect::<Vec<_>>(), "busy: every update");
    assert_eq!(log[2], [1], "parked at `running` after one step");
    assert_eq!((pos(&app, patrol), pos(&app, fidget), pos(&app, statue)), (3, 130, 1));
    let stats = app.world().resource::<Behaviors<Walker>>().last_frame();
    assert_eq!(
        (stats.ticked, stats.sleeping, stats.parked),
        (1, 1, 1),
        "the fidget ticked, the others slept"
    );
    // Asleep until its third wait ends (the runtime computes it up to rounding).
    let Wake::At(t) = app.world().get::<Behavior<Walker>>(patrol).unwrap().next_wake() else {
        panic!("the patrol sleeps until a time");
    };
    assert!((t - (129.0 * STEP + 1.0)).abs() < 1e-9, "{t}");
    assert_eq!(
        app.world().get::<Behavior<Walker>>(patrol).unwrap().status(),
        Some(Status::Running)
    );
}

#[test]
fn a_tick_interval_spaces_and_spreads_the_ticks_of_busy_trees() {
    let mut app = app();
    let busy: Vec<Entity> = (0..8)
        .map(|_| {
            app.world_mut()
                .spawn((Pos(0), Behavior::continuous(Walker::Fidget(Fidget::new())).every(0.5)))
                .id()
        })
        .collect();
    let log = tick_log(&mut app, &busy, 120);
    let mut firsts = Vec::new();
    for ticks in &log {
        // Every 32 updates (0.5 s) after a first tick within the first interval.
        let first = ticks[0];
        assert!((1..=32).contains(&first), "{ticks:?}");
        let expected: Vec<u64> = (0..4).map(|k| first + 32 * k).filter(|&u| u <= 120).collect();
        assert_eq!(ticks, &expected);
        firsts.push(first);
    }
    firsts.sort();
    firsts.dedup();
    assert!(firsts.len() >= 4, "spread over the interval: {firsts:?}");
}

#[test]
fn a_parked_tree_waits_for_wake() {
    let mut app = app();
    let e = spawn(&mut app, Walker::Statue(Statue::new()), 0);
    assert_eq!(tick_log(&mut app, &[e], 30), [[1]]);
    assert_eq!(app.world().get::<Behavior<Walker>>(e).unwrap().next_wake(), Wake::Never);
    assert!(app.world_mut().resource_mut::<Behaviors<Walker>>().wake(e));
    assert_eq!(
        tick_log(&mut app, &[e], 5),
        [[1]],
        "one tick after the wake, then parked again"
    );
    let stranger = app.world_mut().spawn(Pos(0)).id();
    assert!(!app.world_mut().resource_mut::<Behaviors<Walker>>().wake(stranger));
}

#[test]
fn sleeping_changes_no_archetype_and_marks_only_ticked_trees_changed() {
    let mut app = app();
    for _ in 0..50 {
        spawn(&mut app, Walker::Patrol(Patrol::new()), 0);
    }
    spawn(&mut app, Walker::Fidget(Fidget::new()), 0);
    app.update();
    assert_eq!(
        app.world().resource::<Changed>().0,
        51,
        "all ticked on the first update"
    );
    let archetypes = app.world().archetypes().len();
    for _ in 0..20 {
        app.update();
        assert_eq!(app.world().resource::<Changed>().0, 1, "only the fidget ticked");
    }
    assert_eq!(app.world().archetypes().len(), archetypes);
}

#[test]
fn a_dense_frame_ticks_only_the_due_trees_too() {
    // 6 busy trees of 16: more than one in 8 is due, so each frame passes over
    // all 16 (`tick_behaviors`' dense way) instead of looking the 6 up.
    let mut app = app();
    let mut npcs = Vec::new();
    for i in 0..16 {
        let walker = if i % 3 == 0 {
            Walker::Fidget(Fidget::new())
        } else {
            Walker::Patrol(Patrol::new())
        };
        npcs.push(spawn(&mut app, walker, 0));
    }
    app.update();
    assert_eq!(app.world().resource::<Changed>().0, 16);
    let log = tick_log(&mut app, &npcs, 70);
    for (i, ticks) in log.iter().enumerate() {
        if i % 3 == 0 {
            assert_eq!(ticks, &(1..=70).collect::<Vec<_>>());
        } else {
            // Update 1 here is the second update: the wait ends at update 65 overall.
            assert_eq!(ticks, &[64], "patrol {i}");
        }
    }
    assert_eq!(
        app.world().resource::<Changed>().0,
        6,
        "the sleeping patrols are not marked changed"
    );
}

#[test]
fn despawned_and_removed_npcs_leave_the_schedule() {
    let mut app = app();
    let a = spawn(&mut app, Walker::Fidget(Fidget::new()), 0);
    let b = spawn(&mut app, Walker::Fidget(Fidget::new()), 0);
    let c = spawn(&mut app, Walker::Patrol(Patrol::new()), 0);
    app.world_mut()
        .spawn((Pos(0), Behavior::on_interaction(Walker::Statue(Statue::new()))));
    app.update();
    assert_eq!(
        app.world().resource::<Behaviors<Walker>>().len(),
        3,
        "on-interaction NPCs are not scheduled"
    );
    app.world_mut().despawn(a);
    app.world_mut().entity_mut(c).remove::<Behavior<Walker>>();
    assert_eq!(app.world().resource::<Behaviors<Walker>>().len(), 1);
    assert_eq!(tick_log(&mut app, &[b], 3), [[1, 2, 3]]);
    assert_eq!(app.world().resource::<Behaviors<Walker>>().last_frame().ticked, 1);
}

#[test]
fn a_budget_shares_the_ticks_round_robin() {
    let mut app = App::new();
    app.add_plugins(BehaviorPlugin::<Walker>::default().budget(2))
        .init_resource::<BehaviorClock>()
        .init_resource::<Alarm>();
    let npcs: Vec<Entity> = (0..3)
        .map(|_| spawn(&mut app, Walker::Fidget(Fidget::new()), 0))
        .collect();
    let log = tick_log(&mut app, &npcs, 6);
    // Two ticks per update over three busy trees: each ticks 4 times in 6 updates.
    assert_eq!(log.iter().map(Vec::len).collect::<Vec<_>>(), [4, 4, 4]);
    assert_eq!(app.world().resource::<Behaviors<Walker>>().last_frame().backlog, 1);
}

#[test]
fn an_interaction_runs_the_tree_to_completion_and_answers() {
    let mut app = app();
    let guard = app
        .world_mut()
        .spawn((Pos(5), Behavior::on_interaction(Walker::Statue(Statue::new()))))
        .id();
    let patrol = spawn(&mut app, Walker::Patrol(Patrol::new()), 0);
    app.update();
    assert_eq!(pos(&app, patrol), 1, "the patrol's first step");
    app.world_mut().write_message(Interact { npc: guard });
    app.world_mut().write_message(Interact { npc: patrol });
    app.update();
    let answers: Vec<Answer<i32>> = common::answers(&mut app);
    assert_eq!(
        answers,
        [Answer { npc: guard, choice: 6 }, Answer { npc: patrol, choice: 2 }],
        "each answer is where a statue tree run to completion would have stepped to"
    );
    assert_eq!((pos(&app, guard), pos(&app, patrol)), (5, 1), "choosing moved nobody");
    assert_eq!(
        ticks(&app, guard),
        0,
        "an on-interaction tree is never ticked by frames"
    );
}

#[test]
fn world_data_reaches_the_trees() {
    let mut app = app();
    let e = spawn(&mut app, Walker::Patrol(Patrol::new()), 7);
    app.world_mut().resource_mut::<Alarm>().0 = true;
    app.update();
    assert_eq!(pos(&app, e), 0, "the alarm sent it home");
}

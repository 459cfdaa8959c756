//! The plugin in a real `App`, driven by `app.update()` (one update = one
//! 60 Hz frame of the `BehaviorClock`).
#![allow(missing_docs)]

use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_ecs::query::QueryItem;
use bevy_ecs::system::SystemParamItem;
use bt::prelude::*;
use bt_bevy::{Answer, Behavior, BehaviorPlugin, Brain, Interact, Ticked};

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

    fn tick(&mut self, pos: QueryItem<'_, '_, Self::Npc>, alarm: &SystemParamItem<'_, '_, Self::World>, now: f64) -> Ticked {
        let mut ctx = PatrolCtx { pos: pos.into_inner(), alarm: alarm.0 };
        match self {
            Walker::Patrol(t) => t.step(&mut ctx, now),
            Walker::Fidget(t) => t.step(&mut ctx, now),
            Walker::Statue(t) => t.step(&mut ctx, now),
        }
    }

    fn evaluate(&mut self, pos: QueryItem<'_, '_, Self::Npc>, alarm: &SystemParamItem<'_, '_, Self::World>, now: f64) -> i32 {
        // A fresh patrol on a copy: choosing must not move the NPC.
        let mut copy = Pos(pos.0);
        let mut ctx = PatrolCtx { pos: &mut copy, alarm: alarm.0 };
        let _ = Statue::new().run_at(&mut ctx, now, 10);
        copy.0
    }
}

fn app() -> App {
    let mut app = App::new();
    app.add_plugins(BehaviorPlugin::<Walker>::default()).init_resource::<Alarm>();
    app
}

fn ticks(app: &App, e: Entity) -> u64 {
    app.world().get::<Behavior<Walker>>(e).unwrap().ticks()
}

fn pos(app: &App, e: Entity) -> i32 {
    app.world().get::<Pos>(e).unwrap().0
}

#[test]
fn a_sleeping_patrol_is_ticked_only_when_its_wait_ends() {
    let mut app = app();
    let e = app.world_mut().spawn((Pos(0), Behavior::continuous(Walker::Patrol(Patrol::new())))).id();
    for _ in 0..125 {
        app.update();
    }
    // Updates at 1/60 .. 125/60 s: the step at the first, and when each
    // one-second wait ends (the next step starts in the same tick).
    assert_eq!((pos(&app, e), ticks(&app, e)), (3, 3));
}

#[test]
fn a_tick_interval_spaces_the_ticks_of_a_busy_tree() {
    let mut app = app();
    let busy: Vec<Entity> = (0..8)
        .map(|_| app.world_mut().spawn((Pos(0), Behavior::continuous(Walker::Fidget(Fidget::new())).every(0.5))).id())
        .collect();
    let every_frame = app.world_mut().spawn((Pos(0), Behavior::continuous(Walker::Fidget(Fidget::new())))).id();
    for _ in 0..120 {
        app.update();
    }
    assert_eq!(ticks(&app, every_frame), 120);
    for e in busy {
        // Two seconds at one tick per half second: 4, give or take the phase.
        let n = ticks(&app, e);
        assert!((4..=5).contains(&n), "{n} ticks");
    }
}

#[test]
fn a_parked_tree_waits_for_wake() {
    let mut app = app();
    let e = app.world_mut().spawn((Pos(0), Behavior::continuous(Walker::Statue(Statue::new())))).id();
    for _ in 0..30 {
        app.update();
    }
    assert_eq!((pos(&app, e), ticks(&app, e)), (1, 1));
    assert_eq!(app.world().get::<Behavior<Walker>>(e).unwrap().due(), f64::INFINITY);
    app.world_mut().get_mut::<Behavior<Walker>>(e).unwrap().wake();
    app.update();
    app.update();
    assert_eq!(ticks(&app, e), 2, "one tick after the wake, then parked again");
}

#[test]
fn sleeping_changes_no_archetype_and_marks_only_ticked_trees_changed() {
    let mut app = app();
    for _ in 0..50 {
        app.world_mut().spawn((Pos(0), Behavior::continuous(Walker::Patrol(Patrol::new()))));
    }
    app.world_mut().spawn((Pos(0), Behavior::continuous(Walker::Fidget(Fidget::new()))));
    app.update();
    let archetypes = app.world().archetypes().len();
    let mut changed = app.world_mut().query_filtered::<(), Changed<Behavior<Walker>>>();
    let _ = changed.iter(app.world()).count();
    for _ in 0..20 {
        app.update();
        assert_eq!(changed.iter(app.world()).count(), 1, "only the fidget ticked");
    }
    assert_eq!(app.world().archetypes().len(), archetypes);
}

#[test]
fn an_interaction_runs_the_tree_to_completion_and_answers() {
    let mut app = app();
    let guard = app.world_mut().spawn((Pos(5), Behavior::on_interaction(Walker::Statue(Statue::new())))).id();
    let patrol = app.world_mut().spawn((Pos(0), Behavior::continuous(Walker::Patrol(Patrol::new())))).id();
    app.update();
    app.world_mut().write_message(Interact { npc: guard });
    app.world_mut().write_message(Interact { npc: patrol });
    app.update();
    let answers: Vec<Answer<i32>> = app
        .world_mut()
        .resource_mut::<Messages<Answer<i32>>>()
        .drain()
        .collect();
    assert_eq!(
        answers,
        [Answer { npc: guard, choice: 6 }, Answer { npc: patrol, choice: 1 }],
        "the statue tree steps once and stops at `running`; nobody moved"
    );
    assert_eq!(pos(&app, guard), 5);
    assert_eq!(ticks(&app, guard), 0, "an on-interaction tree is never ticked by frames");
}

#[test]
fn world_data_reaches_the_trees() {
    let mut app = app();
    let e = app.world_mut().spawn((Pos(7), Behavior::continuous(Walker::Patrol(Patrol::new())))).id();
    app.world_mut().resource_mut::<Alarm>().0 = true;
    app.update();
    assert_eq!(pos(&app, e), 0, "the alarm sent it home");
}

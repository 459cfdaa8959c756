//! The trees on Bevy's `Time` in a real `App`: virtual time in `Update`
//! (paused, scaled), fixed time in `FixedUpdate`, a schedule of the user's,
//! and an explicit `BehaviorClock` instead of `Time`.
#![allow(missing_docs)]

mod common;

use behaved_bevy::{Behavior, BehaviorClock, BehaviorPlugin, BehaviorSystems, BehaviorTime};
use bevy_app::{FixedUpdate, Update};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_time::{Fixed, Time, Virtual};
use common::{STEP, Walker, patrol_and_fidget, spawn, tick_log, tick_log_from, timed_app};

fn times(app: &bevy_app::App, e: Entity) -> Vec<f64> {
    app.world().get::<Behavior<Walker>>(e).unwrap().brain.times().to_vec()
}

#[test]
fn trees_run_on_virtual_time_in_update_by_default() {
    let (mut app, [patrol, fidget]) = patrol_and_fidget(BehaviorPlugin::default());
    let log = tick_log(&mut app, &[patrol, fidget], 130);
    // Update n is at (n - 1)/64 s: the patrol's one-second waits end at updates 65 and 129.
    assert_eq!(log[0], [1, 65, 129]);
    assert_eq!(log[1], (1..=130).collect::<Vec<_>>());
    assert_eq!(times(&app, patrol), [0.0, 1.0, 2.0]);
}

#[test]
fn a_paused_time_freezes_the_trees_and_delays_their_waits() {
    let (mut app, [patrol, fidget]) = patrol_and_fidget(BehaviorPlugin::default());
    let before = tick_log(&mut app, &[patrol, fidget], 10);
    assert_eq!(before[1].len(), 10);
    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    let paused = tick_log_from(&mut app, &[patrol, fidget], 11, 20);
    assert_eq!(paused, [Vec::<u64>::new(), Vec::new()], "nothing ticks while paused");
    app.world_mut().resource_mut::<Time<Virtual>>().unpause();
    let after = tick_log_from(&mut app, &[patrol, fidget], 31, 60);
    // 20 paused updates: the patrol's wait ends at update 85, not 65.
    assert_eq!(after[0], [85]);
    assert_eq!(after[1], (31..=90).collect::<Vec<_>>(), "busy again");
}

#[test]
fn a_faster_time_hurries_the_waits() {
    let mut app = timed_app(BehaviorPlugin::default());
    app.world_mut().resource_mut::<Time<Virtual>>().set_relative_speed(2.0);
    let patrol = spawn(&mut app, Walker::patrol());
    // Two seconds of game time per second: the waits end every 32 updates.
    assert_eq!(tick_log(&mut app, &[patrol], 70), [[1, 33, 65]]);
    assert_eq!(times(&app, patrol), [0.0, 1.0, 2.0]);
}

#[test]
fn in_fixed_update_trees_run_on_fixed_time() {
    let (mut app, [patrol, fidget]) = patrol_and_fidget(BehaviorPlugin::default().in_schedule(FixedUpdate));
    app.insert_resource(Time::<Fixed>::from_seconds(0.25));
    let log = tick_log(&mut app, &[patrol, fidget], 90);
    // A fixed step every 16 updates, the first when 0.25 s has accumulated (update 17).
    assert_eq!(log[1], [17, 33, 49, 65, 81]);
    assert_eq!(times(&app, fidget), [0.25, 0.5, 0.75, 1.0, 1.25]);
    // The patrol waits a second of fixed time: from 0.25 s to 1.25 s.
    assert_eq!(log[0], [17, 81]);
}

/// A schedule the game runs itself.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
struct Think;

#[test]
fn trees_run_in_a_schedule_of_the_users_and_only_when_time_has_passed() {
    let mut app = bevy_app::App::new();
    app.add_plugins(BehaviorPlugin::<Walker>::default().in_schedule(Think))
        .insert_resource(BehaviorClock::stepping(STEP));
    let fidget = spawn(&mut app, Walker::fidget());
    assert_eq!(
        tick_log(&mut app, &[fidget], 3),
        [Vec::<u64>::new()],
        "Update runs no trees"
    );
    app.world_mut().run_schedule(Think);
    app.world_mut().run_schedule(Think);
    assert_eq!(
        times(&app, fidget),
        [3.0 * STEP],
        "one tick: the second run came at the same time"
    );
    app.update();
    app.world_mut().run_schedule(Think);
    assert_eq!(times(&app, fidget), [3.0 * STEP, 4.0 * STEP]);
}

#[test]
fn a_behavior_clock_is_the_time_instead_of_bevys() {
    let mut app = timed_app(BehaviorPlugin::default());
    app.insert_resource(BehaviorClock::stepping(STEP));
    app.world_mut().resource_mut::<Time<Virtual>>().set_relative_speed(2.0);
    let patrol = spawn(&mut app, Walker::patrol());
    // The clock advances 1/64 s at the start of each update: update n is at n/64 s.
    assert_eq!(tick_log(&mut app, &[patrol], 70), [[1, 65]]);
    assert_eq!(times(&app, patrol), [STEP, 65.0 * STEP]);
}

/// What `BehaviorTime` said in the last update, after the trees ran.
#[derive(Resource, Default)]
struct Seen(Option<f64>);

fn see(time: BehaviorTime, mut seen: ResMut<Seen>) {
    seen.0 = time.now();
}

#[test]
fn behavior_time_tells_a_system_the_trees_time() {
    let mut app = timed_app(BehaviorPlugin::default());
    app.init_resource::<Seen>()
        .add_systems(Update, see.after(BehaviorSystems));
    let patrol = spawn(&mut app, Walker::patrol());
    app.world_mut().resource_mut::<Time<Virtual>>().set_relative_speed(4.0);
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(app.world().resource::<Seen>().0, Some(8.0 * STEP));
    assert_eq!(times(&app, patrol), [0.0]);
}

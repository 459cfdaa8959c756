//! The frame gate in a real `App`: an outside debugger (behaved-studio's
//! live view, through `Debugger::frame_allowed`) holds updates; the trees
//! and the virtual time stand still, and a step lets exactly one update through.
#![allow(missing_docs)]

mod common;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use behaved_bevy::{BehaviorClock, BehaviorPlugin, FrameGate, frame_gate_open};
use bevy_app::Update;
use bevy_ecs::prelude::*;
use bevy_time::{Time, Virtual};
use common::{STEP, Walker, patrol_and_fidget, spawn, tick_log_from, timed_app};

/// A gate that says what `script` says, one answer an update (then `true`),
/// as a debugger's page would: paused, a step, paused, resumed.
fn scripted(app: &mut bevy_app::App, script: &[bool]) -> Arc<Mutex<VecDeque<bool>>> {
    let answers = Arc::new(Mutex::new(script.iter().copied().collect::<VecDeque<_>>()));
    let gate = Arc::clone(&answers);
    app.insert_resource(FrameGate::new(move || gate.lock().unwrap().pop_front().unwrap_or(true)));
    answers
}

#[test]
fn a_closed_gate_holds_the_trees_and_the_virtual_time_and_a_step_lets_one_update_through() {
    let (mut app, [patrol, fidget]) = patrol_and_fidget(BehaviorPlugin::default());
    // Updates 1-10 open, 11-20 held, 21 a step, 22-30 held, then open.
    let mut script = vec![true; 10];
    script.extend([false; 10]);
    script.push(true);
    script.extend([false; 9]);
    scripted(&mut app, &script);
    let log = tick_log_from(&mut app, &[patrol, fidget], 1, 30);
    let mut ran: Vec<u64> = (1..=10).collect();
    ran.push(21);
    assert_eq!(log[1], ran, "the busy tree ticks only in the updates let through");
    assert_eq!(log[0], [1], "the patrol waits");
    let virtual_time = app.world().resource::<Time<Virtual>>();
    assert!(virtual_time.is_paused(), "held: the virtual time is paused");
    // 11 updates of virtual time went by (the first update starts the clock): 10 * STEP.
    assert_eq!(virtual_time.elapsed_secs_f64(), 10.0 * STEP);
    // Open again: the one-second wait ends 64 updates of virtual time after the start, at update 84.
    let after = tick_log_from(&mut app, &[patrol, fidget], 31, 60);
    assert!(!app.world().resource::<Time<Virtual>>().is_paused());
    assert_eq!(after[0], [84], "the wait counted only the updates let through");
    assert_eq!(after[1], (31..=90).collect::<Vec<_>>());
}

#[test]
fn a_pause_of_the_games_own_is_left_alone_and_the_run_condition_serves_its_systems() {
    #[derive(Resource, Default)]
    struct Ran(u32);
    let mut app = timed_app(BehaviorPlugin::default());
    app.init_resource::<Ran>()
        .add_systems(Update, (|mut ran: ResMut<Ran>| ran.0 += 1).run_if(frame_gate_open));
    scripted(&mut app, &[true, false, false, true]);
    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    for _ in 0..4 {
        app.update();
    }
    assert_eq!(app.world().resource::<Ran>().0, 2, "the two updates let through");
    assert!(
        app.world().resource::<Time<Virtual>>().is_paused(),
        "the game paused its time itself: the gate does not unpause it"
    );
}

#[test]
fn a_held_update_does_not_advance_an_explicit_clock() {
    let mut app = timed_app(BehaviorPlugin::default());
    app.insert_resource(BehaviorClock::stepping(STEP));
    let fidget = spawn(&mut app, Walker::fidget());
    scripted(&mut app, &[true, false, false, true, true]);
    let log = tick_log_from(&mut app, &[fidget], 1, 5);
    assert_eq!(log[0], [1, 4, 5]);
    let times = app
        .world()
        .get::<behaved_bevy::Behavior<Walker>>(fidget)
        .unwrap()
        .brain
        .times()
        .to_vec();
    assert_eq!(times, [STEP, 2.0 * STEP, 3.0 * STEP], "three updates' worth of time");
}

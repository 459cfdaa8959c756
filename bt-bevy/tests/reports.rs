//! What used to fail silently, in a real `App`: NPCs spawned before the
//! plugin are scheduled when it comes; a `Behavior` whose brain has no
//! plugin, trees with no time, and brain methods needed and not written are
//! each reported once, through the `log` facade (captured here).
#![allow(missing_docs)]

mod common;

use std::sync::{Mutex, Once};

use behaved_bevy::{Answer, Behavior, BehaviorPlugin, Behaviors, Brain, Interact, Status, Ticked, Wake};
use bevy_app::{App, Startup};
use bevy_ecs::prelude::*;
use common::{Pos, Walker, spawn, timed_app};

/// Every warning logged in this process (tests run in parallel: each one
/// looks for the warnings that name its own brain type).
static WARNINGS: Mutex<Vec<String>> = Mutex::new(Vec::new());

struct Capture;

impl log::Log for Capture {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        metadata.level() <= log::Level::Warn
    }
    fn log(&self, record: &log::Record) {
        if self.enabled(record.metadata()) {
            WARNINGS.lock().unwrap().push(record.args().to_string());
        }
    }
    fn flush(&self) {}
}

/// Captures the warnings from now on: each test calls it first.
fn capture() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        log::set_logger(&Capture).expect("the only logger");
        log::set_max_level(log::LevelFilter::Warn);
    });
}

/// The warnings so far that contain `needle`.
fn warnings(needle: &str) -> Vec<String> {
    WARNINGS
        .lock()
        .unwrap()
        .iter()
        .filter(|w| w.contains(needle))
        .cloned()
        .collect()
}

/// A brain that runs forever and asks for every frame: each test that looks
/// for its own reports has a type of its own, whose name is in them.
macro_rules! running_brain {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        struct $name;

        impl Brain for $name {
            type Npc = ();
            type World = ();
            type Choice = ();
            fn tick(&mut self, _: (), _: &(), _: f64) -> Ticked {
                Ticked {
                    status: Status::Running,
                    wake: Wake::NextTick,
                }
            }
        }
    };
}

running_brain!(
    /// A brain for the missing-plugin test alone (its name is in the report).
    Forgotten
);

fn spawn_forgotten(mut commands: Commands) {
    commands.spawn(Behavior::continuous(Forgotten));
    commands.spawn(Behavior::continuous(Forgotten));
}

#[test]
fn a_behavior_without_its_plugin_is_reported_once_naming_the_brain() {
    capture();
    assert!(warnings("Forgotten").is_empty());
    let mut app = timed_app(BehaviorPlugin::default());
    // Spawned by a startup system, as a game does; the plugin for `Walker` is there, not this one.
    app.add_systems(Startup, spawn_forgotten);
    for _ in 0..5 {
        app.update();
    }
    app.world_mut().spawn(Behavior::continuous(Forgotten));
    for _ in 0..5 {
        app.update();
    }
    let reports = warnings("Forgotten");
    assert_eq!(reports.len(), 1, "{reports:?}");
    let name = std::any::type_name::<Forgotten>();
    assert!(
        reports[0].contains(&format!("2 entities have a `Behavior<{name}>`"))
            && reports[0].contains(&format!("BehaviorPlugin::<{name}>")),
        "{}",
        reports[0]
    );
    let mut trees = app.world_mut().query::<&Behavior<Forgotten>>();
    let trees: Vec<_> = trees.iter(app.world()).map(|b| (b.ticks(), b.status())).collect();
    assert_eq!(trees, [(0, None); 3], "nothing ran them");
}

/// A brain for the late-plugin test alone.
struct Latecomer;

impl Brain for Latecomer {
    type Npc = &'static mut Pos;
    type World = ();
    type Choice = ();
    fn tick(&mut self, pos: Mut<Pos>, _: &(), _: f64) -> Ticked {
        pos.into_inner().0 += 1;
        Ticked {
            status: Status::Running,
            wake: Wake::NextTick,
        }
    }
}

#[test]
fn npcs_spawned_before_the_plugin_are_scheduled_when_it_is_added() {
    capture();
    let mut app = App::new();
    let early: Vec<Entity> = (0..3)
        .map(|_| app.world_mut().spawn((Pos(0), Behavior::continuous(Latecomer))).id())
        .collect();
    let on_interaction = app
        .world_mut()
        .spawn((Pos(0), Behavior::on_interaction(Latecomer)))
        .id();
    app.add_plugins((bevy_time::TimePlugin, BehaviorPlugin::<Latecomer>::default()));
    let late = app.world_mut().spawn((Pos(0), Behavior::continuous(Latecomer))).id();
    assert_eq!(app.world().resource::<Behaviors<Latecomer>>().len(), 4);
    for _ in 0..5 {
        app.update();
    }
    for e in early.iter().chain([&late]) {
        assert_eq!(app.world().get::<Pos>(*e).unwrap().0, 5, "ticked on every update");
    }
    assert_eq!(app.world().get::<Pos>(on_interaction).unwrap().0, 0);
    assert!(warnings("Latecomer").is_empty(), "the plugin came: no report");
}

/// Evaluates only: it has no `tick`.
struct Oracle;

impl Brain for Oracle {
    type Npc = ();
    type World = ();
    type Choice = u32;
    fn evaluate(&mut self, _: (), _: &(), _: f64) -> Option<u32> {
        Some(42)
    }
}

#[test]
fn a_brain_writes_only_the_method_of_its_mode_and_a_missing_one_is_reported_once() {
    capture();
    let mut app = timed_app(BehaviorPlugin::default());
    app.add_plugins(BehaviorPlugin::<Oracle>::default());
    let asked = app.world_mut().spawn(Behavior::on_interaction(Oracle)).id();
    app.world_mut().write_message(Interact { npc: asked });
    app.update();
    let answers: Vec<Answer<u32>> = common::answers(&mut app);
    assert_eq!(answers, [Answer { npc: asked, choice: 42 }]);
    assert!(warnings("Oracle").is_empty());

    // Two continuous oracles: `tick` is needed and not written.
    let wrong: Vec<Entity> = (0..2)
        .map(|_| app.world_mut().spawn(Behavior::continuous(Oracle)).id())
        .collect();
    for _ in 0..5 {
        app.update();
    }
    for e in wrong {
        let b = app.world().get::<Behavior<Oracle>>(e).unwrap();
        assert_eq!(
            (b.ticks(), b.status(), b.next_wake()),
            (1, Some(Status::Failure), Wake::Never),
            "parked after one tick"
        );
    }
    let reports = warnings("Oracle");
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert!(reports[0].contains("has no `Brain::tick`"), "{}", reports[0]);
}

#[test]
fn an_interaction_with_a_brain_that_does_not_evaluate_is_reported_once() {
    capture();
    let mut app = timed_app(BehaviorPlugin::default());
    let walker = spawn(&mut app, Walker::patrol());
    for _ in 0..3 {
        app.world_mut().write_message(Interact { npc: walker });
        app.update();
    }
    assert!(app.world().resource::<Messages<Answer<()>>>().is_empty(), "no answer");
    let reports = warnings(&format!(
        "`{}` has no `Brain::evaluate`",
        std::any::type_name::<Walker>()
    ));
    assert_eq!(reports.len(), 1, "{reports:?}");
}

running_brain!(
    /// A brain for the no-time test alone.
    Timeless
);

#[test]
fn trees_without_a_time_are_reported_once() {
    capture();
    let mut app = App::new();
    app.add_plugins(BehaviorPlugin::<Timeless>::default());
    let npc = app.world_mut().spawn(Behavior::continuous(Timeless)).id();
    for _ in 0..4 {
        app.update();
    }
    assert_eq!(app.world().get::<Behavior<Timeless>>(npc).unwrap().ticks(), 0);
    let reports = warnings("Timeless");
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert!(reports[0].contains("TimePlugin") && reports[0].contains("BehaviorClock"));
    // With a time, the trees run.
    app.insert_resource(behaved_bevy::BehaviorClock::default());
    app.update();
    assert_eq!(app.world().get::<Behavior<Timeless>>(npc).unwrap().ticks(), 1);
}

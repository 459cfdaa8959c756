//! What several test files share: a small brain, apps on Bevy's `Time`, and
//! a log of the updates in which trees ticked.
#![allow(dead_code)]

use std::time::Duration;

use behaved::prelude::*;
use behaved_bevy::{Answer, Behavior, BehaviorPlugin, Brain, NpcItem, Ticked, WorldItem};
use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_time::{TimePlugin, TimeUpdateStrategy};

/// A walker's position.
#[derive(Component, Default, Debug, PartialEq)]
pub struct Pos(pub i32);

/// What a walker's tree sees.
pub struct Ctx<'a> {
    pub pos: &'a mut Pos,
}

behave! {
    /// Step, then stand for a second; forever.
    pub tree Patrol for Ctx<'a> { loop { sequence { act(|c| c.pos.0 += 1), wait(1.0) } } }
}

behave! {
    /// Busy on every tick.
    pub tree Fidget for Ctx<'a> { act(|c| { c.pos.0 += 1; Status::Running }) }
}

/// A continuous brain: one of two trees, and the times it ticked at.
pub enum Walker {
    Patrol(Patrol, Vec<f64>),
    Fidget(Fidget, Vec<f64>),
}

impl Walker {
    pub fn patrol() -> Walker {
        Walker::Patrol(Patrol::new(), Vec::new())
    }
    pub fn fidget() -> Walker {
        Walker::Fidget(Fidget::new(), Vec::new())
    }
    /// The times of its ticks.
    pub fn times(&self) -> &[f64] {
        match self {
            Walker::Patrol(_, t) | Walker::Fidget(_, t) => t,
        }
    }
}

impl Brain for Walker {
    type Npc = &'static mut Pos;
    type World = ();
    type Choice = ();

    fn tick(&mut self, pos: NpcItem<'_, '_, Self>, _: &WorldItem<'_, '_, Self>, now: f64) -> Ticked {
        let mut ctx = Ctx { pos: pos.into_inner() };
        match self {
            Walker::Patrol(t, times) => {
                times.push(now);
                t.step(&mut ctx, now)
            }
            Walker::Fidget(t, times) => {
                times.push(now);
                t.step(&mut ctx, now)
            }
        }
    }
}

/// The length of an update: 1/64 s, exact in binary.
pub const STEP: f64 = 1.0 / 64.0;

/// An app on Bevy's `Time`, each update 1/64 s of real time (update n at
/// (n - 1)/64 s: the first update starts the clock), with `plugin`.
pub fn timed_app(plugin: BehaviorPlugin<Walker>) -> App {
    let mut app = App::new();
    app.add_plugins((TimePlugin, plugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(STEP)));
    app
}

pub fn spawn(app: &mut App, walker: Walker) -> Entity {
    app.world_mut().spawn((Pos(0), Behavior::continuous(walker))).id()
}

/// A [`timed_app`] with `plugin` and two walkers: a patrol and a fidget.
pub fn patrol_and_fidget(plugin: BehaviorPlugin<Walker>) -> (App, [Entity; 2]) {
    let mut app = timed_app(plugin);
    let patrol = spawn(&mut app, Walker::patrol());
    let fidget = spawn(&mut app, Walker::fidget());
    (app, [patrol, fidget])
}

pub fn ticks(app: &App, e: Entity) -> u64 {
    ticks_of::<Walker>(app, e)
}

/// How many times the tree of `e`, a `Behavior<B>`, has ticked.
pub fn ticks_of<B: Brain>(app: &App, e: Entity) -> u64 {
    app.world().get::<Behavior<B>>(e).map_or(0, Behavior::ticks)
}

/// Runs `updates` updates; per NPC, the updates (numbered from `first`) in
/// which its tree ticked.
pub fn tick_log_from(app: &mut App, npcs: &[Entity], first: u64, updates: u64) -> Vec<Vec<u64>> {
    tick_log_of::<Walker>(app, npcs, first, updates)
}

/// [`tick_log_from`] for NPCs whose brain is `B`.
pub fn tick_log_of<B: Brain>(app: &mut App, npcs: &[Entity], first: u64, updates: u64) -> Vec<Vec<u64>> {
    let mut log = vec![Vec::new(); npcs.len()];
    for update in first..first + updates {
        let before: Vec<u64> = npcs.iter().map(|&e| ticks_of::<B>(app, e)).collect();
        app.update();
        for (i, &e) in npcs.iter().enumerate() {
            match ticks_of::<B>(app, e) - before[i] {
                0 => {}
                1 => log[i].push(update),
                n => panic!("{n} ticks in one update"),
            }
        }
    }
    log
}

/// [`tick_log_from`] with updates numbered from 1.
pub fn tick_log(app: &mut App, npcs: &[Entity], updates: u64) -> Vec<Vec<u64>> {
    tick_log_from(app, npcs, 1, updates)
}

/// The answers to `Interact` that the last updates wrote, taken out of the
/// app's messages.
pub fn answers<C: Send + Sync + 'static>(app: &mut App) -> Vec<Answer<C>> {
    app.world_mut().resource_mut::<Messages<Answer<C>>>().drain().collect()
}

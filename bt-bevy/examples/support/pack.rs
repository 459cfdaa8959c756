//! The Wild Dogs of `behaved-scenarios` as Bevy NPCs: each dog is an entity with
//! its body, an outbox and a `Behavior` running the scenarios' `WildDog`
//! tree; the players, their index and the taken hexes are a shared resource.
//! Shared by the `bevy_npcs` example and the `bevy_dogs` bench.
#![allow(dead_code)]

#[path = "layout.rs"]
mod layout;

use std::sync::Mutex;
use std::time::Duration;

use behaved_bevy::{
    Behavior, BehaviorPlugin, BehaviorSystems, BehaviorTime, Brain, NpcItem, Ticked, Tree, Wake, WorldItem,
};
use behaved_scenarios::ability::TryUseAbility;
use behaved_scenarios::actor::{Dog, Players};
use behaved_scenarios::dog::{DogCtx, WildDog};
use behaved_scenarios::event::Event;
use behaved_scenarios::spatial::{Occupancy, PlayerIndex};
use bevy_app::{App, Update};
use bevy_ecs::prelude::*;
use bevy_time::{TimePlugin, TimeUpdateStrategy};

/// A dog's body.
#[derive(Component)]
pub struct DogBody(pub Dog);

/// What a dog's tree asked for and logged in its ticks, for the game to
/// execute and send (drained every frame).
#[derive(Component, Default)]
pub struct DogOut {
    /// Abilities to execute.
    pub tries: Vec<TryUseAbility>,
    /// The log.
    pub events: Vec<Event>,
}

/// What every dog reads: the players and their index; and the taken hexes,
/// which a moving dog updates (behind a lock, as dogs tick in parallel).
#[derive(Resource)]
pub struct Pack {
    /// Every player.
    pub players: Players,
    /// Players by position.
    pub index: PlayerIndex,
    /// Taken hexes.
    pub occupancy: Mutex<Occupancy>,
}

/// A dog's brain: the Wild Dog tree. With `sleep` off it asks for a tick on
/// every frame, as if no tree could sleep (a baseline of the bench).
pub struct DogBrain {
    /// The tree.
    pub tree: WildDog,
    /// Whether the dog may sleep until its tree's wake.
    pub sleep: bool,
    /// Ticks so far, however the dog is ticked.
    pub ticks: u64,
}

/// How the dogs of an [`arena`] are ticked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Form {
    /// Through the plugin, sleeping until their trees' wakes.
    Sleeping,
    /// Through the plugin, asking for a tick every frame.
    Awake,
    /// By a plain system that ticks every dog every frame (`par_iter_mut`),
    /// no scheduler; the dogs' behaviors are on-interaction, which the
    /// plugin does not schedule.
    Plain,
}

/// [`Form::Plain`]: every dog ticked every frame, in parallel.
pub fn tick_every_dog(
    time: BehaviorTime,
    pack: Res<Pack>,
    mut dogs: Query<(&mut Behavior<DogBrain>, &mut DogBody, &mut DogOut)>,
) {
    let Some(now) = time.now() else { return };
    dogs.par_iter_mut().for_each(|(mut behavior, body, out)| {
        behavior.brain.tick((body, out), &pack, now);
    });
}

impl Brain for DogBrain {
    type Npc = (&'static mut DogBody, &'static mut DogOut);
    type World = Res<'static, Pack>;
    /// Never asked: dogs are not talked to.
    type Choice = ();

    fn tick(&mut self, (body, out): NpcItem<'_, '_, Self>, pack: &WorldItem<'_, '_, Self>, now: f64) -> Ticked {
        let out = out.into_inner();
        let mut occupancy = pack.occupancy.lock().expect("no tick panicked");
        let mut ctx = DogCtx {
            now,
            dog: &mut body.into_inner().0,
            players: &pack.players,
            index: &pack.index,
            occupancy: &mut occupancy,
            tries: &mut out.tries,
            events: &mut out.events,
        };
        let ticked = self.tree.step(&mut ctx, now);
        self.ticks += 1;
        if self.sleep {
            ticked
        } else {
            Ticked {
                wake: Wake::NextTick,
                ..ticked
            }
        }
    }
}

/// A dog entity's components.
pub type DogBundle = (DogBody, DogOut, Behavior<DogBrain>);

/// An app with `players` players spaced 12 hexes apart on a square grid,
/// four dogs five hexes from each, ticked in `form`; players stand still.
/// Bevy's `Time` advances 1/60 s per update, whatever the machine's speed.
pub fn arena(players: usize, form: Form) -> App {
    let (mut app, dogs) = arena_unspawned(players, form);
    app.world_mut().spawn_batch(dogs);
    app
}

/// [`arena`] with the dogs not spawned yet (to spawn them when you like).
pub fn arena_unspawned(players: usize, form: Form) -> (App, Vec<DogBundle>) {
    let mut app = App::new();
    app.add_plugins((TimePlugin, BehaviorPlugin::<DogBrain>::default()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 60.0)));
    if form == Form::Plain {
        app.add_systems(Update, tick_every_dog.in_set(BehaviorSystems));
    }
    let layout = layout::lay_out(players);
    let dogs = layout
        .dogs
        .into_iter()
        .map(|dog| {
            let brain = DogBrain {
                tree: WildDog::new(),
                sleep: form == Form::Sleeping,
                ticks: 0,
            };
            let behavior = if form == Form::Plain {
                Behavior::on_interaction(brain)
            } else {
                Behavior::continuous(brain)
            };
            (DogBody(dog), DogOut::default(), behavior)
        })
        .collect();
    let pack = Pack {
        players: layout.players,
        index: layout.index,
        occupancy: Mutex::new(layout.occupancy),
    };
    app.insert_resource(pack);
    (app, dogs)
}

//! The headless combat simulation: players and Wild Dogs on a hex grid,
//! stepped at a fixed rate. One frame runs, in this order:
//!
//! 1. players act: dodge if their reflex says so, recall when it is time,
//!    walk one hex per step;
//! 2. the player index is rebuilt;
//! 3. every living dog's tree is ticked once (its leaves may move the dog and
//!    ask to attack);
//! 4. the server executes the attacks asked for (GCD re-checked, threats
//!    queued, overflow resolved);
//! 5. threats whose timer ran out resolve.
//!
//! Attacks land before timers are checked, so a threat whose timer runs out in
//! the frame of the next attack still counts toward a full queue in that frame.
//! Everything is deterministic: time advances by a fixed step and the only
//! randomness (wandering players) comes from a seeded [`behaved::Rng`].

use std::time::{Duration, Instant};

use behaved::prelude::*;
use behaved::{NoopObserver, Rng};
use behaved_observe::Tee;

use crate::ability::{TryUseAbility, execute_ability, resolve_expired};
use crate::actor::{Dodge, Dog, Player, Players, Recall};
use crate::clock::FPS;
use crate::combat::Health;
use crate::dog::{DogCtx, WildDog};
use crate::event::{Event, EventKind};
use crate::hex::{Heading, Hex};
use crate::id::{DogId, PlayerId};
use crate::metrics::{Metrics, SequenceCounter};
use crate::movement::step_toward;
use crate::spatial::{Occupancy, PlayerIndex};

/// A tree that can be a dog's brain: any tree over [`DogCtx`] (the
/// [`WildDog`] by default; tests use variants of it).
pub trait Brain: for<'w> Tree<DogCtx<'w>> + Default {}
impl<T: for<'w> Tree<DogCtx<'w>> + Default> Brain for T {}

/// Why the world refused a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorldError {
    /// An actor already stands on this hex.
    Occupied(Hex),
    /// No living player has this id (it never existed, despawned or died).
    NoLivingPlayer(PlayerId),
}

impl core::fmt::Display for WorldError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            WorldError::Occupied(hex) => write!(f, "hex {hex} is already taken"),
            WorldError::NoLivingPlayer(id) => write!(f, "no living player #{}", id.0),
        }
    }
}

impl std::error::Error for WorldError {}

/// The simulation: players, dogs with brains of type `B`, the log and the measures.
pub struct World<B = WildDog> {
    frame: u64,
    now: f64,
    players: Players,
    dogs: Vec<Dog>,
    brains: Vec<B>,
    index: PlayerIndex,
    occupancy: Occupancy,
    tries: Vec<TryUseAbility>,
    events: Vec<Event>,
    recorded: usize,
    metrics: Metrics,
    rng: Rng,
}

impl<B: Brain> World<B> {
    /// An empty world at time 0; `seed` drives the wandering players.
    pub fn new(seed: u64) -> World<B> {
        World {
            frame: 0,
            now: 0.0,
            players: Players::new(),
            dogs: Vec::new(),
            brains: Vec::new(),
            index: PlayerIndex::new(),
            occupancy: Occupancy::new(),
            tries: Vec::new(),
            events: Vec::new(),
            recorded: 0,
            metrics: Metrics::default(),
            rng: Rng::new(seed),
        }
    }

    /// The benches' fight: `dogs` dogs (a multiple of 4) around `dogs / 4`
    /// players spaced 12 hexes apart on a square grid. The players wander
    /// around their spots, dodge and cannot die, so the fight never ends; two
    /// seconds are simulated so that every dog has locked on and closed in.
    pub fn arena(dogs: usize) -> World<B> {
        let mut world = World::new(42);
        let players = (dogs / 4).max(1);
        let side = (players as f64).sqrt().ceil() as i32;
        for i in 0..players as i32 {
            let home = Hex::new(12 * (i % side), 12 * (i / side));
            let p = world.spawn_player("p", home).expect("players are 12 hexes apart");
            world.wander_player(p, 3).expect("a living player");
            world.set_dodge(p, Some(Dodge::new(1, 0.5))).expect("a living player");
            world.set_max_health(p, u32::MAX).expect("a living player");
            for offset in [Hex::new(5, 0), Hex::new(-5, 0), Hex::new(0, 5), Hex::new(0, -5)] {
                let at = world.free_hex_near(home + offset);
                world.spawn_dog(at).expect("a free hex");
            }
        }
        world.run_for(2.0);
        world.clear_events();
        world
    }

    /// The time of the next frame to simulate.
    pub fn now(&self) -> f64 {
        self.now
    }

    /// Adds a player standing at `at`.
    pub fn spawn_player(&mut self, name: &str, at: Hex) -> Result<PlayerId, WorldError> {
        if !self.occupancy.take(at) {
            return Err(WorldError::Occupied(at));
        }
        Ok(self.players.spawn(|id| Player::new(id, name, at)))
    }

    /// Adds a dog at `at`, with a fresh brain.
    pub fn spawn_dog(&mut self, at: Hex) -> Result<DogId, WorldError> {
        if !self.occupancy.take(at) {
            return Err(WorldError::Occupied(at));
        }
        let id = DogId(self.dogs.len() as u32);
        self.dogs.push(Dog::new(id, at));
        self.brains.push(B::default());
        Ok(id)
    }

    /// The free hex nearest to `at`, for spawning crowds.
    pub fn free_hex_near(&self, at: Hex) -> Hex {
        self.occupancy.nearest_free(at)
    }

    /// Removes a player from the world (logout); `false` if it was not there.
    pub fn despawn_player(&mut self, id: PlayerId) -> bool {
        let Some(p) = self.players.despawn(id) else {
            return false;
        };
        if p.health.is_alive() {
            self.occupancy.free(p.loc);
        }
        self.log(EventKind::PlayerDespawned { player: id });
        true
    }

    /// Kills a player outright (its body stays until it despawns); `false`
    /// if it was not there or already dead.
    pub fn kill_player(&mut self, id: PlayerId) -> bool {
        let Some(p) = self.players.get_mut(id).filter(|p| p.health.is_alive()) else {
            return false;
        };
        p.health.current = 0;
        p.queue.clear();
        p.goal = None;
        self.occupancy.free(p.loc);
        self.log(EventKind::PlayerDied { player: id });
        true
    }

    /// Moves a living player to `to` at once (a teleport or recall).
    pub fn teleport_player(&mut self, id: PlayerId, to: Hex) -> Result<(), WorldError> {
        let from = self.living(id)?.loc;
        if from != to {
            if !self.occupancy.is_free(to) {
                return Err(WorldError::Occupied(to));
            }
            self.occupancy.relocate(from, to);
            self.living(id)?.loc = to;
        }
        Ok(())
    }

    /// Makes a living player walk toward `goal` (or stop, with `None`).
    pub fn walk_player(&mut self, id: PlayerId, goal: Option<Hex>) -> Result<(), WorldError> {
        self.living(id)?.goal = goal;
        Ok(())
    }

    /// Makes a living player wander around where it spawned: a new random
    /// goal within `radius` (at least 1) of that spot on every arrival.
    pub fn wander_player(&mut self, id: PlayerId, radius: u32) -> Result<(), WorldError> {
        self.living(id)?.wander = Some(radius.max(1));
        Ok(())
    }

    /// Heals a living player to a new maximum of `max` hit points (at least 1).
    pub fn set_max_health(&mut self, id: PlayerId, max: u32) -> Result<(), WorldError> {
        self.living(id)?.health = Health::new(max.max(1));
        Ok(())
    }

    /// Gives a living player a Dodge reflex (or takes it away, with `None`).
    pub fn set_dodge(&mut self, id: PlayerId, dodge: Option<Dodge>) -> Result<(), WorldError> {
        self.living(id)?.dodge = dodge;
        Ok(())
    }

    /// Makes a living player recall far away from time to time (or stop, with
    /// `None`); the first recall's time is drawn now.
    pub fn set_recall(&mut self, id: PlayerId, recall: Option<Recall>) -> Result<(), WorldError> {
        let next_at = self.now + recall.map_or(0.0, |r| r.wait(self.rng.below(1000)));
        self.living(id)?.recall = recall.map(|r| Recall { next_at, ..r });
        Ok(())
    }

    fn living(&mut self, id: PlayerId) -> Result<&mut Player, WorldError> {
        self.players
            .get_mut(id)
            .filter(|p| p.health.is_alive())
            .ok_or(WorldError::NoLivingPlayer(id))
    }

    /// The player with `id`, unless it despawned.
    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.players.get(id)
    }

    /// Every player present.
    pub fn players(&self) -> &Players {
        &self.players
    }

    /// The dog with `id`.
    pub fn dog(&self, id: DogId) -> Option<&Dog> {
        self.dogs.get(id.0 as usize)
    }

    /// Every dog.
    pub fn dogs(&self) -> &[Dog] {
        &self.dogs
    }

    /// The measures so far.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The log since the last [`take_events`](Self::take_events).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Takes the log (already folded into the metrics).
    pub fn take_events(&mut self) -> Vec<Event> {
        self.record();
        self.recorded = 0;
        core::mem::take(&mut self.events)
    }

    /// Empties the log without handing it out (for long runs that only need the metrics).
    pub fn clear_events(&mut self) {
        self.record();
        self.recorded = 0;
        self.events.clear();
    }

    /// Simulates one frame.
    pub fn step(&mut self) {
        self.step_observed(&mut NoopObserver);
    }

    /// Simulates frames until `seconds` more of simulation time have passed.
    pub fn run_for(&mut self, seconds: f64) {
        let end = self.frame + (seconds * FPS).round() as u64;
        while self.frame < end {
            self.step();
        }
    }

    /// Simulates one frame, reporting the events of every dog's tree (in dog
    /// order) to `observer`.
    pub fn step_observed<O: Observer + ?Sized>(&mut self, observer: &mut O) {
        self.begin_frame();
        self.think(observer);
        self.end_frame();
    }

    /// Simulates one frame as [`step`](Self::step) does, the log emptied
    /// after it as a game would after sending it, and returns the time of
    /// its AI pass ([`think`](Self::think)) alone: what the frame benches
    /// measure.
    pub fn step_timing_ai(&mut self) -> Duration {
        self.begin_frame();
        let start = Instant::now();
        self.think(&mut NoopObserver);
        let ai = start.elapsed();
        self.end_frame();
        self.clear_events();
        ai
    }

    /// Simulates one frame, reporting each dog's tree to its own observer:
    /// `observers[i]` hears dog `i` (the dogs of [`dogs`](Self::dogs), in
    /// order); a dog without one is not reported.
    pub fn step_each_observed<O: Observer>(&mut self, observers: &mut [O]) {
        self.begin_frame();
        self.think_each_observed(observers);
        self.end_frame();
    }

    /// Phases 1 and 2 of a frame: players act, the player index is rebuilt.
    /// [`step`](Self::step) is `begin_frame`, `think`, `end_frame`; they are
    /// public so that the AI phase can be timed apart (the bench does).
    pub fn begin_frame(&mut self) {
        self.players_act(self.now);
        self.index.rebuild(&self.players);
    }

    /// Phase 3 with each dog's tree reported to its own observer, as
    /// [`step_each_observed`](Self::step_each_observed) does.
    pub fn think_each_observed<O: Observer>(&mut self, observers: &mut [O]) {
        let alive = self.dogs.iter().enumerate().filter(|(_, d)| d.health.is_alive());
        let alive = alive.map(|(i, _)| i).collect();
        self.think(&mut EachDog {
            observers,
            alive,
            started: 0,
        });
    }

    /// Phase 3: ticks every living dog's tree once at the current time.
    pub fn think<O: Observer + ?Sized>(&mut self, observer: &mut O) {
        let now = self.now;
        let Some(brain) = self.brains.first() else {
            return; // no dogs
        };
        let mut counter = SequenceCounter::new(Tree::<DogCtx<'static>>::nodes(brain), &mut self.metrics.sequences);
        let mut both = Tee(&mut counter, observer);
        for (dog, brain) in self.dogs.iter_mut().zip(self.brains.iter_mut()) {
            if !dog.health.is_alive() {
                continue;
            }
            let mut ctx = DogCtx {
                now,
                dog,
                players: &self.players,
                index: &self.index,
                occupancy: &mut self.occupancy,
                tries: &mut self.tries,
                events: &mut self.events,
            };
            brain.tick_observed(&mut ctx, now, &mut both);
        }
    }

    /// Phases 4 and 5: the server executes the attacks, expired threats
    /// resolve; then time advances by one frame.
    pub fn end_frame(&mut self) {
        let now = self.now;
        execute_ability(
            now,
            &mut self.tries,
            &mut self.dogs,
            &mut self.players,
            &mut self.occupancy,
            &mut self.events,
        );
        resolve_expired(now, &mut self.players, &mut self.occupancy, &mut self.events);
        self.record();
        self.frame += 1;
        self.now = self.frame as f64 / FPS;
    }

    /// Phase 1: dodges, recalls and walking.
    fn players_act(&mut self, now: f64) {
        for p in self.players.iter_mut().filter(|p| p.health.is_alive()) {
            if let Some(d) = p.dodge.as_mut()
                && p.queue.len() >= d.min_threats.max(1)
                && now >= d.ready_at
            {
                d.ready_at = now + d.cooldown;
                let cleared = p.queue.clear();
                self.events.push(Event {
                    at: now,
                    kind: EventKind::Dodged { player: p.id, cleared },
                });
            }
            if let Some(r) = p.recall.as_mut()
                && now >= r.next_at
            {
                let away = Heading::ALL[self.rng.below(6) as usize].delta();
                let n = r.distance as i32;
                let to = self.occupancy.nearest_free(p.home + Hex::new(away.q * n, away.r * n));
                let from = p.loc;
                self.occupancy.relocate(from, to);
                p.loc = to;
                p.goal = Some(p.home);
                r.next_at = now + r.wait(self.rng.below(1000));
                self.events.push(Event {
                    at: now,
                    kind: EventKind::Recalled { player: p.id, from, to },
                });
            }
            if let Some(radius) = p.wander
                && p.goal.is_none_or(|g| g == p.loc)
            {
                let r = radius as i32;
                let span = 2 * radius + 1;
                let dq = self.rng.below(span) as i32 - r;
                let dr = self.rng.below(span) as i32 - r;
                p.goal = Some(p.home + Hex::new(dq, dr));
            }
            let Some(goal) = p.goal else { continue };
            if goal == p.loc {
                p.goal = None;
                continue;
            }
            if !p.stride.ready(now) {
                continue;
            }
            let occupancy = &self.occupancy;
            if let Some(h) = step_toward(p.loc, goal, |hex| occupancy.is_free(hex)) {
                let to = p.loc.neighbor(h);
                self.occupancy.relocate(p.loc, to);
                p.loc = to;
                p.stride.stepped(now);
            } else if p.wander.is_some() {
                p.goal = None;
            }
        }
    }

    fn log(&mut self, kind: EventKind) {
        self.events.push(Event { at: self.now, kind });
    }

    /// Folds the events not yet measured into the metrics.
    fn record(&mut self) {
        for e in &self.events[self.recorded..] {
            self.metrics.record(e);
        }
        self.recorded = self.events.len();
    }
}

/// Hands each dog's tick to that dog's observer: [`World::think`] ticks the
/// living dogs one after another, in dog order.
struct EachDog<'a, O> {
    observers: &'a mut [O],
    /// The indices of the living dogs, in the order they tick.
    alive: Vec<usize>,
    /// How many ticks began in this frame.
    started: usize,
}

impl<O> EachDog<'_, O> {
    /// The observer of the dog whose tick is under way.
    fn current(&mut self) -> Option<&mut O> {
        let dog = *self.alive.get(self.started.checked_sub(1)?)?;
        self.observers.get_mut(dog)
    }
}

impl<O: Observer> Observer for EachDog<'_, O> {
    fn stand_in(&mut self, node: NodeId, call: behaved::LeafCall) -> Option<Status> {
        self.current()?.stand_in(node, call)
    }
    fn tick_started(&mut self, now: f64) {
        self.started += 1;
        if let Some(o) = self.current() {
            o.tick_started(now);
        }
    }
    fn entered(&mut self, node: NodeId) {
        if let Some(o) = self.current() {
            o.entered(node);
        }
    }
    fn ticked(&mut self, node: NodeId, status: Status) {
        if let Some(o) = self.current() {
            o.ticked(node, status);
        }
    }
    fn halted(&mut self, node: NodeId) {
        if let Some(o) = self.current() {
            o.halted(node);
        }
    }
    fn scored(&mut self, node: NodeId, child: u32, score: f32) {
        if let Some(o) = self.current() {
            o.scored(node, child, score);
        }
    }
    fn considers(&self) -> bool {
        self.observers.iter().any(O::considers)
    }
    fn considered(&mut self, node: NodeId, child: u32, part: u32, label: &str, value: f32) {
        if let Some(o) = self.current() {
            o.considered(node, child, part, label, value);
        }
    }
    fn tick_finished(&mut self, status: Status) {
        if let Some(o) = self.current() {
            o.tick_finished(status);
        }
    }
}

//! The Wild Dog arena of `bt-bevy/benches/bevy_dogs.rs`, run by bevy_behave
//! 0.5 on Bevy 0.18 (see README.md here).
//!
//! ```text
//! cargo run --release --manifest-path benches/bevy_behave/Cargo.toml -- [dogs] [threads] [frames] [sync]
//! ```

#[path = "../../../bt-bevy/benches/support/cpu.rs"]
mod cpu;
#[path = "../../../bt-bevy/examples/support/layout.rs"]
mod layout;

use std::time::{Duration, Instant};

use behaved_runtime::{Action, Status};
use behaved_scenarios::ability::TryUseAbility;
use behaved_scenarios::actor::{Dog, Players};
use behaved_scenarios::combat::Ability;
use behaved_scenarios::dog::{DogCtx, FaceTarget, FindOrKeepTarget, MoveAdjacent, UseAbilityIfAdjacent};
use behaved_scenarios::event::Event;
use behaved_scenarios::spatial::{Occupancy, PlayerIndex};
use bevy::app::{App, Update};
use bevy::ecs::schedule::{ExecutorKind, Schedules};
use bevy::prelude::*;
use bevy::time::{TimePlugin, TimeUpdateStrategy};
use bevy_behave::prelude::*;
use cpu::CpuClock;

const FRAME_MS: f64 = 1000.0 / 60.0;

/// A dog's body.
#[derive(Component)]
struct DogBody(Dog);

/// What a dog's leaves asked for and logged (emptied after every update).
#[derive(Component, Default)]
struct DogOut {
    tries: Vec<TryUseAbility>,
    events: Vec<Event>,
}

/// What every dog reads, and the taken hexes, which a moving dog updates.
#[derive(Resource)]
struct Pack {
    players: Players,
    index: PlayerIndex,
    occupancy: Occupancy,
}

/// Leaf runs so far (the work bevy_behave asked for).
#[derive(Resource, Default)]
struct LeafRuns(u64);

/// The instant leaves, as `Behave::trigger` payloads.
#[derive(Clone, Copy)]
enum Leaf {
    FindOrKeepTarget,
    FaceTarget,
    Bite,
}

/// The `MoveAdjacent` task: an entity per activation, ticked by [`move_dogs`].
#[derive(Component, Clone)]
struct Move;

/// Runs `leaf` on `dog`'s context at `now`.
fn run_leaf(
    leaf: &mut dyn for<'w> Action<DogCtx<'w>>,
    dog: &mut DogBody,
    out: &mut DogOut,
    pack: &mut Pack,
    now: f64,
) -> Status {
    let mut ctx = DogCtx {
        now,
        dog: &mut dog.0,
        players: &pack.players,
        index: &pack.index,
        occupancy: &mut pack.occupancy,
        tries: &mut out.tries,
        events: &mut out.events,
    };
    leaf.tick(&mut ctx)
}

/// Answers the instant leaves' triggers at once.
fn on_leaf(
    trigger: On<BehaveTrigger<Leaf>>,
    mut dogs: Query<(&mut DogBody, &mut DogOut)>,
    mut pack: ResMut<Pack>,
    mut runs: ResMut<LeafRuns>,
    time: Res<Time>,
    mut commands: Commands,
) {
    let event = trigger.event();
    let ctx = *event.ctx();
    let Ok((mut dog, mut out)) = dogs.get_mut(ctx.target_entity()) else {
        commands.trigger(ctx.failure());
        return;
    };
    let mut find = FindOrKeepTarget { dist: 20, leash: 30 };
    let mut bite = UseAbilityIfAdjacent {
        ability: Ability::BasicAttack,
    };
    let leaf: &mut dyn for<'w> Action<DogCtx<'w>> = match event.inner() {
        Leaf::FindOrKeepTarget => &mut find,
        Leaf::FaceTarget => &mut FaceTarget,
        Leaf::Bite => &mut bite,
    };
    runs.0 += 1;
    let status = run_leaf(leaf, &mut dog, &mut out, &mut pack, time.elapsed_secs_f64());
    commands.trigger(if status == Status::Success {
        ctx.success()
    } else {
        ctx.failure()
    });
}

/// Ticks every `MoveAdjacent` task; reports those that completed.
fn move_dogs(
    tasks: Query<&BehaveCtx, With<Move>>,
    mut dogs: Query<(&mut DogBody, &mut DogOut)>,
    mut pack: ResMut<Pack>,
    mut runs: ResMut<LeafRuns>,
    time: Res<Time>,
    mut commands: Commands,
) {
    let now = time.elapsed_secs_f64();
    for ctx in &tasks {
        let Ok((mut dog, mut out)) = dogs.get_mut(ctx.target_entity()) else {
            commands.trigger(ctx.failure());
            continue;
        };
        runs.0 += 1;
        match run_leaf(&mut MoveAdjacent, &mut dog, &mut out, &mut pack, now) {
            Status::Running => {}
            Status::Success => commands.trigger(ctx.success()),
            Status::Failure => commands.trigger(ctx.failure()),
        }
    }
}

/// The Wild Dog tree (`behaved-scenarios`' `WildDog`) in bevy_behave's model.
fn wild_dog() -> ego_tree::Tree<Behave> {
    behave! {
        Behave::Forever => {
            Behave::Sequence => {
                Behave::trigger(Leaf::FindOrKeepTarget),
                Behave::trigger(Leaf::FaceTarget),
                Behave::spawn_named("MoveAdjacent", Move),
                Behave::trigger(Leaf::FaceTarget),
                Behave::trigger(Leaf::Bite),
                Behave::Wait(1.0),
            }
        }
    }
}

/// The arena of bevy_dogs: `players` players 12 hexes apart on a square
/// grid, four dogs 5 hexes from each (not spawned yet: their bodies, in
/// spawn order).
fn arena(players: usize, sync: bool) -> (App, Vec<DogBody>) {
    let mut app = App::new();
    let behave = BehavePlugin::new(Update);
    app.add_plugins((TimePlugin, if sync { behave.with_synchronous() } else { behave }))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 60.0)))
        .init_resource::<LeafRuns>()
        .add_observer(on_leaf)
        .add_systems(Update, move_dogs.after(BehaveSet));
    let layout = layout::lay_out(players);
    app.insert_resource(Pack {
        players: layout.players,
        index: layout.index,
        occupancy: layout.occupancy,
    });
    (app, layout.dogs.into_iter().map(DogBody).collect())
}

/// Empties the dogs' outboxes (not timed); returns the bites asked for.
fn empty_outboxes(app: &mut App) -> usize {
    let mut outboxes = app.world_mut().query::<&mut DogOut>();
    let mut bites = 0;
    for mut out in outboxes.iter_mut(app.world_mut()) {
        bites += out.tries.len();
        out.tries.clear();
        out.events.clear();
    }
    bites
}

fn main() {
    // `cargo bench`-style flags (`--bench`) are not ours.
    let words: Vec<String> = std::env::args().skip(1).filter(|w| !w.starts_with("--")).collect();
    let args: Vec<usize> = words.iter().filter_map(|a| a.parse().ok()).collect();
    let sync = words.iter().any(|w| w == "sync");
    if let Some(word) = words.iter().find(|w| w.parse::<usize>().is_err() && *w != "sync") {
        eprintln!("unknown argument `{word}`: [dogs] [threads] [frames] [sync]");
        std::process::exit(2);
    }
    let dogs = *args.first().unwrap_or(&100_000);
    let threads = (*args.get(1).unwrap_or(&1)).max(1);
    let frames = (*args.get(2).unwrap_or(&120)).max(1);
    bevy::tasks::ComputeTaskPool::get_or_init(|| bevy::tasks::TaskPoolBuilder::new().num_threads(threads).build());

    let (mut app, mut pending) = arena(dogs.div_ceil(4), sync);
    let tree = wild_dog();
    let per_update = pending.len().div_ceil(60);
    for update_number in 0..120 {
        if update_number == 1 && threads == 1 {
            // Every schedule exists now: run them on this thread.
            for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
                schedule.set_executor_kind(ExecutorKind::SingleThreaded);
            }
        }
        if update_number < 60 {
            let world = app.world_mut();
            for body in pending.drain(..per_update.min(pending.len())) {
                let dog = world.spawn((body, DogOut::default())).id();
                world.spawn((BehaveTree::new(tree.clone()), BehaveTargetEntity::Entity(dog)));
            }
        }
        app.update();
        empty_outboxes(&mut app);
    }

    let clock = CpuClock::new(threads);
    let mut times = Vec::with_capacity(frames);
    let mut runs = Vec::with_capacity(frames);
    let mut cpu_total = Some(0u64);
    let mut bites = 0;
    for _ in 0..frames {
        let before = app.world().resource::<LeafRuns>().0;
        let cpu = clock.now();
        let start = Instant::now();
        app.update();
        times.push(start.elapsed().as_secs_f64() * 1e3);
        cpu_total = clock.add_since(cpu_total, cpu);
        runs.push(app.world().resource::<LeafRuns>().0 - before);
        bites += empty_outboxes(&mut app);
    }

    println!(
        "{} Wild Dogs, bevy_behave 0.5 (bevy 0.18{}), {threads} compute thread(s), {frames} updates after 2 s of warm-up:",
        dogs.div_ceil(4) * 4,
        if sync { ", synchronous ticking" } else { "" }
    );
    let mean = times.iter().sum::<f64>() / frames as f64;
    let worst = times.iter().copied().fold(0.0, f64::max);
    let busiest = (0..frames).max_by_key(|&i| runs[i]).unwrap_or(0);
    let busiest = (runs[busiest], times[busiest]);
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted[sorted.len() / 2];
    let per_frame = runs.iter().sum::<u64>() as f64 / frames as f64;
    println!(
        "  bevy_behave: mean {mean:.3} ms per update ({:.2}% of a 60 Hz frame; median {mid:.3}, worst {worst:.3}), {per_frame:.0} leaf runs per frame, {:.1} bites asked per frame",
        100.0 * mean / FRAME_MS,
        bites as f64 / frames as f64
    );
    if let Some(ns) = cpu_total {
        let ms = ns as f64 / 1e6 / frames as f64;
        println!(
            "    CPU ({}): {ms:.3} ms per update, {:.2}% of a 60 Hz frame",
            clock.whose(),
            100.0 * ms / FRAME_MS
        );
    }
    println!(
        "    the update with the most leaf runs: {} runs in {:.3} ms",
        busiest.0, busiest.1
    );
}

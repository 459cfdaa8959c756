//! The plugin with many Wild Dogs (`behaved-scenarios`' tree and leaves): four
//! dogs around each standing player, spawned over the first second (1/60
//! per update, as a game's dogs do not all arrive on one frame; spawned at
//! once in this symmetric arena, they would all wake on the same frames),
//! two simulated seconds of warm-up so that every dog has locked on and
//! closed in, then the time of `frames` updates (Bevy's `Time`, the messages
//! and the behavior systems): their mean as a share of a 60 Hz frame (the
//! AI's share of the CPU), their median and their worst; and the CPU time
//! of those updates (Linux's `schedstat`, less the cost of reading it),
//! which a busy machine does not inflate the way it inflates wall time: on a
//! shared machine, the CPU share is the figure to read. With one thread the
//! schedules run single-threaded, so everything runs on the main thread and
//! its CPU time is the AI's share of one core; with more, the CPU time of
//! every thread is summed (idle workers' spinning included). Three forms of the same app, in the same run,
//! alternating update by update so that a busy machine slows them alike:
//!
//! - sleeping: the plugin, dogs ticked when their trees' wakes come;
//! - awake: the plugin, every dog asking for a tick every frame;
//! - plain: no scheduler, a system ticks every dog every frame (`par_iter_mut`).
//!
//! ```text
//! cargo bench -p behaved-bevy --bench bevy_dogs -- [dogs] [threads] [frames] [sleeping|awake|plain ...]
//! ```
//!
//! `threads` is the size of bevy's compute pool (1 by default: one core).
//! Naming forms measures only those (all three by default).

#[path = "support/cpu.rs"]
mod cpu;
#[path = "../examples/support/pack.rs"]
mod pack;

use std::time::Instant;

use behaved_bevy::{Behavior, Behaviors};
use bevy_app::App;
use bevy_ecs::schedule::{Schedules, SingleThreadedExecutor};
use cpu::CpuClock;
use pack::Form;

const FRAME_MS: f64 = 1000.0 / 60.0;

/// One form's app and what it measured.
struct Run {
    form: Form,
    app: App,
    /// Milliseconds per timed update.
    times: Vec<f64>,
    /// CPU nanoseconds of the timed updates (all threads), if readable.
    cpu_ns: Option<u64>,
    /// Trees the plugin ticked in each timed update (0 for the plain system).
    ticked: Vec<usize>,
    ticks_before: u64,
    /// Bites the dogs asked for in the timed updates (the game's work; the
    /// bevy_behave peer in `benches/bevy_behave` prints it too).
    bites: usize,
}

fn ticks(app: &mut App) -> u64 {
    let mut brains = app.world_mut().query::<&Behavior<pack::DogBrain>>();
    brains.iter(app.world()).map(|b| b.brain.ticks).sum()
}

/// One update, and the dogs' outboxes emptied (the game would execute them).
fn update(app: &mut App) {
    app.update();
    let _ = empty_outboxes(app);
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    // `cargo bench` appends `--bench` to the arguments: flags are not ours.
    let words: Vec<String> = std::env::args().skip(1).filter(|w| !w.starts_with("--")).collect();
    let args: Vec<usize> = words.iter().filter_map(|a| a.parse().ok()).collect();
    let mut forms: Vec<Form> = Vec::new();
    for word in words.iter().filter(|w| w.parse::<usize>().is_err()) {
        forms.push(match word.as_str() {
            "sleeping" => Form::Sleeping,
            "awake" => Form::Awake,
            "plain" => Form::Plain,
            _ => {
                eprintln!("unknown form `{word}`: sleeping, awake or plain");
                std::process::exit(2);
            }
        });
    }
    if forms.is_empty() {
        forms = vec![Form::Sleeping, Form::Awake, Form::Plain];
    }
    let dogs = *args.first().unwrap_or(&100_000);
    let threads = (*args.get(1).unwrap_or(&1)).max(1);
    let frames = (*args.get(2).unwrap_or(&120)).max(1);
    bevy_tasks::ComputeTaskPool::get_or_init(|| bevy_tasks::TaskPoolBuilder::new().num_threads(threads).build());
    let mut runs: Vec<Run> = forms
        .into_iter()
        .map(|form| {
            let (mut app, mut pending) = pack::arena_unspawned(dogs.div_ceil(4), form);
            let per_update = pending.len().div_ceil(60);
            for update_number in 0..120 {
                if update_number == 1 && threads == 1 {
                    // Every schedule exists now: run them on this thread.
                    for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
                        schedule.set_executor(SingleThreadedExecutor::new());
                    }
                }
                if update_number < 60 {
                    let batch: Vec<pack::DogBundle> = pending.drain(..per_update.min(pending.len())).collect();
                    app.world_mut().spawn_batch(batch);
                }
                update(&mut app);
            }
            let ticks_before = ticks(&mut app);
            Run {
                form,
                app,
                times: Vec::with_capacity(frames),
                ticked: Vec::with_capacity(frames),
                cpu_ns: Some(0),
                ticks_before,
                bites: 0,
            }
        })
        .collect();
    let clock = CpuClock::new(threads);
    for _ in 0..frames {
        for run in &mut runs {
            let cpu = clock.now();
            let start = Instant::now();
            run.app.update();
            run.times.push(start.elapsed().as_secs_f64() * 1e3);
            run.cpu_ns = clock.add_since(run.cpu_ns, cpu);
            run.ticked.push(
                run.app
                    .world()
                    .resource::<Behaviors<pack::DogBrain>>()
                    .last_frame()
                    .ticked,
            );
            run.bites += empty_outboxes(&mut run.app);
        }
    }
    println!(
        "{} Wild Dogs, {threads} compute thread(s), {frames} updates after 2 s of warm-up:",
        dogs.div_ceil(4) * 4
    );
    let mut plain = f64::NAN;
    let mut plain_cpu = None;
    let mut results = Vec::new();
    for run in &mut runs {
        let mean = run.times.iter().sum::<f64>() / frames as f64;
        let worst = run.times.iter().copied().fold(0.0, f64::max);
        // The update with the most ticks, and its time: a spike of work, or the machine?
        let busiest = (0..frames).max_by_key(|&i| run.ticked[i]).unwrap_or(0);
        let busiest = (run.ticked[busiest], run.times[busiest]);
        let mid = median(&mut run.times);
        let per_frame = (ticks(&mut run.app) - run.ticks_before) as f64 / frames as f64;
        if run.form == Form::Plain {
            plain = mean;
            plain_cpu = run.cpu_ns;
        }
        let bites = run.bites as f64 / frames as f64;
        results.push((run.form, mean, mid, worst, per_frame, bites, busiest, run.cpu_ns));
    }
    for (form, ms, mid, worst, per_frame, bites, busiest, cpu) in results {
        let name = match form {
            Form::Sleeping => "plugin, sleeping dogs skipped",
            Form::Awake => "plugin, every dog every frame",
            Form::Plain => "plain system, every dog every frame",
        };
        let ratio = if plain.is_nan() {
            String::new()
        } else {
            format!(", mean {:.2}x the plain system's", ms / plain)
        };
        println!(
            "  {name}: mean {ms:.3} ms per update ({:.2}% of a 60 Hz frame; median {mid:.3}, worst {worst:.3}), {per_frame:.0} ticks per frame, {bites:.1} bites asked per frame{ratio}",
            100.0 * ms / FRAME_MS
        );
        if let Some(ns) = cpu {
            let ms = ns as f64 / 1e6 / frames as f64;
            let ratio = match plain_cpu {
                Some(p) => format!(", {:.2}x the plain system's", ns as f64 / p as f64),
                None => String::new(),
            };
            println!(
                "    CPU ({}): {ms:.3} ms per update, {:.2}% of a 60 Hz frame{ratio}",
                clock.whose(),
                100.0 * ms / FRAME_MS
            );
        }
        if form != Form::Plain {
            println!(
                "    the update with the most ticks: {} ticks in {:.3} ms",
                busiest.0, busiest.1
            );
        }
    }
}

/// Empties the dogs' outboxes (not timed); returns the bites asked for.
fn empty_outboxes(app: &mut App) -> usize {
    let mut outboxes = app.world_mut().query::<&mut pack::DogOut>();
    let mut bites = 0;
    for mut out in outboxes.iter_mut(app.world_mut()) {
        bites += out.tries.len();
        out.tries.clear();
        out.events.clear();
    }
    bites
}

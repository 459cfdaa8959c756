//! The plugin with many Wild Dogs (`bt-scenarios`' tree and leaves): four
//! dogs around each standing player, two simulated seconds of warm-up so
//! that every dog has locked on and closed in, then the median time of one
//! `app.update()` (the clock, the messages and the behavior systems) as a
//! share of a 60 Hz frame. Three forms of the same app, in the same run,
//! alternating update by update so that a busy machine slows them alike:
//!
//! - sleeping: the plugin, dogs ticked when their trees' wakes come;
//! - awake: the plugin, every dog asking for a tick every frame;
//! - plain: no scheduler, a system ticks every dog every frame (`par_iter_mut`).
//!
//! ```text
//! cargo bench -p bt-bevy --bench bevy_dogs -- [dogs] [threads] [frames]
//! ```
//!
//! `threads` is the size of bevy's compute pool (1 by default: one core).

#[path = "../examples/support/pack.rs"]
mod pack;

use std::time::Instant;

use bevy_app::App;
use bt_bevy::Behavior;
use pack::Form;

const FRAME_MS: f64 = 1000.0 / 60.0;

/// One form's app and what it measured.
struct Run {
    form: Form,
    app: App,
    /// Milliseconds per timed update.
    times: Vec<f64>,
    ticks_before: u64,
}

fn ticks(app: &mut App) -> u64 {
    let mut brains = app.world_mut().query::<&Behavior<pack::DogBrain>>();
    brains.iter(app.world()).map(|b| b.brain.ticks).sum()
}

/// One update, and the dogs' outboxes emptied (the game would execute them).
fn update(app: &mut App) {
    app.update();
    empty_outboxes(app);
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let dogs = *args.first().unwrap_or(&100_000);
    let threads = (*args.get(1).unwrap_or(&1)).max(1);
    let frames = (*args.get(2).unwrap_or(&120)).max(1);
    bevy_tasks::ComputeTaskPool::get_or_init(|| bevy_tasks::TaskPoolBuilder::new().num_threads(threads).build());
    let mut runs: Vec<Run> = [Form::Sleeping, Form::Awake, Form::Plain]
        .into_iter()
        .map(|form| Run {
            form,
            app: pack::arena(dogs.div_ceil(4), form),
            times: Vec::with_capacity(frames),
            ticks_before: 0,
        })
        .collect();
    for run in &mut runs {
        for _ in 0..120 {
            update(&mut run.app);
        }
        run.ticks_before = ticks(&mut run.app);
    }
    for _ in 0..frames {
        for run in &mut runs {
            let start = Instant::now();
            run.app.update();
            run.times.push(start.elapsed().as_secs_f64() * 1e3);
            empty_outboxes(&mut run.app);
        }
    }
    println!(
        "{} Wild Dogs, {threads} compute thread(s), median of {frames} updates after 2 s of warm-up:",
        dogs.div_ceil(4) * 4
    );
    let mut plain = 0.0;
    let mut results = Vec::new();
    for run in &mut runs {
        let ms = median(&mut run.times);
        let per_frame = (ticks(&mut run.app) - run.ticks_before) as f64 / frames as f64;
        if run.form == Form::Plain {
            plain = ms;
        }
        results.push((run.form, ms, per_frame));
    }
    for (form, ms, per_frame) in results {
        let name = match form {
            Form::Sleeping => "plugin, sleeping dogs skipped",
            Form::Awake => "plugin, every dog every frame",
            Form::Plain => "plain system, every dog every frame",
        };
        println!(
            "  {name}: {ms:.3} ms per update ({:.2}% of a 60 Hz frame), {per_frame:.0} ticks per frame, {:.2}x the plain system",
            100.0 * ms / FRAME_MS,
            ms / plain
        );
    }
}

/// Empties the dogs' outboxes (not timed).
fn empty_outboxes(app: &mut App) {
    let mut outboxes = app.world_mut().query::<&mut pack::DogOut>();
    for mut out in outboxes.iter_mut(app.world_mut()) {
        out.tries.clear();
        out.events.clear();
    }
}

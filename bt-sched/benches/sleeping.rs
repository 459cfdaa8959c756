//! 1M agents, about 5% awake per frame: the scheduler (sleepers in a timer
//! wheel, due agents ticked in index order) against ticking every agent on
//! every frame, in the same run. Each agent runs the same compiled tree on
//! its own context: work one tick, then wait 19.5 frames (`loop { sequence
//! { act(work), wait(0.325) } }` at 60 Hz), started on staggered frames so
//! that one agent in twenty is due on each frame.
//!
//! ```text
//! cargo bench -p bt-sched --bench sleeping -- [agents] [frames] [repeats]
//! ```
//!
//! Prints the median ns per agent-frame of each form (scheduler cost
//! included) and their ratio; both forms must end with the same work done.

use std::hint::black_box;
use std::time::Instant;

use bt::prelude::*;
use bt_sched::{Config, Scheduler};

const FPS: f64 = 60.0;
/// Frames over which the agents' starts are staggered (one cycle).
const CYCLE: u64 = 20;

/// An agent's own context.
#[derive(Default, Clone)]
struct Villager {
    now: f64,
    work: u32,
}

impl Clock for Villager {
    fn now(&self) -> f64 {
        self.now
    }
}

behave! {
    /// Works one tick, then waits 19.5 frames; forever.
    tree Chores for Villager { loop { sequence { act(|v| v.work += 1), wait(0.325) } } }
}

type Agent = (Chores, Villager);

fn time_of(frame: u64) -> f64 {
    frame as f64 / FPS
}

/// Every agent every frame (agent `i` from frame `i % CYCLE` on).
fn tick_all(agents: &mut [Agent], frames: u64) -> f64 {
    let start = Instant::now();
    for frame in 0..frames {
        let now = time_of(frame);
        for (i, (tree, ctx)) in agents.iter_mut().enumerate() {
            if (i as u64 % CYCLE) <= frame {
                ctx.now = now;
                black_box(tree.tick_at(ctx, now));
            }
        }
    }
    start.elapsed().as_secs_f64()
}

/// Through the scheduler (agent `i` inserted at frame `i % CYCLE`).
fn scheduled(agents: Vec<Agent>, frames: u64) -> (f64, Scheduler<Agent>) {
    let mut sched = Scheduler::new(Config::default()).expect("valid config");
    let mut pending: Vec<Vec<(u64, Agent)>> = (0..CYCLE).map(|_| Vec::new()).collect();
    for (i, a) in agents.into_iter().enumerate() {
        pending[i % CYCLE as usize].push((i as u64, a));
    }
    let start = Instant::now();
    for frame in 0..frames {
        if let Some(batch) = pending.get_mut(frame as usize) {
            for (id, a) in batch.drain(..) {
                sched.insert(id, a, 0).expect("new id");
            }
        }
        let now = time_of(frame);
        sched.frame(now, |_, (tree, ctx)| {
            ctx.now = now;
            tree.step(ctx, now).wake
        });
    }
    (start.elapsed().as_secs_f64(), sched)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let n = *args.first().unwrap_or(&1_000_000) as usize;
    let frames = *args.get(1).unwrap_or(&120);
    let repeats = *args.get(2).unwrap_or(&5) as usize;
    let fresh = || -> Vec<Agent> { (0..n).map(|_| (Chores::new(), Villager::default())).collect() };
    let (mut all, mut sched) = (Vec::new(), Vec::new());
    let mut awake = 0.0;
    for _ in 0..repeats {
        let mut agents = fresh();
        let t_all = tick_all(&mut agents, frames);
        let work_all: u64 = agents.iter().map(|a| u64::from(a.1.work)).sum();
        drop(agents);
        let (t_sched, s) = scheduled(fresh(), frames);
        let work_sched: u64 = s.iter().map(|(_, a)| u64::from(a.1.work)).sum();
        assert_eq!(work_all, work_sched, "both forms do the same work");
        awake = work_sched as f64 / (n as f64 * frames as f64);
        all.push(t_all);
        sched.push(t_sched);
    }
    let per = |t: f64| t * 1e9 / (n as f64 * frames as f64);
    let (a, s) = (per(median(all)), per(median(sched)));
    println!(
        "{n} agents, {frames} frames, {:.1}% ticked per frame, median of {repeats}:",
        awake * 100.0
    );
    println!("  tick every agent every frame: {a:.3} ns per agent-frame");
    println!("  scheduler (sleepers skipped): {s:.3} ns per agent-frame");
    println!("  ratio: {:.1}x cheaper", a / s);
}

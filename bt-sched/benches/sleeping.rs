//! 1M agents, about 5% awake per frame: the scheduler (sleepers in a timer
//! wheel, due agents ticked in index order) against ticking every agent on
//! every frame, in the same run. Each agent runs the same compiled tree on
//! its own context: work one tick, then wait 19.5 frames (`loop { sequence
//! { act(work), wait(0.325) } }` at 60 Hz), started on staggered frames so
//! that one agent in twenty is due on each frame. With `0.5` as the fourth
//! argument the wait is 199.5 frames: one agent in 200 is due per frame.
//!
//! ```text
//! cargo bench -p behaved-sched --bench sleeping -- [agents] [frames] [repeats] [5 | 0.5]
//! ```
//!
//! Prints the median ns per agent-frame of each form (scheduler cost
//! included) and their ratio; every form must end with the same work done.
//! A third form ticks exactly the due agents with no bookkeeping at all (it
//! knows the bench's pattern): the floor that no scheduler can beat.
//!
//! The first cycle of frames starts the agents (the scheduler registers
//! them then) and is not timed in any form: the timed frames are the steady
//! state a game spends its hours in. Registering is timed on its own and
//! printed as ns per agent.

use std::hint::black_box;
use std::time::Instant;

use behaved::prelude::*;
use behaved_sched::{Config, Scheduler};

const FPS: f64 = 60.0;

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

behave! {
    /// Works one tick, then waits 199.5 frames; forever.
    tree Naps for Villager { loop { sequence { act(|v| v.work += 1), wait(3.325) } } }
}

/// A tree of this bench: a fresh one, and the frames between two works.
trait Bench: Tree<Villager> {
    fn fresh() -> Self;
    /// Frames from one work to the next (the wait, rounded up to whole frames).
    const CYCLE: u64;
}

impl Bench for Chores {
    fn fresh() -> Self {
        Chores::new()
    }
    const CYCLE: u64 = 20;
}

impl Bench for Naps {
    fn fresh() -> Self {
        Naps::new()
    }
    const CYCLE: u64 = 200;
}

fn time_of(frame: u64) -> f64 {
    frame as f64 / FPS
}

/// Runs `frame` (its number and time) on a first cycle of frames, then
/// `frames` more: the seconds of those after the first cycle.
fn timed_after_a_cycle<T: Bench>(frames: u64, mut frame: impl FnMut(u64, f64)) -> f64 {
    let mut start = Instant::now();
    for n in 0..T::CYCLE + frames {
        if n == T::CYCLE {
            start = Instant::now();
        }
        frame(n, time_of(n));
    }
    start.elapsed().as_secs_f64()
}

/// Every agent every frame (agent `i` from frame `i % CYCLE` on); the
/// seconds of the frames after the first cycle.
fn tick_all<T: Bench>(agents: &mut [(T, Villager)], frames: u64) -> f64 {
    timed_after_a_cycle::<T>(frames, |frame, now| {
        for (i, (tree, ctx)) in agents.iter_mut().enumerate() {
            if (i as u64 % T::CYCLE) <= frame {
                ctx.now = now;
                black_box(tree.tick_at(ctx, now));
            }
        }
    })
}

/// Only the due agents, known without any bookkeeping: agent `i` works on
/// frame `i % CYCLE` and is due again `CYCLE` frames later. No scheduler can
/// do less: the floor.
fn oracle<T: Bench>(agents: &mut [(T, Villager)], frames: u64) -> f64 {
    timed_after_a_cycle::<T>(frames, |frame, now| {
        let first = (frame % T::CYCLE) as usize;
        for (tree, ctx) in agents.iter_mut().skip(first).step_by(T::CYCLE as usize) {
            ctx.now = now;
            black_box(tree.tick_at(ctx, now));
        }
    })
}

/// Through the scheduler (agent `i` registered at frame `i % CYCLE`): the
/// seconds of the frames after the first cycle, and of the registrations.
fn scheduled<T: Bench>(agents: Vec<(T, Villager)>, frames: u64) -> (f64, f64, Scheduler<(T, Villager)>) {
    let mut sched = Scheduler::new(Config::default()).expect("valid config");
    let mut pending: Vec<Vec<(u64, (T, Villager))>> = (0..T::CYCLE).map(|_| Vec::new()).collect();
    for (i, a) in agents.into_iter().enumerate() {
        pending[i % T::CYCLE as usize].push((i as u64, a));
    }
    let mut inserting = 0.0;
    let mut start = Instant::now();
    for frame in 0..T::CYCLE + frames {
        if let Some(batch) = pending.get_mut(frame as usize) {
            let t0 = Instant::now();
            sched.reserve(batch.len());
            for (id, a) in batch.drain(..) {
                sched.insert(id, a, 0).expect("new id");
            }
            inserting += t0.elapsed().as_secs_f64();
        }
        if frame == T::CYCLE {
            start = Instant::now();
        }
        let now = time_of(frame);
        sched.frame(now, |_, (tree, ctx)| {
            ctx.now = now;
            tree.step(ctx, now).wake
        });
    }
    (start.elapsed().as_secs_f64(), inserting, sched)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn work<T>(agents: &[(T, Villager)]) -> u64 {
    agents.iter().map(|a| u64::from(a.1.work)).sum()
}

fn run<T: Bench>(n: usize, frames: u64, repeats: usize) {
    let fresh = || -> Vec<(T, Villager)> { (0..n).map(|_| (T::fresh(), Villager::default())).collect() };
    let (mut all, mut floor, mut sched, mut inserts) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..repeats {
        let mut agents = fresh();
        all.push(tick_all(&mut agents, frames));
        let done = work(&agents);
        drop(agents);
        let mut agents = fresh();
        floor.push(oracle(&mut agents, frames));
        assert_eq!(done, work(&agents), "the floor does the same work");
        drop(agents);
        let (t_sched, t_insert, s) = scheduled(fresh(), frames);
        let done_sched: u64 = s.iter().map(|(_, a)| u64::from(a.1.work)).sum();
        assert_eq!(done, done_sched, "the scheduler does the same work");
        sched.push(t_sched);
        inserts.push(t_insert);
    }
    let per = |t: f64| t * 1e9 / (n as f64 * frames as f64);
    let (a, f, s) = (per(median(all)), per(median(floor)), per(median(sched)));
    println!(
        "{n} agents, {frames} timed frames, 1 in {} due per frame ({:.1}%), median of {repeats}:",
        T::CYCLE,
        100.0 / T::CYCLE as f64
    );
    println!("  tick every agent every frame: {a:.3} ns per agent-frame");
    println!(
        "  scheduler (sleepers skipped): {s:.3} ns per agent-frame ({:.1}x cheaper)",
        a / s
    );
    println!(
        "  floor: only the due agents, no bookkeeping: {f:.3} ns per agent-frame ({:.1}x cheaper)",
        a / f
    );
    println!(
        "  registering (once per agent, not in the frames above): {:.1} ns per agent",
        median(inserts) * 1e9 / n as f64
    );
}

fn main() {
    let args: Vec<f64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let n = *args.first().unwrap_or(&1e6) as usize;
    let frames = *args.get(1).unwrap_or(&120.0) as u64;
    let repeats = (*args.get(2).unwrap_or(&5.0) as usize).max(1);
    match args.get(3).copied().unwrap_or(5.0) {
        0.5 => run::<Naps>(n, frames, repeats),
        5.0 => run::<Chores>(n, frames, repeats),
        other => {
            eprintln!("the share of agents awake is 5 or 0.5 (percent), not {other}");
            std::process::exit(2);
        }
    }
}

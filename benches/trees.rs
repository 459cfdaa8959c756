//! The benchmark trees T1-T4 in every form (compiled, hand-written, peer
//! crates), the cost of observation, and ticking many agents.
//! Results, ratios and how to reproduce them: BENCHMARKS.md.
//!
//! - `cargo bench --bench trees` runs everything (filter: `-- t1_`, `-- t4_`, `-- scale`, ..).
//! - `<bench binary> --ticks TREE FORM N` ticks one form N times and exits,
//!   for instruction counts under `valgrind --tool=callgrind` (`benches/callgrind.sh`);
//!   `cargo bench --bench trees -- --ticks t1 compiled 1000` runs it too (the
//!   `--bench` cargo appends is ignored).
use std::hint::black_box;
use std::time::Duration;

use behaved::NoopObserver;
use behaved::prelude::*;
use criterion::{BenchmarkGroup, Criterion, Throughput, measurement::WallTime};
use rayon::prelude::*;

use behaved_bench_trees as trees;

use trees::forms::{self, Form, T1, T2, T3, T4, Workload};
use trees::{bonsai_forms, btlite_forms, interp_forms};

/// Ticks per measured iteration: a stretch of the scripted world long enough
/// that every branch of the tree is taken. The tick number carries on from one
/// iteration to the next, so the world never jumps back in time.
const EPISODE: u32 = 1000;

/// Benchmarks one form of a workload: `EPISODE` ticks per iteration.
fn form<W: Workload, F: Form<W::Ctx>>(group: &mut BenchmarkGroup<'_, WallTime>, name: &str, mut form: F) {
    group.bench_function(name, |b| {
        let (mut ctx, mut tick) = (W::context(), 0u32);
        b.iter(|| {
            for _ in 0..EPISODE {
                let now = W::step(tick, &mut ctx);
                black_box(form.tick(black_box(&mut ctx), now));
                tick = tick.wrapping_add(1);
            }
        })
    });
}

/// The scripted world alone (no tree): what every form's time includes.
fn baseline<W: Workload>(group: &mut BenchmarkGroup<'_, WallTime>) {
    group.bench_function("baseline_script_only", |b| {
        let (mut ctx, mut tick) = (W::context(), 0u32);
        b.iter(|| {
            for _ in 0..EPISODE {
                black_box(W::step(tick, black_box(&mut ctx)));
                tick = tick.wrapping_add(1);
            }
        })
    });
}

/// A tree's group with the script alone and our three forms; the caller
/// adds the peers and finishes it.
fn ours<W: Workload>(
    c: &mut Criterion,
    compiled: impl Form<W::Ctx>,
    hand_written: impl Form<W::Ctx>,
    interpreted: impl Form<W::Ctx>,
) -> BenchmarkGroup<'_, WallTime> {
    let mut g = c.benchmark_group(W::NAME);
    g.throughput(Throughput::Elements(u64::from(EPISODE)));
    baseline::<W>(&mut g);
    form::<W, _>(&mut g, "compiled", compiled);
    form::<W, _>(&mut g, "hand_written", hand_written);
    form::<W, _>(&mut g, "interpreted", interpreted);
    g
}

fn t1(c: &mut Criterion) {
    let by_hand = trees::wild_dog::WildDogByHand::default();
    let mut g = ours::<T1>(c, forms::compiled_t1(), by_hand, interp_forms::t1());
    form::<T1, _>(&mut g, "bonsai", bonsai_forms::t1());
    form::<T1, _>(&mut g, "bt_lite", btlite_forms::t1());
    g.finish();
}

fn t2(c: &mut Criterion) {
    let by_hand = trees::guard::GuardByHand::default();
    let mut g = ours::<T2>(c, forms::compiled_t2(), by_hand, interp_forms::t2());
    form::<T2, _>(&mut g, "bonsai", bonsai_forms::t2());
    form::<T2, _>(&mut g, "bt_lite", btlite_forms::t2());
    g.finish();
}

fn t3(c: &mut Criterion) {
    let by_hand = trees::synthetic::SyntheticByHand::default();
    let mut g = ours::<T3>(c, forms::compiled_t3(), by_hand, interp_forms::t3());
    // The peers take up to tens of milliseconds per iteration here: fewer samples.
    g.sample_size(10);
    form::<T3, _>(&mut g, "bonsai", bonsai_forms::t3());
    form::<T3, _>(&mut g, "bt_lite", btlite_forms::t3());
    g.finish();
}

/// T4 has no peer forms (it is there to see the kinds T1-T3 lack).
fn t4(c: &mut Criterion) {
    let by_hand = trees::squad::SquadByHand::default();
    ours::<T4>(c, forms::compiled_t4(), by_hand, interp_forms::t4()).finish();
}

/// An observer that counts every event: what observing for real costs.
#[derive(Default)]
struct CountEvents(u64);

impl Observer for CountEvents {
    fn tick_started(&mut self, _now: f64) {
        self.0 += 1;
    }
    fn entered(&mut self, _node: NodeId) {
        self.0 += 1;
    }
    fn ticked(&mut self, _node: NodeId, _status: Status) {
        self.0 += 1;
    }
    fn halted(&mut self, _node: NodeId) {
        self.0 += 1;
    }
    fn tick_finished(&mut self, _status: Status) {
        self.0 += 1;
    }
}

/// A compiled tree ticked with `tick_observed` and the given observer.
struct Observed<T, O>(T, O);

/// `Observed` as a [`Form`] on each workload's context (an impl for every
/// context would overlap the one `Form` has for every tree).
macro_rules! observed {
    ($($ctx:ty),*) => {$(
        impl<T: Tree<$ctx>, O: Observer> Form<$ctx> for Observed<T, O> {
            #[inline(always)]
            fn tick(&mut self, ctx: &mut $ctx, now: f64) -> Status {
                self.0.tick_observed(ctx, now, &mut self.1)
            }
        }
    )*};
}
observed!(
    trees::wild_dog::DogCtx,
    trees::guard::GuardCtx,
    trees::synthetic::SynCtx
);

/// The cost of observation: plain `tick_at`, `tick_observed` with the no-op
/// observer (should be the same code), and with an observer that counts events.
fn observe(c: &mut Criterion) {
    fn three<W: Workload, T: Tree<W::Ctx> + Default>(c: &mut Criterion)
    where
        Observed<T, NoopObserver>: Form<W::Ctx>,
        Observed<T, CountEvents>: Form<W::Ctx>,
    {
        let mut g = c.benchmark_group(format!("observe_{}", W::NAME));
        g.throughput(Throughput::Elements(u64::from(EPISODE)));
        form::<W, _>(&mut g, "tick_at", T::default());
        form::<W, _>(&mut g, "noop_observer", Observed(T::default(), NoopObserver));
        form::<W, _>(
            &mut g,
            "counting_observer",
            Observed(T::default(), CountEvents::default()),
        );
        g.finish();
    }
    three::<T1, trees::wild_dog::WildDog>(c);
    three::<T2, trees::guard::Guard>(c);
    three::<T3, trees::synthetic::Synthetic>(c);
}

/// One agent of the scale benchmark: its tree, its world, and its phase in
/// the script (so that agents are not in lockstep).
struct Agent {
    tree: trees::wild_dog::WildDog,
    ctx: trees::wild_dog::DogCtx,
    phase: u32,
}

#[inline(always)]
fn tick_agent(agent: &mut Agent, tick: u32) -> Status {
    let now = T1::step(tick.wrapping_add(agent.phase), &mut agent.ctx);
    agent.tree.tick_at(&mut agent.ctx, now)
}

fn agents(n: usize) -> Vec<Agent> {
    (0..n)
        .map(|i| Agent {
            tree: trees::wild_dog::WildDog::new(),
            ctx: T1::context(),
            phase: (i as u32).wrapping_mul(7919) % 9973,
        })
        .collect()
}

/// T1 for N agents, one tick of every agent per iteration: compiled trees
/// sequentially and split across the cores with rayon, and interpreted agents
/// sharing one definition, sequentially.
fn scale(c: &mut Criterion) {
    let mut g = c.benchmark_group("scale_t1");
    for n in [1_000, 10_000, 100_000, 1_000_000] {
        g.throughput(Throughput::Elements(n as u64));
        if n >= 100_000 {
            g.sample_size(20);
        }
        g.bench_function(format!("sequential/{n}"), |b| {
            let (mut all, mut tick) = (agents(n), 0u32);
            b.iter(|| {
                for agent in all.iter_mut() {
                    black_box(tick_agent(agent, tick));
                }
                tick = tick.wrapping_add(1);
            })
        });
        g.bench_function(format!("interpreted/{n}"), |b| {
            // One definition shared by every agent; each agent owns its state.
            let def = interp_forms::definition_t1();
            let mut all: Vec<_> = agents(n)
                .into_iter()
                .map(|a| (behaved_interp::Agent::new(def.clone()), a.ctx, a.phase))
                .collect();
            let mut tick = 0u32;
            b.iter(|| {
                for (agent, ctx, phase) in all.iter_mut() {
                    let now = T1::step(tick.wrapping_add(*phase), ctx);
                    black_box(agent.tick_at(ctx, now));
                }
                tick = tick.wrapping_add(1);
            })
        });
        g.bench_function(format!("rayon/{n}"), |b| {
            let (mut all, mut tick) = (agents(n), 0u32);
            b.iter(|| {
                all.par_chunks_mut(1024).for_each(|chunk| {
                    for agent in chunk {
                        black_box(tick_agent(agent, tick));
                    }
                });
                tick = tick.wrapping_add(1);
            })
        });
    }
    g.finish();
}

/// `--ticks TREE FORM N`: ticks one form N times (for callgrind) and prints
/// the statuses seen, so the work cannot be optimised away.
fn ticks_only(args: &[String]) {
    let [tree, form, n] = args else {
        panic!("usage: --ticks t1|t2|t3|t4 compiled|hand_written|interpreted|bonsai|bt_lite|baseline N (t4: no peers)");
    };
    let n: u32 = n.parse().expect("N is a number");
    fn go<W: Workload, F: Form<W::Ctx>>(mut f: F, n: u32) -> [u32; 3] {
        forms::run::<W, F>(&mut f, &mut W::context(), 0, n)
    }
    fn script_only<W: Workload>(n: u32) -> [u32; 3] {
        let (mut ctx, mut seen) = (W::context(), [0; 3]);
        for tick in 0..n {
            black_box(W::step(tick, &mut ctx));
            seen[black_box(Status::Running) as usize] += 1;
        }
        seen
    }
    let seen = match (tree.as_str(), form.as_str()) {
        ("t1", "baseline") => script_only::<T1>(n),
        ("t1", "compiled") => go::<T1, _>(forms::compiled_t1(), n),
        ("t1", "hand_written") => go::<T1, _>(trees::wild_dog::WildDogByHand::default(), n),
        ("t1", "interpreted") => go::<T1, _>(interp_forms::t1(), n),
        ("t1", "bonsai") => go::<T1, _>(bonsai_forms::t1(), n),
        ("t1", "bt_lite") => go::<T1, _>(btlite_forms::t1(), n),
        ("t2", "baseline") => script_only::<T2>(n),
        ("t2", "compiled") => go::<T2, _>(forms::compiled_t2(), n),
        ("t2", "hand_written") => go::<T2, _>(trees::guard::GuardByHand::default(), n),
        ("t2", "interpreted") => go::<T2, _>(interp_forms::t2(), n),
        ("t2", "bonsai") => go::<T2, _>(bonsai_forms::t2(), n),
        ("t2", "bt_lite") => go::<T2, _>(btlite_forms::t2(), n),
        ("t3", "baseline") => script_only::<T3>(n),
        ("t3", "compiled") => go::<T3, _>(forms::compiled_t3(), n),
        ("t3", "hand_written") => go::<T3, _>(trees::synthetic::SyntheticByHand::default(), n),
        ("t3", "interpreted") => go::<T3, _>(interp_forms::t3(), n),
        ("t3", "bonsai") => go::<T3, _>(bonsai_forms::t3(), n),
        ("t3", "bt_lite") => go::<T3, _>(btlite_forms::t3(), n),
        ("t4", "baseline") => script_only::<T4>(n),
        ("t4", "compiled") => go::<T4, _>(forms::compiled_t4(), n),
        ("t4", "hand_written") => go::<T4, _>(trees::squad::SquadByHand::default(), n),
        ("t4", "interpreted") => go::<T4, _>(interp_forms::t4(), n),
        other => panic!("unknown tree and form {other:?}"),
    };
    println!("{tree} {form} {n} ticks: (success, failure, running) = {seen:?}");
}

fn main() {
    // `cargo bench` appends `--bench` to the arguments given after `--`.
    let args: Vec<String> = std::env::args().filter(|a| a != "--bench").collect();
    if let Some(i) = args.iter().position(|a| a == "--ticks") {
        return ticks_only(&args[i + 1..]);
    }
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    t1(&mut c);
    t2(&mut c);
    t3(&mut c);
    t4(&mut c);
    observe(&mut c);
    scale(&mut c);
    c.final_summary();
}

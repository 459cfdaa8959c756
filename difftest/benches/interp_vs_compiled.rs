//! The interpreter against the compiled form of the same trees, on the three
//! benchmark trees of DESIGN.md section 8 with the leaves and scripted worlds
//! of the main suite (`benches/` of the root crate): T1 the Wild Dog loop, T2
//! the ADR-017 guard (a reactive selector), T3 the 1,365-node synthetic tree.
//! One iteration is 1,000 ticks of the scripted world, so ns/tick = time/1000.
//!
//! - `cargo bench -p difftest` runs criterion (filter: `-- t2`);
//! - `<bench binary> --ticks t1|t2|t3 compiled|interpreted N` ticks one form N
//!   times and exits, for instruction counts under
//!   `valgrind --tool=callgrind` (run N and 2N: the difference / N is one tick).
// `criterion_group!` generates an undocumented function.
#![allow(missing_docs)]

use std::sync::Arc;
use std::time::Duration;

use bt::{Action, Clock, Condition, Status, Tree, behave};
use bt_interp::{Agent, Definition, NoParams, Registry};
use criterion::{Criterion, Throughput, black_box};
use serde::Deserialize;

/// Ticks per measured iteration.
const EPISODE: u32 = 1000;

/// A tree's context and scripted world.
trait Workload {
    type Ctx: 'static + std::fmt::Debug;
    const NAME: &'static str;
    fn context() -> Self::Ctx;
    /// Sets the world for tick `tick`; returns the tick's time.
    fn step(tick: u32, ctx: &mut Self::Ctx) -> f64;
}

// ---------------------------------------------------------------- T1: Wild Dog

#[derive(Debug, Default)]
struct DogCtx {
    now: f64,
    has_target: bool,
    dist: u32,
    facing: bool,
    attacks: u32,
}

impl Clock for DogCtx {
    fn now(&self) -> f64 {
        self.now
    }
}

#[derive(Clone, Copy)]
struct FindTarget;
impl Condition<DogCtx> for FindTarget {
    #[inline]
    fn check(&self, ctx: &DogCtx) -> bool {
        ctx.has_target
    }
}

#[derive(Clone, Copy)]
struct FaceTarget;
impl Action<DogCtx> for FaceTarget {
    #[inline]
    fn tick(&mut self, ctx: &mut DogCtx) -> Status {
        ctx.facing = true;
        Status::Success
    }
}

#[derive(Clone, Copy)]
struct MoveAdjacent;
impl Action<DogCtx> for MoveAdjacent {
    #[inline]
    fn tick(&mut self, ctx: &mut DogCtx) -> Status {
        if ctx.dist <= 1 {
            return Status::Success;
        }
        ctx.dist -= 1;
        ctx.facing = false;
        Status::Running
    }
}

#[derive(Clone, Copy)]
struct AttackIfAdjacent;
impl Action<DogCtx> for AttackIfAdjacent {
    #[inline]
    fn tick(&mut self, ctx: &mut DogCtx) -> Status {
        if ctx.dist == 1 && ctx.facing {
            ctx.attacks += 1;
            ctx.dist = 3;
            Status::Success
        } else {
            Status::Failure
        }
    }
}

struct T1;
impl Workload for T1 {
    type Ctx = DogCtx;
    const NAME: &'static str = "t1_wild_dog";
    fn context() -> DogCtx {
        DogCtx {
            dist: 5,
            ..DogCtx::default()
        }
    }
    #[inline(always)]
    fn step(tick: u32, ctx: &mut DogCtx) -> f64 {
        ctx.now = f64::from(tick) * 0.125;
        ctx.has_target = tick % 97 < 80;
        ctx.now
    }
}

const T1_JSON: &str = r#"{"type": "loop", "child": {"type": "sequence", "children": [
    {"type": "condition", "condition": "findTarget"},
    {"type": "action", "action": "faceTarget"},
    {"type": "action", "action": "moveAdjacent"},
    {"type": "action", "action": "faceTarget"},
    {"type": "action", "action": "attackIfAdjacent"},
    {"type": "wait", "seconds": 1.0}
]}}"#;

fn t1_definition() -> Arc<Definition<DogCtx>> {
    let mut r = Registry::new();
    r.condition("findTarget", |_: NoParams| FindTarget)
        .action("faceTarget", |_: NoParams| FaceTarget)
        .action("moveAdjacent", |_: NoParams| MoveAdjacent)
        .action("attackIfAdjacent", |_: NoParams| AttackIfAdjacent);
    r.load(T1_JSON).expect("T1 loads")
}

// ------------------------------------------------------------------- T2: guard

#[derive(Debug, Default)]
struct GuardCtx {
    quest_active: bool,
    night: bool,
    has_bribe: bool,
    dist_to_post: u32,
    said: [u32; 4],
    walks: u32,
    interrupted: u32,
}

macro_rules! flag {
    ($name:ident, $field:ident) => {
        #[derive(Clone, Copy)]
        struct $name;
        impl Condition<GuardCtx> for $name {
            #[inline]
            fn check(&self, ctx: &GuardCtx) -> bool {
                ctx.$field
            }
        }
    };
}
flag!(QuestActive, quest_active);
flag!(IsNight, night);
flag!(HasBribe, has_bribe);

#[derive(Clone, Copy)]
struct AtPost;
impl Condition<GuardCtx> for AtPost {
    #[inline]
    fn check(&self, ctx: &GuardCtx) -> bool {
        ctx.dist_to_post == 0
    }
}

#[derive(Clone, Copy, Deserialize)]
struct Say {
    line: usize,
}
impl Action<GuardCtx> for Say {
    #[inline]
    fn tick(&mut self, ctx: &mut GuardCtx) -> Status {
        ctx.said[self.line] += 1;
        Status::Success
    }
}

#[derive(Clone, Copy)]
struct MoveToPost;
impl Action<GuardCtx> for MoveToPost {
    #[inline]
    fn enter(&mut self, ctx: &mut GuardCtx) {
        ctx.walks += 1;
    }
    #[inline]
    fn tick(&mut self, ctx: &mut GuardCtx) -> Status {
        if ctx.dist_to_post == 0 {
            return Status::Success;
        }
        ctx.dist_to_post -= 1;
        if ctx.dist_to_post == 0 {
            Status::Success
        } else {
            Status::Running
        }
    }
    #[inline]
    fn halt(&mut self, ctx: &mut GuardCtx) {
        ctx.interrupted += 1;
    }
}

struct T2;
impl Workload for T2 {
    type Ctx = GuardCtx;
    const NAME: &'static str = "t2_guard";
    fn context() -> GuardCtx {
        GuardCtx::default()
    }
    #[inline(always)]
    fn step(tick: u32, ctx: &mut GuardCtx) -> f64 {
        let t = tick % 64;
        if t == 0 {
            ctx.dist_to_post = 6 + tick / 64 % 12;
        }
        ctx.night = t >= 48;
        ctx.quest_active = (10..14).contains(&t) || tick.is_multiple_of(29);
        ctx.has_bribe = tick % 5 == 2;
        0.0
    }
}

const T2_JSON: &str = r#"{"type": "reactiveSelector", "children": [
    {"type": "sequence", "children": [
        {"type": "condition", "condition": "questActive"},
        {"type": "action", "action": {"type": "say", "line": 0}}]},
    {"type": "reactiveSequence", "children": [
        {"type": "condition", "condition": "isNight"},
        {"type": "reactiveSelector", "children": [
            {"type": "sequence", "children": [
                {"type": "condition", "condition": "atPost"},
                {"type": "action", "action": {"type": "say", "line": 1}}]},
            {"type": "action", "action": "moveToPost"}]}]},
    {"type": "sequence", "children": [
        {"type": "condition", "condition": "hasBribe"},
        {"type": "action", "action": {"type": "say", "line": 2}}]},
    {"type": "action", "action": {"type": "say", "line": 3}}
]}"#;

fn t2_definition() -> Arc<Definition<GuardCtx>> {
    let mut r = Registry::new();
    r.condition("questActive", |_: NoParams| QuestActive)
        .condition("isNight", |_: NoParams| IsNight)
        .condition("atPost", |_: NoParams| AtPost)
        .condition("hasBribe", |_: NoParams| HasBribe)
        .action("say", |s: Say| s)
        .action("moveToPost", |_: NoParams| MoveToPost);
    r.load(T2_JSON).expect("T2 loads")
}

// --------------------------------------------------------------- T3: synthetic

#[derive(Debug, Default)]
struct SynCtx {
    tick: u32,
    visits: u32,
    trace: u32,
}

impl SynCtx {
    /// Leaf `id`: records the visit and returns a status from a hash of (id, tick).
    #[inline(always)]
    fn leaf(&mut self, id: u32) -> Status {
        self.visits += 1;
        self.trace = self.trace.rotate_left(5) ^ id;
        let mut h = id.wrapping_mul(0x9E37_79B9) ^ self.tick;
        h ^= h >> 15;
        h = h.wrapping_mul(0x85EB_CA6B);
        match h >> 26 {
            0..=15 => Status::Success,
            16 => Status::Running,
            _ => Status::Failure,
        }
    }
}

#[derive(Clone, Copy, Deserialize)]
struct Leaf {
    id: u32,
}
impl Action<SynCtx> for Leaf {
    #[inline]
    fn tick(&mut self, ctx: &mut SynCtx) -> Status {
        ctx.leaf(self.id)
    }
}

struct T3;
impl Workload for T3 {
    type Ctx = SynCtx;
    const NAME: &'static str = "t3_synthetic";
    fn context() -> SynCtx {
        SynCtx::default()
    }
    #[inline(always)]
    fn step(tick: u32, ctx: &mut SynCtx) -> f64 {
        ctx.tick = tick;
        0.0
    }
}

fn t3_definition() -> Arc<Definition<SynCtx>> {
    let mut r = Registry::new();
    r.action("leaf", |l: Leaf| l);
    r.load(&difftest::synthetic::json(5, 4)).expect("T3 loads")
}

behave! {
    tree WildDog for DogCtx {
        loop {
            sequence { cond(FindTarget), FaceTarget, MoveAdjacent, FaceTarget, AttackIfAdjacent, wait(1.0) }
        }
    }
    tree Guard for GuardCtx {
        reactive selector {
            sequence { cond(QuestActive), Say { line: 0 } },
            reactive sequence {
                cond(IsNight),
                reactive selector { sequence { cond(AtPost), Say { line: 1 } }, MoveToPost },
            },
            sequence { cond(HasBribe), Say { line: 2 } },
            Say { line: 3 },
        }
    }
}

include!(concat!(env!("OUT_DIR"), "/t3.rs"));

// ----------------------------------------------------------------------- forms

/// A way of ticking a tree.
trait Form<C> {
    fn tick(&mut self, ctx: &mut C, now: f64) -> Status;
}

struct Compiled<T>(T);
impl<C, T: Tree<C>> Form<C> for Compiled<T> {
    #[inline(always)]
    fn tick(&mut self, ctx: &mut C, now: f64) -> Status {
        self.0.tick_at(ctx, now)
    }
}

struct Interpreted<C: 'static>(Agent<C>);
impl<C: 'static> Form<C> for Interpreted<C> {
    #[inline(always)]
    fn tick(&mut self, ctx: &mut C, now: f64) -> Status {
        self.0.tick_at(ctx, now)
    }
}

/// Runs `ticks` ticks of `form`; returns the statuses seen (success,
/// failure, running) and the final world.
fn run<W: Workload, F: Form<W::Ctx>>(form: &mut F, ticks: u32) -> ([u32; 3], String) {
    let (mut ctx, mut seen) = (W::context(), [0; 3]);
    for tick in 0..ticks {
        let now = W::step(tick, &mut ctx);
        seen[form.tick(black_box(&mut ctx), now) as usize] += 1;
    }
    (seen, format!("{ctx:?}"))
}

fn bench_form<W: Workload, F: Form<W::Ctx>>(c: &mut Criterion, form: &str, mut f: F) {
    let mut g = c.benchmark_group(W::NAME);
    g.throughput(Throughput::Elements(u64::from(EPISODE)));
    g.bench_function(form, |b| {
        let (mut ctx, mut tick) = (W::context(), 0u32);
        b.iter(|| {
            for _ in 0..EPISODE {
                let now = W::step(tick, &mut ctx);
                black_box(f.tick(black_box(&mut ctx), now));
                tick = tick.wrapping_add(1);
            }
        })
    });
    g.finish();
}

/// `--ticks TREE FORM N`: ticks one form N times (for callgrind).
fn ticks_only(args: &[String]) {
    let [tree, form, n] = args else {
        panic!("usage: --ticks t1|t2|t3 compiled|interpreted N");
    };
    let n: u32 = n.parse().expect("N is a number");
    let seen = match (tree.as_str(), form.as_str()) {
        ("t1", "compiled") => run::<T1, _>(&mut Compiled(WildDog::new()), n),
        ("t1", "interpreted") => run::<T1, _>(&mut Interpreted(Agent::new(t1_definition())), n),
        ("t2", "compiled") => run::<T2, _>(&mut Compiled(Guard::new()), n),
        ("t2", "interpreted") => run::<T2, _>(&mut Interpreted(Agent::new(t2_definition())), n),
        ("t3", "compiled") => run::<T3, _>(&mut Compiled(Synthetic::new()), n),
        ("t3", "interpreted") => run::<T3, _>(&mut Interpreted(Agent::new(t3_definition())), n),
        other => panic!("unknown tree and form {other:?}"),
    };
    println!("{tree} {form} {n} ticks: (success, failure, running) = {seen:?}");
}

/// `--quick`: the best of 7 runs of 200,000 ticks of each tree and form, in
/// ns/tick: a fast, rough figure on a busy machine (criterion is the reference).
fn quick() {
    fn best<W: Workload, F: Form<W::Ctx>>(make: impl Fn() -> F) -> f64 {
        (0..7)
            .map(|_| {
                let mut f = make();
                let start = std::time::Instant::now();
                black_box(run::<W, F>(&mut f, 200_000));
                start.elapsed().as_secs_f64() * 1e9 / 200_000.0
            })
            .fold(f64::INFINITY, f64::min)
    }
    let rows = [
        (T1::NAME, best::<T1, _>(|| Compiled(WildDog::new())), {
            let d = t1_definition();
            best::<T1, _>(|| Interpreted(Agent::new(d.clone())))
        }),
        (T2::NAME, best::<T2, _>(|| Compiled(Guard::new())), {
            let d = t2_definition();
            best::<T2, _>(|| Interpreted(Agent::new(d.clone())))
        }),
        (T3::NAME, best::<T3, _>(|| Compiled(Synthetic::new())), {
            let d = t3_definition();
            best::<T3, _>(|| Interpreted(Agent::new(d.clone())))
        }),
    ];
    println!(
        "{:<14} {:>12} {:>12} {:>7}",
        "tree", "compiled ns", "interp ns", "ratio"
    );
    for (name, c, i) in rows {
        println!("{name:<14} {c:>12.2} {i:>12.2} {:>7.2}", i / c);
    }
    println!("\nbytes per agent: interpreted control state / all it owns; compiled size_of");
    fn bytes<C>(a: Agent<C>) -> (usize, usize) {
        (a.state_bytes(), a.bytes())
    }
    let agents = [
        (T1::NAME, bytes(Agent::new(t1_definition())), size_of::<WildDog>()),
        (T2::NAME, bytes(Agent::new(t2_definition())), size_of::<Guard>()),
        (T3::NAME, bytes(Agent::new(t3_definition())), size_of::<Synthetic>()),
    ];
    for (name, (state, all), compiled) in agents {
        println!("{name:<14} {state:>6} / {all:>6}   compiled {compiled:>6}");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--ticks") {
        return ticks_only(&args[i + 1..]);
    }
    if args.iter().any(|a| a == "--quick") {
        return quick();
    }
    // Both forms agree on every tree before anything is timed.
    assert_eq!(
        run::<T1, _>(&mut Compiled(WildDog::new()), 5000),
        run::<T1, _>(&mut Interpreted(Agent::new(t1_definition())), 5000)
    );
    assert_eq!(
        run::<T2, _>(&mut Compiled(Guard::new()), 5000),
        run::<T2, _>(&mut Interpreted(Agent::new(t2_definition())), 5000)
    );
    assert_eq!(
        run::<T3, _>(&mut Compiled(Synthetic::new()), 5000),
        run::<T3, _>(&mut Interpreted(Agent::new(t3_definition())), 5000)
    );
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    bench_form::<T1, _>(&mut c, "compiled", Compiled(WildDog::new()));
    bench_form::<T1, _>(&mut c, "interpreted", Interpreted(Agent::new(t1_definition())));
    bench_form::<T2, _>(&mut c, "compiled", Compiled(Guard::new()));
    bench_form::<T2, _>(&mut c, "interpreted", Interpreted(Agent::new(t2_definition())));
    bench_form::<T3, _>(&mut c, "compiled", Compiled(Synthetic::new()));
    bench_form::<T3, _>(&mut c, "interpreted", Interpreted(Agent::new(t3_definition())));
    c.final_summary();
}

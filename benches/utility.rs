//! `utility` over 8 scored children against a hand-written argmax over the
//! same closures, and the interpreter's form of the same tree (issue 25). Each
//! tick the scores change and the chosen child succeeds at once, so every
//! tick scores all 8 children and runs one.
//!
//! - `<bench binary> --ticks u8 FORM N` ticks one form N times and exits, for
//!   `BENCH=utility benches/callgrind.sh u8 baseline compiled hand_written interpreted`;
//! - with no arguments it times each form with criterion.
use behaved::prelude::*;
use behaved_interp::{Agent, NoParams, Registry};
use criterion::{Criterion, black_box};

/// Eight inputs and what the chosen child did.
#[derive(Default)]
struct Ctx {
    s: [f32; 8],
    picked: [u32; 8],
}

/// The inputs of tick `t`: a different best child on most ticks.
#[inline(always)]
fn drive(ctx: &mut Ctx, t: u32) {
    for (i, s) in ctx.s.iter_mut().enumerate() {
        *s = ((t.wrapping_mul(2 * i as u32 + 3) >> 1) % 17) as f32 * 0.0625;
    }
}

behave! {
    tree Compiled for Ctx {
        utility {
            |c| c.s[0] => act(|c| { c.picked[0] += 1; Status::Success }),
            |c| c.s[1] => act(|c| { c.picked[1] += 1; Status::Success }),
            |c| c.s[2] => act(|c| { c.picked[2] += 1; Status::Success }),
            |c| c.s[3] => act(|c| { c.picked[3] += 1; Status::Success }),
            |c| c.s[4] => act(|c| { c.picked[4] += 1; Status::Success }),
            |c| c.s[5] => act(|c| { c.picked[5] += 1; Status::Success }),
            |c| c.s[6] => act(|c| { c.picked[6] += 1; Status::Success }),
            |c| c.s[7] => act(|c| { c.picked[7] += 1; Status::Success }),
        }
    }
}

/// The same choice written by hand: the same eight score closures, the
/// highest above zero (the first on ties), its action run; none: failure.
#[inline(never)]
fn hand_written(ctx: &mut Ctx) -> Status {
    let scores: [f32; 8] = [
        ctx.s[0], ctx.s[1], ctx.s[2], ctx.s[3], ctx.s[4], ctx.s[5], ctx.s[6], ctx.s[7],
    ];
    let mut best = usize::MAX;
    let mut top = 0.0;
    for (i, &s) in scores.iter().enumerate() {
        if s > top {
            top = s;
            best = i;
        }
    }
    if best == usize::MAX {
        return Status::Failure;
    }
    ctx.picked[best] += 1;
    Status::Success
}

/// One of the eight inputs, as a registered consideration.
struct Input(usize);

impl Consideration<Ctx> for Input {
    fn score(&self, c: &Ctx) -> f32 {
        c.s[self.0]
    }
}

/// Counts a pick of child `0` and succeeds.
#[derive(Clone)]
struct Pick(usize);

impl Action<Ctx> for Pick {
    fn tick(&mut self, c: &mut Ctx) -> Status {
        c.picked[self.0] += 1;
        Status::Success
    }
}

fn interpreted() -> Agent<Ctx> {
    let mut r = Registry::new();
    let names = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"];
    let acts = ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"];
    for i in 0..8 {
        r.consideration(names[i], move |_: NoParams| Input(i));
        r.action(acts[i], move |_: NoParams| Pick(i));
    }
    let scores: Vec<_> = names.iter().map(|n| serde_json::json!({"consider": n})).collect();
    let children: Vec<_> = acts
        .iter()
        .map(|a| serde_json::json!({"type": "action", "action": a}))
        .collect();
    let tree = serde_json::json!({"type": "utility", "scores": scores, "children": children});
    Agent::new(r.load(&tree.to_string()).expect("the bench tree loads"))
}

fn run(form: &str, n: u32) -> [u32; 8] {
    let mut ctx = Ctx::default();
    match form {
        "baseline" => {
            for t in 0..n {
                drive(&mut ctx, t);
                black_box(&ctx);
            }
        }
        "compiled" => {
            let mut tree = Compiled::new();
            for t in 0..n {
                drive(&mut ctx, t);
                black_box(tree.tick_at(&mut ctx, 0.0));
            }
        }
        "hand_written" => {
            for t in 0..n {
                drive(&mut ctx, t);
                black_box(hand_written(&mut ctx));
            }
        }
        "interpreted" => {
            let mut agent = interpreted();
            for t in 0..n {
                drive(&mut ctx, t);
                black_box(agent.tick_at(&mut ctx, 0.0));
            }
        }
        other => panic!("unknown form {other}: baseline, compiled, hand_written or interpreted"),
    }
    ctx.picked
}

fn main() {
    let args: Vec<String> = std::env::args().filter(|a| a != "--bench").collect();
    if let Some(i) = args.iter().position(|a| a == "--ticks") {
        let [_, form, n] = &args[i + 1..] else {
            panic!("usage: --ticks u8 baseline|compiled|hand_written|interpreted N");
        };
        let picked = run(form, n.parse().expect("a number of ticks"));
        println!("u8 {form} {n} ticks: picks {picked:?}");
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    let mut g = c.benchmark_group("utility_8");
    for form in ["baseline", "compiled", "hand_written", "interpreted"] {
        g.bench_function(form, |b| b.iter(|| run(form, 1000)));
    }
    g.finish();
    c.final_summary();
}

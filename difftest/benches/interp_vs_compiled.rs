//! The interpreter against the compiled form of the same trees: the Wild Dog
//! loop (T1) and the ADR-017 guard selector (T2), one agent ticking.
//! `cargo bench -p difftest`.
// `criterion_group!` generates an undocumented function.
#![allow(missing_docs)]

use bt::{Action, Condition, Status, Tree, behave};
use bt_interp::{Agent, NoParams, Registry};
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use serde_json::json;

/// A small world: a counter the leaves read and write.
#[derive(Default)]
struct W {
    n: u64,
    night: bool,
}

#[derive(Clone, Default)]
struct Step;
impl Action<W> for Step {
    fn tick(&mut self, w: &mut W) -> Status {
        w.n += 1;
        if w.n.is_multiple_of(4) {
            Status::Running
        } else {
            Status::Success
        }
    }
}

#[derive(Default)]
struct Night;
impl Condition<W> for Night {
    fn check(&self, w: &W) -> bool {
        w.night
    }
}

#[derive(Default)]
struct Odd;
impl Condition<W> for Odd {
    fn check(&self, w: &W) -> bool {
        w.n % 2 == 1
    }
}

behave! {
    tree Dog for W { loop { sequence { Step, Step, Step, Step, Step, wait(1.0) } } }
    tree Guard for W {
        selector {
            sequence { cond(Odd), Step },
            sequence { cond(Night), selector { sequence { cond(Odd), Step }, Step } },
            sequence { cond(Odd), Step },
            Step,
        }
    }
}

fn registry() -> Registry<W> {
    let mut r = Registry::new();
    r.action("step", |_: NoParams| Step)
        .condition("night", |_: NoParams| Night)
        .condition("odd", |_: NoParams| Odd);
    r
}

fn bench(c: &mut Criterion) {
    let step = || json!({"type": "action", "action": "step"});
    let cond = |n: &str| json!({"type": "condition", "condition": n});
    let seq = |k: Vec<serde_json::Value>| json!({"type": "sequence", "children": k});
    let dog = json!({"type": "loop", "child": seq(vec![step(), step(), step(), step(), step(), json!({"type": "wait", "seconds": 1.0})])});
    let guard = json!({"type": "selector", "children": [
        seq(vec![cond("odd"), step()]),
        seq(vec![cond("night"), json!({"type": "selector", "children": [seq(vec![cond("odd"), step()]), step()]})]),
        seq(vec![cond("odd"), step()]),
        step()
    ]});
    let r = registry();
    let mut g = c.benchmark_group("tick");
    for (name, json) in [("T1 dog", dog), ("T2 guard", guard)] {
        let def = r.load(&json.to_string()).unwrap();
        let mut agent = Agent::new(def);
        let mut w = W::default();
        let mut t = 0.0;
        g.bench_function(format!("{name} interpreted"), |b| {
            b.iter(|| {
                t += 0.25;
                w.night = !w.night;
                black_box(agent.tick_at(&mut w, t))
            })
        });
    }
    let (mut dog, mut w, mut t) = (Dog::new(), W::default(), 0.0);
    g.bench_function("T1 dog compiled", |b| {
        b.iter(|| {
            t += 0.25;
            black_box(dog.tick_at(&mut w, t))
        })
    });
    let (mut guard, mut w) = (Guard::new(), W::default());
    g.bench_function("T2 guard compiled", |b| {
        b.iter(|| {
            w.night = !w.night;
            black_box(guard.tick_at(&mut w, 0.0))
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

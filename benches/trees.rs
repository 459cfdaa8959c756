//! Compiled trees against their hand-written twins (the speed limit).
//! Run: `cargo bench --bench trees`. Results and ratios: BENCHMARKS.md.
use criterion::{Criterion, criterion_main};
use std::hint::black_box;

#[path = "trees/wild_dog.rs"]
mod wild_dog;

use wild_dog::*;

/// Ticks per measured iteration: a whole scripted episode, so the tree sees
/// every branch (moving, attacking, waiting, losing the target).
const EPISODE: u32 = 1000;

fn t1_wild_dog(c: &mut Criterion) {
    let mut group = c.benchmark_group("t1_wild_dog");
    group.throughput(criterion::Throughput::Elements(u64::from(EPISODE)));
    group.bench_function("compiled", |b| {
        let (mut tree, mut ctx) = (
            WildDog::new(),
            DogCtx {
                dist: 5,
                ..DogCtx::default()
            },
        );
        b.iter(|| {
            for tick in 0..EPISODE {
                script(tick, &mut ctx);
                black_box(tree.tick(black_box(&mut ctx)));
            }
        })
    });
    group.bench_function("hand_written", |b| {
        let (mut tree, mut ctx) = (
            WildDogByHand::default(),
            DogCtx {
                dist: 5,
                ..DogCtx::default()
            },
        );
        b.iter(|| {
            for tick in 0..EPISODE {
                script(tick, &mut ctx);
                let now = ctx.now;
                black_box(tree.tick_at(black_box(&mut ctx), now));
            }
        })
    });
    group.finish();
}

/// Criterion's entry points (its macros generate undocumented functions).
mod entry {
    criterion::criterion_group!(benches, super::t1_wild_dog);
}

criterion_main!(entry::benches);

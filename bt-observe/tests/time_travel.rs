//! Time travel reconstructs exactly what a live status snapshot showed, at
//! every tick of long scripted runs with reactive switches, halts, `break`s
//! and resets, on two real trees (`Guard` and `Watch` from the fixtures).
mod support;

use behaved::NodeKind;
use behaved::prelude::*;
use behaved_observe::{Cursor, Error, NodeState, StatusSnapshot, Tee, Trace, TraceRecorder};
use support::*;

const TICKS: u64 = 3000;

/// What one scripted run showed: the live states, times and root statuses at
/// every tick (index = tick number; index 0 is before the first tick), and two
/// recorders' traces.
struct Run {
    live: Vec<Vec<NodeState>>,
    times: Vec<f64>,
    roots: Vec<Status>,
    full: Trace,
    bounded: Trace,
    halts: usize,
    resets: usize,
}

fn run<T: Tree<World> + Default>(seed: u64, bounded_capacity: usize) -> Run {
    let mut guard = T::default();
    let mut world = World::new(LEAVES);
    let mut dice = Dice::new(seed);
    let nodes = guard.nodes();
    let mut watch = Tee(
        StatusSnapshot::new(nodes).unwrap(),
        Tee(
            TraceRecorder::new(nodes, 1_000_000).unwrap(),
            TraceRecorder::new(nodes, bounded_capacity).unwrap(),
        ),
    );
    let mut live = vec![watch.0.statuses().to_vec()];
    let mut times = vec![0.0];
    let mut resets = 0;
    let mut roots = vec![Status::Running];
    for _ in 0..TICKS {
        shake(&mut world, &mut dice);
        let now = world.now;
        roots.push(guard.tick_observed(&mut world, now, &mut watch));
        if dice.chance(2) {
            // Halts between ticks belong to the tick before them.
            guard.reset_observed(&mut world, &mut watch);
            resets += 1;
        }
        live.push(watch.0.statuses().to_vec());
        times.push(world.now);
    }
    let full = watch.1.0.trace();
    let halts = full
        .events
        .iter()
        .filter(|e| matches!(e, behaved_observe::Event::Halted { .. }))
        .count();
    Run {
        live,
        times,
        roots,
        full,
        bounded: watch.1.1.trace(),
        halts,
        resets,
    }
}

#[test]
fn every_tick_reconstructs_what_the_live_snapshot_showed() {
    reconstructs_every_tick::<Guard>(7);
    reconstructs_every_tick::<Watch>(8);
}

fn reconstructs_every_tick<T: Tree<World, Row = NodeInfo> + Default>(seed: u64) {
    let run = run::<T>(seed, 400);
    // The run exercises what it claims to: halts from switches and from resets.
    assert!(
        run.halts > 500 && run.resets > 20,
        "halts {}, resets {}",
        run.halts,
        run.resets
    );
    let distinct: std::collections::BTreeSet<_> = run.live.iter().collect();
    assert!(distinct.len() >= 8, "only {} distinct pictures", distinct.len());
    let can_run = |k: NodeKind| !matches!(k, NodeKind::Condition | NodeKind::Break | NodeKind::Continue);
    for node in T::default().nodes().iter().filter(|n| can_run(n.kind)) {
        assert!(
            run.live.iter().any(|p| p[node.id.index()] == NodeState::Running),
            "{} never ran",
            node.label
        );
    }

    // Through JSON and back, as a debugger would load it.
    let trace = Trace::from_json(&run.full.to_json().unwrap()).unwrap();
    let mut cursor = Cursor::new(&trace).unwrap();
    assert_eq!((cursor.first_tick(), cursor.last_tick()), (0, TICKS));

    // Forward, one step at a time.
    assert_eq!(cursor.statuses(), run.live[0]);
    assert_eq!(cursor.now(), None);
    for t in 1..=TICKS {
        assert!(cursor.step_forward());
        assert_eq!(cursor.tick(), t);
        assert_eq!(cursor.statuses(), run.live[t as usize], "forward to tick {t}");
        assert_eq!(cursor.now(), Some(run.times[t as usize]));
    }
    assert!(!cursor.step_forward(), "no step past the last tick");
    assert_eq!(cursor.tick(), TICKS);

    // Backward, one step at a time.
    for t in (0..TICKS).rev() {
        assert!(cursor.step_back());
        assert_eq!(cursor.statuses(), run.live[t as usize], "back to tick {t}");
    }
    assert!(!cursor.step_back(), "no step before the first tick");

    // Jumps in a scrambled order.
    let mut dice = Dice::new(99);
    for _ in 0..2000 {
        let t = dice.below(TICKS + 1);
        cursor.seek(t).unwrap();
        assert_eq!(
            (cursor.tick(), cursor.statuses()),
            (t, &run.live[t as usize][..]),
            "seek {t}"
        );
    }
}

#[test]
fn a_bounded_trace_reconstructs_the_ticks_it_kept() {
    keeps_the_last_ticks::<Guard>(11);
    keeps_the_last_ticks::<Watch>(12);
}

fn keeps_the_last_ticks<T: Tree<World> + Default>(seed: u64) {
    let run = run::<T>(seed, 400);
    let trace = &run.bounded;
    assert!(trace.start.dropped_events > 10_000);
    let mut cursor = Cursor::new(trace).unwrap();
    let (first, last) = (cursor.first_tick(), cursor.last_tick());
    assert_eq!(last, TICKS);
    assert!(first > TICKS - 100 && first < TICKS - 5, "kept ticks {first}..={last}");
    for t in first..=last {
        cursor.seek(t).unwrap();
        assert_eq!(cursor.statuses(), run.live[t as usize], "tick {t}");
    }
    for t in (first..last).rev() {
        assert!(cursor.step_back());
        assert_eq!(cursor.statuses(), run.live[t as usize], "back to tick {t}");
    }
    let err = cursor.seek(first - 1).unwrap_err();
    assert!(matches!(err, Error::TickOutOfRange { .. }));
    assert_eq!(
        err.to_string(),
        format!(
            "tick {} is not in the trace, which holds ticks {first} to {last}",
            first - 1
        )
    );
    assert_eq!(cursor.tick(), first, "a failed seek does not move");
}

#[test]
fn each_tick_lists_its_own_events() {
    let run = run::<Watch>(3, 400);
    let mut cursor = Cursor::new(&run.full).unwrap();
    let spans: Vec<_> = run.full.ticks().collect();
    assert_eq!(spans.len() as u64, TICKS + 1);
    let mut total = 0;
    for span in &spans {
        cursor.seek(span.tick).unwrap();
        assert_eq!(cursor.events(), span.events);
        assert_eq!(cursor.now(), span.now);
        total += span.events.len();
        if span.tick > 0 {
            assert!(matches!(span.events[0], behaved_observe::Event::TickStarted { tick, .. } if tick == span.tick));
            assert_eq!(cursor.root_status(), Some(run.roots[span.tick as usize]));
        }
    }
    assert_eq!(total, run.full.events.len());
}

#[test]
fn replaying_a_traces_events_shows_what_the_live_snapshot_showed() {
    for seed in [3, 4] {
        let run = run::<Guard>(seed, 400);
        let mut replayed = StatusSnapshot::new(Guard::NODES).unwrap();
        for tick in run.full.ticks() {
            for event in tick.events {
                replayed.replay(event);
            }
            assert_eq!(
                replayed.statuses(),
                &run.live[tick.tick as usize][..],
                "tick {}",
                tick.tick
            );
            assert_eq!(replayed.tick(), tick.tick);
        }
        assert_eq!(replayed.tick(), TICKS);
    }
}

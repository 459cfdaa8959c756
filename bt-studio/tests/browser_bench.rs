//! The page's speed on a big trace, in headless Chromium: a 10,000-node tree
//! and a 100,000-event trace, both made here at run time. A benchmark run on
//! demand, not a test (no thresholds):
//!
//! ```text
//! cargo test -p bt-studio --release --test browser_bench -- --ignored --nocapture
//! ```
//!
//! It prints the medians of opening the trace (from navigation until the
//! page has drawn it), of drawing one tick (a seek to another tick, until the
//! next frame) and of one step of the timeline (the next-tick and next-event
//! buttons). BENCHMARKS.md reports them.

mod common;

use std::sync::Arc;

use bt::observe::{Trace, TraceRecorder};
use bt::prelude::*;
use bt_interp::{Agent, Definition, Registry};
use common::browser::{open, with_browser};
use common::{serve, temp_file};
use fantoccini::Client;
use serde_json::Value;

/// The tree's size.
const NODES: usize = 10_000;
/// The trace's size (at least; the last tick is kept whole).
const EVENTS: usize = 100_000;
/// How often each measurement is repeated.
const RUNS: usize = 21;
/// Page loads for the opening time.
const OPENS: usize = 5;

/// The context of the generated tree: the tick number, which the leaves hash.
struct Sim {
    tick: u32,
}

/// A leaf whose status is a hash of its id and the tick (changing every few ticks).
#[derive(Clone)]
struct Work(u32);

impl Action<Sim> for Work {
    fn tick(&mut self, sim: &mut Sim) -> Status {
        let mut h = u64::from(self.0).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ u64::from(sim.tick / 4).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        h ^= h >> 29;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 32;
        match h % 10 {
            0..=5 => Status::Success,
            6 | 7 => Status::Failure,
            _ => Status::Running,
        }
    }
}

/// A tree of alternating selector and sequence levels with `fanout`
/// children each, cut to its first `budget` nodes in pre-order, as JSON.
fn tree_json(level: u32, fanout: u32, budget: &mut usize, leaves: &mut u32, out: &mut String) {
    *budget -= 1;
    if level == 5 || *budget == 0 {
        out.push_str(&format!(
            r#"{{"type":"action","action":{{"type":"work","id":{leaves}}}}}"#
        ));
        *leaves += 1;
        return;
    }
    let kind = if level.is_multiple_of(2) {
        "reactiveSelector"
    } else {
        "sequence"
    };
    out.push_str(&format!(r#"{{"type":"{kind}","children":["#));
    for i in 0..fanout {
        if *budget == 0 {
            break;
        }
        if i > 0 {
            out.push(',');
        }
        tree_json(level + 1, fanout, budget, leaves, out);
    }
    out.push_str("]}");
}

/// The 10,000-node tree, loaded by bt-interp.
fn big_tree() -> Arc<Definition<Sim>> {
    let mut json = String::new();
    tree_json(0, 7, &mut NODES.clone(), &mut 0, &mut json);
    let mut leaves = Registry::new();
    leaves.try_action("work", |p: Value| {
        let id = p["id"].as_u64().and_then(|id| u32::try_from(id).ok());
        id.map(Work).ok_or("`id` must be a u32")
    });
    let def = leaves.load(&json).expect("the generated tree loads");
    assert_eq!(def.len(), NODES);
    def
}

/// Ticks the big tree until it reported [`EVENTS`] events.
fn big_trace() -> Trace {
    let def = big_tree();
    let mut agent = Agent::new(Arc::clone(&def));
    let mut recorder = TraceRecorder::new(def.nodes(), 10 * EVENTS).unwrap();
    let mut sim = Sim { tick: 0 };
    while recorder.events().len() < EVENTS {
        sim.tick += 1;
        let now = f64::from(sim.tick) / 60.0;
        agent.tick_observed(&mut sim, now, &mut recorder);
        recorder
            .record_context(&serde_json::json!({ "tick": sim.tick, "phase": sim.tick / 4 }))
            .unwrap();
    }
    recorder.trace()
}

/// Runs `action` (JavaScript) in the page and returns the milliseconds until
/// the next frame has been drawn.
async fn frame_ms(client: &Client, action: &str) -> f64 {
    let script = format!(
        "const done = arguments[arguments.length - 1];
         const t0 = performance.now();
         {action};
         requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0));"
    );
    client.execute_async(&script, vec![]).await.unwrap().as_f64().unwrap()
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

#[test]
#[ignore = "a benchmark: run it on demand with --ignored --nocapture"]
fn a_10000_node_tree_and_a_100000_event_trace() {
    let trace = big_trace();
    let ticks = trace.last_tick() - trace.first_tick();
    let json = trace.to_json().unwrap();
    println!(
        "trace: {} nodes, {} events, {ticks} ticks, {:.1} MB of JSON",
        trace.nodes.len(),
        trace.events.len(),
        json.len() as f64 / 1e6
    );
    let url = format!("http://{}/", serve(temp_file("big.trace.json", &json)));
    with_browser("bench", |client| async move {
        let (mut open_ms, mut server_ms, mut page_ms) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..OPENS {
            open(&client, &format!("{url}#tick=1")).await;
            let t = client
                .execute_async(
                    "const done = arguments[arguments.length - 1];
                     const t = window.btStudio.timings;
                     const wait = () => (t.drawn === undefined ? setTimeout(wait, 10) : done(t));
                     wait();",
                    vec![],
                )
                .await
                .unwrap();
            let at = |k: &str| t[k].as_f64().unwrap();
            open_ms.push(at("drawn"));
            server_ms.push(at("received") - at("requested"));
            page_ms.push(at("drawn") - at("received"));
        }
        // Ticks spread over the trace, in an order that jumps around.
        let tick = |i: usize| 1 + (i as u64 * 7919) % ticks;
        let mut seek_ms = Vec::new();
        for i in 0..RUNS {
            seek_ms.push(frame_ms(&client, &format!("window.btStudio.seek({})", tick(i))).await);
        }
        let mut step_ms = Vec::new();
        let mut event_ms = Vec::new();
        frame_ms(&client, &format!("window.btStudio.seek({})", ticks / 2)).await;
        for _ in 0..RUNS {
            step_ms.push(frame_ms(&client, "document.querySelector('#next-tick').click()").await);
        }
        for _ in 0..RUNS {
            event_ms.push(frame_ms(&client, "document.querySelector('#next-event').click()").await);
        }
        println!(
            "median of {OPENS} opens: {:.0} ms from navigation to drawn",
            median(open_ms)
        );
        println!(
            "  of which the server and transfer {:.0} ms, the page's parse, replay and drawing until the frame is shown {:.0} ms",
            median(server_ms),
            median(page_ms)
        );
        println!("median of {RUNS} draws of one tick (seek): {:.1} ms", median(seek_ms));
        println!("median of {RUNS} steps of one tick: {:.1} ms", median(step_ms));
        println!("median of {RUNS} steps of one event: {:.1} ms", median(event_ms));
    });
}

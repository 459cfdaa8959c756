//! A big generated tree and its trace, for the page's benchmark and the
//! tests of drawing a tree too big to show whole.

use std::sync::Arc;

use behaved::prelude::*;
use behaved_interp::{Agent, Definition, Registry};
use behaved_observe::{Trace, TraceRecorder};
use serde_json::Value;

/// The context of the generated tree: the tick number, which the leaves hash.
pub struct Sim {
    tick: u32,
}

/// A leaf whose status is a hash of its id and the tick (changing every few ticks).
#[derive(Clone)]
pub struct Work(u32);

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

/// A tree of `nodes` nodes, loaded by behaved-interp.
pub fn big_tree(nodes: usize) -> Arc<Definition<Sim>> {
    let mut json = String::new();
    tree_json(0, 7, &mut nodes.clone(), &mut 0, &mut json);
    let mut leaves = Registry::new();
    leaves.try_action("work", |p: Value| {
        let id = p["id"].as_u64().and_then(|id| u32::try_from(id).ok());
        id.map(Work).ok_or("`id` must be a u32")
    });
    let def = leaves.load(&json).expect("the generated tree loads");
    assert_eq!(def.len(), nodes);
    def
}

/// Ticks a tree of `nodes` nodes until it reported `events` events (the last tick is kept whole).
pub fn big_trace(nodes: usize, events: usize) -> Trace {
    let def = big_tree(nodes);
    let mut agent = Agent::new(Arc::clone(&def));
    let mut recorder = TraceRecorder::new(def.nodes(), 10 * events).unwrap();
    let mut sim = Sim { tick: 0 };
    while recorder.events().len() < events {
        sim.tick += 1;
        let now = f64::from(sim.tick) / 60.0;
        agent.tick_observed(&mut sim, now, &mut recorder);
        recorder
            .record_context(&serde_json::json!({ "tick": sim.tick, "phase": sim.tick / 4 }))
            .unwrap();
    }
    recorder.trace()
}

/// A tree of 40 nodes wide across levels (a sequence over three selectors,
/// each over three sequences of three `work` leaves), ticked until
/// `ticks` ticks are recorded and its root is left running, so the last tick
/// has a running path.
pub fn wide_trace(ticks: u32) -> Trace {
    let leaf = |id: &mut u32| {
        *id += 1;
        format!(r#"{{"type":"action","action":{{"type":"work","id":{id}}}}}"#)
    };
    let mut id = 0;
    let mut groups = Vec::new();
    for _ in 0..3 {
        let mut seqs = Vec::new();
        for _ in 0..3 {
            let leaves: Vec<String> = (0..3).map(|_| leaf(&mut id)).collect();
            seqs.push(format!(r#"{{"type":"sequence","children":[{}]}}"#, leaves.join(",")));
        }
        groups.push(format!(
            r#"{{"type":"reactiveSelector","children":[{}]}}"#,
            seqs.join(",")
        ));
    }
    let json = format!(r#"{{"type":"sequence","children":[{}]}}"#, groups.join(","));
    let mut leaves = Registry::new();
    leaves.try_action("work", |p: Value| {
        let id = p["id"].as_u64().and_then(|id| u32::try_from(id).ok());
        id.map(Work).ok_or("`id` must be a u32")
    });
    let def = leaves.load(&json).expect("the wide tree loads");
    assert_eq!(def.len(), 40);
    let mut agent = Agent::new(Arc::clone(&def));
    let mut recorder = TraceRecorder::new(def.nodes(), 100_000).unwrap();
    let mut sim = Sim { tick: 0 };
    while sim.tick < ticks || !agent.is_running() {
        sim.tick += 1;
        let now = f64::from(sim.tick) / 20.0;
        agent.tick_observed(&mut sim, now, &mut recorder);
    }
    recorder.trace()
}

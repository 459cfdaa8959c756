//! Random trees over every node kind (including those `behave!` does not
//! compile yet), run by the interpreter only: every run must load, be
//! deterministic, and keep the lifecycle rules of `SEMANTICS.md` (entering, halting) in its
//! observer trace (enter only when idle, halt only what runs, post-order
//! halts, nothing left running after completion or reset), and tick no more
//! leaves in a step than the loader's work figure. Set `DIFFTEST_DUMP`
//! to a folder to write the trees there.
#![allow(missing_docs)]

use std::collections::BTreeMap;

use behaved_interp::model::Node;
use behaved_interp::{Definition, Library};
use behaved_runtime::{NodeKind, Status};
use difftest::*;

/// Checks the lifecycle rules over a whole run; `Err` names the first violation.
fn check_lifecycle(def: &Definition<Ctx>, steps: &[Step]) -> Result<(), String> {
    let parent: Vec<Option<u32>> = def.nodes().iter().map(|r| r.parent.map(|p| p.0)).collect();
    let is_below = |mut n: u32, ancestor: u32| {
        while let Some(p) = parent[n as usize] {
            if p == ancestor {
                return true;
            }
            n = p;
        }
        false
    };
    // Active nodes: entered and not yet completed or halted.
    let mut active: BTreeMap<u32, ()> = BTreeMap::new();
    // Each child's parts reported so far before its score: numbered from 0, in order.
    let mut parts: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    for (i, step) in steps.iter().enumerate() {
        for e in &step.events {
            match *e {
                Event::Enter(n) => {
                    if active.insert(n, ()).is_some() {
                        return Err(format!("step {i}: node {n} entered while active"));
                    }
                }
                Event::Tick(n, s) => {
                    if !active.contains_key(&n) {
                        return Err(format!("step {i}: node {n} ticked without entering"));
                    }
                    if s != Status::Running {
                        active.remove(&n);
                    }
                }
                Event::Halt(n) => {
                    if active.remove(&n).is_none() {
                        return Err(format!("step {i}: node {n} halted while idle"));
                    }
                    if let Some(d) = active.keys().find(|&&d| is_below(d, n)) {
                        return Err(format!("step {i}: node {n} halted before its descendant {d}"));
                    }
                }
                Event::Finish(s) => {
                    if s.is_done() && !active.is_empty() {
                        return Err(format!("step {i}: the root completed with {active:?} still active"));
                    }
                    if let Some(orphan) = active
                        .keys()
                        .find(|&&n| parent[n as usize].is_some_and(|p| !active.contains_key(&p)))
                    {
                        return Err(format!("step {i}: node {orphan} is active under an idle parent"));
                    }
                }
                Event::Score(n, c, _) => {
                    if !active.contains_key(&n) {
                        return Err(format!("step {i}: node {n} scored its children while idle"));
                    }
                    parts.remove(&(n, c));
                }
                Event::Consider(n, c, part, _) => {
                    if !active.contains_key(&n) {
                        return Err(format!("step {i}: node {n} considered a score while idle"));
                    }
                    let next = parts.entry((n, c)).or_insert(0);
                    if part != *next {
                        return Err(format!(
                            "step {i}: node {n} child {c}: part {part}, expected part {next}"
                        ));
                    }
                    *next += 1;
                }
                Event::Start(_) => {}
            }
        }
        if step.status.is_none() && !active.is_empty() {
            return Err(format!("step {i}: reset left {active:?} active"));
        }
    }
    Ok(())
}

/// Checks that no step ticks more leaves than the loader's work figure.
fn check_work(def: &Definition<Ctx>, steps: &[Step]) -> Result<(), String> {
    // A subtree node is a leaf in the catalogue, but has its body below it here.
    let is_leaf = |n: u32| {
        let kind = def.nodes()[n as usize].kind;
        kind.arity() == behaved_runtime::Arity::Leaf && kind != NodeKind::Subtree
    };
    for (i, step) in steps.iter().enumerate() {
        let leaves = step
            .events
            .iter()
            .filter(|e| matches!(e, Event::Tick(n, _) if is_leaf(*n)))
            .count() as u64;
        if leaves > def.tick_work() {
            return Err(format!(
                "step {i}: {leaves} leaf ticks, above the figure {}",
                def.tick_work()
            ));
        }
    }
    Ok(())
}

#[test]
fn every_node_kind_keeps_the_lifecycle_rules() {
    let registry = registry();
    let mut seen = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    for i in 0..300 {
        let g = treegen::generate(i, 0xF00D + i as u64 * 104_729, treegen::ALL_KINDS, true);
        if let Ok(dir) = std::env::var("DIFFTEST_DUMP") {
            std::fs::write(format!("{dir}/tree{i}.json"), &g.json).unwrap();
            std::fs::write(format!("{dir}/library{i}.json"), &g.library).unwrap();
        }
        // The model round-trips: parse, write back, parse again.
        let node = Node::parse(&g.json).unwrap();
        assert_eq!(Node::from_json(&node.to_json()).unwrap(), node, "tree {i} round-trips");
        let via_serde: Node = serde_json::from_str(&g.json).unwrap();
        assert_eq!(via_serde, node);
        let library = Library::from_json(&g.library).unwrap_or_else(|e| panic!("{e}\n{}", g.library));
        assert_eq!(Library::from_json(&library.to_json().to_string()).unwrap(), library);
        let def = registry
            .load_with(&g.json, &library)
            .unwrap_or_else(|e| panic!("tree {i} does not load: {e}\n{}\n{}", g.json, g.library));
        seen.extend(def.nodes().iter().map(|r| r.kind));
        let first = run_interpreted(&def, g.seed);
        assert_eq!(first, run_interpreted(&def, g.seed), "tree {i} is not deterministic");
        if let Err(e) = check_work(&def, &first) {
            failures.push(format!("tree {i}: {e}\n  json: {}\n  library: {}", g.json, g.library));
        }
        if let Err(e) = check_lifecycle(&def, &first) {
            failures.push(format!("tree {i}: {e}\n  json: {}\n  library: {}", g.json, g.library));
        }
    }
    assert!(
        failures.is_empty(),
        "{} trees break the rules; first:\n{}",
        failures.len(),
        failures[0]
    );
    let missing = treegen::kinds_missing(treegen::ALL_KINDS, &seen);
    assert!(missing.is_empty(), "kinds never generated: {missing:?}");
}

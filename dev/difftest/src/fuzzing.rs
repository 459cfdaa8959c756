//! What the fuzz targets in `fuzz/` check, as plain functions, so that
//! `tests/fuzz_seeds.rs` replays the checked-in seeds on stable with an
//! ordinary `cargo test`. Each takes arbitrary bytes and panics only when the
//! library breaks a promise: a panic inside the library, an error without a
//! problem, a loaded tree above its work bound or a tick above its figure, a
//! saved agent that does not resume exactly where it was, or an accepted
//! saved state that the agent cannot run from.

use std::sync::{Arc, LazyLock};

use behaved_interp::model::Node;
use behaved_interp::{Agent, Definition, Library, LoadError, Registry};
use behaved_runtime::{Arity, NodeKind, Status};

use crate::{Ctx, Event, Recorder, registry};

/// The work bound the fuzz targets load with: small, so that a fuzzed
/// repeater cannot make one input take seconds.
pub const FUZZ_MAX_TICK_WORK: u64 = 4096;

/// The most nodes a fuzzed tree may have once its subtrees are inlined:
/// each costs about 210 bytes (FORMAT.md), so that a small input stays
/// within [`FUZZ_MAX_PEAK`] whatever it inlines to.
pub const FUZZ_MAX_NODES: usize = 1 << 16;

/// The largest input the load's bounds are promised for.
pub const FUZZ_MAX_INPUT: usize = 64 << 10;

/// The most heap one load of an input under [`FUZZ_MAX_INPUT`] may hold at
/// once.
pub const FUZZ_MAX_PEAK: usize = 64 << 20;

/// The most allocations one load of an input under [`FUZZ_MAX_INPUT`] may
/// make: its work, counted (a fuzz target times it too; a test must not).
pub const FUZZ_MAX_ALLOCATIONS: usize = 1_000_000;

/// Ticks run before an agent is saved, and after it is loaded again.
const TICKS: usize = 12;

/// The tree the saved-state target loads states into: every kind that keeps
/// state (resume points, counters, choices, orders, timestamps, parallels,
/// a `forEach`'s items).
pub const STATE_TREE: &str = r#"{"type": "sequence", "children": [
  {"type": "parallel", "success": 2, "children": [
    {"type": "repeater", "count": 3, "child": {"type": "action", "action": {"type": "scripted", "id": 1, "pattern": "RS"}}},
    {"type": "shuffle", "children": [
      {"type": "action", "action": {"type": "scripted", "id": 2, "pattern": "RF"}},
      {"type": "wait", "seconds": 0.5}
    ]},
    {"type": "weighted", "weights": [2, 1], "children": [
      {"type": "timeout", "seconds": 1, "child": {"type": "action", "action": {"type": "scripted", "id": 3, "pattern": "RRS"}}},
      {"type": "cooldown", "seconds": 1, "child": {"type": "action", "action": {"type": "scripted", "id": 4, "pattern": "RS"}}}
    ]},
    {"type": "forEach", "items": {"type": "list", "id": 14, "level": 0}, "max": 3, "child": {"type": "sequence", "children": [
      {"type": "action", "action": {"type": "scripted", "id": 13, "pattern": "RRS"}},
      {"type": "action", "action": {"type": "useItem", "id": 12, "level": 0}}
    ]}}
  ]},
  {"type": "reactiveSelector", "children": [
    {"type": "condition", "condition": {"type": "check", "id": 5, "pattern": "TFF"}},
    {"type": "if", "branches": [{"if": {"type": "condition", "condition": {"type": "inlineCheck", "id": 6}},
                                 "then": {"type": "limit", "count": 2, "child": {"type": "action", "action": {"type": "scripted", "id": 7, "pattern": "RF"}}}}],
     "else": {"type": "delay", "seconds": 0.25, "child": {"type": "runOnce", "child": {"type": "action", "action": {"type": "scripted", "id": 8, "pattern": "RS"}}}}},
    {"type": "loop", "child": {"type": "match", "value": "phase", "cases": [{"when": 0, "child": {"type": "action", "action": {"type": "scripted", "id": 9, "pattern": "SRF"}}}],
                               "default": {"type": "retry", "count": 2, "child": {"type": "action", "action": {"type": "inlineAct", "id": 10}}}}}
  ]}
]}"#;

/// The time of tick `i`: steps of 0, 0.25, 0.5 and 1 second in turn.
fn time(i: usize) -> f64 {
    (0..i).map(|k| [0.25, 0.0, 1.0, 0.5][k % 4]).sum()
}

/// One tick, with what it did.
fn step(agent: &mut Agent<Ctx>, ctx: &mut Ctx, i: usize) -> (Status, Vec<Event>, Vec<String>) {
    ctx.tick = i as u64;
    ctx.now = time(i);
    let mut rec = Recorder::default();
    let status = agent.tick_observed(ctx, ctx.now, &mut rec);
    if let Err(e) = agent.check_state() {
        panic!("tick {i} left an impossible state: {e}");
    }
    (status, rec.0, std::mem::take(&mut ctx.log))
}

/// A load error must say something, at a path, every time.
fn check_error(e: &LoadError) {
    assert!(!e.problems().is_empty(), "an error without a problem");
    assert!(e.problems().iter().all(|p| !p.message.is_empty()), "{e}");
    assert!(!e.to_string().is_empty());
}

/// The registry of the generated trees, with the fuzzing work and size bounds.
fn fuzz_registry() -> Registry<Ctx> {
    let mut r = registry();
    r.max_tick_work(FUZZ_MAX_TICK_WORK).max_nodes(FUZZ_MAX_NODES);
    r
}

/// A tree and its optional library: `data` split at its first NUL byte.
fn tree_and_library(data: &[u8]) -> Option<(&str, &str)> {
    let text = std::str::from_utf8(data).ok()?;
    Some(text.split_once('\0').unwrap_or((text, "")))
}

/// Loads `data` as [`load_tick_save`] does (the library, then the tree),
/// and returns what the load cost on the heap; for an input under
/// [`FUZZ_MAX_INPUT`], panics past [`FUZZ_MAX_PEAK`] or
/// [`FUZZ_MAX_ALLOCATIONS`]. Measured only where
/// `behaved_testkit::Counting` is the global allocator (zero otherwise).
pub fn bounded_load(data: &[u8]) -> behaved_testkit::Usage {
    let cost = behaved_testkit::usage_during(|| {
        if let Some((tree, lib)) = tree_and_library(data) {
            let library = if lib.is_empty() {
                Ok(Library::new())
            } else {
                Library::from_json(lib)
            };
            drop(library.and_then(|l| fuzz_registry().load_with(tree, &l)));
        }
    });
    if data.len() < FUZZ_MAX_INPUT {
        assert!(
            cost.peak_bytes <= FUZZ_MAX_PEAK && cost.allocations <= FUZZ_MAX_ALLOCATIONS,
            "a {}-byte input cost {cost:?}",
            data.len()
        );
    }
    cost
}

/// The `load` target: `data` is a tree, optionally followed by a NUL byte
/// and a subtree library. Whatever loads must round-trip through the model,
/// tick within its work figure, and resume exactly after a save and load
/// in the middle of a run. Returns whether the tree loaded.
pub fn load_tick_save(data: &[u8]) -> bool {
    let Some((tree, lib)) = tree_and_library(data) else {
        return false;
    };
    let library = if lib.is_empty() {
        Library::new()
    } else {
        match Library::from_json(lib) {
            Ok(l) => l,
            Err(e) => {
                check_error(&e);
                return false;
            }
        }
    };
    let def = match fuzz_registry().load_with(tree, &library) {
        Ok(def) => def,
        Err(e) => {
            check_error(&e);
            return false;
        }
    };
    assert!(def.tick_work() <= FUZZ_MAX_TICK_WORK);
    let node = Node::parse(tree).expect("a tree that loads parses");
    assert_eq!(Node::from_json(&node.to_json()).expect("its JSON parses"), node);
    run_save_resume(&def);
    true
}

/// The `load_xml` target: `data` is a BehaviorTree.CPP v4 document. An
/// error names every problem at its XML line and column; a tree that loads
/// is written back as XML, which reads to the same trees, and runs as the
/// `load` target's trees do. Returns whether the tree loaded.
pub fn load_xml(data: &[u8]) -> bool {
    use behaved_format::xml::to_xml;
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    let def = match fuzz_registry().load_xml(text) {
        Ok(def) => def,
        Err(e) => {
            check_error(&e);
            assert!(
                e.problems().iter().all(|p| p.location.is_some()),
                "a problem without its line and column: {e}"
            );
            return false;
        }
    };
    assert!(def.tick_work() <= FUZZ_MAX_TICK_WORK);
    let trees = fuzz_registry().read_xml(text, None).expect("a tree that loads reads");
    let written = to_xml(trees.main_id(), trees.main(), trees.library()).expect("a read tree writes");
    let again = fuzz_registry().read_xml(&written, None).expect("a written tree reads");
    assert_eq!(again.main(), trees.main(), "{written}");
    assert_eq!(again.library(), trees.library(), "{written}");
    run_save_resume(&def);
    true
}

/// Runs `TICKS` ticks, saves, and checks that a loaded copy and the
/// original tick alike for `TICKS` more, each tick within the figure.
fn run_save_resume(def: &Arc<Definition<Ctx>>) {
    let is_leaf = |n: u32| {
        let kind = def.nodes()[n as usize].kind;
        kind.arity() == Arity::Leaf && kind != NodeKind::Subtree
    };
    let within = |events: &[Event]| {
        let leaves = events
            .iter()
            .filter(|e| matches!(e, Event::Tick(n, _) if is_leaf(*n)))
            .count();
        assert!(
            leaves as u64 <= def.tick_work(),
            "{leaves} leaf ticks, figure {}",
            def.tick_work()
        );
    };
    let mut agent = Agent::with_seed(def.clone(), 7);
    let mut ctx = Ctx::default();
    for i in 0..TICKS {
        within(&step(&mut agent, &mut ctx, i).1);
    }
    let saved = serde_json::to_string(&agent).expect("an agent saves");
    let mut copy = Agent::load(def.clone(), &mut serde_json::Deserializer::from_str(&saved))
        .unwrap_or_else(|e| panic!("a saved agent loads: {e}\n{saved}"));
    let mut copy_ctx = ctx.clone();
    for i in TICKS..2 * TICKS {
        let original = step(&mut agent, &mut ctx, i);
        within(&original.1);
        assert_eq!(step(&mut copy, &mut copy_ctx, i), original, "tick {i} after loading");
    }
}

/// The `agent_state` target: `data` is a saved agent of [`STATE_TREE`]. A
/// state that loads must be one the tree can run from; one that does not
/// gets an error. Returns whether it loaded.
pub fn saved_state(data: &[u8]) -> bool {
    let def = state_tree();
    let Ok(mut agent) = Agent::load(def, &mut serde_json::Deserializer::from_slice(data)) else {
        return false;
    };
    let mut ctx = Ctx::default();
    for i in 0..TICKS {
        step(&mut agent, &mut ctx, i);
    }
    true
}

/// [`STATE_TREE`], loaded once.
pub fn state_tree() -> Arc<Definition<Ctx>> {
    static TREE: LazyLock<Arc<Definition<Ctx>>> =
        LazyLock::new(|| registry().load(STATE_TREE).expect("the state tree loads"));
    TREE.clone()
}

/// Saved states of [`STATE_TREE`] after 0 to `n - 1` ticks: seeds for the
/// `agent_state` target.
pub fn saved_states(n: usize) -> Vec<String> {
    let mut agent = Agent::with_seed(state_tree(), 3);
    let mut ctx = Ctx::default();
    (0..n)
        .map(|i| {
            let saved = serde_json::to_string(&agent).expect("an agent saves");
            step(&mut agent, &mut ctx, i);
            saved
        })
        .collect()
}

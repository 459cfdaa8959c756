//! ADR-017's guard NPC, as data: the tree is read from `examples/trees/guard.json`
//! (or the file given as the first argument) at run time, evaluated on
//! interaction for several world states, and each choice is explained by the
//! nodes that ran. Edit the JSON and run again: no rebuild needed.
//!
//! ```text
//! cargo run --example guard_json [path/to/tree.json]
//! cargo run --example guard_json -- --manifest guard.leaves.json
//! ```
//!
//! With `--manifest FILE` it writes its registry's leaf manifest instead
//! (every condition and action with its parameters), which the studio's
//! editor reads: `cargo run -p behaved-studio -- edit examples/trees/guard.json --leaves FILE`.

use std::collections::BTreeMap;
use std::process::ExitCode;

use behaved::{NodeId, Observer, Run, Status};
use behaved_interp::{Agent, Definition};
// The world and the leaves `guard.json` names (with their registry), shared
// with the test that compiles the same file (`tests/json_trees.rs`).
use behaved_scenarios::guard_json::{World, registry};

/// Remembers the status each node returned in the last tick.
#[derive(Default)]
struct Why {
    status: BTreeMap<NodeId, Status>,
}

impl Observer for Why {
    fn tick_started(&mut self, _now: f64) {
        self.status.clear();
    }
    fn ticked(&mut self, node: NodeId, status: Status) {
        self.status.insert(node, status);
    }
}

/// The nodes that ran, indented as in the tree, with their statuses.
fn explain(def: &Definition<World>, why: &Why) {
    for row in def.nodes() {
        let Some(status) = why.status.get(&row.id) else {
            continue;
        };
        let depth = std::iter::successors(row.parent, |p| def.nodes()[p.0 as usize].parent).count();
        let mark = match status {
            Status::Success => "ok  ",
            Status::Failure => "no  ",
            Status::Running => "..  ",
        };
        let name = row.name.as_deref().map(|n| format!(" \"{n}\"")).unwrap_or_default();
        println!("      {}{mark}{}{name}", "  ".repeat(depth), row.label);
    }
}

/// The situations to ask the guard about, with a description each.
fn worlds() -> Vec<(&'static str, World)> {
    let quest = || {
        BTreeMap::from([(
            ("flying-home".to_string(), "build-resonance".to_string()),
            "active".to_string(),
        )])
    };
    let world = |time: &str, at: &str| World {
        time_of_day: time.into(),
        guard_at: at.into(),
        ..World::default()
    };
    vec![
        (
            "day, the flying-home quest is at build-resonance",
            World {
                quest_stages: quest(),
                ..world("day", "gate")
            },
        ),
        ("night, the guard is at the guardhouse", world("night", "guardhouse")),
        ("night, the guard is out at the gate", world("night", "gate")),
        (
            "day, the player carries a bribe purse",
            World {
                player_items: vec!["bribe-purse".into()],
                ..world("day", "gate")
            },
        ),
        ("day, nothing special", world("day", "gate")),
    ]
}

/// `--manifest FILE`: writes the registry's leaf manifest to `FILE`.
fn write_manifest(path: &str) -> ExitCode {
    match std::fs::write(path, registry().manifest().to_json_pretty() + "\n") {
        Ok(()) => {
            println!("wrote the manifest of the guard's leaves to {path}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cannot write {path}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the guard in each world, or writes the manifest.
pub fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--manifest") {
        return match args.get(1) {
            Some(path) => write_manifest(path),
            None => {
                eprintln!("usage: guard_json --manifest FILE");
                ExitCode::FAILURE
            }
        };
    }
    let path = args
        .first()
        .cloned()
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/examples/trees/guard.json").to_string());
    let json = match std::fs::read_to_string(&path) {
        Ok(json) => json,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let def = match registry().load(&json) {
        Ok(def) => def,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "Loaded {path}: {} nodes, {} bytes of running state per guard.\n",
        def.len(),
        def.state_bytes()
    );
    // One definition, one agent per interaction here; a town would share `def` among all its guards.
    for (description, mut world) in worlds() {
        let start = world.guard_at.clone();
        let mut guard = Agent::new(def.clone());
        let mut why = Why::default();
        // On interaction: run to completion within one call (ADR-017), bounded.
        let mut run = Run::TickLimit;
        for _ in 0..10 {
            let status = guard.tick_observed(&mut world, 0.0, &mut why);
            if status.is_done() {
                run = Run::Completed(status);
                break;
            }
        }
        println!("World: {description}");
        let walked = (world.guard_at != start).then_some(&world.guard_at);
        match (world.said.first(), walked) {
            (Some(d), _) => println!("  -> dialogue {d:?}"),
            (None, Some(to)) => {
                println!("  -> no dialogue: the guard walked to {to:?} (the NPC's default dialogue plays)")
            }
            (None, None) => println!("  -> nothing chosen ({run:?}): the NPC's default dialogue plays"),
        }
        println!("     because:");
        explain(&def, &why);
        println!();
    }
    ExitCode::SUCCESS
}

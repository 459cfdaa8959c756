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
//! editor reads: `cargo run -p bt-studio -- edit examples/trees/guard.json --leaves FILE`.

use std::collections::BTreeMap;
use std::process::ExitCode;

use bt::{Action, Condition, NodeId, Observer, Run, Status};
use bt_interp::{Agent, Definition, Registry};
use serde::Deserialize;

/// The world as the guard sees it (ADR-018's world state, reduced to what this tree asks).
#[derive(Default)]
pub struct World {
    description: &'static str,
    /// Active quest stages: (quest, stage) -> state.
    quest_stages: BTreeMap<(String, String), String>,
    time_of_day: &'static str,
    guard_at: &'static str,
    player_items: Vec<&'static str>,
    /// What the tree chose: the dialogue to start, or where the guard walks.
    dialogue: Option<String>,
    walking_to: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct QuestStage {
    quest_id: String,
    stage_id: String,
    state: String,
}

impl Condition<World> for QuestStage {
    fn check(&self, w: &World) -> bool {
        w.quest_stages.get(&(self.quest_id.clone(), self.stage_id.clone())) == Some(&self.state)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TimeOfDay {
    value: String,
}

impl Condition<World> for TimeOfDay {
    fn check(&self, w: &World) -> bool {
        w.time_of_day == self.value
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AtLocation {
    location_id: String,
}

impl Condition<World> for AtLocation {
    fn check(&self, w: &World) -> bool {
        w.guard_at == self.location_id
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct HasItem {
    item_id: String,
}

impl Condition<World> for HasItem {
    fn check(&self, w: &World) -> bool {
        w.player_items.contains(&self.item_id.as_str())
    }
}

/// ADR-017 `{ type: 'dialogue'; dialogueId }`: on interaction, the chosen dialogue.
#[derive(Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Dialogue {
    dialogue_id: String,
}

impl Action<World> for Dialogue {
    fn tick(&mut self, w: &mut World) -> Status {
        w.dialogue = Some(self.dialogue_id.clone());
        Status::Success
    }
}

/// ADR-017 `{ type: 'moveTo'; target }`: on interaction, the guard sets off.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveTo {
    target: String,
}

impl Action<World> for MoveTo {
    fn tick(&mut self, w: &mut World) -> Status {
        w.walking_to = Some(self.target.clone());
        Status::Success
    }
}

/// The guard's leaves: four conditions and two actions.
pub fn registry() -> Registry<World> {
    let mut r = Registry::new();
    r.condition("questStage", |c: QuestStage| c)
        .condition("timeOfDay", |c: TimeOfDay| c)
        .condition("atLocation", |c: AtLocation| c)
        .condition("hasItem", |c: HasItem| c)
        .action("dialogue", |a: Dialogue| a)
        .action("moveTo", |a: MoveTo| a);
    r
}

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

fn worlds() -> Vec<World> {
    let quest = || {
        BTreeMap::from([(
            ("flying-home".to_string(), "build-resonance".to_string()),
            "active".to_string(),
        )])
    };
    vec![
        World {
            description: "day, the flying-home quest is at build-resonance",
            quest_stages: quest(),
            time_of_day: "day",
            guard_at: "gate",
            ..World::default()
        },
        World {
            description: "night, the guard is at the guardhouse",
            time_of_day: "night",
            guard_at: "guardhouse",
            ..World::default()
        },
        World {
            description: "night, the guard is out at the gate",
            time_of_day: "night",
            guard_at: "gate",
            ..World::default()
        },
        World {
            description: "day, the player carries a bribe purse",
            time_of_day: "day",
            guard_at: "gate",
            player_items: vec!["bribe-purse"],
            ..World::default()
        },
        World {
            description: "day, nothing special",
            time_of_day: "day",
            guard_at: "gate",
            ..World::default()
        },
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
    for mut world in worlds() {
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
        println!("World: {}", world.description);
        match (&world.dialogue, &world.walking_to) {
            (Some(d), _) => println!("  -> dialogue {d:?}"),
            (None, Some(to)) => {
                println!("  -> no dialogue: the guard walks to {to:?} (the NPC's default dialogue plays)")
            }
            (None, None) => println!("  -> nothing chosen ({run:?}): the NPC's default dialogue plays"),
        }
        println!("     because:");
        explain(&def, &why);
        println!();
    }
    ExitCode::SUCCESS
}

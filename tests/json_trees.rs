//! Trees compiled from JSON files: `behave!` reads ADR-017's guard tree from
//! `examples/trees/guard.json` (the file the interpreter loads), and both forms
//! agree node for node, event for event; DSL trees export the same format.
use std::collections::BTreeMap;

use bt::prelude::*;
use bt_interp::{Agent, Registry};
use bt_testkit::script::IdEvents;
use serde::Deserialize;

/// The guard's world (as in examples/guard_json.rs).
#[derive(Default, Clone)]
struct World {
    quest_stages: BTreeMap<(String, String), String>,
    time_of_day: String,
    guard_at: String,
    player_items: Vec<String>,
    said: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
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
struct TimeOfDay {
    value: String,
}
impl Condition<World> for TimeOfDay {
    fn check(&self, w: &World) -> bool {
        w.time_of_day == self.value
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AtLocation {
    location_id: String,
}
impl Condition<World> for AtLocation {
    fn check(&self, w: &World) -> bool {
        w.guard_at == self.location_id
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct HasItem {
    item_id: String,
}
impl Condition<World> for HasItem {
    fn check(&self, w: &World) -> bool {
        w.player_items.contains(&self.item_id)
    }
}

#[derive(Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Dialogue {
    dialogue_id: String,
}
impl Action<World> for Dialogue {
    fn tick(&mut self, w: &mut World) -> Status {
        w.said.push(self.dialogue_id.clone());
        Status::Success
    }
}

/// Walks for two ticks, then arrives.
#[derive(Clone, Deserialize)]
struct MoveTo {
    target: String,
}
impl Action<World> for MoveTo {
    fn tick(&mut self, w: &mut World) -> Status {
        w.said.push(format!("walking to {}", self.target));
        if w.said.len().is_multiple_of(3) {
            w.guard_at = self.target.clone();
            Status::Success
        } else {
            Status::Running
        }
    }
}

behave! {
    /// ADR-017's guard, compiled from the designers' JSON file.
    pub tree Guard for World = json("examples/trees/guard.json") {
        "questStage" => QuestStage,
        "timeOfDay" => TimeOfDay,
        "atLocation" => AtLocation,
        "hasItem" => HasItem,
        "dialogue" => Dialogue,
        "moveTo" => MoveTo,
    }
}

fn registry() -> Registry<World> {
    let mut r = Registry::new();
    r.condition("questStage", |c: QuestStage| c)
        .condition("timeOfDay", |c: TimeOfDay| c)
        .condition("atLocation", |c: AtLocation| c)
        .condition("hasItem", |c: HasItem| c)
        .action("dialogue", |a: Dialogue| a)
        .action("moveTo", |a: MoveTo| a);
    r
}

/// The world on tick `t`: time of day, quest and bribe change over time.
fn world_at(t: u32, w: &mut World) {
    w.time_of_day = if t % 10 < 6 { "day".into() } else { "night".into() };
    if t % 13 == 5 {
        w.guard_at = "gate".into();
    }
    w.player_items = if t % 7 == 3 {
        vec!["bribe-purse".into()]
    } else {
        Vec::new()
    };
    let stage = if t % 17 > 12 { "active" } else { "done" };
    w.quest_stages
        .insert(("flying-home".into(), "build-resonance".into()), stage.into());
}

#[test]
fn compiled_and_interpreted_guard_agree_node_for_node_and_event_for_event() {
    let definition = registry().load(include_str!("../examples/trees/guard.json")).unwrap();
    let rows: Vec<(u32, Option<u32>, String)> = definition
        .nodes()
        .iter()
        .map(|n| (n.id.0, n.parent.map(|p| p.0), n.label.clone()))
        .collect();
    let compiled: Vec<(u32, Option<u32>, String)> = Guard::NODES
        .iter()
        .map(|n| (n.id.0, n.parent.map(|p| p.0), n.label.to_string()))
        .collect();
    assert_eq!(compiled, rows, "same ids, parents and labels");

    let (mut tree, mut agent) = (Guard::new(), Agent::new(definition));
    let (mut a, mut b) = (
        World {
            guard_at: "gate".into(),
            ..World::default()
        },
        World::default(),
    );
    b.guard_at = "gate".into();
    let mut said = 0;
    for t in 0..200 {
        world_at(t, &mut a);
        world_at(t, &mut b);
        let (mut ea, mut eb) = (IdEvents::default(), IdEvents::default());
        let x = tree.tick_observed(&mut a, f64::from(t), &mut ea);
        let y = agent.tick_observed(&mut b, f64::from(t), &mut eb);
        assert_eq!(x, y, "status at tick {t}");
        assert_eq!(ea.0, eb.0, "events at tick {t}");
        assert_eq!(a.said, b.said, "dialogue at tick {t}");
        said = a.said.len();
    }
    assert!(said > 100, "the guard talked and walked");
}

#[test]
fn the_compiled_tree_runs_on_interaction() {
    let mut w = World {
        time_of_day: "night".into(),
        guard_at: "guardhouse".into(),
        ..World::default()
    };
    assert_eq!(Guard::new().run(&mut w, 10), Run::Completed(Status::Success));
    assert_eq!(w.said, ["guard-night"]);
}

behave! {
    tree Dsl for World {
        reactive selector {
            sequence { cond(HasItem { item_id: "bribe-purse".into() }), Dialogue { dialogue_id: "bribe".into() } },
            repeat(2) { act(|w| w.said.push("hm".into())) },
        }
    }
}

#[test]
fn dsl_trees_export_the_json_form() {
    let json: serde_json::Value = serde_json::from_str(Dsl::JSON).unwrap();
    assert_eq!(json["type"], "reactiveSelector");
    assert_eq!(
        json["children"][1],
        serde_json::json!({
            "type": "repeater",
            "count": 2,
            "child": {"type": "action", "action": {"type": "inline", "code": "|w| w.said.push(\"hm\".into())"}}
        })
    );
    assert_eq!(json["children"][0]["children"][0]["condition"]["type"], "HasItem");
    let guard: serde_json::Value = serde_json::from_str(Guard::JSON).unwrap();
    let file: serde_json::Value = serde_json::from_str(include_str!("../examples/trees/guard.json")).unwrap();
    assert_eq!(
        guard["children"].as_array().map(Vec::len),
        file["children"].as_array().map(Vec::len)
    );
}

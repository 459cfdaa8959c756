//! Trees compiled from JSON files: `behave!` reads ADR-017's guard tree from
//! `examples/trees/guard.json` (the file the interpreter loads), and both forms
//! agree node for node, event for event; DSL trees export the same format.
use behaved::prelude::*;
use behaved_interp::Agent;
use behaved_scenarios::guard_json::{
    AtLocation, Dialogue, HasItem, MoveTo, QuestStage, TimeOfDay, World, registry, world_at,
};
use behaved_testkit::script::IdEvents;

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
    let (mut said, mut walked) = (0, 0);
    for t in 0..200 {
        world_at(t, &mut a);
        world_at(t, &mut b);
        let (mut ea, mut eb) = (IdEvents::default(), IdEvents::default());
        let x = tree.tick_observed(&mut a, f64::from(t), &mut ea);
        let y = agent.tick_observed(&mut b, f64::from(t), &mut eb);
        assert_eq!(x, y, "status at tick {t}");
        assert_eq!(ea.0, eb.0, "events at tick {t}");
        assert_eq!(a, b, "the world after tick {t}");
        said = a.said.len();
        walked += usize::from(a.walking_to.is_some());
    }
    assert!(
        said > 50 && walked > 10,
        "the guard talked ({said}) and walked ({walked})"
    );
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

/// A consideration whose parameters are not the file's (`threshold`, where
/// the file gives `name`).
#[derive(serde::Deserialize)]
struct Level {
    threshold: f32,
}

impl Consideration<World> for Level {
    fn score(&self, _: &World) -> f32 {
        self.threshold
    }
}

behave! {
    tree WrongScore for World = json("tests/trees/score_params.json") { "level" => Level, "calm" => |_: &World| 0.5 }
}

/// A consideration with parameters is built with the tree, as a leaf is:
/// parameters that do not make it fail `new()`, naming the file, the JSON
/// path and the parameter, not the first tick that scores it.
#[test]
fn a_considerations_parameters_are_read_when_the_tree_is_built() {
    let Err(panic) = std::panic::catch_unwind(WrongScore::new) else {
        panic!("`name` made a `Level`");
    };
    let message = panic.downcast_ref::<String>().expect("a message");
    assert!(
        message.starts_with("tests/trees/score_params.json: scores[0].consider: ")
            && message.contains("unknown parameter `name` of leaf `level` (its parameters: `threshold`)"),
        "{message}"
    );
}

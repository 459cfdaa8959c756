//! `Registry::manifest`: each leaf's parameters as its `Deserialize` reads them.

use behaved_interp::{LeafDoc, ListDoc, Manifest, NoParams, Param, ParamType, Registry};
use behaved_runtime::{Action, Condition, Status};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Clone)]
struct Leaf;
impl Condition<()> for Leaf {
    fn check(&self, _: &()) -> bool {
        true
    }
}
impl Action<()> for Leaf {
    fn tick(&mut self, _: &mut ()) -> Status {
        Status::Success
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Gait {
    Walk,
    Run,
}

#[allow(dead_code)]
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct MoveParams {
    target_id: String,
    speed: f64,
    #[serde(default)]
    retries: u32,
    offset: Option<i32>,
    gait: Gait,
    waypoints: Vec<String>,
    loud: bool,
}

fn param(name: &str, ty: ParamType, required: bool) -> Param {
    Param {
        name: name.into(),
        ty,
        required,
        default: None,
        output: false,
    }
}

#[test]
fn parameters_with_their_types_and_whether_they_are_required() {
    let mut r = Registry::<()>::new();
    r.action("move", |_: MoveParams| Leaf)
        .condition("ready", |_: NoParams| Leaf)
        .condition("raw", |_: serde_json::Value| Leaf);
    let m = r.manifest();
    assert_eq!(
        m.actions["move"].params.as_deref(),
        Some(
            &[
                param("targetId", ParamType::String, true),
                param("speed", ParamType::Number, true),
                param("retries", ParamType::Integer { minimum: Some(0) }, false),
                param("offset", ParamType::Integer { minimum: None }, false),
                param(
                    "gait",
                    ParamType::Choice {
                        values: vec!["walk".into(), "run".into()]
                    },
                    true
                ),
                param(
                    "waypoints",
                    ParamType::List {
                        items: Box::new(ParamType::String)
                    },
                    true
                ),
                param("loud", ParamType::Boolean, true),
            ][..]
        )
    );
    assert_eq!(m.conditions["ready"], LeafDoc { params: Some(vec![]) });
    // A type that takes any JSON cannot be traced: its parameters are not described.
    assert_eq!(m.conditions["raw"], LeafDoc { params: None });
}

#[allow(dead_code)]
#[derive(Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
struct PatrolParams {
    route_id: String,
    #[serde(default = "half")]
    speed: f64,
    #[serde(default)]
    laps: u32,
    #[serde(default = "yes")]
    loud: bool,
    note: Option<String>,
}

fn half() -> f64 {
    0.5
}

fn yes() -> bool {
    true
}

#[test]
fn the_defaults_of_a_parameter_type_that_shows_them() {
    let mut r = Registry::<()>::new();
    r.action("patrol", |_: PatrolParams| Leaf)
        .condition("onPatrol", |_: PatrolParams| Leaf)
        .action("move", |_: MoveParams| Leaf)
        .show_defaults::<PatrolParams>();
    let m = r.manifest();
    let defaults = |doc: &LeafDoc| -> Vec<(String, bool, Option<serde_json::Value>)> {
        let params = doc.params.as_ref().unwrap();
        params
            .iter()
            .map(|p| (p.name.clone(), p.required, p.default.clone()))
            .collect()
    };
    let expected = vec![
        ("routeId".to_string(), true, None),
        ("speed".into(), false, Some(json!(0.5))),
        ("laps".into(), false, Some(json!(0))),
        ("loud".into(), false, Some(json!(true))),
        // `None` is no default worth showing.
        ("note".into(), false, None),
    ];
    // Every leaf with these parameters shows them, registered before or after.
    assert_eq!(defaults(&m.actions["patrol"]), expected);
    assert_eq!(defaults(&m.conditions["onPatrol"]), expected);
    // A type whose defaults are not shown has none (it need not be `Serialize`).
    assert!(defaults(&m.actions["move"]).iter().all(|(_, _, d)| d.is_none()));
    // They travel in the JSON form, and only where there is one.
    let text = m.to_json_pretty();
    let written: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        written["actions"]["patrol"]["params"][1],
        json!({"name": "speed", "type": "number", "required": false, "default": 0.5})
    );
    assert_eq!(text.matches("\"default\"").count(), 6, "{text}");
    assert_eq!(Manifest::from_json(&text), Ok(m));
}

#[test]
fn a_manifest_of_another_format_or_version_is_refused() {
    let mut m = Manifest::new().to_json_pretty();
    assert!(Manifest::from_json(&m).is_ok());
    m = m.replace("\"version\": 1", "\"version\": 2");
    assert_eq!(
        Manifest::from_json(&m),
        Err("leaf manifest version 2 is not supported (only 1)".into())
    );
    assert!(
        Manifest::from_json("{\"format\": \"bt-trace\"}")
            .unwrap_err()
            .starts_with("not a leaf manifest")
    );
}

struct Targets;
impl behaved_runtime::ItemList<()> for Targets {
    type Item = u32;
    fn items<'c>(&'c self, _: &'c ()) -> impl Iterator<Item = u32> + 'c {
        std::iter::empty()
    }
    fn select(&self, _: &mut (), _: &u32) {}
}

struct Waypoints;
impl behaved_runtime::ItemList<()> for Waypoints {
    type Item = serde_json::Value;
    fn items<'c>(&'c self, _: &'c ()) -> impl Iterator<Item = serde_json::Value> + 'c {
        std::iter::empty()
    }
    fn select(&self, _: &mut (), _: &serde_json::Value) {}
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RangeParams {
    #[allow(dead_code)]
    radius: f64,
}

#[test]
fn lists_with_their_parameters_and_item_types() {
    let mut r = Registry::<()>::new();
    r.list("targets", |_: NoParams| Targets)
        .list("inRange", |_: RangeParams| Targets)
        .list("waypoints", |_: NoParams| Waypoints)
        .action("move", |_: NoParams| Leaf);
    let m = r.manifest();
    assert_eq!(m.lists.keys().collect::<Vec<_>>(), ["inRange", "targets", "waypoints"]);
    assert_eq!(
        m.lists["targets"],
        ListDoc {
            params: Some(vec![]),
            item: Some(ParamType::Integer { minimum: Some(0) })
        }
    );
    assert_eq!(
        m.lists["inRange"].params,
        Some(vec![param("radius", ParamType::Number, true)])
    );
    // An item type that takes any JSON is not described.
    assert_eq!(m.lists["waypoints"].item, None);
    // Lists are no leaves of another family.
    assert!(!m.actions.contains_key("targets") && !m.values.contains_key("targets"));
    let text = m.to_json_pretty();
    let written: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        written["lists"]["targets"],
        json!({"params": [], "item": {"type": "integer", "minimum": 0}})
    );
    assert_eq!(Manifest::from_json(&text), Ok(m));
    // A manifest written before lists existed reads as one without any.
    let old = r#"{"format": "bt-leaves", "version": 1, "conditions": {}, "actions": {}, "values": {}}"#;
    assert_eq!(Manifest::from_json(old).map(|m| m.lists.len()), Ok(0));
}

/// A consideration's parameters: what it scores.
#[allow(dead_code)]
#[derive(Deserialize)]
struct DistanceParams {
    to: String,
    #[serde(default)]
    max: f64,
}

#[test]
fn considerations_with_their_parameters() {
    let mut r = Registry::<()>::new();
    r.consideration("distance", |_: DistanceParams| |_: &()| 0.5f32)
        .consideration("hunger", |_: NoParams| |_: &()| 0.25f32)
        .action("move", |_: NoParams| Leaf);
    let m = r.manifest();
    assert_eq!(m.considerations.keys().collect::<Vec<_>>(), ["distance", "hunger"]);
    assert_eq!(
        m.considerations["distance"],
        LeafDoc {
            params: Some(vec![
                param("to", ParamType::String, true),
                param("max", ParamType::Number, false)
            ])
        }
    );
    assert_eq!(m.considerations["hunger"], LeafDoc { params: Some(vec![]) });
    // Considerations are no leaves of another family, nor leaves of theirs.
    assert!(!m.actions.contains_key("hunger") && !m.conditions.contains_key("distance"));
    assert!(!m.considerations.contains_key("move"));
    let text = m.to_json_pretty();
    let written: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(written["considerations"]["hunger"], json!({"params": []}));
    assert_eq!(Manifest::from_json(&text), Ok(m));
    // A registry without considerations writes none (its manifest reads as before).
    let mut r = Registry::<()>::new();
    r.action("move", |_: NoParams| Leaf);
    let written: serde_json::Value = serde_json::from_str(&r.manifest().to_json_pretty()).unwrap();
    assert!(written.get("considerations").is_none(), "{written}");
    let old = r#"{"format": "bt-leaves", "version": 1, "conditions": {}, "actions": {}, "values": {}}"#;
    assert_eq!(Manifest::from_json(old).map(|m| m.considerations.len()), Ok(0));
}

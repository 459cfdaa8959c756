//! `Registry::manifest`: each leaf's parameters as its `Deserialize` reads them.

use bt_interp::{LeafDoc, Manifest, NoParams, Param, ParamType, Registry};
use bt_runtime::{Action, Condition, Status};
use serde::Deserialize;

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

//! The leaf manifest of the JSON guard's registry (the one the `guard_json`
//! example loads with): its six leaves, each with its parameters as the JSON
//! file writes them.

use behaved_interp::{Manifest, ParamType};
use behaved_scenarios::guard_json;

#[test]
fn the_guard_manifest_lists_its_six_leaves_with_their_parameters() {
    let manifest = guard_json::registry().manifest();
    let params = |family: &std::collections::BTreeMap<String, behaved_interp::LeafDoc>,
                  name: &str|
     -> Vec<(String, ParamType, bool, Option<serde_json::Value>)> {
        family[name]
            .params
            .as_ref()
            .unwrap_or_else(|| panic!("{name} has no parameters traced"))
            .iter()
            .map(|p| (p.name.clone(), p.ty.clone(), p.required, p.default.clone()))
            .collect()
    };
    // Every parameter of the guard's leaves is required: none has a default.
    let string = |name: &str| (name.to_string(), ParamType::String, true, None);
    let conditions: Vec<&str> = manifest.conditions.keys().map(String::as_str).collect();
    let actions: Vec<&str> = manifest.actions.keys().map(String::as_str).collect();
    assert_eq!(conditions, ["atLocation", "hasItem", "questStage", "timeOfDay"]);
    assert_eq!(actions, ["dialogue", "moveTo"]);
    assert!(manifest.values.is_empty());
    assert_eq!(
        params(&manifest.conditions, "questStage"),
        [string("questId"), string("stageId"), string("state")]
    );
    assert_eq!(params(&manifest.conditions, "timeOfDay"), [string("value")]);
    assert_eq!(params(&manifest.conditions, "atLocation"), [string("locationId")]);
    assert_eq!(params(&manifest.conditions, "hasItem"), [string("itemId")]);
    assert_eq!(params(&manifest.actions, "dialogue"), [string("dialogueId")]);
    assert_eq!(params(&manifest.actions, "moveTo"), [string("target")]);
    // The JSON form reads back as the same manifest.
    assert_eq!(Manifest::from_json(&manifest.to_json_pretty()), Ok(manifest));
}

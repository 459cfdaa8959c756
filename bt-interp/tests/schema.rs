//! The JSON Schema (`schema/bt-tree.schema.json`, written from the catalogue)
//! checked by a real validator (the `jsonschema` crate): every tree file in
//! the repository is valid under it, and malformed trees are not, for the
//! same reasons the loader refuses them.
use std::path::Path;

use serde_json::{Value, json};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn validator() -> jsonschema::Validator {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("bt-interp/schema/bt-tree.schema.json")).unwrap())
            .unwrap();
    jsonschema::validator_for(&schema).expect("the schema is a valid JSON Schema")
}

/// Why `tree` is not valid, one line per error (empty: valid).
fn errors(v: &jsonschema::Validator, tree: &Value) -> Vec<String> {
    v.iter_errors(tree)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// The repository's tree files, and the subtrees of its library files.
#[test]
fn every_tree_file_of_the_repository_is_valid() {
    let v = validator();
    let folders = [
        "examples/trees",
        "tests/trees",
        "tests/ui-json",
        "dev/bench-trees",
        "bt-format/tests/xml",
        "bt-interp/tests/xml",
        "bt-bevy/examples",
        ".ci/village/trees",
    ];
    let mut checked = 0;
    for folder in folders {
        for entry in std::fs::read_dir(root().join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let trees: Vec<&Value> = match doc.get("subtrees") {
                Some(Value::Object(subtrees)) => subtrees.values().collect(),
                _ => vec![&doc],
            };
            for tree in trees {
                let problems = errors(&v, tree);
                assert!(problems.is_empty(), "{}: {problems:#?}", path.display());
                checked += 1;
            }
        }
    }
    assert!(checked >= 19, "only {checked} trees found");
}

/// Trees the loader refuses for their shape are refused by the schema too.
#[test]
fn malformed_trees_are_invalid() {
    let v = validator();
    let act = json!({"type": "action", "action": "go"});
    let bad = [
        ("an unknown kind", json!({"type": "sequense", "children": [act]})),
        (
            "an unknown field",
            json!({"type": "sequence", "children": [act], "chlidren": []}),
        ),
        ("no children", json!({"type": "sequence", "children": []})),
        ("a decorator without its child", json!({"type": "inverter"})),
        ("a negative duration", json!({"type": "wait", "seconds": -1})),
        ("a zero count", json!({"type": "repeater", "count": 0, "child": act})),
        (
            "a policy and a threshold",
            json!({"type": "parallel", "policy": "requireAll", "success": 1, "children": [act]}),
        ),
        (
            "a curve's unknown parameter",
            json!({"type": "utility", "children": [act], "scores": [{"consider": "x", "curve": {"curve": "linear", "slpe": 1}}]}),
        ),
        (
            "an unknown curve",
            json!({"type": "utility", "children": [act], "scores": [{"consider": "x", "curve": {"curve": "sigmoid"}}]}),
        ),
        (
            "a hook that is a number",
            json!({"type": "sequence", "children": [act], "onEnter": 3}),
        ),
        (
            "a remap to a number",
            json!({"type": "subtree", "subtreeId": "idle", "remap": {"goal": 3}}),
        ),
    ];
    for (what, tree) in bad {
        assert!(!v.is_valid(&tree), "{what} is valid: {tree}");
        // The loader refuses it too (with no leaf registered, a shape
        // problem is reported before the unknown leaf).
        assert!(
            behaved_format::model::Node::from_json(&tree).is_err(),
            "{what} loads: {tree}"
        );
    }
    // What the schema allows beside the required fields.
    let good = [
        json!({"type": "subtree", "subtreeId": "idle", "remap": {"goal": "target"}}),
        json!({"type": "loop", "label": "outer", "child": {"type": "break", "label": "outer"}}),
        json!({"type": "utility", "every": 0.5, "margin": 0.1, "children": [act],
               "scores": [{"all": [{"consider": "x", "curve": {"curve": "piecewise", "points": [[0, 0], [1, 1]]}}], "weight": 2}]}),
    ];
    for tree in good {
        assert_eq!(errors(&v, &tree), Vec::<String>::new(), "{tree}");
    }
}

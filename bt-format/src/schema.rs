//! The JSON Schema of a tree file (`bt-interp/schema/bt-tree.schema.json`),
//! written from the catalogue: one definition per node kind with its
//! summary, its JSON fields ([`NodeKind::fields`]) and which of them it
//! requires, the hooks every node may have, and the response curves of
//! [`CURVES`]. The file is this function's output, so a new kind or field
//! is in the schema without editing it (`bt-interp/tests/format_docs.rs`
//! checks the file and regenerates it with `BEHAVED_REGENERATE=1`).

use behaved_runtime::NodeKind;
use behaved_runtime::utility::CURVES;
use serde_json::{Map, Value, json};

use crate::model::{Hooks, MAX_PARALLEL};

/// The fields a node may leave out; every other field of its kind is required.
const OPTIONAL: [&str; 10] = [
    "label", "else", "policy", "success", "failure", "choose", "best", "margin", "every", "remap",
];

/// The largest count, weight or `max` (a `u32`).
const U32_MAX: u64 = u32::MAX as u64;

/// The schema of a tree file: its root is a node.
pub fn tree_schema() -> Value {
    let mut defs = Map::new();
    defs.insert("node".into(), node_def());
    for &kind in NodeKind::ALL {
        defs.insert(kind.json_name().into(), kind_def(kind));
    }
    defs.insert("score".into(), score_def());
    defs.insert("curve".into(), curve_def());
    defs.insert("hook".into(), hook_def());
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "bt-tree.schema.json",
        "title": "behaved behavior tree (ADR-017 model, extended)",
        "description": "A tree for the behaved interpreter (behaved-interp). See bt-interp/FORMAT.md. \
            Leaf types are the names registered by the application. Generated from the node catalogue.",
        "$ref": "#/$defs/node",
        "$defs": defs,
    })
}

/// Any node: its `"type"` names its kind, whose definition applies.
fn node_def() -> Value {
    let names: Vec<&str> = NodeKind::ALL.iter().map(|k| k.json_name()).collect();
    let cases: Vec<Value> = names
        .iter()
        .map(|name| {
            json!({
                "if": {"properties": {"type": {"const": name}}},
                "then": {"$ref": format!("#/$defs/{name}")},
            })
        })
        .collect();
    json!({
        "description": "A behavior-tree node: an object whose \"type\" names its kind.",
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": names}},
        "allOf": cases,
    })
}

/// One kind's node: its fields, the common ones (`id`, `name`, hooks), and
/// no others.
fn kind_def(kind: NodeKind) -> Value {
    let mut properties = Map::new();
    properties.insert("type".into(), json!({"const": kind.json_name()}));
    properties.insert(
        "id".into(),
        json!({"type": "string", "minLength": 1, "description": "An editor's id, unique within the tree."}),
    );
    properties.insert(
        "name".into(),
        json!({"type": "string", "minLength": 1, "description": "A human-readable name for traces."}),
    );
    let mut required = vec!["type"];
    for &field in kind.fields() {
        properties.insert(field.into(), field_def(kind, field));
        if !OPTIONAL.contains(&field) {
            required.push(field);
        }
    }
    for (hook, when) in Hooks::FIELDS.iter().zip(HOOK_TIMES) {
        properties.insert(
            (*hook).into(),
            json!({"$ref": "#/$defs/hook", "description": format!("A registered action. {when}")}),
        );
    }
    let mut def = json!({
        "type": "object",
        "description": kind.summary(),
        "required": required,
        "properties": properties,
        "additionalProperties": false,
    });
    if kind == NodeKind::Parallel {
        // A policy, or thresholds: not both.
        def["oneOf"] = json!([
            {"required": ["policy"], "not": {"anyOf": [{"required": ["success"]}, {"required": ["failure"]}]}},
            {"not": {"required": ["policy"]}, "anyOf": [{"required": ["success"]}, {"required": ["failure"]}]},
        ]);
    }
    def
}

/// When each hook of [`Hooks::FIELDS`] runs.
const HOOK_TIMES: [&str; 7] = [
    "Ticked once when the node enters.",
    "Ticked once when the node succeeds.",
    "Ticked once when the node fails.",
    "Ticked once after success or failure, and when the node is halted.",
    "Ticked on every tick of the node, before its own work.",
    "Ticked on every tick of the node, after its own work.",
    "Ticked when the agent is reset, whatever the node's state; never during a tick.",
];

/// The schema of JSON field `field` of a `kind` node.
fn field_def(kind: NodeKind, field: &str) -> Value {
    let count = json!({"type": "integer", "minimum": 1, "maximum": U32_MAX});
    let with = |mut v: Value, description: &str| {
        v["description"] = description.into();
        v
    };
    match field {
        "children" if matches!(kind, NodeKind::Parallel | NodeKind::ParallelMain | NodeKind::Shuffle) => json!({
            "type": "array", "items": {"$ref": "#/$defs/node"}, "minItems": 1, "maxItems": MAX_PARALLEL,
            "description": format!("The children, in order; at most {MAX_PARALLEL} (the compiled form tracks them in {MAX_PARALLEL} bits)."),
        }),
        "children" => json!({
            "type": "array", "items": {"$ref": "#/$defs/node"}, "minItems": 1, "description": "The children, in order.",
        }),
        "child" => json!({"$ref": "#/$defs/node", "description": "The only child."}),
        // `while`, `abortIf`, `latch`: a condition node; `condition`, `waitUntil`: its leaf.
        "condition" if kind.arity() == behaved_runtime::Arity::Leaf => leaf_def(),
        "condition" => json!({"$ref": "#/$defs/condition", "description": "A condition node."}),
        "action" => leaf_def(),
        "policy" => json!({
            "enum": ["requireAll", "requireOne"],
            "description": "ADR-017: requireAll = success when all succeed, failure on the first failure; requireOne = the reverse.",
        }),
        "success" => with(count, "Successes needed (default: all children)."),
        "failure" => with(count, "Failures that fail the parallel (default: all children)."),
        "count" => count,
        "weights" => json!({
            "type": "array", "items": count, "minItems": 1, "description": "One positive integer weight per child.",
        }),
        "choose" => json!({
            "enum": ["best", "weighted", "reactive"],
            "description": "How it chooses: the highest score on entry (default), a draw in proportion to the scores on entry, or re-scored on every tick.",
        }),
        "best" => json!({
            "type": "integer", "minimum": 1,
            "description": "With \"choose\": \"weighted\": draw only among this many of the highest scores.",
        }),
        "margin" => json!({
            "type": "number", "minimum": 0,
            "description": "With \"choose\": \"reactive\" or \"every\": how much more another child must score to take over.",
        }),
        "every" => json!({
            "type": "number", "exclusiveMinimum": 0,
            "description": "Without \"choose\": re-score at most every this many seconds while the chosen child runs, switching as \"reactive\" does.",
        }),
        "scores" => json!({
            "type": "array", "items": {"$ref": "#/$defs/score"}, "minItems": 1, "description": "One score per child, in order.",
        }),
        "score" => {
            json!({"$ref": "#/$defs/score", "description": "The score of one candidate, as a `utility` child's."})
        }
        "items" if kind == NodeKind::Pick => {
            with(leaf_def(), "A registered list type (`Registry::list`): the candidates.")
        }
        "items" => with(leaf_def(), "A registered list type (`Registry::list`)."),
        "max" if kind == NodeKind::Pick => with(count, "The most candidates it holds (the rest are not read)."),
        "max" => with(count, "The most items the loop holds (the rest are not read)."),
        "branches" => json!({
            "type": "array", "minItems": 1,
            "items": {
                "type": "object", "required": ["if", "then"], "additionalProperties": false,
                "properties": {
                    "if": {"$ref": "#/$defs/condition", "description": "A condition node."},
                    "then": {"$ref": "#/$defs/node"},
                },
            },
        }),
        "else" | "default" => json!({"$ref": "#/$defs/node"}),
        "value" => with(leaf_def(), "A registered value type."),
        "cases" => {
            let key = json!({"type": ["string", "integer", "boolean"]});
            json!({
                "type": "array",
                "items": {
                    "type": "object", "required": ["when", "child"], "additionalProperties": false,
                    "properties": {
                        "when": {"oneOf": [key, {"type": "array", "items": key, "minItems": 1}]},
                        "child": {"$ref": "#/$defs/node"},
                    },
                },
            })
        }
        "label" if kind.is_loop() => json!({
            "type": "string", "minLength": 1, "description": "A label that `break`/`continue` can name.",
        }),
        "label" => json!({"type": "string", "minLength": 1, "description": "The label of the target loop."}),
        "seconds" => json!({"type": "number", "minimum": 0, "description": "A duration in seconds."}),
        "subtreeId" => json!({"type": "string", "description": "The id of a subtree in the library."}),
        "remap" => json!({
            "type": "object", "additionalProperties": {"type": "string", "minLength": 1},
            "description": "The subtree's blackboard keys that stand for other keys here: its key to this tree's.",
        }),
        other => unreachable!("the catalogue's field {other:?} has no schema: add it here"),
    }
}

/// A registered leaf (condition, action, list, value): by name, or with
/// its parameters.
fn leaf_def() -> Value {
    json!({"oneOf": [
        {"type": "string", "minLength": 1, "description": "A registered leaf type without parameters."},
        {
            "type": "object", "required": ["type"], "additionalProperties": true,
            "properties": {"type": {"type": "string", "minLength": 1, "description": "A registered leaf type."}},
            "description": "A registered leaf type and its parameters.",
        },
    ]})
}

/// A lifecycle hook.
fn hook_def() -> Value {
    let mut hook = leaf_def();
    hook["description"] =
        "A lifecycle hook: a registered action, by name or with its parameters; its status is ignored.".into();
    hook
}

/// A `utility` child's score, or a `pick` candidate's.
fn score_def() -> Value {
    json!({
        "type": "object",
        "description": "A score: a registered consideration (through an optional response curve), or the compensated product of scores; times an optional weight.",
        "properties": {
            "consider": {"description": "A registered consideration: {\"type\": name, ..parameters} or its name."},
            "curve": {"$ref": "#/$defs/curve"},
            "all": {"type": "array", "items": {"$ref": "#/$defs/score"}, "minItems": 1},
            "weight": {"type": "number", "minimum": 0},
        },
        "oneOf": [{"required": ["consider"]}, {"required": ["all"]}],
        "additionalProperties": false,
    })
}

/// A response curve: its kind and the parameters of every kind
/// ([`CURVES`]).
fn curve_def() -> Value {
    let mut properties = Map::new();
    let kinds: Vec<&str> = CURVES.iter().map(|(name, _)| *name).collect();
    properties.insert("curve".into(), json!({"enum": kinds}));
    for &(_, parameters) in &CURVES {
        for &p in parameters {
            let def = match p {
                "exponent" => json!({"type": "number", "exclusiveMinimum": 0}),
                "steepness" => json!({"type": "number", "not": {"const": 0}}),
                "points" => json!({
                    "type": "array", "minItems": 1,
                    "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "number"}},
                }),
                _ => json!({"type": "number"}),
            };
            properties.insert(p.into(), def);
        }
    }
    json!({
        "type": "object",
        "description": "A response curve, clamped to 0..1.",
        "required": ["curve"],
        "properties": properties,
        "additionalProperties": false,
    })
}

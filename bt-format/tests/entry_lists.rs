//! The lists of two-field objects in a node (an `if`'s `"branches"`, a
//! `match`'s `"cases"`) and a node's registered leaf (`"value"`, `"items"`,
//! `"action"`, `"condition"`): a missing, mistyped or empty list, each wrong
//! entry and a missing or mistyped leaf are refused at their place, in
//! document order.

mod support;

use support::{A, refusal};

const C: &str = r#"{"type": "condition", "condition": {"type": "c"}}"#;

#[test]
fn missing_mistyped_empty_and_wrong_entries_are_refused_at_their_place() {
    // (the node, the JSON loader's messages in order)
    let table: Vec<(String, Vec<&str>)> = vec![
        (
            r#"{"type": "if"}"#.into(),
            vec![r#"at ``: "if" needs "branches": an array of {"if": <condition node>, "then": <node>}"#],
        ),
        (
            r#"{"type": "if", "branches": []}"#.into(),
            vec![r#"at `branches`: "if" needs at least one branch, found an empty array"#],
        ),
        (
            r#"{"type": "if", "branches": 3}"#.into(),
            vec![r#"at `branches`: expected an array of branches, found the number 3"#],
        ),
        (
            format!(r#"{{"type": "if", "branches": [7, {{"if": {C}, "then": {A}, "when": 1}}, {{"if": {C}}}]}}"#),
            vec![
                r#"at `branches[0]`: expected a branch {"if": <condition node>, "then": <node>}, found the number 7"#,
                r#"at `branches[1].when`: unknown field "when" in a branch; its fields are "if" and "then""#,
                r#"at `branches[2]`: a branch needs "then": the node run when "if" holds"#,
            ],
        ),
        (
            format!(r#"{{"type": "match", "value": "v", "default": {A}}}"#),
            vec![r#"at ``: "match" needs "cases": an array of {"when": <key or keys>, "child": <node>}"#],
        ),
        (
            format!(r#"{{"type": "match", "value": "v", "cases": {{}}, "default": {A}}}"#),
            vec![r#"at `cases`: expected an array of cases, found an object"#],
        ),
        (
            format!(r#"{{"type": "match", "value": "v", "cases": [], "default": {A}}}"#),
            vec![],
        ),
        (
            format!(
                r#"{{"type": "match", "value": "v", "cases": [null, {{"when": 1, "child": {A}, "then": {A}}}, {{"when": 2}}], "default": {A}}}"#
            ),
            vec![
                r#"at `cases[0]`: expected a case {"when": <key or keys>, "child": <node>}, found null"#,
                r#"at `cases[1].then`: unknown field "then" in a case; its fields are "when" and "child""#,
                r#"at `cases[2]`: a case needs "child": the node run when it matches"#,
            ],
        ),
        (
            format!(r#"{{"type": "match", "cases": [], "default": {A}}}"#),
            vec![r#"at ``: "match" needs "value": the registered value it matches on"#],
        ),
        (
            format!(r#"{{"type": "forEach", "max": 3, "child": {A}}}"#),
            vec![r#"at ``: "forEach" needs "items": the registered list whose items it runs its child for"#],
        ),
        (
            format!(r#"{{"type": "forEach", "items": 5, "max": 3, "child": {A}}}"#),
            vec![
                r#"at `items`: expected a list: {"type": <registered name>, ..parameters} or a name, found the number 5"#,
            ],
        ),
        (
            r#"{"type": "action"}"#.into(),
            vec![r#"at ``: "action" needs "action": {"type": <a registered action type>, ..parameters}"#],
        ),
        (
            r#"{"type": "waitUntil"}"#.into(),
            vec![r#"at ``: "waitUntil" needs "condition": {"type": <a registered condition type>, ..parameters}"#],
        ),
        (
            r#"{"type": "condition", "condition": []}"#.into(),
            vec![
                r#"at `condition`: expected a condition: {"type": <registered name>, ..parameters} or a name, found an array"#,
            ],
        ),
    ];
    for (json, expected) in &table {
        assert_eq!(refusal(json), *expected, "{json}");
    }
}

//! A load error gives the line and column of each problem's path in the
//! file, beside the path: problems of the tree's shape, of its leaves
//! (registry), of a library; malformed text keeps serde's own position.
mod support;

use behaved_interp::Library;
use support::*;

/// The whole message of loading `text` with the test registry.
fn error(text: &str) -> String {
    registry().load(text).unwrap_err().to_string()
}

#[test]
fn shape_problems_give_line_and_column() {
    let text = r#"{
  "type": "selector",
  "children": [
    { "type": "sequnce", "children": [] },
    { "type": "repeater", "count": -2, "child": { "type": "success" } },
    { "type": "inverter",
      "chlid": { "type": "success" } }
  ]
}"#;
    assert_eq!(
        error(text),
        "4 problems:\n  \
         at `children[0].type` (line 4, column 7): unknown node type \"sequnce\"; did you mean \"sequence\"?\n  \
         at `children[1].count` (line 5, column 27): \"count\" must be a positive integer, found the number -2\n  \
         at `children[2].chlid` (line 7, column 7): unknown field \"chlid\" for \"inverter\"; did you mean \"child\"?\n  \
         at `children[2]` (line 6, column 5): \"inverter\" needs exactly one child in \"child\": a node"
    );
    // `messages()` leaves the positions out; `location` has them.
    let e = registry().load(text).unwrap_err();
    assert_eq!(
        e.messages()[1],
        "at `children[1].count`: \"count\" must be a positive integer, found the number -2"
    );
    let at = e.problems()[1].location.expect("a location");
    assert_eq!((at.line, at.column), (5, 27));
}

#[test]
fn a_missing_field_is_at_its_node_and_the_root_is_at_its_brace() {
    let text = "\n\n  {\"type\": \"sequence\", \"children\": [\n    {\"type\": \"repeater\", \"child\": {\"type\": \"success\"}}]}";
    assert_eq!(
        error(text),
        "at `children[0]` (line 4, column 5): \"repeater\" needs \"count\": a positive integer \
         (for an endless loop use \"loop\")"
    );
    assert_eq!(
        error("\n {\"type\": \"sequence\"}"),
        "at the root (line 2, column 2): \"sequence\" needs \"children\": an array of at least one node"
    );
}

#[test]
fn leaf_problems_found_by_the_registry_give_line_and_column() {
    let text = r#"{"type": "sequence", "children": [
  {"type": "condition", "condition": "c5"},
  {"type": "action",
   "action": {"type": "log", "mesg": "hi"}}
]}"#;
    assert_eq!(
        error(text),
        "2 problems:\n  \
         at `children[0].condition` (line 2, column 25): unknown condition type \"c5\"; did you mean \"c1\"?\n  \
         at `children[1].action` (line 4, column 4): bad parameters for action \"log\": unknown parameter \
         `mesg` of leaf `log`, did you mean `msg`? (its parameters: `msg`)"
    );
}

#[test]
fn a_repeated_key_is_at_its_repetition() {
    let text = "{\"type\": \"sequence\",\n \"children\": [{\"type\": \"action\", \"action\": \"a\"}],\n \"type\": \"selector\"}";
    assert_eq!(
        error(text),
        "at `type` (line 3, column 2): the key \"type\" appears twice in this object; keep one"
    );
}

#[test]
fn malformed_text_keeps_its_one_position() {
    assert_eq!(
        error("{\"type\": \"sequence\",\n \"children\": [\n"),
        "at `children[0]`: unexpected end of the JSON text at line 3 column 0: EOF while parsing a list"
    );
    assert_eq!(
        error("{\"type\": \"sequence\",\n \"children\": [}"),
        "at `children[0]`: malformed JSON at line 2 column 15: expected value"
    );
}

#[test]
fn library_problems_are_located_in_the_library_text() {
    let lib = "{\"subtrees\": {\n  \"patrol\": {\"type\": \"sequence\",\n    \"children\": [{\"type\": \"wiat\"}]}}}";
    assert_eq!(
        Library::from_json(lib).unwrap_err().to_string(),
        "at `subtrees[\"patrol\"].children[0].type` (line 3, column 19): unknown node type \"wiat\"; \
         did you mean \"wait\"?"
    );
    let mut lib = Library::new();
    let e = lib
        .insert_json("guard", "{\"type\": \"inverter\",\n \"child\": {\"type\": \"x\"}}")
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("at `subtrees[\"guard\"].child.type` (line 2, column 12): unknown node type \"x\""),
        "{e}"
    );
    // A tree's problem inside a library subtree is not in the tree's text.
    lib.insert_json("walk", r#"{"type": "action", "action": "nowhere"}"#)
        .unwrap();
    let e = registry()
        .load_with("{\"type\": \"subtree\",\n \"subtreeId\": \"walk\"}", &lib)
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("at `subtrees[\"walk\"].action`: unknown action type \"nowhere\""),
        "{e}"
    );
}

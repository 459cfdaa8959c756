//! Bounded text: a message cuts every name, label or key it quotes from the
//! file after 64 characters, and a list of them after `SOME_OF` items, with
//! a count of what it left out; a huge file never makes a huge message.

use behaved_format::messages::{SOME_OF, some_of};
use behaved_format::{Reader, leaf_params};

/// The loader's messages for `json`, each with its path.
fn refusal(json: &str) -> Vec<String> {
    let e = Reader::new().node(json).unwrap_err();
    e.problems()
        .iter()
        .map(|p| format!("at `{}`: {}", p.path, p.message))
        .collect()
}

#[test]
fn the_enclosing_labels_of_a_jump_are_cut_and_counted() {
    // 20 loops, the outermost labelled with a megabyte of text.
    let big = "x".repeat(1 << 20);
    let mut labels = vec![big.clone()];
    labels.extend((1..20).map(|i| format!("l{i:02}")));
    let mut tree = r#"{"type": "break", "label": "zzzzzzzzzzzz"}"#.to_string();
    for l in labels.iter().rev() {
        tree = format!(r#"{{"type": "loop", "label": "{l}", "child": {tree}}}"#);
    }
    let msgs = refusal(&tree);
    let shown_big = format!("{:?}.. (1048576 bytes)", "x".repeat(64));
    let listed: Vec<String> = (1..12).map(|i| format!("\"l{i:02}\"")).collect();
    assert_eq!(
        msgs,
        [format!(
            "at `{}.label`: no enclosing loop is labelled \"zzzzzzzzzzzz\"; enclosing labels: {shown_big}, {}, .. (8 more)",
            vec!["child"; 20].join("."),
            listed.join(", ")
        )]
    );
    assert!(msgs[0].len() < 1000, "{} bytes", msgs[0].len());
}

#[test]
fn a_list_of_names_from_a_file_is_cut_and_counted() {
    let names: Vec<String> = (0..SOME_OF + 3).map(|i| format!("n{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    assert_eq!(
        some_of(&refs),
        "\"n0\", \"n1\", \"n2\", \"n3\", \"n4\", \"n5\", \"n6\", \"n7\", \"n8\", \"n9\", \"n10\", \"n11\", .. (3 more)"
    );
    assert_eq!(some_of(&refs[..3]), "\"n0\", \"n1\" or \"n2\"");
}

#[test]
fn an_unknown_key_in_a_branch_is_cut() {
    let key = "k".repeat(100);
    let tree = format!(
        r#"{{"type": "if", "branches": [{{"if": {{"type": "condition", "condition": "c"}}, "then": {{"type": "success"}},
            "{key}": 1}}]}}"#
    );
    assert_eq!(
        refusal(&tree),
        [format!(
            "at `branches[0].{}..`: unknown field {:?}.. (100 bytes) in a branch; its fields are \"if\" and \"then\"",
            "k".repeat(64),
            "k".repeat(64)
        )]
    );
}

#[derive(Debug, serde::Deserialize)]
#[allow(dead_code)]
struct MoveTo {
    speed: f64,
}

#[test]
fn unknown_leaf_parameters_are_cut_and_counted() {
    let long = "p".repeat(100);
    let one = serde_json::json!({ long.clone(): 1, "speed": 1.0 });
    assert_eq!(
        leaf_params::<MoveTo>("MoveTo", one).unwrap_err(),
        format!(
            "unknown parameter `{}.. (100 bytes)` of leaf `MoveTo` (its parameters: `speed`)",
            "p".repeat(64)
        )
    );
    let mut many = serde_json::Map::new();
    for i in 0..1000 {
        many.insert(format!("q{i:04}"), serde_json::Value::from(i));
    }
    let listed: Vec<String> = (0..SOME_OF).map(|i| format!("`q{i:04}`")).collect();
    assert_eq!(
        leaf_params::<MoveTo>("MoveTo", serde_json::Value::Object(many)).unwrap_err(),
        format!(
            "unknown parameters {}, .. (988 more) of leaf `MoveTo` (its parameters: `speed`)",
            listed.join(", ")
        )
    );
}

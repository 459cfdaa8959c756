//! `behaved_runtime::utility::CURVES` (the list tools read) agrees with the
//! JSON reader and writer: each curve, written with exactly its listed
//! parameters, loads as the curve of that name and is written back with them.
use behaved_format::model::{Node, Params};
use behaved_format::utility::{ScoreOf, curve_json};
use behaved_runtime::utility::CURVES;
use serde_json::{Value, json};

#[test]
fn every_listed_curve_reads_and_writes_exactly_its_listed_parameters() {
    for (name, params) in CURVES {
        let mut curve = json!({ "curve": name });
        for (i, p) in params.iter().enumerate() {
            curve[*p] = if *p == "points" {
                json!([[0, 0], [1, 1]])
            } else {
                json!(1.0 + i as f64)
            };
        }
        let tree = json!({
            "type": "utility",
            "scores": [{ "consider": "hunger", "curve": curve }],
            "children": [{ "type": "success" }],
        });
        let node = Node::parse(&tree.to_string()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let Params::Utility { scores, .. } = node.params() else {
            panic!("{name}: not a utility")
        };
        let ScoreOf::Consider { curve: Some(read), .. } = &scores[0].of else {
            panic!("{name}: no curve")
        };
        assert_eq!(read.name(), name);
        let Value::Object(written) = curve_json(read) else {
            panic!()
        };
        let mut keys: Vec<&str> = written.keys().map(String::as_str).filter(|k| *k != "curve").collect();
        let mut listed = params.to_vec();
        keys.sort_unstable();
        listed.sort_unstable();
        assert_eq!(keys, listed, "{name}");
    }
}

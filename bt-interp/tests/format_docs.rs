//! The format's documentation and schema cover exactly the catalogue's node
//! kinds, under their JSON names; the shipped guard tree loads.
use behaved_runtime::NodeKind;

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn the_schema_lists_every_node_kind_by_its_json_name() {
    let schema: serde_json::Value = serde_json::from_str(&read("schema/bt-tree.schema.json")).unwrap();
    let listed: Vec<&str> = schema["$defs"]["node"]["properties"]["type"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let mut expected: Vec<&str> = NodeKind::ALL.iter().map(|k| k.json_name()).collect();
    let mut sorted = listed.clone();
    sorted.sort_unstable();
    expected.sort_unstable();
    assert_eq!(sorted, expected);
    for name in listed {
        let def = &schema["$defs"][name];
        assert_eq!(
            def["properties"]["type"]["const"], name,
            "{name} has its own definition"
        );
    }
    let library: serde_json::Value = serde_json::from_str(&read("schema/bt-library.schema.json")).unwrap();
    assert_eq!(library["required"][0], "subtrees");
}

#[test]
fn the_schema_states_the_limit_on_children() {
    let schema: serde_json::Value = serde_json::from_str(&read("schema/bt-tree.schema.json")).unwrap();
    for k in NodeKind::ALL {
        let children = &schema["$defs"][k.json_name()]["properties"]["children"];
        let limited = matches!(k, NodeKind::Parallel | NodeKind::ParallelMain | NodeKind::Shuffle);
        let expected = limited.then_some(behaved_format::model::MAX_PARALLEL as u64);
        assert_eq!(children["maxItems"].as_u64(), expected, "{}", k.json_name());
    }
}

#[test]
fn format_md_documents_every_node_kind_and_every_field() {
    let doc = read("FORMAT.md");
    for k in NodeKind::ALL {
        assert!(
            doc.contains(&format!("`\"{}\"`", k.json_name())),
            "FORMAT.md does not document {:?}",
            k.json_name()
        );
        for field in k.fields() {
            assert!(
                doc.contains(&format!("`{field}`")),
                "FORMAT.md does not mention the field {field:?}"
            );
        }
    }
}

/// The schema file is the catalogue's: `behaved_format::schema::tree_schema`
/// writes it, so no kind or field is missing or stale in it.
/// `BEHAVED_REGENERATE=1 cargo test -p behaved-interp --test format_docs`
/// writes it again.
#[test]
fn the_schema_file_is_written_from_the_catalogue() {
    let generated = behaved_format::schema::tree_schema();
    if std::env::var_os("BEHAVED_REGENERATE").is_some() {
        let path = format!("{}/schema/bt-tree.schema.json", env!("CARGO_MANIFEST_DIR"));
        std::fs::write(path, serde_json::to_string_pretty(&generated).unwrap() + "\n").unwrap();
    }
    let file: serde_json::Value = serde_json::from_str(&read("schema/bt-tree.schema.json")).unwrap();
    assert!(
        file == generated,
        "schema/bt-tree.schema.json is not the catalogue's schema: \
         BEHAVED_REGENERATE=1 cargo test -p behaved-interp --test format_docs writes it"
    );
}

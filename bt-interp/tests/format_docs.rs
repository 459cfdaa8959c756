//! The format's documentation and schema cover exactly the catalogue's node
//! kinds, under their JSON names; the shipped guard tree loads.
use behaved_runtime::NodeKind;
use behaved_runtime::catalog::Group;

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

/// The lines that open and close FORMAT.md's node tables.
const TABLES_START: &str = "<!-- node-tables: written from the catalogue by `BEHAVED_REGENERATE=1 cargo test -p behaved-interp --test format_docs`; edit the catalogue, not this -->";
const TABLES_END: &str = "<!-- end of node-tables -->";

/// FORMAT.md's node tables as the catalogue gives them: a table per palette
/// group, a row per kind with its `"type"`, its DSL word, its fields (`?`
/// where the schema does not require one) and its summary, linking to its
/// rules.
fn node_tables() -> String {
    let schema = behaved_format::schema::tree_schema();
    let mut out = String::from("\n");
    for group in Group::ALL {
        let name = group.name();
        out += &format!("\n### {}{}\n\n", name[..1].to_uppercase(), &name[1..]);
        out += "| `type` | DSL | fields | behaviour |\n|---|---|---|---|\n";
        for k in NodeKind::ALL.iter().filter(|k| k.group() == group) {
            let required = &schema["$defs"][k.json_name()]["required"];
            let required = |f: &str| required.as_array().is_some_and(|r| r.iter().any(|v| v == f));
            let fields: Vec<String> = k
                .fields()
                .iter()
                .map(|f| format!("`{f}`{}", if required(f) { "" } else { "?" }))
                .collect();
            out += &format!(
                "| `\"{}\"` | `{}` | {} | {} ([rules](../SEMANTICS.md#{})) |\n",
                k.json_name(),
                k.dsl_name(),
                fields.join(", "),
                k.summary().replace('|', "\\|"),
                k.rules_anchor()
            );
        }
    }
    out + "\n"
}

/// FORMAT.md's node tables are the catalogue's (no kind, field or rule
/// written by hand there); `BEHAVED_REGENERATE=1 cargo test -p
/// behaved-interp --test format_docs` writes them again.
#[test]
fn format_md_node_tables_are_written_from_the_catalogue() {
    let doc = read("FORMAT.md");
    let (before, rest) = doc
        .split_once(TABLES_START)
        .expect("FORMAT.md has the node tables' start line");
    let (tables, after) = rest
        .split_once(TABLES_END)
        .expect("FORMAT.md has the node tables' end line");
    let generated = node_tables();
    if std::env::var_os("BEHAVED_REGENERATE").is_some() {
        let path = format!("{}/FORMAT.md", env!("CARGO_MANIFEST_DIR"));
        std::fs::write(path, format!("{before}{TABLES_START}{generated}{TABLES_END}{after}")).unwrap();
        return;
    }
    let (file, catalogue): (Vec<&str>, Vec<&str>) = (tables.lines().collect(), generated.lines().collect());
    if let Some(i) = (0..file.len().max(catalogue.len())).find(|&i| file.get(i) != catalogue.get(i)) {
        let line = |l: Option<&&str>| l.map_or("(nothing)".to_owned(), |l| format!("`{l}`"));
        panic!(
            "FORMAT.md's node tables are not the catalogue's: line {} of them is {} where the catalogue \
             gives {}; BEHAVED_REGENERATE=1 cargo test -p behaved-interp --test format_docs writes them",
            i + 1,
            line(file.get(i)),
            line(catalogue.get(i))
        );
    }
}

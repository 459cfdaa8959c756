//! The table of nodes is written once, in `src/nodes.md` (the `behave!`
//! docs include it), and copied into README's "Nodes": the two stay equal,
//! but for the links to the rules (`crate::semantics#x` in the API docs,
//! `SEMANTICS.md#x` on GitHub). And every kind of the catalogue has a row,
//! so a new kind fails here until the table writes it.
//! `BEHAVED_REGENERATE=1 cargo test --test node_table` copies the table
//! into README.

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The table as README writes it: `src/nodes.md` with GitHub's links.
fn readme_form(table: &str) -> String {
    table.replace("(crate::semantics#", "(SEMANTICS.md#")
}

/// The line range of README's node table: from its header row to the
/// first line that is not a table row.
fn table_in(readme: &str) -> std::ops::Range<usize> {
    let lines: Vec<&str> = readme.lines().collect();
    let start = lines
        .iter()
        .position(|l| *l == "| write | what it does |")
        .expect("README.md has the node table's header, `| write | what it does |`");
    let len = lines[start..].iter().take_while(|l| l.starts_with('|')).count();
    start..start + len
}

#[test]
fn readme_has_the_table_of_src_nodes_md() {
    let table = std::fs::read_to_string(root().join("src/nodes.md")).unwrap();
    let readme_path = root().join("README.md");
    let readme = std::fs::read_to_string(&readme_path).unwrap();
    let mut lines: Vec<&str> = readme.lines().collect();
    let range = table_in(&readme);
    let expected = readme_form(&table);
    let written = lines[range.clone()].join("\n") + "\n";
    if written == expected {
        return;
    }
    if std::env::var_os("BEHAVED_REGENERATE").is_some() {
        lines.splice(range, expected.lines());
        std::fs::write(&readme_path, lines.join("\n") + "\n").unwrap();
        return;
    }
    let first = written
        .lines()
        .zip(expected.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| written.lines().count().min(expected.lines().count()));
    panic!(
        "README.md's node table differs from src/nodes.md at row {first} \
         (README: {:?}, src/nodes.md: {:?}); edit src/nodes.md, then \
         `BEHAVED_REGENERATE=1 cargo test --test node_table` copies it",
        written.lines().nth(first),
        expected.lines().nth(first)
    );
}

/// The code spans of the table's rows: what they write, and the kinds
/// their descriptions name (`reactive if` in `if`'s row).
fn code_spans(table: &str) -> Vec<String> {
    table
        .lines()
        .skip(2)
        .flat_map(|row| row.split('`').skip(1).step_by(2).map(|s| s.replace("\\|", "|")))
        .collect()
}

/// A code span writes a kind when it starts with the kind's word followed
/// by what can follow it: nothing, a space, an argument list or a body
/// (`sequence { .. }` writes `sequence`, `sequence_always` does not).
fn writes(span: &str, word: &str) -> bool {
    span.strip_prefix(word)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '(', '{']))
}

#[test]
fn every_kind_of_the_catalogue_has_a_row() {
    let table = std::fs::read_to_string(root().join("src/nodes.md")).unwrap();
    let spans = code_spans(&table);
    let missing: Vec<&str> = behaved::NodeKind::ALL
        .iter()
        .map(|k| k.dsl_name())
        .filter(|word| !spans.iter().any(|span| writes(span, word)))
        .collect();
    assert!(
        missing.is_empty(),
        "src/nodes.md has no row that writes {missing:?}: add one (every kind of the catalogue is in the table)"
    );
}

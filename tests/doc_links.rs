//! The published crates' API docs link only to items (intra-doc links), to
//! anchors, or to absolute URLs: a link relative to the repository (`FORMAT.md`,
//! `../bt-interp/README.md`, an image) works on GitHub and breaks on docs.rs.
//! This reads every doc comment and every Markdown file the docs include, in
//! every published crate, and lists each relative link with its file and line.

use std::path::{Path, PathBuf};

/// The folders of the published crates: the facade (`.`) and every
/// workspace member whose `Cargo.toml` does not say `publish = false`, read
/// from the workspace so that a new crate is checked without a list to update.
fn published() -> Vec<String> {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let members = manifest.split("members = [").nth(1).unwrap().split(']').next().unwrap();
    let mut out = vec![".".to_owned()];
    for line in members.lines().filter(|l| !l.trim_start().starts_with('#')) {
        for name in line
            .split(',')
            .map(|m| m.trim().trim_matches('"'))
            .filter(|m| !m.is_empty())
        {
            let toml = std::fs::read_to_string(root().join(name).join("Cargo.toml")).unwrap();
            if !toml.lines().any(|l| l.trim() == "publish = false") {
                out.push(name.to_owned());
            }
        }
    }
    out
}

/// Markdown files the facade's docs include (`#[doc = include_str!(..)]`);
/// the README is included only for doctests, so it may link relatively.
const INCLUDED: [&str; 4] = ["src/tutorial.md", "src/behave.md", "src/nodes.md", "SEMANTICS.md"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The doc text of a line of Rust source, if it is a doc comment or a
/// `#[doc = ".."]` attribute.
fn doc_text(line: &str) -> Option<&str> {
    let line = line.trim_start();
    line.strip_prefix("//!")
        .or_else(|| line.strip_prefix("///"))
        .or_else(|| line.strip_prefix("#![doc =").or_else(|| line.strip_prefix("#[doc =")))
        .or_else(|| line.strip_prefix("doc = \""))
}

/// Link targets on a line of Markdown: `[text](target)` and `[text]: target`.
fn targets(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        out.push(after[..end].trim());
        rest = &after[end..];
    }
    let trimmed = text.trim_start();
    if trimmed.starts_with('[')
        && let Some(close) = trimmed.find("]:")
    {
        out.push(trimmed[close + 2..].trim());
    }
    out
}

/// Whether a link target breaks on docs.rs: not a URL, not an anchor, and
/// not an item path (item paths have neither `/` nor `.`).
fn is_relative(target: &str) -> bool {
    let target = target.split_whitespace().next().unwrap_or("");
    !(target.is_empty()
        || target.starts_with("http://")
        || target.starts_with("https://")
        || target.starts_with('#')
        || !(target.contains('/') || target.contains('.')))
}

fn relative_links() -> Vec<String> {
    let mut found = Vec::new();
    let mut check = |path: &Path, text: &str, markdown: bool| {
        for (i, line) in text.lines().enumerate() {
            let doc = if markdown { Some(line) } else { doc_text(line) };
            for target in doc.map(targets).unwrap_or_default() {
                if is_relative(target) {
                    let shown = path.strip_prefix(root()).unwrap_or(path).display();
                    found.push(format!("{shown}:{}: ({target})", i + 1));
                }
            }
        }
    };
    for krate in published() {
        let mut files = Vec::new();
        rust_files(&root().join(&krate).join("src"), &mut files);
        files.sort();
        for file in files {
            check(&file, &std::fs::read_to_string(&file).unwrap(), false);
        }
    }
    for file in INCLUDED {
        let path = root().join(file);
        check(&path, &std::fs::read_to_string(&path).unwrap(), true);
    }
    found
}

#[test]
fn published_docs_have_no_relative_links() {
    let found = relative_links();
    assert!(
        found.is_empty(),
        "links that break on docs.rs (use an intra-doc link to an item, or an absolute URL):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_published_crates_are_read_from_the_workspace() {
    let published = published();
    assert!(published.iter().any(|c| c == "bt-interp"), "{published:?}");
    assert!(published.iter().any(|c| c == "."), "{published:?}");
    assert!(!published.iter().any(|c| c.starts_with("dev/")), "{published:?}");
}

#[test]
fn the_check_sees_relative_links_and_lets_the_others_pass() {
    assert!(is_relative("FORMAT.md"));
    assert!(is_relative("../bt-interp/FORMAT.md#limits"));
    assert!(is_relative("screenshot.png"));
    assert!(!is_relative("https://docs.rs/behaved-interp"));
    assert!(!is_relative("#the-tick"));
    assert!(!is_relative("crate::Status"));
    assert!(!is_relative("Registry::load"));
    assert_eq!(
        targets("see [the format](FORMAT.md) and [`Agent`](crate::Agent)"),
        ["FORMAT.md", "crate::Agent"]
    );
    assert_eq!(targets("[format]: FORMAT.md"), ["FORMAT.md"]);
    assert_eq!(doc_text("    /// [a](b.md)"), Some(" [a](b.md)"));
    assert_eq!(doc_text("let x = 1; // [a](b.md)"), None);
}

/// GitHub shows a README's code blocks as they are: a rustdoc-hidden line
/// (`# use ..;`) would be shown there, so the README's Rust blocks are whole
/// programs instead (they are doctests all the same: `ReadmeDoctests`).
#[test]
fn the_readme_has_no_hidden_doctest_lines() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut in_rust = false;
    let mut hidden = Vec::new();
    for (i, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            in_rust = !in_rust && line.starts_with("```rust");
            continue;
        }
        if in_rust && (line == "#" || line.starts_with("# ")) {
            hidden.push(format!("README.md:{}: {line}", i + 1));
        }
    }
    assert!(
        hidden.is_empty(),
        "hidden doctest lines GitHub would show:\n{}",
        hidden.join("\n")
    );
}

//! The facade re-exports the runtime's public items by name (not with a glob,
//! which would also make the runtime's hidden `private` module reachable as
//! `behaved::private`): this checks that the list in `src/lib.rs` names every
//! public item and module of `bt-runtime/src/lib.rs`, and nothing hidden.

use std::path::Path;

/// The names a crate root makes public: unindented `pub use` items (last path
/// segment, or each name in braces) and `pub mod` modules, each with whether
/// the line before it is `#[doc(hidden)]`.
fn public_names(lib: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut hidden = false;
    let mut pending: Option<String> = None;
    for raw in lib.lines() {
        let line = raw.trim();
        if let Some(text) = pending.as_mut() {
            text.push(' ');
            text.push_str(line);
        } else if raw.starts_with(' ') {
            // Inside a module (`__private`): not the crate root's.
        } else if let Some(rest) = line.strip_prefix("pub mod ") {
            let name = rest.trim_end_matches([';', '{', ' ']);
            out.push((name.to_string(), hidden));
        } else if line.starts_with("pub use ") {
            pending = Some(line.to_string());
        }
        if pending.as_ref().is_some_and(|t| t.ends_with(';')) {
            let text = pending.take().unwrap();
            let text = text.trim_start_matches("pub use ").trim_end_matches(';');
            let names = match text.split_once('{') {
                Some((_, list)) => list.trim_end_matches('}').split(',').map(str::to_string).collect(),
                None => vec![text.rsplit("::").next().unwrap().to_string()],
            };
            for name in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
                out.push((name.to_string(), hidden));
            }
        }
        hidden = line == "#[doc(hidden)]";
    }
    out
}

#[test]
fn the_facade_lists_every_public_item_of_the_runtime() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let runtime = std::fs::read_to_string(root.join("bt-runtime/src/lib.rs")).unwrap();
    let facade = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let facade: Vec<String> = public_names(&facade).into_iter().map(|(n, _)| n).collect();
    let runtime = public_names(&runtime);
    assert!(runtime.iter().any(|(n, _)| n == "Status"), "{runtime:?}");
    for (name, hidden) in &runtime {
        assert_eq!(
            facade.contains(name),
            !hidden,
            "`{name}` (hidden: {hidden}): the facade re-exports the runtime's public items, and no hidden one"
        );
    }
}

#[test]
fn a_private_module_is_not_reachable() {
    // `behaved::__private` is the generated code's path; the runtime's own
    // `private` module is not re-exported under its name.
    let facade = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    assert!(!facade.contains("behaved_runtime::*"));
    assert!(public_names(&facade).iter().all(|(n, _)| n != "private"));
}

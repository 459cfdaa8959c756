//! The subtree library folder (`--library`), read again on every check so
//! that a subtree edited elsewhere is seen at once.

use std::path::Path;

use behaved_format::{Library, Problem};
use serde_json::{Map, Value};

/// The library as read: the subtrees that decode, their documents for the
/// page, and the problems of the files that do not.
#[derive(Default)]
pub(crate) struct Read {
    pub library: Library,
    pub docs: Map<String, Value>,
    pub problems: Vec<Problem>,
}

/// Reads the `.json` files of `dir` (none: an empty library). A file holding
/// `{"subtrees": {..}}` adds each; any other file is one subtree named by its stem.
pub(crate) fn read(dir: Option<&Path>) -> Read {
    let mut out = Read::default();
    let Some(dir) = dir else { return out };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            out.problems.push(Problem::new(
                "",
                format!("cannot read the library {}: {e}", dir.display()),
            ));
            return out;
        }
    };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
        .collect();
    files.sort();
    for path in files {
        let stem = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) => {
                out.problems
                    .push(Problem::new("", format!("cannot read {}: {e}", path.display())));
                continue;
            }
        };
        let doc: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if let Some(Value::Object(subtrees)) = doc.get("subtrees") {
            match Library::from_json(&text) {
                Ok(lib) => {
                    for id in lib.ids() {
                        if let Some(node) = lib.get(id) {
                            out.library.insert(id, node.clone());
                        }
                    }
                    out.docs.extend(subtrees.clone());
                }
                Err(e) => out.problems.extend(e.problems().iter().cloned()),
            }
        } else {
            match out.library.insert_json(&stem, &text) {
                Ok(()) => drop(out.docs.insert(stem, doc)),
                Err(e) => out.problems.extend(e.problems().iter().cloned()),
            }
        }
    }
    out
}

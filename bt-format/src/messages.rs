//! The pieces of the messages that the decoder, the library and the loader
//! share: how a JSON value is described, how names are listed, and the
//! "did you mean" hint. They only build text; [`crate::Problems`] collects it.

use behaved_runtime::catalog::{self, NodeKind};
use std::sync::LazyLock;

use crate::document::{Json, shown};

/// A short description of a JSON value for messages: `a string "x"`, `an array`.
pub(crate) fn describe(v: &Json<'_>) -> String {
    match v {
        Json::Null => "null".into(),
        Json::Bool(b) => format!("a boolean `{b}`"),
        Json::Number(n) => format!("the number {n}"),
        Json::String(s) => format!("a string {}", shown(s)),
        Json::Array(_) => "an array".into(),
        Json::Object(_) => "an object".into(),
    }
}

/// "a" or "an", for `word`.
pub(crate) fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// `"a", "b" or "c"` for messages, each name cut after 64 characters
/// ([`shown`]). For a list of the library's own names (node types, fields);
/// a list of a file's names is [`some_of`].
pub fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| shown(n)).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The most names [`some_of`] shows.
pub const SOME_OF: usize = 12;

/// As [`one_of`], for names from a file (labels, ids): past [`SOME_OF`]
/// names, the first ones and a count of the others, `"a", "b", .. (30 more)`.
pub fn some_of(names: &[&str]) -> String {
    if names.len() <= SOME_OF {
        return one_of(names);
    }
    let quoted: Vec<String> = names[..SOME_OF].iter().map(|n| shown(n)).collect();
    format!("{}, .. ({} more)", quoted.join(", "), names.len() - SOME_OF)
}

/// `; did you mean "x"?` (the name cut after 64 characters) or nothing.
pub fn did_you_mean<'a>(unknown: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    match catalog::closest(unknown, known) {
        Some(k) => format!("; did you mean {}?", shown(k)),
        None => String::new(),
    }
}

/// `; expected one of "sequence", "selector", .. or "subtree"`: the end of
/// the message of a type close to no node kind.
pub(crate) static NODE_TYPES: LazyLock<String> = LazyLock::new(|| {
    let names: Vec<&str> = NodeKind::ALL.iter().map(|k| k.json_name()).collect();
    format!("; expected one of {}", one_of(&names))
});

/// The message for a loop whose `label` is also an enclosing loop's (the
/// decoder's, and the interpreter's for a tree built in code).
pub fn shadowed_label(label: &str) -> String {
    format!(
        "label {} shadows the label of an enclosing loop: a \"break\" or \"continue\" naming it could mean either loop",
        shown(label)
    )
}

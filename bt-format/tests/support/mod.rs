//! What the JSON loader's refusal tests share: an action leaf to fill
//! children with, and the loader's messages for a text.

use behaved_format::Reader;

/// An action leaf, as a JSON node.
pub const A: &str = r#"{"type": "action", "action": {"type": "a"}}"#;

/// The JSON loader's messages for `json` (`at `path`: message`), or none.
pub fn refusal(json: &str) -> Vec<String> {
    match Reader::new().node(json) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .problems()
            .iter()
            .map(|p| format!("at `{}`: {}", p.path, p.message))
            .collect(),
    }
}

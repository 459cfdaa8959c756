//! ADR-017's `BTSubtreeLibrary`: reusable trees by id, referred to by
//! `{"type": "subtree", "subtreeId": ".."}` nodes.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::decode::{decode, parse_at};
use crate::document::{DEFAULT_MAX_DEPTH, Json, read, shown};
use crate::error::{LoadError, Problems, path};
use crate::messages::describe;
use crate::model::Node;

/// Subtrees by id. Each use of a subtree in a tree is inlined as its own
/// instance with its own state, exactly as if its body were written there.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Library {
    subtrees: BTreeMap<String, Node>,
}

impl Library {
    /// An empty library.
    pub fn new() -> Library {
        Library::default()
    }

    /// A library from JSON text of the form `{"subtrees": {"<id>": <node>, ..}}`,
    /// its subtrees nested at most [`Reader::DEFAULT_MAX_DEPTH`](crate::Reader::DEFAULT_MAX_DEPTH) levels
    /// ([`Reader::library`](crate::Reader::library) sets another limit).
    pub fn from_json(json: &str) -> Result<Library, LoadError> {
        Library::parse(json, DEFAULT_MAX_DEPTH)
    }

    /// Reads and checks a library whose subtrees nest at most `max_depth` levels.
    pub(crate) fn parse(json: &str, max_depth: usize) -> Result<Library, LoadError> {
        let mut problems = Problems::default();
        let doc = read(json, max_depth, true, &mut problems)?;
        Library::from_doc(&doc, max_depth, problems).map_err(|e| e.located_in(json, "", true))
    }

    /// A library from a read document, after the reader's `problems`.
    pub(crate) fn from_doc(doc: &Json<'_>, max_depth: usize, mut problems: Problems) -> Result<Library, LoadError> {
        let mut lib = Library::new();
        let Some(obj) = doc.as_object() else {
            return Err(LoadError::one(
                "",
                format!(
                    "expected a library {{\"subtrees\": {{\"<id>\": <node>, ..}}}}, found {}",
                    describe(doc)
                ),
            ));
        };
        for key in obj.keys().filter(|k| *k != "subtrees") {
            problems.push(
                &path::field("", key),
                format!("unknown field {}; a library has only \"subtrees\"", shown(key)),
            );
        }
        match obj.get("subtrees") {
            Some(Json::Object(map)) => {
                for (id, node) in map.iter() {
                    match decode(node, &path::subtree(id), max_depth, None, Problems::default()) {
                        Ok(n) => drop(lib.subtrees.insert(id.to_string(), n)),
                        Err(e) => problems.extend(&e),
                    }
                }
            }
            Some(other) => problems.push(
                "subtrees",
                format!(
                    "expected an object mapping subtree ids to nodes, found {}",
                    describe(other)
                ),
            ),
            None => problems.push(
                "",
                "a library needs \"subtrees\": an object mapping subtree ids to nodes",
            ),
        }
        problems.into_result(lib)
    }

    /// Adds or replaces subtree `id` from JSON text (a node).
    pub fn insert_json(&mut self, id: &str, json: &str) -> Result<(), LoadError> {
        let node = parse_at(json, &path::subtree(id), DEFAULT_MAX_DEPTH, None)?;
        self.insert(id, node);
        Ok(())
    }

    /// Adds or replaces subtree `id`.
    pub fn insert(&mut self, id: &str, node: Node) {
        self.subtrees.insert(id.to_string(), node);
    }

    /// Removes subtree `id`, returning it.
    pub fn remove(&mut self, id: &str) -> Option<Node> {
        self.subtrees.remove(id)
    }

    /// Subtree `id`, if present.
    pub fn get(&self, id: &str) -> Option<&Node> {
        self.subtrees.get(id)
    }

    /// The ids of all subtrees, sorted.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.subtrees.keys().map(String::as_str)
    }

    /// The library as JSON: `{"subtrees": {..}}`.
    pub fn to_json(&self) -> Value {
        let map = self.subtrees.iter().map(|(id, n)| (id.clone(), n.to_json())).collect();
        serde_json::json!({ "subtrees": Value::Object(map) })
    }
}

//! ADR-017's `BTSubtreeLibrary`: reusable trees by id, referred to by
//! `{"type": "subtree", "subtreeId": ".."}` nodes.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::error::{LoadError, Problems, path};
use crate::model::{Node, describe, parse_json};

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

    /// A library from JSON text of the form `{"subtrees": {"<id>": <node>, ..}}`.
    pub fn from_json(json: &str) -> Result<Library, LoadError> {
        let value = parse_json(json)?;
        let mut problems = Problems::default();
        let mut lib = Library::new();
        let Some(obj) = value.as_object() else {
            return Err(LoadError::one(
                "",
                format!(
                    "expected a library {{\"subtrees\": {{\"<id>\": <node>, ..}}}}, found {}",
                    describe(&value)
                ),
            ));
        };
        for key in obj.keys().filter(|k| *k != "subtrees") {
            problems.push(
                &path::field("", key),
                format!("unknown field {key:?}; a library has only \"subtrees\""),
            );
        }
        match obj.get("subtrees") {
            Some(Value::Object(map)) => {
                for (id, node) in map {
                    match Node::from_json_at(node, &path::subtree(id)) {
                        Ok(n) => {
                            lib.subtrees.insert(id.clone(), n);
                        }
                        Err(e) => {
                            for p in e.problems() {
                                problems.push(&p.path, p.message.clone());
                            }
                        }
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
        let node = Node::from_json_at(&parse_json(json)?, &path::subtree(id))?;
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

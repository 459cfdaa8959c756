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

/// A cycle of subtrees that use each other, as [`Library::cycles`] finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubtreeCycle {
    /// The subtree ids along the cycle, its first id repeated at the end
    /// (`["a", "b", "a"]` for `a` using `b` using `a`); of a cycle of more
    /// than [`SubtreeCycle::SHOWN`] ids, the first ones and the last.
    pub chain: Vec<String>,
    /// How many ids of the cycle `chain` leaves out (between its last two).
    pub omitted: usize,
    /// The JSON path of the `subtreeId` field that closes the cycle (in the
    /// cycle's last subtree before its first again).
    pub path: String,
}

impl SubtreeCycle {
    /// The most ids [`SubtreeCycle::chain`] holds; the others are counted.
    pub const SHOWN: usize = 8;

    /// The chain for a message: each id quoted and cut ([`shown`]), joined
    /// by ` -> `, with the count of the ids left out.
    pub fn message(&self) -> String {
        let ids: Vec<String> = self.chain.iter().map(|s| shown(s)).collect();
        match (self.omitted, ids.split_last()) {
            (0, _) | (_, None) => ids.join(" -> "),
            (n, Some((last, init))) => format!("{} -> .. ({n} more) -> {last}", init.join(" -> ")),
        }
    }
}

impl Library {
    /// The most cycles [`Library::cycles`] returns.
    pub const MAX_CYCLES: usize = LoadError::MAX_LISTED;

    /// The cycles of subtrees using each other, used by a tree or not: one
    /// per reference that closes a cycle (at most [`Library::MAX_CYCLES`]),
    /// searched depth-first from each subtree in the order of their ids, so
    /// the same library always gives the same cycles, whichever tree uses
    /// it. Every cycle of the library goes through the first id of one of
    /// them, unless there are more. Linear in the size of the library,
    /// nesting included, and without recursion.
    pub fn cycles(&self) -> Vec<SubtreeCycle> {
        // Each subtree's references, the first one to each other subtree.
        let ids: Vec<&str> = self.ids().collect();
        let index = |id: &str| ids.binary_search(&id).ok();
        let refs: Vec<Vec<(usize, String)>> = ids
            .iter()
            .map(|id| {
                let mut out: Vec<(usize, String)> = Vec::new();
                let mut seen = std::collections::HashSet::new();
                let mut stack = vec![(&self.subtrees[*id], path::subtree(id))];
                while let Some((node, at)) = stack.pop() {
                    if let crate::model::Params::Subtree(sid) = node.params()
                        && let Some(j) = index(sid)
                        && seen.insert(j)
                    {
                        out.push((j, path::field(&at, "subtreeId")));
                    }
                    for (i, child) in node.children().iter().enumerate().rev() {
                        stack.push((child, node.child_path(&at, i)));
                    }
                }
                out
            })
            .collect();
        // Depth-first, with an explicit stack: 0 unseen, 1 on the stack, 2 done.
        let mut state = vec![0u8; ids.len()];
        // Where each subtree on the stack is in it.
        let mut depth_of = vec![0usize; ids.len()];
        let mut found = Vec::new();
        for start in 0..ids.len() {
            if state[start] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
            state[start] = 1;
            depth_of[start] = 0;
            while let Some(&mut (u, ref mut next)) = stack.last_mut() {
                let Some((v, at)) = refs[u].get(*next) else {
                    state[u] = 2;
                    stack.pop();
                    continue;
                };
                *next += 1;
                match state[*v] {
                    0 => {
                        state[*v] = 1;
                        depth_of[*v] = stack.len();
                        stack.push((*v, 0));
                    }
                    1 if found.len() < Self::MAX_CYCLES => {
                        let on = &stack[depth_of[*v]..];
                        let keep = on.len().min(SubtreeCycle::SHOWN - 1);
                        let mut chain: Vec<String> = on[..keep].iter().map(|(w, _)| ids[*w].to_string()).collect();
                        chain.push(ids[*v].to_string());
                        found.push(SubtreeCycle {
                            chain,
                            omitted: on.len() - keep,
                            path: at.clone(),
                        });
                    }
                    _ => {}
                }
            }
        }
        found
    }
}

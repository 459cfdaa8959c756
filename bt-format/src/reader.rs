//! [`Reader`]: how tree files are read and checked (the nesting limit, the
//! check of leaf names), the entry point for trees and subtree libraries.

use crate::decode::{LeafCheck, parse_at};
use crate::error::LoadError;
use crate::library::Library;
use crate::model::Node;

/// How tree files are read and checked: the nesting limit, and optionally a
/// check of leaf type names, so that an unknown leaf is reported with the
/// tree's other problems in one pass.
///
/// ```
/// use behaved_format::Reader;
///
/// let deep = format!("{}{}{}", r#"{"type": "inverter", "child": "#.repeat(100), r#"{"type": "success"}"#, "}".repeat(100));
/// assert!(Reader::new().node(&deep).is_err()); // 64 levels by default
/// assert!(Reader::new().max_depth(100).node(&deep).is_ok());
/// ```
#[derive(Clone, Copy)]
pub struct Reader<'c> {
    max_depth: usize,
    leaves: Option<LeafCheck<'c>>,
}

impl Default for Reader<'_> {
    fn default() -> Self {
        Reader::new()
    }
}

impl<'c> Reader<'c> {
    /// The default nesting limit: 64 levels below the root.
    pub const DEFAULT_MAX_DEPTH: usize = crate::document::DEFAULT_MAX_DEPTH;

    /// A reader with the default limit and no leaf check.
    pub fn new() -> Reader<'c> {
        Reader {
            max_depth: Self::DEFAULT_MAX_DEPTH,
            leaves: None,
        }
    }

    /// The deepest nesting of nodes below the root (one limit: the JSON
    /// reader stops at [`json_depth_limit`](crate::json_depth_limit) of it, with the same message).
    pub fn max_depth(mut self, depth: usize) -> Reader<'c> {
        self.max_depth = depth;
        self
    }

    /// Checks every leaf's type name with `check` while reading.
    pub fn check_leaves(mut self, check: LeafCheck<'c>) -> Reader<'c> {
        self.leaves = Some(check);
        self
    }

    /// Reads and checks a tree.
    pub fn node(&self, json: &str) -> Result<Node, LoadError> {
        self.node_at(json, "")
    }

    /// As [`Reader::node`], with problems reported under `root_path`.
    pub(crate) fn node_at(&self, json: &str, root_path: &str) -> Result<Node, LoadError> {
        parse_at(json, root_path, self.max_depth, self.leaves)
    }

    /// Reads and checks a subtree library, `{"subtrees": {"<id>": <node>, ..}}`.
    pub fn library(&self, json: &str) -> Result<Library, LoadError> {
        Library::parse(json, self.max_depth)
    }
}

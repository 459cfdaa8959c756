//! What goes wrong when loading a tree: every problem, each at its JSON path.

use core::fmt;
use core::hash::{Hash, Hasher};
use std::collections::HashSet;

/// One problem in a tree file: where it is and what was expected there.
/// Problems compare by their path and message.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The JSON path of the offending value, e.g. `children[2].child.count`
    /// (empty for the root; `subtrees["patrol"].child` inside a library subtree).
    pub path: String,
    /// What is wrong and what would be right.
    pub message: String,
    /// Where the path is in the text the tree was read from, when it was
    /// read from text and the text has it ([`LoadError::located`]).
    pub location: Option<crate::Location>,
    /// For a node type close to no kind: the length of the message's own
    /// part, before the node types it lists or points to (see
    /// [`node_types_once`]).
    lists_types: Option<usize>,
}

impl Problem {
    /// A problem at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            path: path.into(),
            message: message.into(),
            location: None,
            lists_types: None,
        }
    }

    /// A problem at `path` whose message, `own`, is followed by the list of
    /// node types `types` (`; expected one of ..`): a report lists them once.
    pub(crate) fn listing_types(path: &str, own: String, types: &str) -> Problem {
        Problem {
            path: path.into(),
            lists_types: Some(own.len()),
            message: own + types,
            location: None,
        }
    }

    /// Points this problem to the node types listed at `at` instead of
    /// listing them again.
    fn point_to_types(&mut self, at: &str) {
        if let Some(own) = self.lists_types
            && self.path != at
        {
            self.message.truncate(own);
            self.message
                .push_str(&format!("; expected one of the node types listed at `{at}`"));
        }
    }
}

impl PartialEq for Problem {
    fn eq(&self, other: &Problem) -> bool {
        (&self.path, &self.message) == (&other.path, &other.message)
    }
}

impl Eq for Problem {}

impl Hash for Problem {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (&self.path, &self.message).hash(state);
    }
}

impl PartialOrd for Problem {
    fn partial_cmp(&self, other: &Problem) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Problem {
    fn cmp(&self, other: &Problem) -> core::cmp::Ordering {
        (&self.path, &self.message).cmp(&(&other.path, &other.message))
    }
}

/// Lists the catalogue of node types once in a report: the first problem
/// that lists it keeps it, the later ones point to its path instead of
/// repeating some forty names. [`Problems`] does it as problems are
/// recorded; a report made of several loads' problems (a folder of
/// libraries and a tree) does it again with this.
pub fn node_types_once(problems: &mut [Problem]) {
    let mut first: Option<String> = None;
    for p in problems.iter_mut().filter(|p| p.lists_types.is_some()) {
        match &first {
            None => first = Some(p.path.clone()),
            Some(at) => p.point_to_types(at),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "at the root")?;
        } else {
            write!(f, "at `{}`", self.path)?;
        }
        if let Some(location) = self.location {
            write!(f, " ({location})")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Why a tree could not be loaded: the problems found, in document order.
/// Loading never stops at the first problem, so one run shows every mistake;
/// past the first [`LoadError::MAX_LISTED`], problems are only counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    pub(crate) problems: Vec<Problem>,
    omitted: usize,
}

impl LoadError {
    /// The most problems an error lists; the rest are counted ([`LoadError::omitted`]).
    pub const MAX_LISTED: usize = 100;

    /// An error made of `problems` (at least one).
    pub fn new(problems: Vec<Problem>) -> LoadError {
        debug_assert!(!problems.is_empty());
        LoadError { problems, omitted: 0 }
    }

    /// A single problem.
    pub fn one(path: impl Into<String>, message: impl Into<String>) -> LoadError {
        LoadError::new(vec![Problem::new(path, message)])
    }

    /// The problems listed: the first [`LoadError::MAX_LISTED`] found.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// How many more problems were found than are listed.
    pub fn omitted(&self) -> usize {
        self.omitted
    }

    /// The problems as `` "at `path`: message" `` lines, handy in tests:
    /// without their line and column, which `Display` adds.
    pub fn messages(&self) -> Vec<String> {
        let unlocated = |p: &Problem| Problem::new(p.path.clone(), p.message.clone()).to_string();
        self.problems.iter().map(unlocated).collect()
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.problems.as_slice(), self.omitted) {
            ([one], 0) => write!(f, "{one}"),
            (many, omitted) => {
                write!(f, "{} problems:", many.len() + omitted)?;
                for p in many {
                    write!(f, "\n  {p}")?;
                }
                if omitted > 0 {
                    write!(f, "\n  .. and {omitted} more problems")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// Collects problems while a tree is checked, dropping exact duplicates
/// (a subtree used twice reports its own problems once). The interpreter's
/// loader uses it too, so its problems read like the model's. It keeps the
/// first [`LoadError::MAX_LISTED`] problems and counts the others; duplicates
/// are found by hashing, so a file with a million problems is checked in
/// linear time.
#[derive(Debug, Default)]
pub struct Problems {
    list: Vec<Problem>,
    /// Hashes of every problem recorded, listed or not.
    seen: HashSet<u64>,
    omitted: usize,
    /// The path of the first problem that lists the node types.
    types_at: Option<String>,
}

impl Problems {
    /// Records `message` at `path`, unless the same problem is already recorded.
    pub fn push(&mut self, path: &str, message: impl Into<String>) {
        self.add(Problem::new(path, message));
    }

    /// Records `p`, unless the same problem is already recorded; the node
    /// types it lists are listed only by the first such problem.
    pub(crate) fn add(&mut self, mut p: Problem) {
        if p.lists_types.is_some() {
            match &self.types_at {
                Some(at) => p.point_to_types(at),
                None => self.types_at = Some(p.path.clone()),
            }
        }
        let mut h = std::hash::DefaultHasher::new();
        p.hash(&mut h);
        if !self.seen.insert(h.finish()) {
            return;
        }
        if self.list.len() < LoadError::MAX_LISTED {
            self.list.push(p);
        } else {
            self.omitted += 1;
        }
    }

    /// Records every problem of `e` (its omitted ones only as a count).
    pub fn extend(&mut self, e: &LoadError) {
        for p in e.problems() {
            self.add(p.clone());
        }
        self.omitted += e.omitted;
    }

    /// The number of problems recorded.
    pub fn len(&self) -> usize {
        self.list.len() + self.omitted
    }

    /// Whether no problem was recorded.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// `value` when no problem was recorded, otherwise every problem as a [`LoadError`].
    pub fn into_result<T>(self, value: T) -> Result<T, LoadError> {
        if self.list.is_empty() {
            Ok(value)
        } else {
            Err(LoadError {
                problems: self.list,
                omitted: self.omitted,
            })
        }
    }
}

/// JSON paths in the notation of the messages: `children[2].child.count`.
pub mod path {
    use core::fmt::Write;

    /// The longest name a path shows whole; longer ones are cut (`name..`).
    const MAX_NAME: usize = 64;

    /// `name`, cut after [`MAX_NAME`] characters.
    fn cut(name: &str) -> &str {
        match name.char_indices().nth(MAX_NAME) {
            Some((end, _)) => &name[..end],
            None => name,
        }
    }

    /// `path.name` (or `name` at the root).
    pub fn field(path: &str, name: &str) -> String {
        let mut p = path.to_string();
        push_field(&mut p, name);
        p
    }

    /// Appends `.name` (or `name` at the root) in place.
    pub fn push_field(path: &mut String, name: &str) {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(cut(name));
        if cut(name).len() < name.len() {
            path.push_str("..");
        }
    }

    /// `path[i]`.
    pub fn index(path: &str, i: usize) -> String {
        let mut p = path.to_string();
        push_index(&mut p, i);
        p
    }

    /// Appends `[i]` in place.
    pub fn push_index(path: &mut String, i: usize) {
        let _ = write!(path, "[{i}]");
    }

    /// `subtrees["id"]`: the root of a library subtree.
    pub fn subtree(id: &str) -> String {
        if cut(id).len() < id.len() {
            format!("subtrees[{:?}..]", cut(id))
        } else {
            format!("subtrees[{id:?}]")
        }
    }
}

//! What goes wrong when loading a tree: every problem, each at its JSON path.

use core::fmt;

/// One problem in a tree file: where it is and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Problem {
    /// The JSON path of the offending value, e.g. `children[2].child.count`
    /// (empty for the root; `subtrees["patrol"].child` inside a library subtree).
    pub path: String,
    /// What is wrong and what would be right.
    pub message: String,
}

impl Problem {
    /// A problem at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "at the root: {}", self.message)
        } else {
            write!(f, "at `{}`: {}", self.path, self.message)
        }
    }
}

/// Why a tree could not be loaded: all the problems found, in document order.
/// Loading never stops at the first problem, so one run shows every mistake.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    problems: Vec<Problem>,
}

impl LoadError {
    /// An error made of `problems` (at least one).
    pub fn new(problems: Vec<Problem>) -> LoadError {
        debug_assert!(!problems.is_empty());
        LoadError { problems }
    }

    /// A single problem.
    pub fn one(path: impl Into<String>, message: impl Into<String>) -> LoadError {
        LoadError::new(vec![Problem::new(path, message)])
    }

    /// Every problem found.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The problems as `"path: message"` lines, handy in tests and logs.
    pub fn messages(&self) -> Vec<String> {
        self.problems.iter().map(ToString::to_string).collect()
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.problems.as_slice() {
            [one] => write!(f, "{one}"),
            many => {
                write!(f, "{} problems:", many.len())?;
                for p in many {
                    write!(f, "\n  {p}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// Collects problems while a tree is checked, dropping exact duplicates
/// (a subtree used twice reports its own problems once). The interpreter's
/// loader uses it too, so its problems read like the model's.
#[derive(Debug, Default)]
pub struct Problems {
    list: Vec<Problem>,
}

impl Problems {
    /// Records `message` at `path`, unless the same problem is already recorded.
    pub fn push(&mut self, path: &str, message: impl Into<String>) {
        let p = Problem::new(path, message);
        if !self.list.contains(&p) {
            self.list.push(p);
        }
    }

    /// `value` when no problem was recorded, otherwise every problem as a [`LoadError`].
    pub fn into_result<T>(self, value: T) -> Result<T, LoadError> {
        if self.list.is_empty() {
            Ok(value)
        } else {
            Err(LoadError::new(self.list))
        }
    }
}

/// JSON paths in the notation of the messages: `children[2].child.count`.
pub mod path {
    /// `path.name` (or `name` at the root).
    pub fn field(path: &str, name: &str) -> String {
        if path.is_empty() {
            name.to_string()
        } else {
            format!("{path}.{name}")
        }
    }

    /// `path[i]`.
    pub fn index(path: &str, i: usize) -> String {
        format!("{path}[{i}]")
    }

    /// `subtrees["id"]`: the root of a library subtree.
    pub fn subtree(id: &str) -> String {
        format!("subtrees[{id:?}]")
    }
}

//! Everything the kit reports: a bad selector or script, a failed scenario
//! step, a golden trace that differs, a broken property, a file problem.

use core::fmt;
use std::path::PathBuf;

/// Why a kit call or a check failed. `Display` and `Debug` print the same
/// readable message, so a test that returns `Result<(), Error>` and fails
/// prints it as it is.
#[non_exhaustive]
pub enum Error {
    /// No node matches a selector.
    NoSuchNode {
        /// The selector.
        selector: String,
        /// The closest label, if any is close.
        hint: Option<String>,
        /// Otherwise, the labels a selector can name, in node order (the
        /// first few, so the message stays short).
        known: Vec<String>,
        /// How many labels `known` leaves out.
        more: usize,
    },
    /// A selector matches several nodes.
    Ambiguous {
        /// The selector.
        selector: String,
        /// Each match, as a selector that names it alone and its id:
        /// `` `sequence/Chase[1]` (#4) ``.
        matches: Vec<String>,
    },
    /// A stand-in was asked for a node that is not a condition, action, `wait` or `wait_until`,
    /// or with a script the node cannot follow.
    BadStandIn {
        /// The node, described.
        node: String,
        /// What is wrong.
        reason: String,
    },
    /// A scenario step's assertion failed.
    Scenario {
        /// The scenario's name.
        scenario: String,
        /// The tick number (counting from 1), or the last tick for a reset.
        tick: u64,
        /// The time of that tick.
        now: f64,
        /// What was expected and what happened.
        message: String,
        /// The events of that tick, one per line.
        events: String,
    },
    /// A property check failed.
    Property(String),
    /// A run differs from its golden trace.
    Golden {
        /// The golden file.
        path: PathBuf,
        /// The first difference.
        message: String,
    },
    /// A coverage requirement was not met.
    Coverage(String),
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A trace file is not valid (`behaved-observe`'s error).
    Trace {
        /// The file, if the trace came from one.
        path: Option<PathBuf>,
        /// Why.
        error: behaved_observe::Error,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoSuchNode {
                selector,
                hint,
                known,
                more,
            } => {
                write!(f, "no node matches `{selector}`")?;
                if let Some(h) = hint {
                    return write!(f, ", did you mean `{h}`?");
                }
                let known: Vec<String> = known.iter().map(|l| format!("`{l}`")).collect();
                write!(f, "; the tree's nodes: {}", known.join(", "))?;
                if *more > 0 {
                    write!(f, " and {more} more")?;
                }
                write!(f, " (a label, a path `parent/child`, or an id `#3`)")
            }
            Error::Ambiguous { selector, matches } => write!(
                f,
                "`{selector}` matches {} nodes: {}; select one by the path shown \
                 (`parent/child`, `[1]`: the second of the siblings it names) or by its id (`#3`)",
                matches.len(),
                matches.join(", ")
            ),
            Error::BadStandIn { node, reason } => write!(f, "cannot stand in for {node}: {reason}"),
            Error::Scenario {
                scenario,
                tick,
                now,
                message,
                events,
            } => write!(
                f,
                "scenario `{scenario}` failed at tick {tick} (now = {now}): {message}\n  events of tick {tick}:\n{events}"
            ),
            Error::Property(message) | Error::Coverage(message) => f.write_str(message),
            Error::Golden { path, message } => write!(
                f,
                "the run differs from the golden trace {}: {message}\n  \
                 (if the change is intended, run again with BEHAVED_GOLDEN=overwrite and review the file's diff)",
                path.display()
            ),
            Error::Io { path, error } => write!(f, "{}: {error}", path.display()),
            Error::Trace {
                path: Some(path),
                error,
            } => write!(f, "{}: {error}", path.display()),
            Error::Trace { path: None, error } => write!(f, "{error}"),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { error, .. } => Some(error),
            Error::Trace { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl From<behaved_observe::Error> for Error {
    fn from(error: behaved_observe::Error) -> Error {
        Error::Trace { path: None, error }
    }
}

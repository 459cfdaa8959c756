//! The trace files the server was given, read with behaved-observe's reader.

use std::path::{Path, PathBuf};

use behaved_observe::Trace;
use serde::Serialize;
use serde::ser::SerializeStruct;
use serde_json::{Value, json};

use crate::diff::{Comparison, compare};

/// The files a studio server may read: the trace it replays and, optionally,
/// a second trace of the same tree to compare it with. It reads no other
/// file; a dropped trace comes in the request's body.
#[derive(Debug, Clone)]
pub struct Files {
    trace: PathBuf,
    diff: Option<PathBuf>,
}

impl Files {
    /// Whether there is a second trace to compare with.
    pub(crate) fn compares(&self) -> bool {
        self.diff.is_some()
    }

    /// Serves the trace at `trace`. The file is read again on every request
    /// for it, so reloading the page shows a re-recorded trace.
    pub fn new(trace: impl Into<PathBuf>) -> Files {
        Files {
            trace: trace.into(),
            diff: None,
        }
    }

    /// Also serves `other`, a trace of the same tree, and where the two first differ.
    pub fn with_diff(mut self, other: impl Into<PathBuf>) -> Files {
        self.diff = Some(other.into());
        self
    }

    /// The second trace, if any.
    pub fn diff(&self) -> Option<&Path> {
        self.diff.as_deref()
    }

    /// The trace file.
    pub fn trace(&self) -> &Path {
        &self.trace
    }

    /// Reads and checks the trace file.
    pub fn load_trace(&self) -> TracePayload {
        load(&self.trace)
    }

    /// Reads both traces and compares them: `{"a", "b", "comparison"}`, where
    /// `a` and `b` are [`TracePayload`]s and `comparison` holds the first
    /// divergence (`tick`, `event`, `node`, `text`), `same` with the common
    /// ticks, `error` when the traces cannot be compared, or `null` when one
    /// of them is not a valid trace. `None` without a second trace.
    pub fn load_diff(&self) -> Option<Value> {
        // The second first: without one, the first is not read at all.
        let b = load(self.diff.as_ref()?);
        let a = self.load_trace();
        let comparison = match (&a, &b) {
            (TracePayload::Trace { trace: ta, .. }, TracePayload::Trace { trace: tb, .. }) => match compare(ta, tb) {
                Ok(c) => {
                    let text = c.describe(ta, tb);
                    match c {
                        Comparison::Same { first, last } => {
                            json!({ "same": true, "first": first, "last": last, "text": text })
                        }
                        Comparison::Diverge(d) => {
                            json!({ "tick": d.tick, "event": d.event, "node": d.node, "text": text })
                        }
                    }
                }
                Err(e) => json!({ "error": e.to_string() }),
            },
            _ => Value::Null,
        };
        Some(json!({ "a": a.to_json(), "b": b.to_json(), "comparison": comparison }))
    }
}

/// Reads and checks one trace file (see [`read_trace_file`]).
fn load(path: &Path) -> TracePayload {
    let name = file_name(path);
    match read_trace_file(path) {
        Ok(trace) => TracePayload::Trace {
            name,
            trace: Box::new(trace),
        },
        Err(message) => TracePayload::Error { name, message },
    }
}

/// Reads and checks the trace file at `path`: its size before it is read,
/// then as [`read_trace`] does.
pub(crate) fn read_trace_file(path: &Path) -> Result<Trace, String> {
    if let Some(why) = std::fs::metadata(path)
        .ok()
        .and_then(|m| crate::limits::trace_bytes_past_limit(m.len()))
    {
        return Err(why);
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    read_trace(&text)
}

/// Reads `text` with behaved-observe's reader, and refuses a trace past the
/// studio's limits ([`crate::limits`]) saying which.
pub(crate) fn read_trace(text: &str) -> Result<Trace, String> {
    if let Some(why) = crate::limits::trace_bytes_past_limit(text.len() as u64) {
        return Err(why);
    }
    let trace = Trace::from_json(text).map_err(|e| e.to_string())?;
    match crate::limits::trace_past_limits(trace.nodes.len(), trace.events.len()) {
        Some(why) => Err(why),
        None => Ok(trace),
    }
}

/// A trace as the page receives it: checked by [`Trace::from_json`], or the
/// reason it was rejected.
#[derive(Debug, Clone, PartialEq)]
pub enum TracePayload {
    /// A valid trace.
    Trace {
        /// The file's name, for the page's title.
        name: String,
        /// The trace.
        trace: Box<Trace>,
    },
    /// A file that is not a valid trace.
    Error {
        /// The file's name.
        name: String,
        /// behaved-observe's message saying what is wrong.
        message: String,
    },
}

impl TracePayload {
    /// Reads `text` with behaved-observe's reader; a trace past the
    /// studio's limits ([`crate::limits`]) is an error that says which.
    pub fn parse(name: &str, text: &str) -> TracePayload {
        match read_trace(text) {
            Ok(trace) => TracePayload::Trace {
                name: name.to_owned(),
                trace: Box::new(trace),
            },
            Err(message) => TracePayload::Error {
                name: name.to_owned(),
                message,
            },
        }
    }

    /// The JSON the page reads: `{"name", "trace"}` (with `"disagreement"`,
    /// the first event where the node table and the events disagree, if
    /// any) or `{"name", "error"}`
    /// (the server writes the same straight from [`Serialize`]).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or_else(|e| json!({ "name": self.name(), "error": e.to_string() }))
    }

    /// The file's name.
    pub fn name(&self) -> &str {
        match self {
            TracePayload::Trace { name, .. } | TracePayload::Error { name, .. } => name,
        }
    }
}

/// Written without a copy as a JSON value: a big trace goes straight to the page.
impl Serialize for TracePayload {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("TracePayload", 3)?;
        match self {
            TracePayload::Trace { name, trace } => {
                out.serialize_field("name", name)?;
                out.serialize_field("trace", trace)?;
                // A table that does not match the events: said, not drawn silently (see agreement.rs).
                if let Some(why) = crate::agreement::first_disagreement(trace) {
                    out.serialize_field("disagreement", &why)?;
                }
            }
            TracePayload::Error { name, message } => {
                out.serialize_field("name", name)?;
                out.serialize_field("error", message)?;
            }
        }
        out.end()
    }
}

/// The last component of `path`, for display.
fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or(path.as_os_str())
        .to_string_lossy()
        .into_owned()
}

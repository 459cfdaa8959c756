//! The trace files the server was given, read with bt-observe's reader.

use std::path::{Path, PathBuf};

use bt_observe::Trace;
use serde_json::{Value, json};

/// The files a studio server may read: the trace it replays. It reads no
/// other file; a dropped trace comes in the request's body.
#[derive(Debug, Clone)]
pub struct Files {
    trace: PathBuf,
}

impl Files {
    /// Serves the trace at `trace`. The file is read again on every request
    /// for it, so reloading the page shows a re-recorded trace.
    pub fn new(trace: impl Into<PathBuf>) -> Files {
        Files { trace: trace.into() }
    }

    /// The trace file.
    pub fn trace(&self) -> &Path {
        &self.trace
    }

    /// Reads and checks the trace file.
    pub fn load_trace(&self) -> TracePayload {
        let name = file_name(&self.trace);
        match std::fs::read_to_string(&self.trace) {
            Ok(text) => TracePayload::parse(&name, &text),
            Err(e) => TracePayload::Error {
                name,
                message: format!("cannot read {}: {e}", self.trace.display()),
            },
        }
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
        /// bt-observe's message saying what is wrong.
        message: String,
    },
}

impl TracePayload {
    /// Reads `text` with bt-observe's reader.
    pub fn parse(name: &str, text: &str) -> TracePayload {
        match Trace::from_json(text) {
            Ok(trace) => TracePayload::Trace {
                name: name.to_owned(),
                trace: Box::new(trace),
            },
            Err(e) => TracePayload::Error {
                name: name.to_owned(),
                message: e.to_string(),
            },
        }
    }

    /// The JSON the page reads: `{"name", "trace"}` or `{"name", "error"}`.
    pub fn to_json(&self) -> Value {
        match self {
            TracePayload::Trace { name, trace } => json!({ "name": name, "trace": trace }),
            TracePayload::Error { name, message } => json!({ "name": name, "error": message }),
        }
    }
}

/// The last component of `path`, for display.
fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or(path.as_os_str())
        .to_string_lossy()
        .into_owned()
}

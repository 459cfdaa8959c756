//! Everything that can be wrong with a node table, a trace or a request.

use core::fmt;

/// Why a node table, a trace or a request was rejected. Every message names
/// the offending row, event or value.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The node table has no rows.
    EmptyTable,
    /// A row's id is not its position (ids are depth-first pre-order positions).
    IdMismatch {
        /// The row.
        row: usize,
        /// The id written in it.
        id: u32,
    },
    /// The first row (the root) has a parent.
    RootHasParent {
        /// The parent written in row 0.
        parent: u32,
    },
    /// A row other than the first has no parent.
    SecondRoot {
        /// The row.
        row: usize,
    },
    /// A row's parent does not enclose it in depth-first pre-order (it comes
    /// later, or its subtree was already closed by an earlier row).
    NotPreOrder {
        /// The row.
        row: usize,
        /// Its parent.
        parent: u32,
    },
    /// A list of statuses does not have one entry per node.
    StatusCount {
        /// The number of nodes.
        expected: usize,
        /// The number of statuses given.
        found: usize,
    },
    /// A trace's `coverage` does not have one entry per node.
    CoverageCount {
        /// The number of nodes.
        expected: usize,
        /// The number of coverage entries given.
        found: usize,
    },
    /// A [`DataFlow`](crate::DataFlow) does not have one entry per node.
    FlowCount {
        /// The number of nodes.
        expected: usize,
        /// The number of data-flow entries given.
        found: usize,
    },
    /// A trace's `format` or `version` is not one this crate reads.
    Format {
        /// The format found.
        format: String,
        /// The version found.
        version: u32,
    },
    /// A trace event names a node the trace's table does not have.
    UnknownNode {
        /// The event's index in the trace.
        event: usize,
        /// The node it names.
        node: u32,
        /// The number of nodes in the table.
        nodes: usize,
    },
    /// A trace's `considered` event names a label the trace's `labels` do not have.
    UnknownLabel {
        /// The event's index in the trace.
        event: usize,
        /// The label's index it names.
        label: u32,
        /// The number of labels in the trace.
        labels: usize,
    },
    /// A trace's tick numbers do not follow one another.
    TickOrder {
        /// The event's index in the trace.
        event: usize,
        /// The tick number expected there.
        expected: u64,
        /// The tick number found.
        found: u64,
    },
    /// A tick outside the ticks a trace holds was asked for.
    TickOutOfRange {
        /// The tick asked for.
        tick: u64,
        /// The first tick the trace can show.
        first: u64,
        /// The last tick the trace can show.
        last: u64,
    },
    /// A trace's context entry is for a tick the trace does not hold, or
    /// does not follow the entry before it.
    ContextTick {
        /// The entry's index in the trace's `context`.
        entry: usize,
        /// The tick it names.
        tick: u64,
        /// The earliest tick it may name (the trace's first tick, or the one
        /// after the previous entry's).
        min: u64,
        /// The trace's last tick.
        last: u64,
    },
    /// A trace could not be read or written as JSON.
    Json(serde_json::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::EmptyTable => f.write_str("the node table is empty: a tree has at least its root"),
            Error::IdMismatch { row, id } => write!(
                f,
                "node table row {row} has id #{id}: ids must equal row numbers (depth-first pre-order)"
            ),
            Error::RootHasParent { parent } => {
                write!(f, "node table row 0 (the root) has parent #{parent}: the root has none")
            }
            Error::SecondRoot { row } => {
                write!(
                    f,
                    "node table row {row} has no parent: only row 0 (the root) may have none"
                )
            }
            Error::NotPreOrder { row, parent } => write!(
                f,
                "node table row {row} has parent #{parent}, which does not enclose it: \
                 the table is not in depth-first pre-order"
            ),
            Error::StatusCount { expected, found } => {
                write!(f, "{found} statuses given for {expected} nodes: give one per node")
            }
            Error::CoverageCount { expected, found } => write!(
                f,
                "the trace's coverage has {found} entries for {expected} nodes: give one per node"
            ),
            Error::FlowCount { expected, found } => write!(
                f,
                "the data flow has {found} entries for {expected} nodes: give one per node"
            ),
            Error::Format { format, version } => write!(
                f,
                "unsupported trace format `{format}` version {version}: this crate reads `{}` versions {} to {}",
                crate::trace::TRACE_FORMAT,
                crate::trace::OLDEST_TRACE_VERSION,
                crate::trace::TRACE_VERSION
            ),
            Error::ContextTick { entry, tick, min, last } => write!(
                f,
                "trace context entry {entry} is for tick {tick}, expected a tick from {min} to {last} \
                 (one entry per tick at most, in order, within the trace's ticks)"
            ),
            Error::UnknownNode { event, node, nodes } => write!(
                f,
                "trace event {event} names node #{node}, but the trace's table has {nodes} nodes"
            ),
            Error::UnknownLabel { event, label, labels } => write!(
                f,
                "trace event {event} names label {label}, but the trace's `labels` has {labels}"
            ),
            Error::TickOrder { event, expected, found } => {
                write!(f, "trace event {event} starts tick {found}, expected tick {expected}")
            }
            Error::TickOutOfRange { tick, first, last } => {
                write!(
                    f,
                    "tick {tick} is not in the trace, which holds ticks {first} to {last}"
                )
            }
            Error::Json(e) => write!(f, "trace JSON: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Json(e) => Some(e),
            _ => None,
        }
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Error {
        Error::Json(e)
    }
}

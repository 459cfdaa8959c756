//! Context values: what the user's context looked like after a tick, attached
//! to the trace so that a viewer can show it next to the tree.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The values attached to one tick of a trace: any serde view of the context
/// (a struct, a map of watched values, ...) as JSON, recorded after the tick
/// by [`TraceRecorder::record_context`](crate::TraceRecorder::record_context).
/// A viewer shows the entry of the tick at its cursor, or the last one before
/// it ([`Cursor::context`](crate::Cursor::context)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TickContext {
    /// The tick the values were recorded after.
    pub tick: u64,
    /// The values.
    pub values: Value,
}

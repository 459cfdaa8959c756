//! See inside a running behavior tree.
//!
//! Everything here works from two things every `behaved` tree has: the
//! [`Observer`](behaved_runtime::Observer) events of its ticks and its static node
//! table (`MyTree::NODES`, or any `&[NodeInfo]`), so it serves compiled and
//! interpreted trees alike and costs nothing when not used.
//!
//! - [`StatusSnapshot`]: the current state of every node (idle included).
//! - [`TraceRecorder`]: the events of the last ticks in a preallocated ring
//!   buffer; [`Trace`] is its JSON file format (see `TRACE_FORMAT.md`),
//!   optionally with a serde view of the context after each tick
//!   ([`TickContext`]).
//! - [`Cursor`]: time travel over a trace: the state of every node at any
//!   recorded tick, stepping forward and back.
//! - [`ConsoleLogger`]: one line per state change, like BehaviorTree.CPP's
//!   `StdCoutLogger`.
//! - [`View`]: the tree as ASCII/Unicode text, Graphviz DOT or Mermaid,
//!   coloured by state.
//! - [`Tee`]: two observers at once.
//! - [`DataFlow`]: what each node reads of the context; [`Woke`]: why a
//!   tree was ticked (a timer, a marked change of which inputs), recorded
//!   in a tick's context under [`WOKE_KEY`].
//!
//! ```
//! use behaved::prelude::*;
//! use behaved_observe::{Cursor, Tee, TraceRecorder, StatusSnapshot, View};
//!
//! struct Ctx { alarm: bool }
//!
//! behave! {
//!     tree Guard for Ctx {
//!         reactive selector {
//!             sequence { cond(|c| c.alarm), running },
//!             wait(5.0),
//!         }
//!     }
//! }
//!
//! let mut guard = Guard::new();
//! let mut ctx = Ctx { alarm: false };
//! let mut watch = Tee(StatusSnapshot::new(Guard::NODES)?, TraceRecorder::new(Guard::NODES, 1000)?);
//! guard.tick_observed(&mut ctx, 0.0, &mut watch);
//! ctx.alarm = true;
//! guard.tick_observed(&mut ctx, 1.0, &mut watch);
//!
//! // Now: the alarm branch runs, the wait was halted.
//! let now = View::new(Guard::NODES)?.with_statuses(watch.0.statuses())?;
//! assert_eq!(now.ascii(), "\
//! #0 reactive selector [running]
//! |-- #1 sequence [running]
//! |   |-- #2 cond(|c| c.alarm) [success]
//! |   `-- #3 running [running]
//! `-- #4 wait(5.0)
//! ");
//!
//! // Back to tick 1: the wait was running.
//! let trace = watch.1.trace();
//! let mut cursor = Cursor::new(&trace)?;
//! cursor.seek(1)?;
//! let then = View::new(cursor.nodes())?.with_statuses(cursor.statuses())?;
//! assert_eq!(then.ascii(), "\
//! #0 reactive selector [running]
//! |-- #1 sequence [failure]
//! |   |-- #2 cond(|c| c.alarm)
//! |   `-- #3 running
//! `-- #4 wait(5.0) [running]
//! ");
//! # Ok::<(), behaved_observe::Error>(())
//! ```

mod context;
mod cursor;
mod dataflow;
mod error;
mod labels;
mod logger;
mod recorder;
mod snapshot;
mod state;
mod table;
mod tee;
mod trace;
mod view;

pub use context::TickContext;
pub use cursor::Cursor;
pub use dataflow::{DataFlow, NodeFlow, WOKE_KEY, Woke, runs_user_code};
pub use error::Error;
pub use labels::Labels;
pub use logger::{ConsoleLogger, Fmt, Io, LogSink};
pub use recorder::TraceRecorder;
pub use snapshot::StatusSnapshot;
pub use state::NodeState;
pub use table::NodeRow;
pub use tee::Tee;
pub use trace::{
    Event, NodeCounts, OLDEST_TRACE_VERSION, TRACE_FORMAT, TRACE_VERSION, TickEvents, Trace, TraceNode, TraceStart,
};
pub use view::View;

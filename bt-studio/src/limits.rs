//! The largest bodies the servers read, one number for each kind of file
//! a request carries, whichever endpoint takes it, and how long a
//! connection may keep the server waiting.

use std::time::Duration;

/// The largest request body that carries a tree: the editor's check and
/// save (the document), and a game's `POST /api/reload` (`{"name", "tree"}`).
/// 50 MB of JSON holds about half a million nodes; a game's trees are
/// thousands of times smaller.
pub const MAX_TREE_BYTES: usize = 64 << 20;

/// The largest request body that carries a trace: one dropped on the
/// viewer's page, or the recording sent with the editor's preview (`{"doc", "picks",
/// "trace"}`, the tree included). A 100,000-event trace is about 5 MB.
pub const MAX_TRACE_BYTES: usize = 256 << 20;

/// How long a client may take to send a request's headers, counted from
/// when the server waits for a request: on a new connection, or on a kept
/// connection after its last answer (so it is also how long a connection
/// may sit idle between requests). Past it the connection is closed.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a request's body may pause (no bytes coming) before the
/// request is refused with `400` and the connection closed.
pub const BODY_PAUSE_TIMEOUT: Duration = Duration::from_secs(30);

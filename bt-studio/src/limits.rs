//! The largest bodies the servers read, one number for each kind of file
//! a request carries, whichever endpoint takes it; the largest trace and
//! tree the studio shows (the server refuses a bigger one with a message
//! that says the limit and the size, and so does the page, which gets these
//! numbers from `/catalogue.js`); and how long a connection may keep the
//! server waiting.

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

/// The most nodes of a trace the studio shows (a replay, a comparison, a
/// dropped trace, an editor's recording): the page lays out and draws every
/// node, and a million of them froze it for half a minute. A game's trees
/// have tens to thousands of nodes.
pub const MAX_TRACE_NODES: usize = 50_000;

/// The most events of a trace the studio shows: the page replays every
/// one. A 100,000-event trace opens in about a second.
pub const MAX_TRACE_EVENTS: usize = 1_000_000;

/// The most pages that follow a game's agents at once (WebSockets of the
/// live view): one more is refused with `503` and a message. Each follower
/// costs the server a task and a copy of what it is sent, never the game:
/// the game hands its ticks over without waiting, whoever follows.
pub const MAX_FOLLOWERS: usize = 64;

/// The most nodes of a tree the editor opens and checks.
pub const MAX_TREE_NODES: usize = 50_000;

/// Why the studio does not show a trace of `bytes` bytes of JSON, or none
/// when it is within [`MAX_TRACE_BYTES`]. Said before the file is read.
pub fn trace_bytes_past_limit(bytes: u64) -> Option<String> {
    (bytes > MAX_TRACE_BYTES as u64)
        .then(|| format!("a trace of {bytes} bytes is past the studio's limit of {MAX_TRACE_BYTES} bytes (256 MiB)"))
}

/// Why the studio does not show a trace of `nodes` nodes and `events`
/// events, or none when it is within [`MAX_TRACE_NODES`] and
/// [`MAX_TRACE_EVENTS`].
pub fn trace_past_limits(nodes: usize, events: usize) -> Option<String> {
    if nodes > MAX_TRACE_NODES {
        Some(format!(
            "a trace of {nodes} nodes is past the studio's limit of {MAX_TRACE_NODES} nodes"
        ))
    } else if events > MAX_TRACE_EVENTS {
        Some(format!(
            "a trace of {events} events is past the studio's limit of {MAX_TRACE_EVENTS} events"
        ))
    } else {
        None
    }
}

/// Why the editor does not open a tree file of `bytes` bytes, or none when
/// it is within [`MAX_TREE_BYTES`]. Said before the file is read.
pub fn tree_bytes_past_limit(bytes: u64) -> Option<String> {
    (bytes > MAX_TREE_BYTES as u64)
        .then(|| format!("a tree of {bytes} bytes is past the studio's limit of {MAX_TREE_BYTES} bytes (64 MiB)"))
}

/// Why the editor does not open the JSON tree `doc`, or none when it has
/// at most [`MAX_TREE_NODES`] nodes (JSON objects with a `"type"`).
pub fn tree_past_limits(doc: &serde_json::Value) -> Option<String> {
    let mut nodes = 0usize;
    let mut stack = vec![doc];
    while let Some(value) = stack.pop() {
        match value {
            serde_json::Value::Object(fields) => {
                nodes += usize::from(fields.contains_key("type"));
                stack.extend(fields.values());
            }
            serde_json::Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    (nodes > MAX_TREE_NODES)
        .then(|| format!("a tree of {nodes} nodes is past the studio's limit of {MAX_TREE_NODES} nodes"))
}

/// How long a client may take to send a request's headers, counted from
/// when the server waits for a request: on a new connection, or on a kept
/// connection after its last answer (so it is also how long a connection
/// may sit idle between requests). Past it the connection is closed.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a request's body may pause (no bytes coming) before the
/// request is refused with `400` and the connection closed.
pub const BODY_PAUSE_TIMEOUT: Duration = Duration::from_secs(30);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_past_a_limit_is_refused_with_the_limit_and_its_size() {
        assert_eq!(trace_past_limits(MAX_TRACE_NODES, MAX_TRACE_EVENTS), None);
        assert_eq!(
            trace_past_limits(MAX_TRACE_NODES + 1, 10).as_deref(),
            Some("a trace of 50001 nodes is past the studio's limit of 50000 nodes")
        );
        assert_eq!(
            trace_past_limits(10, 2_000_000).as_deref(),
            Some("a trace of 2000000 events is past the studio's limit of 1000000 events")
        );
        assert_eq!(trace_bytes_past_limit(MAX_TRACE_BYTES as u64), None);
        assert_eq!(
            trace_bytes_past_limit(300_000_000).as_deref(),
            Some("a trace of 300000000 bytes is past the studio's limit of 268435456 bytes (256 MiB)")
        );
    }

    #[test]
    fn a_tree_past_the_limit_is_refused_with_the_limit_and_its_size() {
        let tree = |leaves: usize| {
            let children = vec![serde_json::json!({"type": "action", "name": "x"}); leaves];
            serde_json::json!({"type": "sequence", "children": children})
        };
        assert_eq!(tree_past_limits(&tree(MAX_TREE_NODES - 1)), None);
        assert_eq!(
            tree_past_limits(&tree(MAX_TREE_NODES)).as_deref(),
            Some("a tree of 50001 nodes is past the studio's limit of 50000 nodes")
        );
        assert_eq!(
            tree_bytes_past_limit(100_000_000).as_deref(),
            Some("a tree of 100000000 bytes is past the studio's limit of 67108864 bytes (64 MiB)")
        );
    }
}

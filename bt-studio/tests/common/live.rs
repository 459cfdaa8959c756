//! What the tests of `/api/live` share: a page's WebSocket and the window
//! a page holds.

use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use behaved_observe::{Event, TickContext, Trace, TraceStart};
use behaved_studio::{ObservedAgent, Studio};
use serde_json::Value;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// A studio on a free loopback port, and the observer of its first agent
/// (agent 0): a guard named `name`.
pub fn serve_guard(name: &str) -> (Studio, ObservedAgent) {
    let studio = Studio::serve("127.0.0.1:0").unwrap();
    let observer = studio.agent(name, super::guard::Guard::NODES).unwrap();
    (studio, observer)
}

/// A page's WebSocket to the studio.
pub type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// Opens a WebSocket to `path` at `addr`; its reads time out after 20 s, so
/// that messages that never come fail the test instead of hanging it.
pub fn connect(addr: SocketAddr, path: &str) -> Socket {
    let (socket, _) = tungstenite::connect(format!("ws://{addr}{path}")).unwrap();
    if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
        stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    }
    socket
}

/// The next message of the server, which must be JSON text.
pub fn next(socket: &mut Socket) -> Value {
    match socket.read().unwrap() {
        Message::Text(text) => serde_json::from_str(&text).unwrap(),
        other => panic!("a text message, not {other:?}"),
    }
}

/// Sends `command` to the server as JSON text.
pub fn send(socket: &mut Socket, command: Value) {
    socket.send(Message::Text(command.to_string().into())).unwrap();
}

/// The window a page holds, rebuilt from the server's messages as the page
/// does: a `trace` replaces it, an `append` drops what its `start` moved past
/// and adds the new events and tick contexts.
pub fn apply(window: &mut Option<Trace>, message: &Value) {
    if let Some(trace) = message.get("trace") {
        *window = Some(serde_json::from_value(trace.clone()).unwrap());
        return;
    }
    let Some(append) = message.get("append") else {
        return;
    };
    let window = window.as_mut().expect("the whole window comes first");
    if let Some(start) = append.get("start").filter(|s| !s.is_null()) {
        let start: TraceStart = serde_json::from_value(start.clone()).unwrap();
        window
            .events
            .drain(..(start.dropped_events - window.start.dropped_events) as usize);
        window.context.retain(|c| c.tick >= start.tick);
        window.start = start;
    }
    let events: Vec<Event> = serde_json::from_value(append["events"].clone()).unwrap();
    window.events.extend(events);
    let context: Vec<TickContext> = serde_json::from_value(append["context"].clone()).unwrap();
    for c in context {
        match window.context.last_mut() {
            Some(last) if last.tick == c.tick => *last = c,
            Some(last) if last.tick > c.tick => {}
            _ => window.context.push(c),
        }
    }
}

/// The tick contexts a server's message carries: an `append`'s new ones, or
/// a whole `trace`'s; none for other messages.
pub fn context_entries(message: &Value) -> Vec<Value> {
    message["append"]["context"]
        .as_array()
        .or(message["trace"]["context"].as_array())
        .cloned()
        .unwrap_or_default()
}

//! The live view's server without a browser: the agent list, the WebSocket's
//! Origin check, and what the observer costs the game with nobody watching.

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

use bt::observe::Trace;
use bt::prelude::*;
use common::guard::{Guard, Post};
use serde_json::{Value, json};

/// Asks for a WebSocket at `path` with `origin` and returns the answer's status.
fn upgrade(addr: SocketAddr, path: &str, origin: Option<&str>) -> u16 {
    let mut stream = TcpStream::connect(addr).unwrap();
    let origin = origin.map(|o| format!("Origin: {o}\r\n")).unwrap_or_default();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{origin}\r\n"
    )
    .unwrap();
    let mut head = Vec::new();
    let mut byte = [0];
    while !head.ends_with(b"\r\n\r\n") {
        stream.read_exact(&mut byte).unwrap();
        head.push(byte[0]);
    }
    let head = String::from_utf8(head).unwrap();
    head.split(' ').nth(1).unwrap().parse().unwrap()
}

#[test]
fn the_agents_are_listed_in_the_order_they_came() {
    let studio = bt_studio::Studio::serve("127.0.0.1:0").unwrap();
    let first = studio.agent("guard#0", Guard::NODES).unwrap();
    let _second = studio.agent("guard#1", Guard::NODES).unwrap();
    drop(first);
    let answer = common::get(studio.addr(), "/api/agents");
    assert_eq!(answer.status, 200);
    let list: Value = serde_json::from_str(&answer.body).unwrap();
    let nodes = Guard::NODES.len();
    assert_eq!(
        list,
        json!({"agents": [
            {"id": 0, "name": "guard#0", "nodes": nodes, "gone": true},
            {"id": 1, "name": "guard#1", "nodes": nodes, "gone": false},
        ]})
    );
    // The live server has no trace file: the page knows it is live by /api/agents.
    assert_eq!(common::get(studio.addr(), "/api/trace").status, 404);
    assert_eq!(common::get(studio.addr(), "/").status, 200);
}

#[test]
fn only_the_studios_own_pages_may_open_a_websocket() {
    let studio = bt_studio::Studio::serve("127.0.0.1:0").unwrap();
    let _agent = studio.agent("guard#0", Guard::NODES).unwrap();
    let addr = studio.addr();
    assert_eq!(upgrade(addr, "/api/live/0", Some("http://evil.example")), 403);
    assert_eq!(upgrade(addr, "/api/live/0", Some("http://localhost:1")), 403);
    assert_eq!(upgrade(addr, "/api/live/7", Some(&format!("http://{addr}"))), 404);
    assert_eq!(upgrade(addr, "/api/live/0", Some(&format!("http://{addr}"))), 101);
}

#[test]
fn a_bad_node_table_is_refused() {
    let studio = bt_studio::Studio::serve("127.0.0.1:0").unwrap();
    let mut trace: Trace = common::guard_trace();
    trace.nodes[3].parent = Some(9);
    let error = studio.agent("broken", &trace.nodes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "node table row 3 has parent #9, which does not enclose it: the table is not in depth-first pre-order"
    );
}

#[test]
fn with_nobody_following_the_observer_records_nothing() {
    let studio = bt_studio::Studio::serve("127.0.0.1:0").unwrap();
    let mut observer = studio.agent("guard#0", Guard::NODES).unwrap();
    let mut tree = Guard::new();
    let mut post = Post {
        now: 0.0,
        guard: 0.0,
        intruder: None,
        alarms: 0,
    };
    for tick in 0..100 {
        post.now = f64::from(tick);
        tree.tick_observed(&mut post, f64::from(tick), &mut observer);
    }
    assert_eq!(observer.dropped_events(), 0);
    assert!(!observer.is_recording(), "no buffer while nobody follows");
}

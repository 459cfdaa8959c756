//! The live view's server without a browser: the agent list, the WebSocket's
//! Origin check, and what the observer costs the game with nobody watching.

mod common;

use std::net::SocketAddr;

use behaved::prelude::*;
use behaved_observe::{Tee, Trace, TraceRecorder};
use common::guard::{Guard, Post};
use common::live::apply;
use serde_json::{Value, json};
use tungstenite::client::IntoClientRequest;
use tungstenite::stream::MaybeTlsStream;

/// Asks for a WebSocket at `path` with `origin` and returns the answer's status.
fn upgrade(addr: SocketAddr, path: &str, origin: Option<&str>) -> u16 {
    let mut request = format!("ws://{addr}{path}").into_client_request().unwrap();
    if let Some(origin) = origin {
        request.headers_mut().insert("origin", origin.parse().unwrap());
    }
    match tungstenite::connect(request) {
        Ok((_, answer)) => answer.status().as_u16(),
        Err(tungstenite::Error::Http(answer)) => answer.status().as_u16(),
        Err(e) => panic!("no answer to the upgrade: {e}"),
    }
}

#[test]
fn the_agents_are_listed_in_the_order_they_came() {
    let (studio, first) = common::live::serve_guard("guard#0");
    let _second = studio.agent("guard#1", Guard::NODES).unwrap();
    drop(first);
    let answer = common::get(studio.addr(), "/api/agents");
    assert_eq!(answer.status, 200);
    let list: Value = serde_json::from_str(&answer.body).unwrap();
    let nodes = Guard::NODES.len();
    assert_eq!(
        list,
        json!({"version": 3, "agents": [
            {"id": 0, "name": "guard#0", "nodes": nodes, "gone": true},
            {"id": 1, "name": "guard#1", "nodes": nodes, "gone": false},
        ]})
    );
    // The live server has no trace file: the page knows it is live by /api/agents.
    assert_eq!(common::get(studio.addr(), "/api/trace").status, 404);
    assert_eq!(common::get(studio.addr(), "/").status, 200);
}

#[test]
fn a_page_that_asks_again_is_sent_only_the_agents_that_changed() {
    let studio = behaved_studio::Studio::serve("127.0.0.1:0").unwrap();
    let agents = |since: u64| -> Value {
        let answer = common::get(studio.addr(), &format!("/api/agents?since={since}"));
        assert_eq!(answer.status, 200);
        serde_json::from_str(&answer.body).unwrap()
    };
    let mut observers: Vec<_> = (0..1000)
        .map(|i| studio.agent(&format!("dog#{i}"), Guard::NODES).unwrap())
        .collect();
    let all = agents(0);
    assert_eq!(all["agents"].as_array().unwrap().len(), 1000);
    let version = all["version"].as_u64().unwrap();
    assert_eq!(
        agents(version),
        json!({"version": version, "agents": []}),
        "nothing changed"
    );
    // One agent goes, one comes: those two are sent, nothing else.
    drop(observers.remove(500));
    let _late = studio.agent("late", Guard::NODES).unwrap();
    let nodes = Guard::NODES.len();
    let changed = agents(version);
    assert_eq!(
        changed["agents"],
        json!([
            {"id": 500, "name": "dog#500", "nodes": nodes, "gone": true},
            {"id": 1000, "name": "late", "nodes": nodes, "gone": false},
        ])
    );
    let now = changed["version"].as_u64().unwrap();
    assert_eq!(now, version + 2);
    assert_eq!(agents(now)["agents"], json!([]));
    assert_eq!(
        common::get(studio.addr(), "/api/agents?since=soon").status,
        400,
        "a version is a number"
    );
}

#[test]
fn only_the_studios_own_pages_may_open_a_websocket() {
    let (studio, _agent) = common::live::serve_guard("guard#0");
    let addr = studio.addr();
    assert_eq!(upgrade(addr, "/api/live/0", Some("http://evil.example")), 403);
    assert_eq!(upgrade(addr, "/api/live/0", Some("http://localhost:1")), 403);
    assert_eq!(upgrade(addr, "/api/live/7", Some(&format!("http://{addr}"))), 404);
    assert_eq!(upgrade(addr, "/api/live/0", Some(&format!("http://{addr}"))), 101);
}

#[test]
fn a_bad_node_table_is_refused() {
    let studio = behaved_studio::Studio::serve("127.0.0.1:0").unwrap();
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
    let (_studio, mut observer) = common::live::serve_guard("guard#0");
    let mut tree = Guard::new();
    let mut post = Post::at_start();
    for tick in 0..100 {
        post.now = f64::from(tick);
        tree.tick_observed(&mut post, f64::from(tick), &mut observer);
    }
    assert_eq!(observer.dropped_events(), 0);
    assert!(!observer.is_recording(), "no buffer while nobody follows");
}

/// A page's WebSocket to `/api/live/{id}`, reading the server's messages.
struct Page(common::live::Socket);

impl Page {
    fn follow(addr: SocketAddr, id: usize) -> Page {
        let (socket, answer) = tungstenite::connect(format!("ws://{addr}/api/live/{id}")).unwrap();
        assert_eq!(answer.status().as_u16(), 101);
        // Messages that never come fail the test instead of hanging it.
        if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream
                .set_read_timeout(Some(std::time::Duration::from_secs(20)))
                .unwrap();
        }
        Page(socket)
    }

    /// The next text message, as JSON.
    fn next(&mut self) -> Value {
        common::live::next(&mut self.0)
    }
}

#[test]
fn a_page_gets_the_window_once_then_only_what_is_new() {
    let (studio, observer) = common::live::serve_guard("guard");
    let mut page = Page::follow(studio.addr(), 0);
    assert_eq!(page.next(), json!({ "following": "guard", "mayControl": true }));
    // The page follows from here: a recorder of the server's window size sees what the server does.
    let reference = TraceRecorder::new(Guard::NODES, behaved_studio::HISTORY).unwrap();
    let mut watch = Tee(observer, reference);
    let mut tree = Guard::new();
    let mut post = Post::at_start();
    let (mut window, mut wholes, mut appends, mut tick) = (None, 0, 0, 0u32);
    // Batches of 100 ticks, each read back before the next: 30 batches go past the window's size.
    for _ in 0..30 {
        for _ in 0..100 {
            tick += 1;
            let now = post.patrol_tick(tick);
            tree.tick_observed(&mut post, now, &mut watch);
            let values = json!({ "guard": post.guard, "alarms": post.alarms });
            watch.0.record_context(&values).unwrap();
            watch.1.record_context(&values).unwrap();
        }
        while window.as_ref().is_none_or(|w: &Trace| w.last_tick() < u64::from(tick)) {
            let message = page.next();
            assert_eq!(message["name"], "guard");
            match (message.get("trace"), message.get("append")) {
                (Some(_), None) => wholes += 1,
                (None, Some(append)) => {
                    appends += 1;
                    assert!(
                        append["events"].as_array().unwrap().len() <= 100 * 20,
                        "only the new events"
                    );
                }
                other => panic!("a message with {other:?}"),
            }
            apply(&mut window, &message);
        }
        // The increments rebuild exactly the server's window (a recorder of its size).
        assert_eq!(window.as_ref().unwrap(), &watch.1.trace(), "after tick {tick}");
    }
    assert_eq!(wholes, 1, "the whole window is sent once");
    assert!(
        appends >= 29,
        "{appends} increments: one a batch at least, after the first"
    );
    let window = window.unwrap();
    assert!(window.start.dropped_events > 0, "the window dropped its oldest ticks");
    assert_eq!(window.context.last().unwrap().tick, 3000);
    assert_eq!(watch.0.dropped_events(), 0);
}

#[test]
fn the_first_ticks_values_reach_a_new_page_with_that_tick_not_the_next() {
    let (studio, mut observer) = common::live::serve_guard("guard");
    let mut tree = Guard::new();
    let mut post = Post::at_start();
    // Ticked and its values recorded before any page follows: nothing is sent of these.
    for tick in 1..=3u32 {
        tree.tick_observed(&mut post, f64::from(tick), &mut observer);
        observer.record_context(&json!({ "tick": tick })).unwrap();
    }
    let mut page = Page::follow(studio.addr(), 0);
    assert_eq!(page.next(), json!({ "following": "guard", "mayControl": true }));
    let mut window = None;
    for tick in 4..=6u32 {
        tree.tick_observed(&mut post, f64::from(tick), &mut observer);
        observer.record_context(&json!({ "tick": tick })).unwrap();
        // Without a next tick, the page gets this tick's values.
        while window
            .as_ref()
            .is_none_or(|w: &Trace| w.context.last().is_none_or(|c| c.values["tick"] != tick))
        {
            apply(&mut window, &page.next());
        }
        let window = window.as_ref().unwrap();
        let ticks: Vec<u64> = window.context.iter().map(|c| c.tick).collect();
        assert_eq!(ticks, (1..=tick - 3).map(u64::from).collect::<Vec<_>>(), "tick {tick}");
        assert_eq!(window.last_tick(), u64::from(tick - 3));
    }
}

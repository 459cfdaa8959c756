//! Pushing a saved tree to a running game from a separate editor
//! (`behaved-studio edit tree.json --push http://127.0.0.1:7878/`).
//!
//! The game's live view ([`Studio`](crate::Studio)) takes a tree at `POST
//! /api/reload` (`{"name", "tree"}`) and queues it for
//! [`Studio::take_reload`](crate::Studio::take_reload), as its own embedded
//! editor does. Only a program on the game's machine may push: the endpoint
//! refuses a connection from another address (even when the live view is
//! served on all interfaces, to be watched from elsewhere), and a request
//! with an `Origin`, which a browser sends with every POST, so that a web
//! page cannot push a tree into the game either; both before the body is
//! read. On loopback the live view answers only loopback hosts too.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Json, State};
use axum::http::{Request, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use serde::Deserialize;
use serde_json::json;

use super::{Registry, Reload};

/// Where a game takes pushed trees.
const RELOAD_PATH: &str = "/api/reload";
/// How long a push waits for the game before it gives up.
const PUSH_TIMEOUT: Duration = Duration::from_secs(10);

/// The body of `POST /api/reload`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Pushed {
    /// The file the tree was saved as.
    name: String,
    /// The tree's JSON text.
    tree: String,
}

/// The game's side: `POST /api/reload` queues the tree for the game.
/// Served with the peer's address (`ConnectInfo<SocketAddr>`).
pub(crate) fn reload_router(registry: Arc<Registry>) -> Router {
    Router::new()
        .route(RELOAD_PATH, post(receive))
        .layer(DefaultBodyLimit::max(crate::limits::MAX_TREE_BYTES))
        .route_layer(middleware::from_fn(programs_on_this_machine))
        .with_state(registry)
}

/// Lets through only requests from this machine that no web page sent,
/// before their body is read.
async fn programs_on_this_machine(
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    request: axum::extract::Request,
    next: Next,
) -> Response {
    let why = if !crate::this_machine::from_this_machine(peer) {
        "a game takes pushed trees only from programs on its own machine"
    } else if request.headers().contains_key(header::ORIGIN) {
        "a game takes pushed trees from behaved-studio edit --push, not from web pages"
    } else {
        return next.run(request).await;
    };
    (StatusCode::FORBIDDEN, Json(json!({ "error": why }))).into_response()
}

/// `POST /api/reload`: `202` once queued.
async fn receive(State(registry): State<Arc<Registry>>, Json(pushed): Json<Pushed>) -> Response {
    let name = pushed.name.clone();
    registry.queue_reload(Reload {
        name: pushed.name,
        tree: pushed.tree,
    });
    (StatusCode::ACCEPTED, Json(json!({ "queued": name }))).into_response()
}

/// A running game's live view, where a separate editor pushes saved trees.
#[derive(Debug, Clone)]
pub(crate) struct Game {
    /// `host:port`.
    authority: String,
}

impl Game {
    /// The game whose live view is at `url` (`http://host:port/`, as
    /// [`Studio::url`](crate::Studio::url) gives it).
    pub fn at(url: &str) -> Result<Game, String> {
        let bad = |why: &str| Err(format!("cannot push to {url:?}: {why}"));
        let Ok(uri) = url.parse::<Uri>() else {
            return bad("not a URL");
        };
        if uri.scheme_str() != Some("http") {
            return bad("a game's live view is an http:// URL");
        }
        if !matches!(uri.path(), "" | "/") || uri.query().is_some() {
            return bad("give the live view's address, http://host:port/");
        }
        match uri.authority() {
            Some(a) if a.port_u16().is_some() => Ok(Game {
                authority: a.as_str().to_owned(),
            }),
            _ => bad("name the host and the port, http://127.0.0.1:7878/"),
        }
    }

    /// Sends the tree saved as `name` to the game. Runs on a thread of its
    /// own (the caller may be on an async runtime's blocking pool) and
    /// gives up after [`PUSH_TIMEOUT`].
    pub fn push(&self, name: &str, tree: &str) -> Result<(), String> {
        let body = json!({ "name": name, "tree": tree }).to_string();
        let authority = self.authority.clone();
        let sent = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| e.to_string())?;
            runtime.block_on(async {
                tokio::time::timeout(PUSH_TIMEOUT, send(&authority, body))
                    .await
                    .unwrap_or_else(|_| Err(format!("the game at {authority} did not answer")))
            })
        })
        .join()
        .unwrap_or_else(|_| Err("the push failed".to_owned()));
        sent.map_err(|why| format!("not sent to the game: {why}"))
    }
}

/// `POST /api/reload` to `authority` with `body`.
async fn send(authority: &str, body: String) -> Result<(), String> {
    let stream = tokio::net::TcpStream::connect(authority)
        .await
        .map_err(|e| format!("cannot reach {authority}: {e}"))?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    let request = Request::post(RELOAD_PATH)
        .header(header::HOST, authority)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| e.to_string())?;
    let answer = sender.send_request(request).await.map_err(|e| e.to_string())?;
    let status = answer.status();
    if status == StatusCode::ACCEPTED {
        return Ok(());
    }
    let text = answer
        .into_body()
        .collect()
        .await
        .map(|b| String::from_utf8_lossy(&b.to_bytes()).into_owned())
        .unwrap_or_default();
    let why = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v["error"].as_str().map(str::to_owned))
        .unwrap_or(text);
    Err(format!("{authority} answered {status}: {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Posts `body` with `headers` to a reload endpoint that sees the
    /// connection as coming from `peer`: the status and the answer.
    fn push_from(peer: &str, headers: &str, body: &str) -> (Arc<Registry>, String) {
        let registry = Arc::new(Registry::default());
        let app = reload_router(Arc::clone(&registry));
        let answer = crate::this_machine::testing::post_from(app, peer, RELOAD_PATH, headers, body);
        (registry, answer)
    }

    #[test]
    fn only_programs_on_the_games_machine_push_and_before_the_body_is_read() {
        let json = "Content-Type: application/json\r\n";
        let tree = r#"{"name": "guard.json", "tree": "{}"}"#;
        let (registry, answer) = push_from("127.0.0.1:5000", json, tree);
        assert!(answer.starts_with("HTTP/1.1 202"), "{answer}");
        assert_eq!(registry.reloads.lock().unwrap().len(), 1);
        // Served on all interfaces, another machine cannot push.
        let (registry, answer) = push_from("192.0.2.7:5000", json, tree);
        assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
        assert!(
            answer.ends_with(r#"{"error":"a game takes pushed trees only from programs on its own machine"}"#),
            "{answer}"
        );
        assert!(registry.reloads.lock().unwrap().is_empty());
        // A web page is refused before its body is read: not even malformed JSON is looked at.
        let (registry, answer) = push_from("[::1]:5000", &format!("{json}Origin: http://evil.example\r\n"), "{");
        assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
        assert!(answer.contains("not from web pages"), "{answer}");
        assert!(registry.reloads.lock().unwrap().is_empty());
        let (_, answer) = push_from("127.0.0.1:5000", json, "{");
        assert!(
            answer.starts_with("HTTP/1.1 400"),
            "a program's malformed JSON: {answer}"
        );
        // The same limit as the editor's for a body that carries a tree.
        let registry = Arc::new(Registry::default());
        let answer = crate::this_machine::testing::post_sized(
            reload_router(Arc::clone(&registry)),
            RELOAD_PATH,
            crate::limits::MAX_TREE_BYTES + 1,
        );
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
        assert!(registry.reloads.lock().unwrap().is_empty());
    }
}

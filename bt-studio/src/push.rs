//! Pushing a saved tree to a running game from a separate editor
//! (`bt-studio edit tree.json --push http://127.0.0.1:7878/`).
//!
//! The game's live view ([`Studio`](crate::Studio)) takes a tree at `POST
//! /api/reload` (`{"name", "tree"}`) and queues it for
//! [`Studio::take_reload`](crate::Studio::take_reload), as its own embedded
//! editor does. A browser sends an `Origin` with every POST, so the endpoint
//! refuses requests that carry one: a web page cannot push a tree into the
//! game, only a program such as the editor's server can; on loopback the
//! live view answers only loopback hosts too.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Json, State};
use axum::http::{HeaderMap, Request, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use serde::Deserialize;
use serde_json::json;

use crate::live::{Registry, Reload};

/// Where a game takes pushed trees.
const RELOAD_PATH: &str = "/api/reload";
/// The largest tree a game takes.
const MAX_TREE: usize = 64 << 20;
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
pub(crate) fn reload_router(registry: Arc<Registry>) -> Router {
    Router::new()
        .route(RELOAD_PATH, post(receive))
        .layer(DefaultBodyLimit::max(MAX_TREE))
        .with_state(registry)
}

/// `POST /api/reload`: `202` once queued, `403` from a web page.
async fn receive(State(registry): State<Arc<Registry>>, headers: HeaderMap, Json(pushed): Json<Pushed>) -> Response {
    if headers.contains_key(header::ORIGIN) {
        let why = "a game takes pushed trees from bt-studio edit --push, not from web pages";
        return (StatusCode::FORBIDDEN, Json(json!({ "error": why }))).into_response();
    }
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

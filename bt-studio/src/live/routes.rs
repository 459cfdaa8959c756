//! The live view's server: the page, the list of a game's agents and the
//! WebSocket that follows one of them. Reads what the game thread shares
//! ([`crate::live`]); the game side knows nothing of it.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path as AxumPath, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::json;

use super::{AgentShared, Following, Registry, Sent};
use crate::assets::{ASSETS, asset_routes};
use crate::this_machine::{from_a_program_or_own_page, own_pages_only};

/// The live view's routes: the embedded page, `GET /api/mode`
/// (`{"mode": "live", "editor"}`: whether the game serves the editor),
/// `GET /api/agents` (the
/// agents: id, name, node count, whether it is gone; see [`agents`]), `GET /api/live/{id}`,
/// a WebSocket that sends the followed agent's window of history once, then
/// what is new (see `History::update`), `POST /api/reload` (trees pushed by
/// a separate editor, [`super::push`]) and, when the game serves one, the
/// `editor` at `/edit`.
pub(crate) fn live_router(registry: Arc<Registry>, editor: Option<Router>) -> Router {
    let own = middleware::from_fn_with_state("lists agents", own_pages_only);
    let mode = json!({ "mode": "live", "editor": editor.is_some() });
    let app = asset_routes(ASSETS, "/")
        .route("/api/mode", get(move || async move { axum::Json(mode) }))
        .route("/api/agents", get(agents).route_layer(own))
        .route("/api/live/{id}", get(live))
        .with_state(Arc::clone(&registry))
        .merge(super::push::reload_router(registry));
    match editor {
        Some(editor) => app.merge(editor),
        None => app,
    }
}

/// The query of `GET /api/agents`.
#[derive(serde::Deserialize)]
struct AgentsQuery {
    /// The `version` of the page's last list: only the agents changed since are sent.
    since: Option<u64>,
}

/// `GET /api/agents?since=..`: `{"version", "agents"}`, every agent (or,
/// with `since`, those registered or gone after that version) with its id,
/// name, node count and whether it is gone. A page that asks every few
/// seconds with the version it got is sent only what changed.
async fn agents(Query(query): Query<AgentsQuery>, State(registry): State<Arc<Registry>>) -> Response {
    let (version, changed) = registry.changed_since(query.since.unwrap_or(0));
    let list: Vec<_> = changed
        .iter()
        .map(|(id, a)| {
            json!({ "id": id, "name": a.name, "nodes": a.tree().1.len(), "gone": a.gone.load(Ordering::Relaxed) })
        })
        .collect();
    axum::Json(json!({ "version": version, "agents": list })).into_response()
}

/// How often a followed agent's window is sent, at most.
const LIVE_PERIOD: Duration = Duration::from_millis(50);

/// `GET /api/live/{id}`: a WebSocket from a page of this server only.
async fn live(
    ws: WebSocketUpgrade,
    AxumPath(id): AxumPath<usize>,
    headers: HeaderMap,
    State(registry): State<Arc<Registry>>,
) -> Response {
    if !from_a_program_or_own_page(&headers) {
        return (
            StatusCode::FORBIDDEN,
            "behaved-studio accepts WebSockets from its own pages only",
        )
            .into_response();
    }
    let agent = registry
        .agents
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(id)
        .cloned();
    match agent {
        Some(agent) => ws.on_upgrade(move |socket| follow(socket, agent)),
        None => (StatusCode::NOT_FOUND, format!("no agent {id}")).into_response(),
    }
}

/// Sends the agent's window whenever it changed, until the page goes.
async fn follow(mut socket: WebSocket, agent: Arc<AgentShared>) {
    let _following = Following::new(Arc::clone(&agent));
    let hello = json!({ "following": agent.name }).to_string();
    if socket.send(Message::Text(hello.into())).await.is_err() {
        return;
    }
    let mut sent = Sent::default();
    let mut flags = None;
    loop {
        // Wait a period, or less if the page says something (only a close matters).
        let heard = tokio::time::timeout(LIVE_PERIOD, socket.recv()).await;
        if let Ok(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) = heard {
            break;
        }
        let window = {
            let mut history = agent.history.lock().unwrap_or_else(|e| e.into_inner());
            let Some(history) = history.as_mut() else { break };
            history.drain(&agent);
            let now = (
                agent.dropped.load(Ordering::Relaxed),
                history.restarts,
                agent.gone.load(Ordering::Relaxed),
            );
            let update = history.update(&mut sent);
            (update.is_some() || flags != Some(now)).then(|| {
                flags = Some(now);
                let mut message = json!({ "name": agent.name, "dropped": now.0, "restarts": now.1, "gone": now.2 });
                if let Some((key, value)) = update {
                    message[key] = value;
                }
                message.to_string()
            })
        };
        if let Some(window) = window
            && socket.send(Message::Text(window.into())).await.is_err()
        {
            break;
        }
    }
}

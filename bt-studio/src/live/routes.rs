//! The live view's server: the page, the list of a game's agents and the
//! WebSocket that follows one of them. Reads what the game thread shares
//! ([`crate::live`]); the game side knows nothing of it.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::Router;
use axum::extract::connect_info::ConnectInfo;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path as AxumPath, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use behaved_runtime::{NodeKind, Status};

use super::control::{Control, Force, bit_of};
use super::{AgentShared, Following, Registry, Sent};
use crate::assets::{SHARED_ASSETS, VIEWER_ASSETS, asset_routes};
use crate::limits::MAX_FOLLOWERS;
use crate::this_machine::{from_a_program_or_own_page, may_control, own_pages_only};

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
    let app = asset_routes(SHARED_ASSETS.iter().chain(VIEWER_ASSETS), "/")
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

/// How often a followed agent's window is looked at: a change of the
/// game's control (a pause, a stop at a breakpoint) or an answer to the
/// page's command is sent within this time.
const LIVE_PERIOD: Duration = Duration::from_millis(50);

/// The least time between two messages that carry only new ticks: a game
/// ticking 20 times a second or more is sent in 4 messages a second (the
/// page draws a followed agent 3 times a second), each
/// with every event since the last (none is lost or merged, so a stop still
/// lands on its exact event), which costs the page a fifth of the
/// per-message work (BENCHMARKS.md, "behaved-studio's page while following
/// one agent"). Stops and changes of control are not held back.
const BATCH_PERIOD: Duration = Duration::from_millis(250);

/// The query of `GET /api/live/{id}`.
#[derive(serde::Deserialize)]
struct LiveQuery {
    /// The secret that lets a page on another machine control the game.
    token: Option<String>,
}

/// A page counted among the followers while it lives.
struct Follower(Arc<std::sync::atomic::AtomicUsize>);

impl Follower {
    /// Counts a page, unless [`MAX_FOLLOWERS`] follow already.
    fn new(count: &Arc<std::sync::atomic::AtomicUsize>) -> Option<Follower> {
        count
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < MAX_FOLLOWERS).then_some(n + 1)
            })
            .ok()
            .map(|_| Follower(Arc::clone(count)))
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// `GET /api/live/{id}?token=..`: a WebSocket from a page of this server
/// only, at most [`MAX_FOLLOWERS`] at once (`503` past them). A page on
/// the game's own machine, or one sending the secret of a game that opted
/// in to control from other machines, may also control the game through it ([`command`]).
async fn live(
    ws: WebSocketUpgrade,
    AxumPath(id): AxumPath<usize>,
    Query(query): Query<LiveQuery>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
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
        Some(agent) => {
            let Some(follower) = Follower::new(&registry.followers) else {
                let why = format!("behaved-studio follows agents for at most {MAX_FOLLOWERS} pages at once");
                return (StatusCode::SERVICE_UNAVAILABLE, why).into_response();
            };
            let may_control = may_control(peer, query.token.as_deref(), registry.control_secret.as_deref());
            ws.on_upgrade(move |socket| async move {
                let _follower = follower;
                follow(socket, agent, may_control).await;
            })
        }
        None => (StatusCode::NOT_FOUND, format!("no agent {id}")).into_response(),
    }
}

/// A page's control of the game, released when the page goes: the game
/// runs free when no page controls it, and the agent's breakpoints go.
struct Controlling {
    agent: Arc<AgentShared>,
    taken: bool,
}

impl Controlling {
    fn control(&mut self) -> &Control {
        if !self.taken {
            self.taken = true;
            self.agent.control.take();
        }
        &self.agent.control
    }
}

impl Drop for Controlling {
    fn drop(&mut self) {
        if self.taken {
            self.agent.change_breaks(|b| *b = Default::default());
            self.agent.control.release();
        }
    }
}

/// Carries out a page's command, text of JSON: `{"control": "pause" |
/// "resume" | "step-frame" | "step-event"}`, `{"break": {"node": id, "on":
/// "enter" | "success" | "failure" | "running" | "halt", "set": bool}}`,
/// `{"anyFailure": bool}`, `{"force": {"node": id, "status": "success" |
/// "failure" | "running", "once": bool}}` (a leaf's result, forced through the
/// stand-in hook; `{"force": {"node": id, "clear": true}}` clears it),
/// `{"set": {"key", "value"}}` (a value the game provides a setter for,
/// [`ObservedAgent::apply_edits`](crate::ObservedAgent::apply_edits)).
/// Returns what is wrong with it, if anything.
fn command(text: &str, may_control: bool, controlling: &mut Controlling) -> Result<(), String> {
    if !may_control {
        return Err("behaved-studio takes control of the game only from its own machine".to_owned());
    }
    let command: Value = serde_json::from_str(text).map_err(|e| format!("a command that is not JSON: {e}"))?;
    let agent = Arc::clone(&controlling.agent);
    if let Some(what) = command.get("control").and_then(Value::as_str) {
        let control = controlling.control();
        match what {
            "pause" => control.pause(),
            "resume" => control.resume(),
            "step-frame" => control.step_frame(),
            "step-event" => {
                agent.change_breaks(|b| b.next_event = true);
                control.resume();
            }
            other => return Err(format!("no control {other:?}: pause, resume, step-frame or step-event")),
        }
    } else if let Some(on) = command.get("break") {
        let nodes = agent.tree().1.len();
        let node = on.get("node").and_then(Value::as_u64).filter(|&n| n < nodes as u64);
        let Some(node) = node else {
            return Err(format!("a breakpoint needs a node id below {nodes}: {on}"));
        };
        let bit = on.get("on").and_then(Value::as_str).and_then(bit_of);
        let Some(bit) = bit else {
            return Err(format!(
                "a breakpoint is on enter, success, failure, running or halt: {on}"
            ));
        };
        let set = on.get("set").and_then(Value::as_bool).unwrap_or(true);
        controlling.control();
        agent.change_breaks(|b| {
            b.nodes.resize(nodes, 0);
            let bits = &mut b.nodes[node as usize];
            *bits = if set { *bits | bit } else { *bits & !bit };
        });
    } else if let Some(force) = command.get("force") {
        let tree = agent.tree().1;
        let node = force
            .get("node")
            .and_then(Value::as_u64)
            .filter(|&n| n < tree.len() as u64);
        let Some(node) = node else {
            return Err(format!("a forced result needs a node id below {}: {force}", tree.len()));
        };
        let kind = tree[node as usize].kind;
        let forced = if force.get("clear").and_then(Value::as_bool) == Some(true) {
            None
        } else {
            let status = match force.get("status").and_then(Value::as_str) {
                Some("success") => Status::Success,
                Some("failure") => Status::Failure,
                Some("running") => Status::Running,
                _ => return Err(format!("a forced result is success, failure or running: {force}")),
            };
            if !matches!(
                kind,
                NodeKind::Condition | NodeKind::Action | NodeKind::Wait | NodeKind::WaitUntil
            ) {
                return Err(format!(
                    "#{node} is a `{}` node; only conditions, actions, `wait` and `wait_until` have forced results",
                    kind.dsl_name()
                ));
            }
            if kind == NodeKind::Condition && status == Status::Running {
                return Err(format!("#{node} is a condition: it cannot be running"));
            }
            let once = force.get("once").and_then(Value::as_bool).unwrap_or(false);
            Some(Force { status, once })
        };
        controlling.control();
        agent.change_breaks(|b| {
            b.forces.resize(tree.len(), None);
            b.forces[node as usize] = forced;
        });
    } else if let Some(edit) = command.get("set") {
        // An edit of the game's values: checked against its setters, applied by the game at its next frame.
        agent.edits.queue(edit)?;
    } else if let Some(any) = command.get("anyFailure").and_then(Value::as_bool) {
        controlling.control();
        agent.change_breaks(|b| b.any_failure = any);
    } else {
        return Err(format!("no such command: {text}"));
    }
    Ok(())
}

/// Sends the agent's window whenever it changed, until the page goes, and
/// carries out the page's commands (when `may_control`).
async fn follow(mut socket: WebSocket, agent: Arc<AgentShared>, may_control: bool) {
    let _following = Following::new(Arc::clone(&agent));
    let hello = json!({ "following": agent.name, "mayControl": may_control }).to_string();
    if socket.send(Message::Text(hello.into())).await.is_err() {
        return;
    }
    let mut controlling = Controlling {
        agent: Arc::clone(&agent),
        taken: false,
    };
    let mut sent = Sent::default();
    let mut flags = None;
    // The data flow last sent (the page is sent it again when the game declares another).
    let mut flow_sent: Option<Arc<behaved_observe::DataFlow>> = None;
    // When the last message went: new ticks alone wait until BATCH_PERIOD after it.
    let mut last_sent: Option<tokio::time::Instant> = None;
    loop {
        // Wait a period, or less if the page says something.
        let heard = tokio::time::timeout(LIVE_PERIOD, socket.recv()).await;
        let mut commanded = false;
        match heard {
            Ok(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) => break,
            Ok(Some(Ok(Message::Text(text)))) => {
                commanded = true;
                if let Err(why) = command(&text, may_control, &mut controlling) {
                    let error = json!({ "error": why }).to_string();
                    if socket.send(Message::Text(error.into())).await.is_err() {
                        break;
                    }
                }
            }
            _ => {}
        }
        let window = {
            let mut history = agent.history.lock().unwrap_or_else(|e| e.into_inner());
            let Some(history) = history.as_mut() else { break };
            history.drain(&agent);
            let now = (
                agent.dropped.load(Ordering::Relaxed),
                history.restarts,
                agent.gone.load(Ordering::Relaxed),
                agent.control.version.load(Ordering::SeqCst),
                agent.breaks_version.load(Ordering::SeqCst),
            );
            let flow = agent.flow(history.generation);
            let new_flow = !same_flow(&flow, &flow_sent);
            let urgent = commanded || flags != Some(now) || history.has_new_stops(&sent) || new_flow;
            let due = last_sent.is_none_or(|at| at.elapsed() >= BATCH_PERIOD);
            if !urgent && !due {
                continue;
            }
            let update = history.update(&mut sent);
            let stops = history.new_stops(&mut sent);
            (update.is_some() || !stops.is_empty() || flags != Some(now) || new_flow).then(|| {
                flags = Some(now);
                let breaks = agent.breaks.lock().unwrap_or_else(|e| e.into_inner()).to_json();
                let mut message = json!({
                    "name": agent.name, "dropped": now.0, "restarts": now.1, "gone": now.2,
                    "control": agent.control.to_json(), "breaks": breaks, "stops": stops,
                    "setters": agent.edits.to_json(),
                });
                if let Some((key, value)) = update {
                    message[key] = value;
                }
                if new_flow || message.get("trace").is_some() {
                    message["flow"] = serde_json::to_value(flow.as_deref()).expect("a data flow serializes");
                    flow_sent = flow;
                }
                message.to_string()
            })
        };
        if let Some(window) = window {
            last_sent = Some(tokio::time::Instant::now());
            if socket.send(Message::Text(window.into())).await.is_err() {
                break;
            }
        }
    }
}

/// Whether two declared data flows are the same declaration.
fn same_flow(a: &Option<Arc<behaved_observe::DataFlow>>, b: &Option<Arc<behaved_observe::DataFlow>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

//! The replay app (`behaved-studio open`): the embedded viewer, the trace it
//! was given, and a reader for traces dropped on the page.

use std::io;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::StatusCode;
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use crate::assets::{SHARED_ASSETS, VIEWER_ASSETS, asset_routes};
use crate::files::{Files, TracePayload};
use crate::this_machine::own_pages_only;

/// The app's routes: the embedded page, `GET /api/mode` (`{"mode":
/// "trace"}`, or `"diff"` with a second trace: what the page asks for
/// next), `GET /api/trace` (the trace file,
/// checked), `GET /api/diff` (both traces and where they part, when there is
/// a second) and `POST /api/parse?name=..` (checks a trace sent in the body).
/// A trace that behaved-observe rejects is answered with `422` and its message.
/// Each reads and checks traces, so each refuses another site's page (by
/// its `Origin`, or its `Sec-Fetch-Site` for a plain GET) with `403`.
pub fn router(files: Files) -> Router {
    let own = || middleware::from_fn_with_state("reads traces", own_pages_only);
    asset_routes(SHARED_ASSETS.iter().chain(VIEWER_ASSETS), "/")
        .route("/api/mode", get(mode))
        .route("/api/trace", get(trace_file).route_layer(own()))
        .route("/api/diff", get(diff_files).route_layer(own()))
        .route("/api/parse", post(parse_trace).route_layer(own()))
        .layer(DefaultBodyLimit::max(crate::limits::MAX_TRACE_BYTES))
        .with_state(files)
}

/// Serves `files` on `listener` until the process ends. On a loopback
/// address only requests naming a loopback host are answered, so that a web
/// page elsewhere cannot reach the server through DNS rebinding.
pub async fn serve(listener: tokio::net::TcpListener, files: Files) -> io::Result<()> {
    crate::server::serve(listener, router(files)).await
}

/// [`serve`] on a thread of its own: builds a single-threaded runtime and
/// blocks until the server fails.
pub fn serve_blocking(listener: std::net::TcpListener, files: Files) -> io::Result<()> {
    crate::server::serve_blocking(listener, router(files))
}

/// `GET /api/mode`: one trace, or two compared.
async fn mode(State(files): State<Files>) -> Response {
    let mode = if files.compares() { "diff" } else { "trace" };
    axum::Json(serde_json::json!({ "mode": mode })).into_response()
}

/// `GET /api/trace`.
async fn trace_file(State(files): State<Files>) -> Response {
    read_off_the_server_thread(move || files.load_trace()).await
}

/// The trace `read` reads and checks, read on the blocking pool: a big one
/// keeps no other request waiting.
async fn read_off_the_server_thread(read: impl FnOnce() -> TracePayload + Send + 'static) -> Response {
    match tokio::task::spawn_blocking(read).await {
        Ok(payload) => payload_response(&payload),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("reading the trace failed: {e}"),
        )
            .into_response(),
    }
}

/// `GET /api/diff`: both traces and where they part (see [`Files::load_diff`]);
/// `404` when the server was given one trace.
async fn diff_files(State(files): State<Files>) -> Response {
    match tokio::task::spawn_blocking(move || files.load_diff()).await {
        Ok(Some(diff)) => axum::Json(diff).into_response(),
        Ok(None) => (StatusCode::NOT_FOUND, "no second trace to compare with").into_response(),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("reading the traces failed: {e}"),
        )
            .into_response(),
    }
}

/// The query of `POST /api/parse`.
#[derive(serde::Deserialize)]
struct ParseQuery {
    /// The dropped file's name.
    name: Option<String>,
}

/// `POST /api/parse?name=..`: the body is a trace file's text.
async fn parse_trace(Query(query): Query<ParseQuery>, body: String) -> Response {
    let name = query.name.unwrap_or_else(|| "dropped trace".to_owned());
    read_off_the_server_thread(move || TracePayload::parse(&name, &body)).await
}

/// A payload as JSON: `200` for a trace, `422` for a rejected file.
fn payload_response(payload: &TracePayload) -> Response {
    let status = match payload {
        TracePayload::Trace { .. } => StatusCode::OK,
        TracePayload::Error { .. } => StatusCode::UNPROCESSABLE_ENTITY,
    };
    (status, axum::Json(payload)).into_response()
}

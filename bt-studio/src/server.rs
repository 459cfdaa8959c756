//! The HTTP server: the embedded app, the trace it was given, and a reader
//! for traces dropped on the page.

use std::io;
use std::net::IpAddr;

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use crate::assets::{ASSETS, asset_routes};
use crate::files::{Files, TracePayload};

/// The app's routes: the embedded page, `GET /api/trace` (the trace file,
/// checked), `GET /api/diff` (both traces and where they part, when there is
/// a second) and `POST /api/parse?name=..` (checks a trace sent in the body).
/// A trace that behaved-observe rejects is answered with `422` and its message.
pub fn router(files: Files) -> Router {
    asset_routes(ASSETS, "/")
        .route("/api/trace", get(trace_file))
        .route("/api/diff", get(diff_files))
        .route("/api/parse", post(parse_trace))
        .layer(DefaultBodyLimit::max(crate::limits::MAX_TRACE_BYTES))
        .with_state(files)
        .layer(middleware::from_fn(security_headers))
}

/// Serves `files` on `listener` until the process ends. On a loopback
/// address only requests naming a loopback host are answered, so that a web
/// page elsewhere cannot reach the server through DNS rebinding.
pub async fn serve(listener: tokio::net::TcpListener, files: Files) -> io::Result<()> {
    let mut app = router(files);
    if listener.local_addr()?.ip().is_loopback() {
        app = app.layer(middleware::from_fn(loopback_host_only));
    }
    axum::serve(listener, app).await
}

/// [`serve`] on a thread of its own: builds a single-threaded runtime and
/// blocks until the server fails.
pub fn serve_blocking(listener: std::net::TcpListener, files: Files) -> io::Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_io().build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        serve(listener, files).await
    })
}

/// One embedded file.
pub(crate) fn page_file(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

/// `GET /api/trace`.
async fn trace_file(State(files): State<Files>) -> Response {
    let payload = tokio::task::spawn_blocking(move || files.load_trace()).await;
    match payload {
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
    payload_response(&TracePayload::parse(&name, &body))
}

/// A payload as JSON: `200` for a trace, `422` for a rejected file.
fn payload_response(payload: &TracePayload) -> Response {
    let status = match payload {
        TracePayload::Trace { .. } => StatusCode::OK,
        TracePayload::Error { .. } => StatusCode::UNPROCESSABLE_ENTITY,
    };
    (status, axum::Json(payload)).into_response()
}

/// Adds headers that keep the page to its own origin and stop caching.
pub(crate) async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
        ),
    );
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Answers only requests whose `Host` is a loopback name or address.
pub(crate) async fn loopback_host_only(request: Request, next: Next) -> Response {
    if is_loopback_host(request.headers()) {
        next.run(request).await
    } else {
        let mut response = Response::new(Body::from(
            "behaved-studio answers only requests to localhost, 127.0.0.1 or [::1]",
        ));
        *response.status_mut() = StatusCode::FORBIDDEN;
        response
    }
}

/// Whether the request's `Host` header names this machine's loopback interface.
fn is_loopback_host(headers: &HeaderMap) -> bool {
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return false;
    };
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, _port)| name),
    };
    name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn only_loopback_hosts_pass() {
        for ok in ["127.0.0.1:8080", "localhost:1", "LOCALHOST", "[::1]:9", "127.1.2.3"] {
            assert!(is_loopback_host(&host(ok)), "{ok}");
        }
        for bad in ["evil.example:8080", "10.0.0.1:80", "[::2]:9", "localhost.evil.example"] {
            assert!(!is_loopback_host(&host(bad)), "{bad}");
        }
        assert!(!is_loopback_host(&HeaderMap::new()), "no Host header");
    }
}

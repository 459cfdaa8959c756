//! Who may use the endpoints that run work on the server or write (the
//! editor's check, preview and save, a game's `POST /api/reload`): programs
//! and pages on the server's own machine only. A live view served on all
//! interfaces is there to be watched from elsewhere, not to have its files
//! saved, its trees replaced or its processor kept busy from there. Both
//! checks run before the body is read. The servers pass the peer's address
//! as `ConnectInfo<SocketAddr>` (every router that needs it is private to
//! the crate and served with it).

use std::net::SocketAddr;

use axum::extract::connect_info::ConnectInfo;
use axum::extract::{Json, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Whether a connection from `peer` comes from this machine (an IPv4 peer of
/// a dual-stack socket included).
pub(crate) fn from_this_machine(peer: SocketAddr) -> bool {
    peer.ip().to_canonical().is_loopback()
}

/// Whether the request comes from a program (no `Origin`) or from a page this
/// server served (its `Origin` is `http://` and the `Host` it was sent to): a
/// browser sends an `Origin` with every POST, so another site's page, even one
/// open on this machine, is told apart.
fn from_a_program_or_own_page(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    host.is_some_and(|host| origin.to_str().ok() == Some(&format!("http://{host}")))
}

/// Middleware for the editor's routes that run work or write, its state
/// saying what the route does (`"saves trees"`): refuses another machine and
/// another site's page with `403` before the body is read.
pub(crate) async fn only_this_machine(
    State(work): State<&'static str>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    let why = if !from_this_machine(peer) {
        format!("behaved-studio {work} only for programs and pages on its own machine")
    } else if !from_a_program_or_own_page(request.headers()) {
        format!("behaved-studio {work} only from its own page, not from another site's")
    } else {
        return next.run(request).await;
    };
    (StatusCode::FORBIDDEN, Json(json!({ "error": why }))).into_response()
}

/// Posting to a router in tests, as seen from a given peer.
#[cfg(test)]
pub(crate) mod testing {
    use std::net::SocketAddr;

    use axum::Router;
    use axum::body::Body;
    use axum::extract::connect_info::MockConnectInfo;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    /// The `Host` the requests are sent to.
    const HOST: &str = "127.0.0.1:7878";

    /// Posts `body` with `headers` (each line `Name: value` ending in `\r\n`)
    /// to `path` of `app`, as if the connection came from `peer`: the answer's
    /// status line and body (`HTTP/1.1 403\r\n\r\n{"error": ..}`). `{addr}`
    /// in `headers` is the server's address.
    pub(crate) fn post_from(app: Router, peer: &str, path: &str, headers: &str, body: &str) -> String {
        let app = app.layer(MockConnectInfo(peer.parse::<SocketAddr>().unwrap()));
        let mut request = Request::post(path).header("host", HOST);
        for line in headers.replace("{addr}", HOST).lines() {
            let (name, value) = line.split_once(':').expect("a header line");
            request = request.header(name.trim(), value.trim());
        }
        let request = request.body(Body::from(body.to_owned())).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let answer = app.oneshot(request).await.unwrap();
            let status = answer.status().as_u16();
            let body = answer.into_body().collect().await.unwrap().to_bytes();
            format!("HTTP/1.1 {status}\r\n\r\n{}", String::from_utf8_lossy(&body))
        })
    }

    /// Posts `{}` to `path` of `app` from this machine, after blanks that
    /// make the body `length` bytes long: the answer.
    pub(crate) fn post_sized(app: Router, path: &str, length: usize) -> String {
        let body = format!("{}{{}}", " ".repeat(length - 2));
        post_from(app, "127.0.0.1:5000", path, "Content-Type: application/json\r\n", &body)
    }
}

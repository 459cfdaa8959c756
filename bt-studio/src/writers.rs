//! Who may use the endpoints that write (the editor's save, a game's
//! `POST /api/reload`): programs and pages on the server's own machine only.
//! A live view served on all interfaces is there to be watched from
//! elsewhere, not to have its files saved or its trees replaced from there.
//! Both checks run before the body is read. The servers pass the peer's
//! address as `ConnectInfo<SocketAddr>`; without it a write is an error.

use std::net::SocketAddr;

use axum::extract::connect_info::ConnectInfo;
use axum::extract::{Json, Request};
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

/// Middleware for the routes that write: refuses another machine and
/// another site's page with `403` before the body is read.
pub(crate) async fn writes_from_this_machine(
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    let why = if !from_this_machine(peer) {
        "bt-studio saves trees only for programs and pages on its own machine"
    } else if !from_a_program_or_own_page(request.headers()) {
        "bt-studio saves trees only from its own page, not from another site's"
    } else {
        return next.run(request).await;
    };
    (StatusCode::FORBIDDEN, Json(json!({ "error": why }))).into_response()
}

/// Posting to a router in tests, as seen from a given peer.
#[cfg(test)]
pub(crate) mod testing {
    use std::io::{Read, Write};
    use std::net::SocketAddr;

    use axum::Router;
    use axum::extract::connect_info::MockConnectInfo;

    /// Posts `body` with `headers` (each line ending in `\r\n`) to `path` of
    /// `app`, served as if the connection came from `peer`: the answer, status
    /// line first. `{addr}` in `headers` is the server's address.
    pub(crate) fn post_from(app: Router, peer: &str, path: &str, headers: &str, body: &str) -> String {
        let app = app.layer(MockConnectInfo(peer.parse::<SocketAddr>().unwrap()));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        listener.set_nonblocking(true).unwrap();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                axum::serve(listener, app).await
            })
        });
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        let headers = headers.replace("{addr}", &addr.to_string());
        write!(
            stream,
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    }
}

//! Who may use the endpoints that run work on the server or write. Every
//! one of them refuses another site's page ([`own_pages_only`]): the
//! replay's trace, diff and dropped traces, the live view's agents and
//! WebSockets, the editor's document. Those that write or may run long (the
//! editor's check, preview and save, a game's `POST /api/reload`) are for
//! programs and pages on the server's own machine only
//! ([`only_this_machine`]): a live view served on all interfaces is there
//! to be watched from elsewhere, not to have its files saved, its trees
//! replaced or its processor kept busy from there. The checks run before
//! the body is read. The servers pass the peer's address
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

/// Whether a page (its WebSocket from `peer`, with `token` in its URL) may
/// control the game: from this machine always; from another only when the
/// game opted in ([`Studio::serve_with_remote_control`](crate::Studio::serve_with_remote_control),
/// whose secret is `secret`) and the page sends that secret.
pub(crate) fn may_control(peer: SocketAddr, token: Option<&str>, secret: Option<&str>) -> bool {
    from_this_machine(peer)
        || matches!((token, secret), (Some(token), Some(secret)) if same_secret(token.as_bytes(), secret.as_bytes()))
}

/// Compares two secrets in a time that does not depend on where they differ.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// A new secret for control from other machines: 128 random bits as 32 hex digits,
/// from the operating system (`/dev/urandom`, else the standard library's
/// randomly keyed hasher).
pub(crate) fn new_secret() -> String {
    let mut bytes = [0u8; 16];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| std::io::Read::read_exact(&mut f, &mut bytes));
    if read.is_err() {
        use std::hash::{BuildHasher, Hasher};
        for half in bytes.chunks_mut(8) {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u64(std::process::id().into());
            half.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether the request comes from a program or from a page this server
/// served: its `Origin`, if any, is `http://` and the `Host` it was sent to
/// (a browser sends one with every POST and WebSocket), and its
/// `Sec-Fetch-Site`, if any, says `same-origin` or `none` (typed or
/// bookmarked; browsers send it with every request, a GET from another
/// site's `<img>` or `<script>` too). So another site's page, even one open
/// on this machine, is told apart.
pub(crate) fn from_a_program_or_own_page(headers: &HeaderMap) -> bool {
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let origin_ok = headers
        .get(header::ORIGIN)
        .is_none_or(|origin| host.is_some_and(|host| origin.to_str().ok() == Some(&format!("http://{host}"))));
    let site_ok = headers
        .get("sec-fetch-site")
        .is_none_or(|site| matches!(site.to_str(), Ok("same-origin" | "none")));
    origin_ok && site_ok
}

/// Middleware for the routes that run work, its state saying what the route
/// does (`"reads traces"`): refuses another site's page with `403` before
/// the body is read.
pub(crate) async fn own_pages_only(State(work): State<&'static str>, request: Request, next: Next) -> Response {
    if from_a_program_or_own_page(request.headers()) {
        return next.run(request).await;
    }
    let why = format!("behaved-studio {work} only for its own pages, not for another site's");
    (StatusCode::FORBIDDEN, Json(json!({ "error": why }))).into_response()
}

/// Middleware for the routes that write or may run long, its state
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_machine_controls_the_game_only_with_the_secret_the_game_opted_in_with() {
        let here: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let there: SocketAddr = "192.0.2.7:5000".parse().unwrap();
        let secret = new_secret();
        assert_eq!(secret.len(), 32);
        assert_ne!(secret, new_secret(), "a new secret each time");
        assert!(may_control(here, None, None), "this machine, always");
        assert!(!may_control(there, None, None), "not opted in");
        assert!(
            !may_control(there, Some(&secret), None),
            "not opted in, whatever it sends"
        );
        assert!(!may_control(there, None, Some(&secret)), "opted in, no secret sent");
        assert!(!may_control(there, Some("0123"), Some(&secret)), "the wrong secret");
        assert!(!may_control(there, Some(&secret[..31]), Some(&secret)), "part of it");
        assert!(may_control(there, Some(&secret), Some(&secret)));
    }
    use axum::http::HeaderValue;

    #[test]
    fn pages_of_other_sites_are_told_apart() {
        let request = |headers: &[(&'static str, &str)]| {
            let mut map = HeaderMap::new();
            map.insert(header::HOST, HeaderValue::from_static("127.0.0.1:7878"));
            for (name, value) in headers {
                map.insert(*name, HeaderValue::from_str(value).unwrap());
            }
            from_a_program_or_own_page(&map)
        };
        assert!(request(&[]), "a program");
        assert!(request(&[("origin", "http://127.0.0.1:7878")]));
        assert!(request(&[("sec-fetch-site", "same-origin")]));
        assert!(request(&[("sec-fetch-site", "none")]), "typed in the address bar");
        assert!(!request(&[("origin", "http://evil.example")]));
        assert!(
            !request(&[("origin", "http://127.0.0.1:9999")]),
            "another port is another site"
        );
        assert!(!request(&[("origin", "null")]));
        assert!(!request(&[("sec-fetch-site", "cross-site")]), "another site's <img>");
        assert!(!request(&[("sec-fetch-site", "same-site")]));
        assert!(!request(&[
            ("origin", "http://127.0.0.1:7878"),
            ("sec-fetch-site", "cross-site")
        ]));
    }
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

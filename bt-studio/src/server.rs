//! The one way the studio's apps (the replay, the live view, the editor) are
//! served: each app is a router of its own (its page from
//! [`crate::assets`] and its API routes), and [`serve`] adds what every
//! app needs: the security headers, the loopback-host check on a loopback
//! address and the peer's address for the checks of
//! [`crate::this_machine`].

use std::io;
use std::net::{IpAddr, SocketAddr};

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};

/// Serves `app` on `listener` until the server fails. On a loopback address
/// only requests naming a loopback host are answered, so that a web page
/// elsewhere cannot reach the server through DNS rebinding.
pub(crate) async fn serve(listener: tokio::net::TcpListener, app: Router) -> io::Result<()> {
    let mut app = app.layer(middleware::from_fn(security_headers));
    if listener.local_addr()?.ip().is_loopback() {
        app = app.layer(middleware::from_fn(loopback_host_only));
    }
    // The peer's address: the endpoints that run work or write serve this machine only.
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).await
}

/// [`serve`] on a single-threaded runtime of its own: blocks until the server fails.
pub(crate) fn serve_blocking(listener: std::net::TcpListener, app: Router) -> io::Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        serve(listener, app).await
    })
}

/// Adds headers that keep the page to its own origin and stop caching.
async fn security_headers(request: Request, next: Next) -> Response {
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
async fn loopback_host_only(request: Request, next: Next) -> Response {
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

/// One embedded file.
pub(crate) fn page_file(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
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

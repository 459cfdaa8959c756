//! The one way the studio's apps (the replay, the live view, the editor) are
//! served: each app is a router of its own (its page from
//! [`crate::assets`] and its API routes), and [`serve`] adds what every
//! app needs: the security headers, the loopback-host check on a loopback
//! address and the peer's address for the checks of
//! [`crate::this_machine`], and the time-outs of [`crate::limits`]: a
//! client that does not finish its headers, sits idle, or pauses its body
//! does not keep a connection.

use std::io;
use std::net::IpAddr;
#[cfg(test)]
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::extract::connect_info::ConnectInfo;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use hyper::body::{Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tower::ServiceExt;

use crate::limits::{BODY_PAUSE_TIMEOUT, HEADER_TIMEOUT};

/// How long a connection may keep the server waiting (see [`crate::limits`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Timeouts {
    /// For a request's headers, from when the server waits for one.
    pub header: Duration,
    /// For the next bytes of a request's body.
    pub body_pause: Duration,
}

impl Timeouts {
    /// The time-outs every app is served with.
    pub const SERVED: Timeouts = Timeouts {
        header: HEADER_TIMEOUT,
        body_pause: BODY_PAUSE_TIMEOUT,
    };
}

/// Serves `app` on `listener` until the server fails. On a loopback address
/// only requests naming a loopback host are answered, so that a web page
/// elsewhere cannot reach the server through DNS rebinding.
pub(crate) async fn serve(listener: tokio::net::TcpListener, app: Router) -> io::Result<()> {
    serve_with(listener, app, Timeouts::SERVED).await
}

/// [`serve`] with the time-outs `timeouts`.
pub(crate) async fn serve_with(listener: tokio::net::TcpListener, app: Router, timeouts: Timeouts) -> io::Result<()> {
    let pause = timeouts.body_pause;
    let mut app = app
        .layer(middleware::from_fn(security_headers))
        .layer(middleware::from_fn(move |request: Request, next: Next| {
            next.run(request.map(|body| Body::new(PausingBody::new(body, pause))))
        }));
    if listener.local_addr()?.ip().is_loopback() {
        app = app.layer(middleware::from_fn(loopback_host_only));
    }
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(timeouts.header);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            // A connection that failed before it was accepted, or no file
            // descriptor left for now: the server goes on (as axum::serve does).
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // The peer's address: the endpoints that run work or write serve this machine only.
        let service = app
            .clone()
            .map_request(move |mut request: axum::http::Request<Incoming>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                request
            });
        let connection = http
            .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service))
            .with_upgrades();
        tokio::spawn(connection);
    }
}

/// [`serve`] on a single-threaded runtime of its own: blocks until the server fails.
pub(crate) fn serve_blocking(listener: std::net::TcpListener, app: Router) -> io::Result<()> {
    serve_blocking_with(listener, app, Timeouts::SERVED)
}

/// [`serve_blocking`] with the time-outs `timeouts`.
fn serve_blocking_with(listener: std::net::TcpListener, app: Router, timeouts: Timeouts) -> io::Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        serve_with(listener, app, timeouts).await
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

/// A request's body that fails when no bytes came for its pause time-out:
/// the handler reading it answers `400` with the message, and the
/// connection closes.
struct PausingBody {
    body: Body,
    pause: Duration,
    deadline: Pin<Box<tokio::time::Sleep>>,
}

impl PausingBody {
    fn new(body: Body, pause: Duration) -> PausingBody {
        PausingBody {
            body,
            pause,
            deadline: Box::pin(tokio::time::sleep(pause)),
        }
    }
}

impl hyper::body::Body for PausingBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = &mut *self;
        match Pin::new(&mut this.body).poll_frame(cx) {
            Poll::Ready(frame) => {
                let next = tokio::time::Instant::now() + this.pause;
                this.deadline.as_mut().reset(next);
                Poll::Ready(frame)
            }
            Poll::Pending => match this.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Some(Err(axum::Error::new(format!(
                    "the request's body paused for more than {} s",
                    this.pause.as_secs_f64()
                ))))),
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// One embedded file.
pub(crate) fn page_file(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};

    use axum::routing::post;

    use super::*;

    /// Serves a router that echoes posted bodies on a free loopback port, with
    /// time-outs of 300 ms: the address.
    fn echo_server() -> SocketAddr {
        let app = Router::new().route("/echo", post(|body: String| async move { body }));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let timeouts = Timeouts {
            header: Duration::from_millis(300),
            body_pause: Duration::from_millis(300),
        };
        std::thread::spawn(move || serve_blocking_with(listener, app, timeouts));
        addr
    }

    /// Writes `sent` on a new connection to `addr`, then reads until the
    /// server closes it (failing after 10 s): what came.
    fn until_closed(addr: SocketAddr, sent: &str) -> String {
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        stream.write_all(sent.as_bytes()).unwrap();
        let mut answer = Vec::new();
        stream
            .read_to_end(&mut answer)
            .expect("the server closes the connection");
        String::from_utf8_lossy(&answer).into_owned()
    }

    /// A request to echo `body`, saying it is `length` bytes long.
    fn echo(length: usize, body: &str) -> String {
        format!("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {length}\r\n\r\n{body}")
    }

    #[test]
    fn a_connection_that_never_finishes_its_headers_is_closed() {
        let addr = echo_server();
        let answer = until_closed(addr, "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        assert_eq!(answer, "", "closed without an answer");
        // Nothing sent at all: the same.
        assert_eq!(until_closed(addr, ""), "");
    }

    #[test]
    fn a_kept_connection_idle_after_its_answer_is_closed() {
        let addr = echo_server();
        let answer = until_closed(addr, &echo(5, "hello"));
        assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "{answer}");
        assert!(answer.ends_with("\r\n\r\nhello"), "answered, then closed: {answer}");
    }

    #[test]
    fn a_body_that_pauses_is_refused_with_a_message() {
        let addr = echo_server();
        let answer = until_closed(addr, &echo(100, "only ten b"));
        assert!(answer.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{answer}");
        assert!(
            answer.ends_with("Failed to buffer the request body: the request's body paused for more than 0.3 s"),
            "{answer}"
        );
    }

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

//! The tests' one HTTP client: hyper's (the dev-dependency `hyper-util`), over
//! a real loopback connection to the server under test.

use std::net::SocketAddr;

use axum::body::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

/// An HTTP/1.1 answer: status, headers (lower-case names) and body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    /// The value of header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The body as JSON (a JSON string when it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|_| serde_json::Value::String(self.body.clone()))
    }
}

/// Sends `method path` with `headers` and `body` to `addr` and reads the
/// whole answer. The `Host` is `addr` unless `headers` name another. Runs
/// on a thread of its own, so that a browser test's async code may call it.
pub fn send(addr: SocketAddr, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Answer {
    let mut request = axum::http::Request::builder()
        .method(method)
        .uri(format!("http://{addr}{path}"));
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request.body(Full::new(Bytes::from(body.to_owned()))).unwrap();
    let exchange = async {
        let client = Client::builder(TokioExecutor::new()).build_http();
        let answer = client.request(request).await.expect("the server answers");
        let status = answer.status().as_u16();
        let headers = answer
            .headers()
            .iter()
            .map(|(n, v)| (n.as_str().to_owned(), v.to_str().unwrap_or_default().to_owned()))
            .collect();
        let body = answer.into_body().collect().await.expect("the whole answer").to_bytes();
        Answer {
            status,
            headers,
            body: String::from_utf8_lossy(&body).into_owned(),
        }
    };
    std::thread::scope(|s| {
        s.spawn(|| {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(exchange)
        })
        .join()
        .unwrap()
    })
}

/// `method path` with `host` as the `Host` header.
pub fn request(addr: SocketAddr, method: &str, path: &str, host: &str, body: &str) -> Answer {
    send(addr, method, path, &[("host", host)], body)
}

/// `GET path` with a loopback `Host`.
pub fn get(addr: SocketAddr, path: &str) -> Answer {
    send(addr, "GET", path, &[], "")
}

/// `POST path` with a JSON body: the status and the JSON answer (the body as
/// a JSON string when it is not JSON).
pub fn post(addr: SocketAddr, path: &str, body: &serde_json::Value) -> (u16, serde_json::Value) {
    let answer = send(
        addr,
        "POST",
        path,
        &[("content-type", "application/json")],
        &body.to_string(),
    );
    (answer.status, answer.json())
}

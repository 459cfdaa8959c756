//! The server's endpoints over real sockets on loopback, without a browser.

mod common;

use behaved_observe::Trace;
use common::{binary_fails, get, guard_trace, request, send, serve, start_binary, temp_file};
use serde_json::Value;

/// Broken trace files and why: cut short, another format, out-of-order ticks, not JSON.
fn broken_traces() -> Vec<(&'static str, String)> {
    let good = guard_trace().to_json().unwrap();
    vec![
        ("truncated", good[..good.len() / 2].to_owned()),
        ("foreign", good.replace("\"bt-trace\"", "\"other-trace\"")),
        ("tick order", good.replace("\"tick\":5,", "\"tick\":6,")),
        ("not a trace", r#"{"hello": "world"}"#.to_owned()),
        ("not JSON", "hello".to_owned()),
    ]
}

#[test]
fn the_page_and_its_files_are_served_from_the_binary() {
    let addr = serve(temp_file("guard.trace.json", &guard_trace().to_json().unwrap()));
    let page = get(addr, "/");
    assert_eq!(page.status, 200);
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    // One module, which imports the others.
    assert!(
        page.body
            .contains(r#"<script type="module" src="/studio.js"></script>"#)
    );
    assert!(
        page.header("content-security-policy")
            .unwrap()
            .starts_with("default-src 'self'")
    );
    // Every module it imports, and those they import, is served as JavaScript.
    let mut modules = vec!["/studio.js".to_owned()];
    let mut seen = Vec::new();
    while let Some(module) = modules.pop() {
        if seen.contains(&module) {
            continue;
        }
        let js = get(addr, &module);
        assert_eq!(
            (js.status, js.header("content-type")),
            (200, Some("text/javascript; charset=utf-8")),
            "{module}"
        );
        assert!(js.body.starts_with("// behaved-studio"), "{module}");
        modules.extend(
            js.body
                .split(" from './")
                .skip(1)
                .map(|rest| format!("/{}", rest.split('\'').next().unwrap())),
        );
        seen.push(module);
    }
    seen.sort();
    assert_eq!(
        seen,
        [
            "/catalogue.js",
            "/compare.js",
            "/dataflow-view.js",
            "/dataflow.js",
            "/draw.js",
            "/fit.js",
            "/layout.js",
            "/limits.js",
            "/scores-view.js",
            "/studio.js",
            "/trace-model.js",
            "/tree-view.js"
        ]
    );
    // The node kinds come from the runtime's catalogue, every one of them.
    let catalogue = get(addr, "/catalogue.js").body;
    for kind in behaved_runtime::NodeKind::ALL {
        assert!(
            catalogue.contains(&format!(r#""type":"{}""#, kind.json_name())),
            "{kind:?}"
        );
    }
    let css = get(addr, "/studio.css");
    assert_eq!(
        (css.status, css.header("content-type")),
        (200, Some("text/css; charset=utf-8"))
    );
}

#[test]
fn the_trace_comes_back_as_bt_observe_reads_it() {
    let trace = guard_trace();
    let addr = serve(temp_file("guard.trace.json", &trace.to_json().unwrap()));
    let answer = get(addr, "/api/trace");
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("content-type"), Some("application/json"));
    let payload: Value = serde_json::from_str(&answer.body).unwrap();
    assert_eq!(payload["name"], "guard.trace.json");
    let served = Trace::from_json(&payload["trace"].to_string()).unwrap();
    assert_eq!(served, trace);
}

#[test]
fn a_broken_trace_file_is_answered_with_bt_observes_message() {
    for (what, text) in broken_traces() {
        let expected = Trace::from_json(&text).unwrap_err().to_string();
        let addr = serve(temp_file("broken.json", &text));
        let answer = get(addr, "/api/trace");
        assert_eq!(answer.status, 422, "{what}");
        let payload: Value = serde_json::from_str(&answer.body).unwrap();
        assert_eq!(payload["name"], "broken.json", "{what}");
        assert_eq!(payload["error"], expected.as_str(), "{what}");
        // The server goes on answering.
        assert_eq!(get(addr, "/").status, 200, "{what}");
    }
}

#[test]
fn a_file_that_went_away_is_reported_not_a_crash() {
    let path = temp_file("gone.json", "{}");
    std::fs::remove_file(&path).unwrap();
    let addr = serve(path);
    let answer = get(addr, "/api/trace");
    assert_eq!(answer.status, 422);
    let payload: Value = serde_json::from_str(&answer.body).unwrap();
    assert!(
        payload["error"].as_str().unwrap().starts_with("cannot read "),
        "{payload}"
    );
}

#[test]
fn a_dropped_trace_is_read_by_bt_observe() {
    let trace = guard_trace();
    let addr = serve(temp_file("guard.trace.json", "not used"));
    let host = addr.to_string();
    let answer = request(
        addr,
        "POST",
        "/api/parse?name=mine.json",
        &host,
        &trace.to_json().unwrap(),
    );
    assert_eq!(answer.status, 200);
    let payload: Value = serde_json::from_str(&answer.body).unwrap();
    assert_eq!(payload["name"], "mine.json");
    assert_eq!(Trace::from_json(&payload["trace"].to_string()).unwrap(), trace);
    for (what, text) in broken_traces() {
        let answer = request(addr, "POST", "/api/parse?name=bad%20one.json", &host, &text);
        assert_eq!(answer.status, 422, "{what}");
        let payload: Value = serde_json::from_str(&answer.body).unwrap();
        assert_eq!(payload["name"], "bad one.json");
        assert_eq!(
            payload["error"],
            Trace::from_json(&text).unwrap_err().to_string().as_str()
        );
    }
}

#[test]
fn nothing_but_the_given_file_is_served() {
    let addr = serve(temp_file("guard.trace.json", &guard_trace().to_json().unwrap()));
    for path in [
        "/Cargo.toml",
        "/../Cargo.toml",
        "/etc/passwd",
        "/api/trace/../../Cargo.toml",
        "/assets/studio.js",
    ] {
        assert_eq!(get(addr, path).status, 404, "{path}");
    }
}

#[test]
fn requests_for_other_hosts_are_refused_on_loopback() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let path = temp_file("guard.trace.json", &guard_trace().to_json().unwrap());
    std::thread::spawn(move || behaved_studio::serve_blocking(listener, behaved_studio::Files::new(path)));
    for host in ["evil.example", "evil.example:80", "192.168.1.20"] {
        let answer = request(addr, "GET", "/api/trace", host, "");
        assert_eq!(answer.status, 403, "{host}");
        assert!(!answer.body.contains("bt-trace"));
    }
    for host in [format!("localhost:{}", addr.port()), addr.to_string()] {
        assert_eq!(request(addr, "GET", "/api/trace", &host, "").status, 200, "{host}");
    }
}

#[test]
fn the_binary_opens_a_trace_on_a_free_port_and_prints_its_url() {
    let trace = guard_trace();
    let path = temp_file("guard.trace.json", &trace.to_json().unwrap());
    let (_child, line, addr) = start_binary(&["open", path.to_str().unwrap(), "--port", "0"]);
    assert!(line.starts_with("behaved-studio: replaying "), "{line}");
    let answer = get(addr, "/api/trace");
    assert_eq!(answer.status, 200);
    let payload: Value = serde_json::from_str(&answer.body).unwrap();
    assert_eq!(Trace::from_json(&payload["trace"].to_string()).unwrap(), trace);
}

#[test]
fn the_binary_refuses_a_missing_file() {
    assert_eq!(
        binary_fails(&["open", "/no/such/trace.json", "--port", "0"]),
        "behaved-studio: /no/such/trace.json is not a file\n"
    );
}

#[test]
fn another_sites_page_cannot_make_the_server_read_traces() {
    let addr = serve(temp_file("guard.trace.json", &guard_trace().to_json().unwrap()));
    let trace = guard_trace().to_json().unwrap();
    let refused = r#"{"error":"behaved-studio reads traces only for its own pages, not for another site's"}"#;
    // A POST from another site's page carries its Origin.
    let answer = send(addr, "POST", "/api/parse", &[("origin", "http://evil.example")], &trace);
    assert_eq!((answer.status, answer.body.as_str()), (403, refused));
    // A GET from another site's <img> or <script> carries no Origin, but Sec-Fetch-Site.
    for path in ["/api/trace", "/api/diff"] {
        let answer = send(addr, "GET", path, &[("sec-fetch-site", "cross-site")], "");
        assert_eq!((answer.status, answer.body.as_str()), (403, refused), "{path}");
    }
    // The page itself, and programs, are answered.
    let own = format!("http://{addr}");
    let answer = send(
        addr,
        "POST",
        "/api/parse",
        &[("origin", &own), ("sec-fetch-site", "same-origin")],
        &trace,
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(get(addr, "/api/trace").status, 200);
}

#[test]
fn another_sites_page_cannot_list_a_games_agents_or_open_its_editor() {
    let editor = behaved_studio::Editor::new(temp_file("guard.json", "{}"));
    let studio = behaved_studio::Studio::serve_with_editor("127.0.0.1:0", editor).unwrap();
    let evil = [("origin", "http://evil.example")];
    let answer = send(studio.addr(), "GET", "/api/agents", &evil, "");
    assert_eq!(
        (answer.status, answer.body.as_str()),
        (
            403,
            r#"{"error":"behaved-studio lists agents only for its own pages, not for another site's"}"#
        )
    );
    let answer = send(studio.addr(), "GET", "/api/edit/open", &evil, "");
    assert_eq!(
        (answer.status, answer.body.as_str()),
        (
            403,
            r#"{"error":"behaved-studio opens trees only for its own pages, not for another site's"}"#
        )
    );
    assert_eq!(get(studio.addr(), "/api/agents").status, 200);
    assert_eq!(get(studio.addr(), "/api/edit/open").status, 200);
}

#[test]
fn the_page_learns_its_mode_from_the_server_and_has_an_icon() {
    let trace = temp_file("guard.trace.json", &guard_trace().to_json().unwrap());
    let addr = serve(trace.clone());
    assert_eq!(get(addr, "/api/mode").json(), serde_json::json!({"mode": "trace"}));
    let icon = get(addr, "/favicon.svg");
    assert_eq!((icon.status, icon.header("content-type")), (200, Some("image/svg+xml")));
    assert!(icon.body.starts_with("<svg"), "{}", icon.body);
    assert!(get(addr, "/").body.contains(r#"<link rel="icon" href="/favicon.svg""#));
    let (_child, _, addr) = start_binary(&[
        "open",
        trace.to_str().unwrap(),
        "--diff",
        trace.to_str().unwrap(),
        "--port",
        "0",
    ]);
    assert_eq!(get(addr, "/api/mode").json(), serde_json::json!({"mode": "diff"}));
    let studio = behaved_studio::Studio::serve("127.0.0.1:0").unwrap();
    let addr: std::net::SocketAddr = studio.url()["http://".len()..].trim_end_matches('/').parse().unwrap();
    assert_eq!(
        get(addr, "/api/mode").json(),
        serde_json::json!({"mode": "live", "editor": false})
    );
    let studio = behaved_studio::Studio::serve_with_editor("127.0.0.1:0", behaved_studio::Editor::new(trace)).unwrap();
    let addr: std::net::SocketAddr = studio.url()["http://".len()..].trim_end_matches('/').parse().unwrap();
    assert_eq!(
        get(addr, "/api/mode").json(),
        serde_json::json!({"mode": "live", "editor": true})
    );
    assert_eq!(get(addr, "/favicon.svg").status, 200);
}

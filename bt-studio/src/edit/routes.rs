//! The editor's HTTP routes.

use std::collections::BTreeMap;
use std::io;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Json, State};
use axum::http::StatusCode;
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use behaved_runtime::Status;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Editor, SaveError, problems_json};
use crate::assets::{Asset, EDITOR_ASSETS, SHARED_ASSETS, asset_routes};
use crate::limits::{MAX_TRACE_BYTES, MAX_TREE_BYTES};
use crate::this_machine::{only_this_machine, own_pages_only};

/// The editor's routes: the embedded page, `GET /api/edit/open` (the
/// document, palette, leaves, library and recorded trace), `POST
/// /api/edit/check` (the loader's problems with the posted document), `POST
/// /api/edit/save` (`{"name", "doc", "force"}`) and `POST /api/edit/preview`
/// (`{"doc", "picks", "trace"}`: the what-if replay).
///
/// Checking, previewing and saving run work on the server: they are only
/// for programs and pages on this machine, and refused to another site's
/// page, before the body is read. So the router needs the peer's address
/// (`into_make_service_with_connect_info::<SocketAddr>()`): it is served
/// only by [`serve_editor`] and the live view, which give it.
pub(crate) fn editor_router(editor: Editor) -> Router {
    routes(editor, "/", SHARED_ASSETS)
}

/// The editor's routes inside a game's live view: its page at `/edit`; the
/// files both pages load are the live view's.
pub(crate) fn embedded_editor_router(editor: Editor) -> Router {
    routes(editor, "/edit", &[])
}

/// The routes, with the page at `page`, serving `shared` beside the editor's own files.
fn routes(editor: Editor, page: &'static str, shared: &'static [Asset]) -> Router {
    let app = asset_routes(shared.iter().chain(EDITOR_ASSETS), page);
    // Each route that runs work says what it does when refused.
    let here = |work: &'static str| middleware::from_fn_with_state(work, only_this_machine);
    let tree = DefaultBodyLimit::max(MAX_TREE_BYTES);
    app.route(
        "/api/edit/save",
        post(save).layer(tree).route_layer(here("saves trees")),
    )
    .route(
        "/api/edit/check",
        post(check).layer(tree).route_layer(here("checks trees")),
    )
    .route(
        "/api/edit/preview",
        post(preview)
            .layer(DefaultBodyLimit::max(MAX_TRACE_BYTES))
            .route_layer(here("replays trees")),
    )
    .route(
        "/api/edit/open",
        get(open).route_layer(middleware::from_fn_with_state("opens trees", own_pages_only)),
    )
    .with_state(editor)
}

/// Serves the editor on `listener`, answering only loopback hosts when on loopback.
pub async fn serve_editor(listener: tokio::net::TcpListener, editor: Editor) -> io::Result<()> {
    crate::server::serve(listener, editor_router(editor)).await
}

/// [`serve_editor`] on a single-threaded runtime of its own; blocks until the server fails.
pub fn serve_editor_blocking(listener: std::net::TcpListener, editor: Editor) -> io::Result<()> {
    crate::server::serve_blocking(listener, editor_router(editor))
}

/// Runs `work` off the server's thread.
async fn blocking(work: impl FnOnce() -> Response + Send + 'static) -> Response {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|e| (StatusCode::INTERNAL_SERVER_ERROR, format!("the editor failed: {e}")).into_response())
}

/// `GET /api/edit/open`.
async fn open(State(editor): State<Editor>) -> Response {
    blocking(move || Json(editor.open()).into_response()).await
}

/// `POST /api/edit/check`: the body is the document.
async fn check(State(editor): State<Editor>, Json(doc): Json<Value>) -> Response {
    blocking(move || Json(json!({ "problems": problems_json(&editor.check(&doc)) })).into_response()).await
}

/// The body of `POST /api/edit/save`.
#[derive(Deserialize)]
struct SaveRequest {
    /// The file name to save as (the opened file's, or a new one beside it).
    name: String,
    doc: Value,
    #[serde(default)]
    force: bool,
}

/// `POST /api/edit/save`: `200` with the text written, `403` for a path
/// outside the folder, `409` with the problems of a rejected tree, `422`
/// with those of a tree BT.CPP XML cannot express.
async fn save(State(editor): State<Editor>, Json(request): Json<SaveRequest>) -> Response {
    blocking(move || match editor.save(&request.name, &request.doc, request.force) {
        Ok(saved) => Json(json!({
            "saved": saved.path.display().to_string(),
            "text": saved.text,
            "pushed": saved.pushed,
            "pushError": saved.push_error,
        }))
        .into_response(),
        Err(SaveError::Refused(why)) => (StatusCode::FORBIDDEN, Json(json!({ "error": why }))).into_response(),
        Err(SaveError::Rejected(problems)) => (
            StatusCode::CONFLICT,
            Json(json!({ "error": "the loader rejects this tree: save anyway to keep it", "problems": problems_json(&problems) })),
        )
            .into_response(),
        Err(SaveError::Unwritable(why, problems)) => (
            StatusCode::UNPROCESSABLE_ENTITY,
            Json(json!({ "error": why, "problems": problems_json(&problems) })),
        )
            .into_response(),
        Err(SaveError::Io(why)) => (StatusCode::INTERNAL_SERVER_ERROR, Json(json!({ "error": why }))).into_response(),
    })
    .await
}

/// The body of `POST /api/edit/preview`.
#[derive(Deserialize)]
struct PreviewRequest {
    doc: Value,
    /// The result each unknown leaf (by label) returns: `"success"`, `"failure"` or `"running"`.
    #[serde(default)]
    picks: BTreeMap<String, String>,
    /// A trace file's text, to replay against instead of the editor's.
    #[serde(default)]
    trace: Option<String>,
}

/// `POST /api/edit/preview`: `{"recorded", "edited", "divergence", "unknown", "paths"}`
/// (`paths`: each edited node's JSON path by id), or `422` with why not.
async fn preview(State(editor): State<Editor>, Json(request): Json<PreviewRequest>) -> Response {
    blocking(move || {
        let mut picks = BTreeMap::new();
        for (leaf, pick) in request.picks {
            let status = match pick.as_str() {
                "success" => Status::Success,
                "failure" => Status::Failure,
                "running" => Status::Running,
                other => {
                    let error = json!({ "error": format!("a pick is success, failure or running, not {other:?}") });
                    return (StatusCode::UNPROCESSABLE_ENTITY, Json(error)).into_response();
                }
            };
            picks.insert(leaf, status);
        }
        let recorded = match request.trace.as_deref().map(crate::files::read_trace) {
            Some(Ok(t)) => Some(t),
            Some(Err(e)) => {
                return (StatusCode::UNPROCESSABLE_ENTITY, Json(json!({ "error": e }))).into_response();
            }
            None => None,
        };
        match editor.preview(&request.doc, recorded, picks) {
            Ok((recorded, p)) => Json(json!({
                "recorded": recorded,
                "edited": p.trace,
                "divergence": p.divergence,
                "unknown": p.unknown,
                "paths": p.paths,
                "notes": p.notes,
            }))
            .into_response(),
            Err(why) => (StatusCode::UNPROCESSABLE_ENTITY, Json(why)).into_response(),
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::this_machine::testing::{post_from, post_sized};

    #[test]
    fn only_this_machine_saves_and_before_the_body_is_read() {
        let dir = std::env::temp_dir().join(format!("bt-studio-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("guard.json");
        std::fs::write(&file, "{\"type\": \"failure\"}\n").unwrap();
        let app = || editor_router(Editor::new(&file));
        let save = |peer: &str, headers: &str, body: &str| {
            post_from(
                app(),
                peer,
                "/api/edit/save",
                &format!("Content-Type: application/json\r\n{headers}"),
                body,
            )
        };
        let tree = r#"{"name": "guard.json", "doc": {"type": "success"}}"#;
        // Served on all interfaces, another machine reads but cannot save.
        let answer = save("192.0.2.7:5000", "", tree);
        assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
        assert!(
            answer
                .ends_with(r#"{"error":"behaved-studio saves trees only for programs and pages on its own machine"}"#),
            "{answer}"
        );
        // Nor can it have the server check or replay trees: that runs work here.
        for (path, work) in [("/api/edit/check", "checks"), ("/api/edit/preview", "replays")] {
            let answer = post_from(
                app(),
                "192.0.2.7:5000",
                path,
                "Content-Type: application/json\r\n",
                "{}",
            );
            assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
            let why =
                format!(r#"{{"error":"behaved-studio {work} trees only for programs and pages on its own machine"}}"#);
            assert!(answer.ends_with(&why), "{answer}");
            let answer = post_from(app(), "127.0.0.1:5000", path, "Origin: http://evil.example\r\n", "{");
            assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
            assert!(
                answer.contains(&format!("behaved-studio {work} trees only from its own page")),
                "{answer}"
            );
        }
        let checked = post_from(
            app(),
            "127.0.0.1:5000",
            "/api/edit/check",
            "Content-Type: application/json\r\n",
            "{}",
        );
        assert!(checked.starts_with("HTTP/1.1 200"), "{checked}");
        // Another site's page is refused before its body is read: not even malformed JSON is looked at.
        let answer = save("127.0.0.1:5000", "Origin: http://evil.example\r\n", "{");
        assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
        assert!(answer.contains("not from another site's"), "{answer}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "{\"type\": \"failure\"}\n");
        // The editor's own page and a program on this machine save.
        let answer = save("127.0.0.1:5000", "Origin: http://{addr}\r\n", "{");
        assert!(
            answer.starts_with("HTTP/1.1 400"),
            "its own page's malformed JSON: {answer}"
        );
        let answer = save("[::ffff:127.0.0.1]:5000", "", tree);
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(std::fs::read_to_string(&file).unwrap().contains("success"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_tree_is_a_tree_sized_body_and_a_preview_may_carry_a_trace() {
        let app = || editor_router(Editor::new("unread.json"));
        for path in ["/api/edit/check", "/api/edit/save"] {
            let answer = post_sized(app(), path, MAX_TREE_BYTES + 1);
            assert!(answer.starts_with("HTTP/1.1 413"), "{path}: {answer}");
        }
        // A preview carries a recorded trace: a body past a tree's limit is
        // read (and found to lack a "doc").
        let answer = post_sized(app(), "/api/edit/preview", MAX_TREE_BYTES + 1);
        assert!(answer.starts_with("HTTP/1.1 422"), "{answer}");
        assert!(answer.contains("missing field `doc`"), "{answer}");
    }
}

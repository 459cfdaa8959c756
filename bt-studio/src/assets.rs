//! The single-page app, embedded in the binary: ES modules (no build step),
//! each page loading one entry module (`studio.js`, `editor.js`) that
//! imports the others.

use axum::Router;
use axum::routing::get;

use crate::server::page_file;

/// One embedded file of the app.
pub(crate) struct Asset {
    /// The URL path it is served at.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its bytes (made once, for the catalogue).
    pub body: fn() -> &'static str,
}

/// The `Content-Type`s of the app's files.
const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const SVG: &str = "image/svg+xml";

/// The file `assets/$file`, served at `$path` as `$type`.
macro_rules! embedded {
    ($path:literal, $type:expr, $file:literal) => {
        Asset {
            path: $path,
            content_type: $type,
            body: || include_str!(concat!("../assets/", $file)),
        }
    };
}

/// The runtime's catalogue of node kinds as a module (`catalogue`, see
/// [`crate::edit::palette`]; its types in `assets/catalogue.d.ts`): the
/// pages read the kinds' icons, child slots, groups and fields from it and
/// keep no list of their own; and the studio's limits ([`crate::limits`],
/// `limits`), which the page checks too.
const CATALOGUE_JS: Asset = Asset {
    path: "/catalogue.js",
    content_type: JS,
    body: || {
        static SCRIPT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
            format!(
                "// behaved-studio's node kinds: behaved-runtime's catalogue, written by the server\n\
                 // (its types: catalogue.d.ts).\n\
                 export const catalogue = {};\n\
                 // The largest trace the studio shows (behaved_studio::limits).\n\
                 export const limits = {};\n",
                crate::edit::palette::palette(),
                serde_json::json!({
                    "traceBytes": crate::limits::MAX_TRACE_BYTES,
                    "traceNodes": crate::limits::MAX_TRACE_NODES,
                    "traceEvents": crate::limits::MAX_TRACE_EVENTS,
                })
            )
        });
        &SCRIPT
    },
};

/// The files both pages load: the icon, the styles, the catalogue and
/// limits, the drawing and its layout. A game's live view serves them once
/// for the viewer and the editor it embeds.
pub(crate) const SHARED_ASSETS: &[Asset] = &[
    // The pages' icon, so that no page load asks for a `/favicon.ico` there is not.
    embedded!("/favicon.svg", SVG, "favicon.svg"),
    embedded!("/studio.css", CSS, "studio.css"),
    CATALOGUE_JS,
    embedded!("/limits.js", JS, "limits.js"),
    embedded!("/draw.js", JS, "draw.js"),
    embedded!("/layout.js", JS, "layout.js"),
];

/// The viewer's own files (replay and live), beside [`SHARED_ASSETS`].
pub(crate) const VIEWER_ASSETS: &[Asset] = &[
    embedded!("/", HTML, "index.html"),
    embedded!("/fit.js", JS, "fit.js"),
    embedded!("/compare.js", JS, "compare.js"),
    embedded!("/tree-view.js", JS, "tree-view.js"),
    embedded!("/trace-model.js", JS, "trace-model.js"),
    embedded!("/scores-view.js", JS, "scores-view.js"),
    embedded!("/dataflow.js", JS, "dataflow.js"),
    embedded!("/dataflow-view.js", JS, "dataflow-view.js"),
    embedded!("/studio.js", JS, "studio.js"),
];

/// The editor's own files (`behaved-studio edit`, or `/edit` in a live
/// view), beside [`SHARED_ASSETS`].
pub(crate) const EDITOR_ASSETS: &[Asset] = &[
    embedded!("/", HTML, "editor.html"),
    embedded!("/editor.css", CSS, "editor.css"),
    embedded!("/editor.js", JS, "editor.js"),
    embedded!("/kinds.js", JS, "kinds.js"),
    embedded!("/curves.js", JS, "curves.js"),
    embedded!("/curve-editor.js", JS, "curve-editor.js"),
];

/// The routes that serve `assets`, each at its path, the page (`/`) at `page`.
pub(crate) fn asset_routes<S: Clone + Send + Sync + 'static>(
    assets: impl IntoIterator<Item = &'static Asset>,
    page: &'static str,
) -> Router<S> {
    let mut app = Router::new();
    for asset in assets {
        app = app.route(
            if asset.path == "/" { page } else { asset.path },
            get(move || async move { page_file(asset.content_type, (asset.body)()) }),
        );
    }
    app
}

//! The single-page app, embedded in the binary.

/// One embedded file of the app.
pub(crate) struct Asset {
    /// The URL path it is served at.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its bytes.
    pub body: &'static str,
}

/// The viewer's styles, shared by the editor.
const STUDIO_CSS: Asset = Asset {
    path: "/studio.css",
    content_type: "text/css; charset=utf-8",
    body: include_str!("../assets/studio.css"),
};

/// The tree's layout and drawing, shared by the viewer and the editor.
const DRAW_JS: Asset = Asset {
    path: "/draw.js",
    content_type: "text/javascript; charset=utf-8",
    body: include_str!("../assets/draw.js"),
};

/// Every file of the app.
pub(crate) const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_str!("../assets/index.html"),
    },
    STUDIO_CSS,
    DRAW_JS,
    Asset {
        path: "/tree-view.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../assets/tree-view.js"),
    },
    Asset {
        path: "/trace-model.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../assets/trace-model.js"),
    },
    Asset {
        path: "/studio.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../assets/studio.js"),
    },
];

/// The editor's files (`behaved-studio edit`): its own page and script, with the
/// viewer's styles and drawing.
pub(crate) const EDITOR_ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: include_str!("../assets/editor.html"),
    },
    STUDIO_CSS,
    Asset {
        path: "/editor.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("../assets/editor.css"),
    },
    DRAW_JS,
    Asset {
        path: "/editor.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("../assets/editor.js"),
    },
];

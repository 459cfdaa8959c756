//! The single-page app, embedded in the binary.

/// One embedded file of the app.
pub(crate) struct Asset {
    /// The URL path it is served at.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its bytes (made once, for the catalogue).
    pub body: fn() -> &'static str,
}

/// The runtime's catalogue of node kinds as a script (`window.BtCatalogue`,
/// see [`crate::edit::palette`]): the pages read the kinds' icons, child
/// slots, groups and fields from it and keep no list of their own.
const CATALOGUE_JS: Asset = Asset {
    path: "/catalogue.js",
    content_type: "text/javascript; charset=utf-8",
    body: || {
        static SCRIPT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
            format!(
                "// behaved-studio's node kinds: behaved-runtime's catalogue, written by the server.\n\
                 window.BtCatalogue = {};\n",
                crate::edit::palette::palette()
            )
        });
        &SCRIPT
    },
};

/// The viewer's styles, shared by the editor.
const STUDIO_CSS: Asset = Asset {
    path: "/studio.css",
    content_type: "text/css; charset=utf-8",
    body: || include_str!("../assets/studio.css"),
};

/// The tree's layout and drawing, shared by the viewer and the editor.
const DRAW_JS: Asset = Asset {
    path: "/draw.js",
    content_type: "text/javascript; charset=utf-8",
    body: || include_str!("../assets/draw.js"),
};

/// Every file of the app.
pub(crate) const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: || include_str!("../assets/index.html"),
    },
    STUDIO_CSS,
    CATALOGUE_JS,
    DRAW_JS,
    Asset {
        path: "/tree-view.js",
        content_type: "text/javascript; charset=utf-8",
        body: || include_str!("../assets/tree-view.js"),
    },
    Asset {
        path: "/trace-model.js",
        content_type: "text/javascript; charset=utf-8",
        body: || include_str!("../assets/trace-model.js"),
    },
    Asset {
        path: "/studio.js",
        content_type: "text/javascript; charset=utf-8",
        body: || include_str!("../assets/studio.js"),
    },
];

/// The editor's files (`behaved-studio edit`): its own page and script, with the
/// viewer's styles and drawing.
pub(crate) const EDITOR_ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: "text/html; charset=utf-8",
        body: || include_str!("../assets/editor.html"),
    },
    STUDIO_CSS,
    Asset {
        path: "/editor.css",
        content_type: "text/css; charset=utf-8",
        body: || include_str!("../assets/editor.css"),
    },
    CATALOGUE_JS,
    DRAW_JS,
    Asset {
        path: "/editor.js",
        content_type: "text/javascript; charset=utf-8",
        body: || include_str!("../assets/editor.js"),
    },
];

//! A browser viewer for `behaved` trees.
//!
//! `behaved-studio open guard.trace.json` serves a single-page app on the loopback
//! interface that replays a [`behaved_observe::Trace`] tick by tick and event by
//! event: the tree drawn top-down and coloured by state, a timeline with a
//! status lane per node, the transitions, a node inspector and permalinks.
//! The page is embedded in this crate (no Node, npm or build step), and every
//! trace it shows is read and checked by behaved-observe's reader, so a broken
//! file gets behaved-observe's message in the page.
//!
//! `behaved-studio open a.json --diff b.json` also shows where two traces of the
//! same tree first part ways ([`diff::compare`]): two seeds, or a run before
//! and after a change.
//!
//! A running game serves the live view with [`Studio`]: every agent's
//! observer ([`Studio::agent`]) costs one branch per event until a page
//! follows that agent; then the page shows it tick by tick over a WebSocket,
//! with a bounded window of history to pause, scrub and save as a trace;
//! the values the game records as its context can be edited there where the
//! game provides a setter ([`Setters`], [`ObservedAgent::apply_edits`]).
//!
//! `behaved-studio edit tree.json --leaves leaves.json` edits a JSON tree: a
//! palette of the catalogue's node kinds and the game's leaves (the leaf
//! manifest of `behaved_interp::Registry::manifest`), every change checked by
//! behaved-interp's loader, saved in a stable layout, and replayed against a
//! recorded trace to see whether an edit changes what happened ([`edit`]).
//! A game that serves its live view takes saved trees while it runs:
//! from the editor it serves itself ([`Studio::serve_with_editor`]) or from
//! a separate one (`behaved-studio edit tree.json --push http://127.0.0.1:7878/`,
//! [`Editor::push_to`]); see [`Studio::take_reload`].
//!
//! The library also serves the replay from a program of your own:
//!
//! ```no_run
//! # fn main() -> std::io::Result<()> {
//! let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
//! println!("http://{}/", listener.local_addr()?);
//! behaved_studio::serve_blocking(listener, behaved_studio::Files::new("guard.trace.json"))
//! # }
//! ```

mod agreement;
mod assets;
pub mod diff;
pub mod edit;
mod files;
pub mod limits;
mod live;
mod replay;
mod server;
mod studio;
mod this_machine;

pub use behaved_observe::{DataFlow, WOKE_KEY, Woke};
pub use edit::Editor;
pub use files::{Files, TracePayload};
pub use live::control::Debugger;
pub use live::edits::{Setters, ValueType};
pub use live::{FORCED_KEY, HISTORY, ObservedAgent, Reload};
pub use replay::{router, serve, serve_blocking};
pub use studio::Studio;

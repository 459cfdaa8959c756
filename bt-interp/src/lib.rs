//! # behaved-interp: behavior trees as data
//!
//! The interpreted form of the `behaved` library's trees: a tree written as JSON
//! (ADR-017's data model, extended with every node of the catalogue; see
//! `FORMAT.md` and `schema/bt-tree.schema.json`) is checked at load time and
//! run with exactly the semantics of a tree compiled by `behave!`, node ids
//! and observer events included. The JSON model and its shape checks
//! ([`model`], [`Library`], [`LoadError`]) are the `behaved-format` crate, which
//! `behave!` uses too; this crate adds the leaves and the running.
//!
//! - A [`Registry`] maps the leaf type names a file uses to your
//!   [`Condition`](behaved_runtime::Condition) and [`Action`](behaved_runtime::Action)
//!   types, built from their JSON parameters.
//! - [`Registry::load`] checks everything (node and leaf types, children,
//!   parameters, thresholds, subtree references and cycles, depth, `break`
//!   targets, the most work one tick can do) and reports every problem at
//!   its JSON path as a [`LoadError`].
//! - The loaded [`Definition`] is immutable and shared (`Arc`) by any number
//!   of [`Agent`]s; each agent owns only its small running state, allocated
//!   when it is created. Ticking allocates nothing.
//! - A [`Library`] holds subtrees by id (ADR-017's `BTSubtreeLibrary`);
//!   [`Agent::replace_definition`] hot-reloads a tree.
//! - With the `serde` feature (default), a running agent saves and loads
//!   (`Serialize`, [`Agent::load`]), checked against its definition's
//!   [`Definition::fingerprint`]; actions registered with
//!   [`Registry::persistent_action`] keep their own state too.
#![cfg_attr(docsrs, feature(doc_cfg))]
// The link only where the method exists: the docs build clean with and without the feature.
#![cfg_attr(
    feature = "manifest",
    doc = "- With the `manifest` feature, [`Registry::manifest`] describes every"
)]
#![cfg_attr(
    not(feature = "manifest"),
    doc = "- With the `manifest` feature, `Registry::manifest` describes every"
)]
//!   registered leaf and its parameters as JSON, for the studio's editor.
//!
//! Ticking is built for speed: each node is a 16-byte record in one array,
//! children are found by position (pre-order), the common kinds (sequences
//! and selectors, plain and reactive, loops, and leaves) run in specialised
//! loops that tick leaf children in place, and action leaves live in one
//! array per action type, each called with one dynamic call.
//!
//! The context type is `'static` (leaves are boxed trait objects); a
//! definition is `Send + Sync` and an agent is `Send + Sync`, so agents can live in
//! ECS components and tick on worker threads.
//!
//! ```
//! use behaved_interp::{Agent, NoParams, Registry};
//! use behaved_runtime::{Action, Status};
//!
//! struct Npc { steps: u32 }
//!
//! #[derive(Clone)]
//! struct Walk;
//! impl Action<Npc> for Walk {
//!     fn tick(&mut self, npc: &mut Npc) -> Status {
//!         npc.steps += 1;
//!         if npc.steps % 3 == 0 { Status::Success } else { Status::Running }
//!     }
//! }
//!
//! let mut leaves = Registry::new();
//! leaves.action("walk", |_: NoParams| Walk);
//! let tree = leaves.load(r#"{"type": "repeater", "count": 2, "child": {"type": "action", "action": "walk"}}"#)?;
//! let mut npc = Agent::new(tree);
//! let mut ctx = Npc { steps: 0 };
//! let statuses: Vec<Status> = (0..5).map(|t| npc.tick_at(&mut ctx, t as f64)).collect();
//! use Status::{Running as R, Success as S};
//! // The third step completes the first walk and starts the second in the same tick.
//! assert_eq!(statuses, [R, R, R, R, S]);
//! # Ok::<(), behaved_interp::LoadError>(())
//! ```

mod agent;
mod compile;
mod definition;
mod flow;
mod invariants;
mod leaves;
mod load;
#[cfg(feature = "manifest")]
mod manifest;
#[cfg(feature = "serde")]
mod persist;
mod ports;
mod reads;
mod registry;
mod remaps;
mod size;
mod utility;
mod work;
#[cfg(feature = "xml")]
mod xml;

pub use agent::Agent;
/// The JSON model this crate loads (from `behaved-format`).
pub use behaved_format::model;
pub use behaved_format::{Library, LoadError, Problem};
pub use behaved_format::{entry, port};
/// The trait of the lists `forEach` nodes read (from `behaved-runtime`).
pub use behaved_runtime::ItemList;
pub use definition::{Definition, LoadedNode};
pub use leaves::{KeyRef, ListItem, MatchValue};
#[cfg(feature = "manifest")]
pub use manifest::{LeafDoc, ListDoc, Manifest, Param, ParamType};
#[cfg(feature = "serde")]
pub use persist::AgentSeed;
pub use registry::{NoParams, Registry};

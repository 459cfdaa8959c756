//! Runtime of the `behaved` behavior-tree library.
//!
//! Trees are written with the `behave!` macro of the `behaved` crate and compiled
//! into static state machines; this crate holds what those machines and their
//! users share: [`Status`], the leaf traits [`Condition`], [`Action`] and
//! [`AsyncAction`], the
//! [`Clock`] through which the caller supplies time, the seedable [`Rng`] of the
//! random nodes, [`Observer`]s, the [`Wake`] of a sleeping tree, the static [`NodeInfo`] table and the catalogue
//! of [`NodeKind`]s.
//!
//! The tick path is `no_std` and never allocates.
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

mod async_action;
pub mod catalog;
mod changes;
mod clock;
mod for_each;
mod leaf;
pub mod node;
mod observer;
#[cfg(feature = "serde")]
mod persist;
#[doc(hidden)]
pub mod private;
mod rng;
mod status;
mod tree;
pub mod utility;
mod wake;

#[cfg(feature = "std")]
pub use async_action::BoxFuture;
pub use async_action::{Async, AsyncAction, Task};
pub use catalog::{Arity, NodeKind};
pub use changes::Reads;
pub use clock::Clock;
pub use for_each::{ForEachItems, ItemList, ItemOf};
pub use leaf::{Action, Condition};
pub use node::{NodeInfo, NodeRow};
pub use observer::{LeafCall, NodeId, NoopObserver, Observer};
pub use rng::Rng;
pub use status::{IntoStatus, Status};
pub use tree::{Run, Tree};
pub use wake::{Ticked, Wake};

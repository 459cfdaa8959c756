#![doc = include_str!("tutorial.md")]
#![no_std]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// Blackboard ports (the `json` feature): a leaf's parameter that names an
/// entry of the context (BT.CPP's `{goal}`), read as a
/// [`Port`](port::Port) or written as an [`OutPort`](port::OutPort); a
/// tree compiled from a file maps each entry in its `ports { .. }`.
#[cfg(feature = "json")]
pub use behaved_format::{entry, port};
#[doc = include_str!("behave.md")]
#[doc = include_str!("nodes.md")]
pub use behaved_macros::behave;
// The runtime's public items, listed: its hidden `private` module is reached
// only through `__private` below, never as `behaved::private`.
#[cfg(feature = "std")]
pub use behaved_runtime::BoxFuture;
pub use behaved_runtime::{
    Action, Arity, Async, AsyncAction, Clock, Condition, ForEachItems, IntoStatus, ItemList, ItemOf, LeafCall, NodeId,
    NodeInfo, NodeKind, NodeRow, NoopObserver, Observer, Reads, Rng, Run, Status, Task, Ticked, Tree, Wake, catalog,
    node, utility,
};

/// Everything a tree author needs in scope: `use behaved::prelude::*;`.
pub mod prelude {
    pub use crate::behave;
    pub use behaved_runtime::utility::{CandidateConsideration, Consideration, Curve, all};
    pub use behaved_runtime::{
        Action, AsyncAction, Clock, Condition, ItemList, NodeId, NodeInfo, Observer, Reads, Run, Status, Task, Tree,
        Wake,
    };
}

/// Expands its input only when `behaved` is built with the `serde` feature, so
/// generated trees get `Serialize`/`Deserialize` exactly then.
#[cfg(feature = "serde")]
#[doc(hidden)]
#[macro_export]
macro_rules! __if_serde {
    ($($item:tt)*) => { $($item)* };
}

/// Expands its input only when `behaved` is built with the `serde` feature.
#[cfg(not(feature = "serde"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __if_serde {
    ($($item:tt)*) => {};
}

/// Paths used by the code `behave!` generates. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::__if_serde as if_serde;
    pub use crate::json_leaf::*;
    pub use behaved_runtime::private::*;
    pub use behaved_runtime::utility;
    pub use behaved_runtime::{
        Action, Async, Clock, Condition, ForEachItems, IntoStatus, ItemList, NodeId, NodeInfo, NodeKind, NoopObserver,
        Observer, Reads, Rng, Run, Status, Task, Ticked, Tree, Wake,
    };
    pub use core::{
        marker::{PhantomData, Send, Sync},
        option::Option,
    };
    #[cfg(feature = "serde")]
    pub use serde;
}

mod json_leaf;

/// The rules of every node, tick by tick: what a tree does, the same in both of its
/// forms, compiled by [`behave!`] and loaded from JSON. A test that checks a rule
/// names its section here.
#[doc = include_str!("../SEMANTICS.md")]
pub mod semantics {}

/// The README's code blocks, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

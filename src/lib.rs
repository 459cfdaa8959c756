#![doc = include_str!("../README.md")]
#![no_std]
#![forbid(unsafe_code)]

pub use behaved_macros::behave;
pub use behaved_runtime::*;

/// Seeing inside a running tree: status snapshots, trace recording, time travel, console logging and views.
#[cfg(feature = "observe")]
pub use behaved_observe as observe;

/// Testing your own trees: stand-ins for leaves, scenarios, golden traces, coverage and property checks.
#[cfg(feature = "testing")]
pub use behaved_testing as testing;

/// Everything a tree author needs in scope: `use behaved::prelude::*;`.
pub mod prelude {
    pub use crate::behave;
    pub use behaved_runtime::{
        Action, AsyncAction, Clock, Condition, ItemList, NodeId, NodeInfo, Observer, Run, Schedulable, Status, Task,
        Tree, Wake,
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
    pub use behaved_runtime::{
        Action, Async, Clock, Condition, ForEachItems, IntoStatus, ItemList, NodeId, NodeInfo, NodeKind, NoopObserver,
        Observer, Rng, Run, Schedulable, Status, Task, Ticked, Tree, Wake,
    };
    pub use core::{
        marker::{PhantomData, Send, Sync},
        option::Option,
    };
    #[cfg(feature = "serde")]
    pub use serde;
}

mod json_leaf;

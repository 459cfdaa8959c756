//! # behaved-format: behavior trees as JSON
//!
//! The JSON form of the `behaved` library's trees (ADR-017's data model, the
//! architecture decision that made trees data, extended with every node of
//! the catalogue; `behaved-interp`'s `FORMAT.md` describes it field by field), as
//! typed data that both readers share:
//!
//! - the interpreter (`behaved-interp`) loads a [`model::Node`], resolves its leaf
//!   names through a registry and runs it;
//! - the `behave!` macro (`behaved-macros`) compiles a JSON file into Rust, and
//!   writes every tree back as `Tree::JSON` through the same model.
//!
//! The text is read strictly ([`Reader`]): a repeated key is an error at its
//! path, nesting has one limit (`max_depth`) with one message, and a file of
//! 50 MB reads in time and memory in proportion to its size; a
//! [`Library`] counts each subtree's size once inlined before anything is
//! built ([`Library::inlined_sizes`]).
//! [`model::Node::parse`] checks a document's shape (node types, fields,
//! children, parameters, loop labels and jump targets, node ids) and reports
//! every problem at once, each at its JSON path with its line and column in
//! the text ([`locate`]), as a [`LoadError`]. A
//! [`Library`] holds subtrees by id. Leaf types are only names here, so this
//! crate needs neither the runtime nor the user's types.
//!
//! ```
//! use behaved_format::model::Node;
//!
//! let tree = Node::parse(r#"{"type": "repeater", "count": 2, "child": {"type": "wait", "seconds": 1}}"#)?;
//! assert_eq!(tree.label(), "repeat(2)");
//! assert_eq!(tree.children()[0].label(), "wait(1.0)");
//!
//! let err = Node::parse(r#"{"type": "sequence", "children": [{"type": "waitt"}]}"#).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     r#"at `children[0].type` (line 1, column 36): unknown node type "waitt"; did you mean "wait"?"#
//! );
//! # Ok::<(), behaved_format::LoadError>(())
//! ```

pub mod decode;
mod document;
mod encode;
mod error;
mod inlined;
pub mod label;
mod library;
mod locate;
pub mod messages;
pub mod model;
mod params;
pub mod port;
mod reader;
pub mod schema;
pub mod utility;
#[cfg(feature = "xml")]
pub mod xml;

pub use document::{clipped, deep, json_depth_limit, shown, too_deep};
pub use error::{LoadError, Problem, Problems, node_types_once, path};
pub use inlined::{InlinedSizes, LargestChain};
pub use library::{Library, SubtreeCycle};
pub use locate::{Location, locate};
pub use params::leaf_params;
pub use reader::Reader;

/// The most leaf ticks one tick of a tree may make by default (2^24): the
/// interpreter's `Registry::DEFAULT_MAX_TICK_WORK` and the limit `behave!`
/// enforces, one number for both forms. It is sixteen times what a tree of a
/// million leaves makes without loops, a few milliseconds of trivial leaves;
/// a tree above it could hang the thread that ticks it.
pub const MAX_TICK_WORK: u64 = 1 << 24;

/// The most items a tree's for-each loops may hold in all (the sum of their
/// `max`, 2^16): the interpreter's `Registry::DEFAULT_MAX_ITEMS` and the
/// limit `behave!` enforces. Room for them is made when a tree (an agent, or
/// a compiled tree's struct) is created; far more would take gigabytes, or
/// overflow the stack where a compiled tree is built.
pub const MAX_ITEMS: u64 = 1 << 16;

/// A Rust field's name as the JSON form writes it: `quest_id` is `questId`
/// (a leaf's parameters, in `Tree::JSON` and in labels).
///
/// ```
/// assert_eq!(behaved_format::json_field_name("quest_id"), "questId");
/// assert_eq!(behaved_format::json_field_name("hp"), "hp");
/// assert_eq!(behaved_format::json_field_name("_private_x"), "privateX"); // as serde's `rename_all = "camelCase"`
/// ```
pub fn json_field_name(rust: &str) -> String {
    let mut out = String::with_capacity(rust.len());
    let mut upper = false;
    for c in rust.chars() {
        if c == '_' {
            upper = !out.is_empty();
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

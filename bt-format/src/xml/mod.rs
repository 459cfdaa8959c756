//! BehaviorTree.CPP v4 XML (Groot2's files), beside JSON: [`XmlReader`] reads
//! a `<root BTCPP_format="4">` document into the model (its main tree and a
//! [`Library`] of its `<BehaviorTree>`s), [`to_xml`] writes a tree and its
//! library back, and [`nodes_model`] writes leaves as a `<TreeNodesModel>`
//! for Groot2's palette.
//!
//! `SEMANTICS.md`, "BehaviorTree.CPP XML", is the mapping: each BT.CPP node is
//! one of ours that does the same tick by tick, or is refused with a problem
//! at its XML line and column that names it and what to write instead.
//! Problems are reported as the JSON loader reports them (all at once, at
//! the JSON path of the node they are about), with the XML position.
//!
//! ```
//! use behaved_format::xml::XmlReader;
//!
//! let xml = r#"<root BTCPP_format="4">
//!   <BehaviorTree ID="Main">
//!     <Sequence>
//!       <Condition ID="seesEnemy"/>
//!       <Repeat num_cycles="2"><Action ID="attack" power="3"/></Repeat>
//!     </Sequence>
//!   </BehaviorTree>
//! </root>"#;
//! let trees = XmlReader::new().read(xml)?;
//! assert_eq!(trees.main().children()[1].label(), "repeat(2)");
//!
//! let bad = r#"<root BTCPP_format="4"><BehaviorTree ID="Main"><SequenceWithMemory><AlwaysSuccess/></SequenceWithMemory></BehaviorTree></root>"#;
//! let err = XmlReader::new().read(bad).unwrap_err();
//! assert!(err.to_string().starts_with("at the root (line 1, column 48): `SequenceWithMemory` has no counterpart"));
//! # Ok::<(), behaved_format::LoadError>(())
//! ```

use std::collections::HashMap;
use std::sync::Arc;

use crate::decode::LeafCheck;
use crate::error::LoadError;
use crate::library::Library;
use crate::locate::Location;
use crate::model::Node;

mod builtins;
mod include;
mod nodes;
mod ports;
mod read;
mod scopes;
mod write;
mod yields;

pub use write::{nodes_model, to_xml};

/// The deepest nesting of `<include>`s: a file included by an included
/// file is at depth 2.
pub const MAX_INCLUDE_DEPTH: usize = 8;

/// The most files a document may include, directly or not.
pub const MAX_INCLUDED_FILES: usize = 64;

/// The most bytes a document and the files it includes may have in all,
/// unless [`XmlReader::max_bytes`] says otherwise: reading XML takes about
/// 90 bytes of memory per byte of text at its peak (bt-interp's FORMAT.md,
/// "Loading a stranger's file"), so 8 MiB is under 1 GB.
pub const DEFAULT_MAX_BYTES: usize = 8 << 20;

/// Whether a user's leaf is an action or a condition: BT.CPP files say it
/// with the explicit form (`<Action ID=..>`), their `<TreeNodesModel>`, or
/// not at all (`<FindTarget/>`), when the caller's lookup must.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeafKind {
    /// `<Action ID=..>`: our `action` node.
    Action,
    /// `<Condition ID=..>`: our `condition` node.
    Condition,
}

/// The type of a leaf's port, which says how its text becomes the JSON
/// value of the leaf's parameter (a port's text is always a string in XML).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortType {
    /// Kept as the text (`std::string`).
    String,
    /// `true` or `false` (`bool`).
    Boolean,
    /// An integer (`int`, `unsigned`, `long`, ..).
    Integer,
    /// A number (`double`, `float`).
    Number,
    /// JSON text: lists, objects, anything else (`json`, our own type name).
    Json,
}

impl PortType {
    /// The type BT.CPP's `<TreeNodesModel>` writes for it.
    pub fn btcpp_name(self) -> &'static str {
        match self {
            PortType::String => "std::string",
            PortType::Boolean => "bool",
            PortType::Integer => "int",
            PortType::Number => "double",
            PortType::Json => "json",
        }
    }

    /// The port type for a `<TreeNodesModel>` type name: C++ integer and
    /// floating types, `bool`, and `json`; any other (`std::string`, a
    /// user's type) is kept as text.
    pub fn from_btcpp_name(name: &str) -> PortType {
        let name = name.trim();
        match name {
            "bool" => PortType::Boolean,
            "double" | "float" => PortType::Number,
            "json" => PortType::Json,
            _ if is_integer_type(name) => PortType::Integer,
            _ => PortType::String,
        }
    }
}

/// Whether `name` is a C++ integer type as BT.CPP's models write them.
fn is_integer_type(name: &str) -> bool {
    let base = name.trim_start_matches("std::").trim_start_matches("unsigned ");
    matches!(
        base,
        "int" | "unsigned" | "long" | "long long" | "short" | "size_t" | "char"
    ) || (base.starts_with("int") || base.starts_with("uint")) && base.ends_with("_t")
}

/// A user's leaf as a `<TreeNodesModel>` describes it: whether it is an
/// action or a condition, and its ports' types.
#[derive(Debug, Clone, PartialEq)]
pub struct LeafModel {
    /// Action or condition.
    pub kind: LeafKind,
    /// Its ports (our parameters), by name, in order.
    pub ports: Vec<(String, PortType)>,
    /// The names of its ports that are outputs (our `OutPort`s: entries
    /// the leaf writes), which a `<TreeNodesModel>` writes `output_port`;
    /// the rest are `input_port`s.
    pub outputs: Vec<String>,
}

impl LeafModel {
    /// The type of port `name`, if the model has it.
    pub fn port(&self, name: &str) -> Option<PortType> {
        self.ports.iter().find(|(n, _)| n == name).map(|(_, t)| *t)
    }

    /// Whether port `name` is an output.
    pub fn is_output(&self, name: &str) -> bool {
        self.outputs.iter().any(|n| n == name)
    }
}

/// What the caller knows of a leaf by its name (the interpreter's registry:
/// each leaf's kind and parameter types); `None` for a name it does not know.
pub type LeafLookup<'c> = &'c dyn Fn(&str) -> Option<LeafModel>;

/// How BT.CPP XML files are read: the nesting limit (the JSON reader's
/// `max_depth`), what the caller knows of its leaves, and the check of leaf
/// names that the JSON reader makes.
#[derive(Clone, Copy)]
pub struct XmlReader<'c> {
    max_depth: usize,
    leaves: Option<LeafLookup<'c>>,
    check: Option<LeafCheck<'c>>,
    main: Option<&'c str>,
    includes: Option<IncludeLoader<'c>>,
    max_bytes: usize,
}

/// Reads the file an `<include path="..">` names (the caller resolves the
/// path, relative to the including file as BT.CPP does, and bounds its
/// size): its text, or why it cannot.
pub type IncludeLoader<'c> = &'c dyn Fn(&str) -> Result<String, String>;

impl Default for XmlReader<'_> {
    fn default() -> Self {
        XmlReader::new()
    }
}

impl<'c> XmlReader<'c> {
    /// A reader with the JSON reader's default nesting limit and no leaf lookup.
    pub fn new() -> XmlReader<'c> {
        XmlReader {
            max_depth: crate::document::DEFAULT_MAX_DEPTH,
            leaves: None,
            check: None,
            main: None,
            includes: None,
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }

    /// The most bytes the document and its included files may have in
    /// all ([`DEFAULT_MAX_BYTES`] unless set): a longer document is refused
    /// before it is parsed, and an include that would go past it is not read
    /// further.
    pub fn max_bytes(mut self, bytes: usize) -> XmlReader<'c> {
        self.max_bytes = bytes;
        self
    }

    /// The deepest nesting of nodes below a tree's root (as
    /// [`Reader::max_depth`](crate::Reader::max_depth)).
    pub fn max_depth(mut self, depth: usize) -> XmlReader<'c> {
        self.max_depth = depth;
        self
    }

    /// What is known of the leaves by name: a compact `<FindTarget/>` is an
    /// action or a condition as it says, and ports are typed by it.
    pub fn leaves(mut self, lookup: LeafLookup<'c>) -> XmlReader<'c> {
        self.leaves = Some(lookup);
        self
    }

    /// Checks every leaf's type name with `check` while reading, as
    /// [`Reader::check_leaves`](crate::Reader::check_leaves) does.
    pub fn check_leaves(mut self, check: LeafCheck<'c>) -> XmlReader<'c> {
        self.check = Some(check);
        self
    }

    /// Reads the `<BehaviorTree>` `id` as the tree to run, whatever the
    /// file's `main_tree_to_execute` says (`behave!`'s `xml("file", "id")`).
    pub fn main_tree(mut self, id: &'c str) -> XmlReader<'c> {
        self.main = Some(id);
        self
    }

    /// Reads `<include path="..">`d files with `load`; without it an
    /// `<include>` is an error. Included files nest at most
    /// [`MAX_INCLUDE_DEPTH`] deep, [`MAX_INCLUDED_FILES`] in all, each read
    /// once; their `<BehaviorTree>`s join the file's.
    pub fn includes(mut self, load: IncludeLoader<'c>) -> XmlReader<'c> {
        self.includes = Some(load);
        self
    }

    /// Reads a BT.CPP v4 document: every problem at once, each at its XML
    /// line and column.
    pub fn read(&self, text: &str) -> Result<XmlTrees, LoadError> {
        read::read(self, text)
    }
}

/// A BT.CPP document read into the model: the tree to run
/// (`main_tree_to_execute`, or the only one) and every `<BehaviorTree>` of
/// the file, the main one included, as a library its `<SubTree>`s refer to.
#[derive(Debug, Clone)]
pub struct XmlTrees {
    main_id: String,
    /// Every tree, the main one included.
    library: Library,
    /// The XML position of each JSON path the reader made.
    places: HashMap<String, Place>,
}

/// Where a JSON path the reader made is written: its line and column, and
/// the included file it is in (`None`: the file itself).
#[derive(Debug, Clone)]
pub(crate) struct Place {
    location: Location,
    file: Option<Arc<str>>,
}

impl XmlTrees {
    /// The id of the tree to run.
    pub fn main_id(&self) -> &str {
        &self.main_id
    }

    /// The tree to run.
    pub fn main(&self) -> &Node {
        self.library
            .get(&self.main_id)
            .expect("the reader puts the main tree in the library")
    }

    /// Every `<BehaviorTree>` of the file by id, the main one included.
    pub fn library(&self) -> &Library {
        &self.library
    }

    /// `err` (found in these trees by a later check: the interpreter's
    /// registry) with each problem at the XML line and column of its path,
    /// or of the nearest node above it.
    pub fn located(&self, err: LoadError) -> LoadError {
        read::relocate(err, &self.places, Some(&self.main_id))
    }
}

//! BehaviorTree.CPP v4 (Groot2) files in the editor: a `.xml` tree file is
//! read into the JSON document the page edits (its main tree) and a library
//! of its other `<BehaviorTree>`s, and saved back as XML by
//! [`to_xml`](behaved_format::xml::to_xml), which refuses nodes BT.CPP has
//! no counterpart for rather than write another tree.

use std::path::Path;

use behaved_format::model::Node;
use behaved_format::xml::{XmlReader, XmlTrees, to_xml};
use behaved_format::{Library, LoadError};
use behaved_interp::Manifest;
use serde_json::{Map, Value};

/// Whether `path` names a BT.CPP XML file (it ends with `.xml`).
pub(crate) fn is_xml(path: &Path) -> bool {
    path.extension().is_some_and(|x| x.eq_ignore_ascii_case("xml"))
}

/// An XML tree file as read.
pub(crate) struct XmlFile {
    /// The id of its main tree (`main_tree_to_execute`, or the only one).
    pub main_id: String,
    /// The main tree as the page edits it.
    pub main: Value,
    /// Its other `<BehaviorTree>`s by id.
    pub others: Library,
    /// The document as read: where each of its nodes is written.
    pub trees: XmlTrees,
}

impl XmlFile {
    /// The other trees as the page shows them: each tree's document by id.
    pub fn docs(&self) -> Map<String, Value> {
        self.others
            .ids()
            .filter_map(|id| Some((id.to_string(), self.others.get(id)?.to_json())))
            .collect()
    }
}

/// Reads a BT.CPP v4 document; with a leaf manifest its leaves are checked
/// and typed by it (as the game's registry would), without one any leaf
/// the file declares is accepted. Every problem is at its XML line and column.
/// An `<include>` is refused: saving would write the included trees into
/// this file.
pub(crate) fn read(text: &str, leaves: Option<&Manifest>) -> Result<XmlFile, LoadError> {
    let trees = match leaves {
        Some(m) => super::stand_in::registry(Some(m), &Value::Null).read_xml(text, None)?,
        None => XmlReader::new().read(text)?,
    };
    let main_id = trees.main_id().to_string();
    let mut others = trees.library().clone();
    let main = others.remove(&main_id).map_or(Value::Null, |n| n.to_json());
    Ok(XmlFile {
        main_id,
        main,
        others,
        trees,
    })
}

/// The BT.CPP v4 document of `doc` as the tree `main_id`, with `others`:
/// or every node BT.CPP cannot express, each at its JSON path.
pub(crate) fn write(main_id: &str, doc: &Value, others: &Library) -> Result<String, LoadError> {
    let main = Node::from_json(doc)?;
    to_xml(main_id, &main, others)
}

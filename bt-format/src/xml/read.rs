//! The reader: a BT.CPP v4 document into the model. Each `<BehaviorTree>`
//! becomes the JSON form of its tree (with the XML position of each JSON
//! path), which the JSON decoder then checks as it checks any tree file, so
//! both forms accept the same trees with the same messages.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use roxmltree::{Document, Node as XNode, ParsingOptions};

use super::include::gather;
use super::{LeafKind, Place, PortType, XmlReader, XmlTrees};
use crate::decode::decode;
use crate::document::{Json, shown};
use crate::error::{LoadError, Problem, Problems, path};
use crate::library::Library;
use crate::locate::Location;

/// Line and column of byte offsets visited in increasing order, in one pass
/// over the text (an offset before the last one starts again from the top).
pub(super) struct Cursor<'t> {
    text: &'t str,
    at: usize,
    here: Location,
}

impl Cursor<'_> {
    pub(super) fn location(&mut self, byte: usize) -> Location {
        if byte < self.at {
            self.at = 0;
            self.here = Location { line: 1, column: 1 };
        }
        let byte = byte.min(self.text.len());
        for c in self.text[self.at..byte].chars() {
            if c == '\n' {
                self.here.line += 1;
                self.here.column = 1;
            } else {
                self.here.column += 1;
            }
        }
        self.at = byte;
        self.here
    }
}

/// The state of one read.
pub(super) struct Read<'r, 't> {
    pub(super) options: &'r XmlReader<'r>,
    /// Positions in the document being read.
    pub(super) cursor: Cursor<'t>,
    /// The included file being read, `None` for the file itself.
    pub(super) file: Option<Arc<str>>,
    pub(super) problems: Problems,
    pub(super) places: HashMap<String, Place>,
    /// The files' `<TreeNodesModel>`s: each leaf's kind and ports' types.
    pub(super) models: HashMap<String, (LeafKind, HashMap<String, PortType>)>,
    /// Leaves the caller's check does not know: reported beside the other
    /// problems (alone, the loader reports them with their parameters).
    pub(super) unknown: Vec<Problem>,
    /// Problems not yet placed, with their byte offsets: they are placed in
    /// one sorted pass ([`Read::flush`]), as a problem can be found after
    /// the cursor went past it (a condition checked after its children).
    pending: Vec<(Problem, usize)>,
    /// The ids of the `<BehaviorTree>`s read so far, in all documents.
    tree_ids: HashSet<String>,
    /// The `<SubTree>`s read, whose blackboard entries are checked once
    /// every tree is read.
    pub(super) subtree_uses: Vec<super::scopes::SubtreeUse>,
}

impl<'t> Cursor<'t> {
    pub(super) fn new(text: &'t str) -> Cursor<'t> {
        Cursor {
            text,
            at: 0,
            here: Location { line: 1, column: 1 },
        }
    }
}

/// A document read: the file it came from (`None`: the file itself), its
/// text and its XML tree.
type Doc<'t> = (Option<Arc<str>>, &'t str, Document<'t>);

pub(super) fn read(options: &XmlReader<'_>, text: &str) -> Result<XmlTrees, LoadError> {
    if text.len() > options.max_bytes {
        return Err(LoadError::one(
            "",
            format!(
                "the document is {} bytes, above the reader's limit of {} (`XmlReader::max_bytes`): reading XML takes about 90 bytes of memory per byte",
                text.len(),
                options.max_bytes
            ),
        ));
    }
    let doc = parse_document(text).map_err(|p| LoadError::new(vec![p]))?;
    let mut problems = Problems::default();
    let mut included = Vec::new();
    gather(options, &doc, None, &mut included, &mut problems);
    let mut docs: Vec<Doc<'_>> = vec![(None, text, doc)];
    for (name, t) in &included {
        // Each was read once already, by `gather`.
        if let Ok(d) = parse_document(t) {
            docs.push((Some(Arc::from(name.as_str())), t.as_str(), d));
        }
    }
    let r = Read {
        options,
        cursor: Cursor::new(text),
        file: None,
        problems,
        places: HashMap::new(),
        models: HashMap::new(),
        unknown: Vec::new(),
        pending: Vec::new(),
        tree_ids: HashSet::new(),
        subtree_uses: Vec::new(),
    };
    r.documents(&docs)
}

/// Parses `text` as XML, without DTDs; a problem at the root, placed where
/// reading stopped, when it cannot.
pub(super) fn parse_document(text: &str) -> Result<Document<'_>, Problem> {
    let parsing = ParsingOptions {
        allow_dtd: false,
        ..ParsingOptions::default()
    };
    match Document::parse_with_options(text, parsing) {
        Ok(doc) => Ok(doc),
        Err(roxmltree::Error::DtdDetected) => {
            // roxmltree gives no position for it: the `<!DOCTYPE`'s own.
            let at = text.find("<!DOCTYPE").unwrap_or(0);
            let mut p = Problem::new(
                "",
                "a DTD (`<!DOCTYPE ..>` with declarations) is refused: its entities could make a small file expand without bound",
            );
            p.location = Some(Cursor::new(text).location(at));
            Err(p)
        }
        Err(e) => {
            let pos = e.pos();
            let mut p = Problem::new("", format!("malformed XML: {}", bare(&e.to_string())));
            p.location = Some(Location {
                line: pos.row,
                column: pos.col,
            });
            Err(p)
        }
    }
}

/// roxmltree's message without its own `at line:column`.
fn bare(message: &str) -> &str {
    message.rsplit_once(" at ").map_or(message, |(m, _)| m)
}

/// `message` about the included file `file` (none: the file itself).
pub(super) fn in_file(file: Option<&str>, message: String) -> String {
    match file {
        Some(f) => format!("in the included file {}: {message}", shown(f)),
        None => message,
    }
}

impl<'t> Read<'_, 't> {
    /// Records a problem at `path`, placed at byte `pos` of the document.
    pub(super) fn problem(&mut self, path: &str, pos: usize, message: impl Into<String>) {
        let p = Problem::new(path, in_file(self.file.as_deref(), message.into()));
        self.pending.push((p, pos));
    }

    /// Places the pending problems, none before byte `from` (at `here`), in
    /// one pass over the text after it, and records them in the order found.
    fn flush(&mut self, from: usize, here: Location) {
        let mut order: Vec<usize> = (0..self.pending.len()).collect();
        order.sort_by_key(|&i| self.pending[i].1);
        let mut cursor = Cursor {
            text: self.cursor.text,
            at: from,
            here,
        };
        for i in order {
            let pos = self.pending[i].1.max(from);
            self.pending[i].0.location = Some(cursor.location(pos));
        }
        for (p, _) in std::mem::take(&mut self.pending) {
            self.problems.add(p);
        }
    }

    /// [`Read::flush`] from the start of the document.
    fn flush_all(&mut self) {
        self.flush(0, Location { line: 1, column: 1 });
    }

    /// Records where the JSON path `path` is written.
    pub(super) fn place(&mut self, path: &str, pos: usize) {
        let location = self.cursor.location(pos);
        let file = self.file.clone();
        self.places.insert(path.to_string(), Place { location, file });
    }

    /// Reads positions and names problems in the document `doc` from now on.
    fn enter(&mut self, doc: &Doc<'t>) {
        if self.cursor.text.as_ptr() != doc.1.as_ptr() {
            self.cursor = Cursor::new(doc.1);
        }
        self.file = doc.0.clone();
    }

    fn documents(mut self, docs: &[Doc<'t>]) -> Result<XmlTrees, LoadError> {
        let mut trees: Vec<(String, XNode<'_, 't>, usize)> = Vec::new();
        for (i, doc) in docs.iter().enumerate() {
            self.enter(doc);
            self.root(doc.2.root_element(), i, &mut trees);
            self.flush_all();
        }
        self.enter(&docs[0]);
        let root = docs[0].2.root_element();
        let pos = root.range().start;
        let chosen = match self.options.main {
            Some(id) => Some(("the tree asked for", id)),
            None => root
                .attribute("main_tree_to_execute")
                .map(|id| ("`main_tree_to_execute`", id)),
        };
        let main_id = match chosen {
            Some((_, id)) if self.tree_ids.contains(id) => Some(id.to_string()),
            Some((by, id)) => {
                self.problem(
                    "",
                    pos,
                    format!("{by} is {}, which no `<BehaviorTree>` has as its ID", shown(id)),
                );
                None
            }
            None if trees.len() == 1 => Some(trees[0].0.clone()),
            None if trees.is_empty() => {
                self.problem("", pos, "the document has no `<BehaviorTree>`");
                None
            }
            None => {
                self.problem(
                    "",
                    pos,
                    "the document has several `<BehaviorTree>`s: say which one runs with `main_tree_to_execute`",
                );
                None
            }
        };
        self.flush_all();
        let mut library = Library::new();
        let mut main_read = false;
        for (id, tree, doc) in &trees {
            self.enter(&docs[*doc]);
            let is_main = main_id.as_deref() == Some(id.as_str());
            let at = if is_main { String::new() } else { path::subtree(id) };
            if let Some(node) = self.tree(*tree, &at) {
                main_read |= is_main;
                library.insert(id, node);
            }
        }
        if let Some(id) = &main_id {
            let loops = super::yields::yielding_loops(id, &library);
            let err = (!loops.is_empty()).then(|| relocate(LoadError::new(loops), &self.places, None));
            if let Some(err) = err {
                self.problems.extend(&err);
            }
        }
        let private = super::scopes::private_entries(&self.subtree_uses, &library);
        if !private.is_empty() {
            let err = relocate(LoadError::new(private), &self.places, None);
            self.problems.extend(&err);
        }
        let places = self.places;
        if !self.problems.is_empty() {
            for p in self.unknown {
                self.problems.add(p);
            }
        }
        match main_id {
            Some(main_id) if main_read && self.problems.is_empty() => Ok(XmlTrees {
                main_id,
                library,
                places,
            }),
            _ => Err(self
                .problems
                .into_result(())
                .expect_err("the main tree is read whenever no problem was found")),
        }
    }

    /// Checks the `<root>` of document `doc` and lists its trees in `trees`
    /// (the `<include>`s were read by [`gather`]).
    fn root<'d>(&mut self, root: XNode<'d, 't>, doc: usize, trees: &mut Vec<(String, XNode<'d, 't>, usize)>) {
        let pos = root.range().start;
        if root.tag_name().name() != "root" {
            self.problem(
                "",
                pos,
                format!(
                    "expected a BT.CPP document, `<root BTCPP_format=\"4\">`, found `<{}>`",
                    root.tag_name().name()
                ),
            );
            return;
        }
        match root.attribute("BTCPP_format") {
            Some("4") => {}
            Some(other) => self.problem(
                "",
                pos,
                format!("only BT.CPP's format 4 is read, found BTCPP_format={}", shown(other)),
            ),
            None => self.problem("", pos, "the `<root>` needs `BTCPP_format=\"4\"`"),
        }
        for a in root.attributes() {
            if !matches!(a.name(), "BTCPP_format" | "main_tree_to_execute") {
                self.problem(
                    "",
                    a.range().start,
                    format!("unknown attribute `{}` of `<root>`", a.name()),
                );
            }
        }
        for model in root.children().filter(|c| c.has_tag_name("TreeNodesModel")) {
            self.nodes_model(model);
        }
        for child in root.children() {
            if child.is_text() && !child.text().unwrap_or("").trim().is_empty() {
                self.problem("", child.range().start, "unexpected text in `<root>`");
            }
            if !child.is_element() {
                continue;
            }
            let at = child.range().start;
            match child.tag_name().name() {
                "BehaviorTree" => match child.attribute("ID") {
                    Some(id) if !self.tree_ids.insert(id.to_string()) => {
                        self.problem("", at, format!("a second `<BehaviorTree>` with ID {}", shown(id)))
                    }
                    Some(id) => trees.push((id.to_string(), child, doc)),
                    None => self.problem("", at, "a `<BehaviorTree>` needs an `ID`"),
                },
                "TreeNodesModel" | "include" => {}
                other => self.problem(
                    "",
                    at,
                    format!("unexpected `<{other}>` in `<root>`; expected `<BehaviorTree>`, `<TreeNodesModel>` or `<include>`"),
                ),
            }
        }
    }

    /// Reads `<TreeNodesModel>`: which leaves are actions and conditions, and their ports' types.
    fn nodes_model(&mut self, model: XNode<'_, '_>) {
        for entry in model.children().filter(XNode::is_element) {
            let kind = match entry.tag_name().name() {
                "Action" => LeafKind::Action,
                "Condition" => LeafKind::Condition,
                // Control, Decorator and SubTree models describe nodes refused where they are used.
                _ => continue,
            };
            let Some(id) = entry.attribute("ID") else {
                self.problem("", entry.range().start, "a `<TreeNodesModel>` entry needs an `ID`");
                continue;
            };
            let ports = entry
                .children()
                .filter(|p| p.is_element() && p.tag_name().name().ends_with("_port"))
                .filter_map(|p| {
                    let ty = p.attribute("type").map_or(PortType::String, PortType::from_btcpp_name);
                    p.attribute("name").map(|n| (n.to_string(), ty))
                })
                .collect();
            self.models.insert(id.to_string(), (kind, ports));
        }
    }

    /// The one node of a `<BehaviorTree>`, decoded at `at`.
    fn tree(&mut self, tree: XNode<'_, '_>, at: &str) -> Option<crate::model::Node> {
        // The tree's problems are placed from its start: one pass over it.
        let start = tree.range().start;
        let here = self.cursor.location(start);
        let node = self.tree_node(tree, at);
        self.flush(start, here);
        let value = node?;
        let doc = Json::from_value(&value);
        match decode(
            &doc,
            at,
            self.options.max_depth,
            self.options.check,
            Problems::default(),
        ) {
            Ok(node) => Some(node),
            Err(e) => {
                let e = relocate(e, &self.places, None);
                self.problems.extend(&e);
                None
            }
        }
    }

    /// The JSON form of a `<BehaviorTree>`'s one node.
    fn tree_node(&mut self, tree: XNode<'_, '_>, at: &str) -> Option<serde_json::Value> {
        let kids: Vec<XNode<'_, '_>> = tree.children().filter(XNode::is_element).collect();
        for a in tree
            .attributes()
            .filter(|a| a.name() != "ID" && a.name() != "_description")
        {
            self.problem(
                at,
                a.range().start,
                format!("unknown attribute `{}` of `<BehaviorTree>`", a.name()),
            );
        }
        let [root] = kids.as_slice() else {
            self.problem(
                at,
                tree.range().start,
                format!("a `<BehaviorTree>` holds exactly one node, found {}", kids.len()),
            );
            return None;
        };
        self.node(*root, at, 0)
    }
}

/// `err` with every problem at the place of its path, or of the nearest
/// path above it that has one.
/// The main tree, `main`, is placed at the root's paths; its paths as a
/// library subtree (`subtrees["main"]..`) are looked up there.
pub(super) fn relocate(mut err: LoadError, places: &HashMap<String, Place>, main: Option<&str>) -> LoadError {
    let main_root = main.map(path::subtree);
    for p in &mut err.problems {
        if p.location.is_some() {
            continue;
        }
        p.message = in_xml_words(std::mem::take(&mut p.message));
        let mut at = p.path.as_str();
        if let Some(rest) = main_root.as_deref().and_then(|root| at.strip_prefix(root))
            && (rest.is_empty() || rest.starts_with(['.', '[']))
        {
            at = rest.strip_prefix('.').unwrap_or(rest);
        }
        loop {
            if let Some(place) = places.get(at) {
                p.location = Some(place.location);
                p.message = in_file(place.file.as_deref(), std::mem::take(&mut p.message));
                break;
            }
            match parent(at) {
                Some(up) => at = up,
                None => break,
            }
        }
    }
    err
}

/// Later checks' messages name the JSON form's fields; a BT.CPP file's
/// user wrote the ports they come from.
const XML_WORDS: &[(&str, &str)] = &[(
    "lower a \"count\"",
    "lower a `Repeat`'s `num_cycles` or a `RetryUntilSuccessful`'s `num_attempts`",
)];

/// `message` with the JSON form's fields named as the XML file has them.
fn in_xml_words(mut message: String) -> String {
    for (json, xml) in XML_WORDS {
        if message.contains(json) {
            message = message.replace(json, xml);
        }
    }
    message
}

/// The path above `path` (`children[1].count` -> `children[1]` ->
/// `children` -> root); `None` at a tree's root.
fn parent(path: &str) -> Option<&str> {
    if path.is_empty() {
        return None;
    }
    // A library subtree's root (`subtrees["a.b"]`) is one segment.
    if path.starts_with("subtrees[") {
        let end = path.find("\"]").map_or(path.len(), |i| i + 2);
        let end = if path[end..].starts_with("..") { end + 2 } else { end };
        if path.len() <= end {
            return None;
        }
    }
    let cut = path.rfind(['.', '[']).unwrap_or(0);
    Some(&path[..cut])
}

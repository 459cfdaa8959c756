//! The tree editor (`behaved-studio edit tree.json`): the page edits the JSON
//! document; the server checks every version of it with behaved-interp's own
//! loader (through [`stand-in leaves`](stand_in) described by a leaf
//! manifest), saves it in a stable layout ([`pretty`]) to the opened file or
//! a new file beside it, and replays it against a recorded trace
//! ([`preview`]). A BehaviorTree.CPP `.xml` file is edited the same way: its
//! main tree as the document, its other trees as library subtrees, saved
//! back as XML (`xml`).

mod library;
pub(crate) mod palette;
pub mod pretty;
pub mod preview;
mod routes;
pub mod stand_in;
mod xml;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use behaved_format::{Library, LoadError, Problem};
use behaved_interp::Manifest;
use behaved_observe::Trace;
use behaved_runtime::Status;
use serde_json::{Value, json};

pub(crate) use routes::embedded_editor_router;
pub use routes::{serve_editor, serve_editor_blocking};

/// What the editor was given: the tree file, and optionally a subtree
/// library folder, a leaf manifest and a recorded trace for previews. It
/// reads only these and writes only the tree file or new files beside it.
#[derive(Debug, Clone)]
pub struct Editor {
    file: PathBuf,
    library: Option<PathBuf>,
    leaves: Option<Manifest>,
    trace: Option<PathBuf>,
    /// Files this editor created beside the tree (saved as): it may write them again.
    created: Arc<Mutex<BTreeSet<PathBuf>>>,
    /// Hears every saved tree the loader accepts (the live view's hot reload).
    on_save: Option<SaveHook>,
}

/// What hears a saved tree: called with the file name and the text
/// written; says why the tree did not reach the game.
type OnSave = dyn Fn(&str, &str) -> Result<(), String> + Send + Sync;

/// A listener for saved trees.
#[derive(Clone)]
pub(crate) struct SaveHook(pub Arc<OnSave>);

impl std::fmt::Debug for SaveHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SaveHook")
    }
}

/// A tree the editor saved.
#[derive(Debug, Clone, PartialEq)]
pub struct Saved {
    /// Where it was written.
    pub path: PathBuf,
    /// What was written.
    pub text: String,
    /// Whether it went to the running game too (the live view's hot reload).
    pub pushed: bool,
    /// Why a tree the loader accepts did not reach the game ([`Editor::push_to`]).
    pub push_error: Option<String>,
}

/// Why a save did not happen.
#[derive(Debug, Clone, PartialEq)]
pub enum SaveError {
    /// The path is not the opened file or a new file in its folder.
    Refused(String),
    /// The loader rejects the tree and the save was not forced.
    Rejected(Vec<Problem>),
    /// The tree cannot be written in the file's format: BehaviorTree.CPP
    /// XML has no counterpart for some of its nodes (the problems say
    /// which), or the XML file's other trees cannot be read again.
    Unwritable(String, Vec<Problem>),
    /// Writing failed.
    Io(String),
}

impl Editor {
    /// Edits the tree in `file` (a new tree if there is no such file yet).
    pub fn new(file: impl Into<PathBuf>) -> Editor {
        Editor {
            file: file.into(),
            library: None,
            leaves: None,
            trace: None,
            created: Arc::default(),
            on_save: None,
        }
    }

    /// Subtrees from the `.json` files of `dir`: a file is one subtree named
    /// by its stem, or a library `{"subtrees": {..}}`.
    pub fn with_library(mut self, dir: impl Into<PathBuf>) -> Editor {
        self.library = Some(dir.into());
        self
    }

    /// The game's leaves: only these names and parameters are accepted.
    pub fn with_leaves(mut self, manifest: Manifest) -> Editor {
        self.leaves = Some(manifest);
        self
    }

    /// A recorded trace to replay edits against.
    pub fn with_trace(mut self, trace: impl Into<PathBuf>) -> Editor {
        self.trace = Some(trace.into());
        self
    }

    /// Sends each saved tree that the loader accepts to the running game
    /// whose live view ([`Studio`](crate::Studio)) is at `url`
    /// (`http://host:port/`): the game takes it with
    /// [`Studio::take_reload`](crate::Studio::take_reload). Fails on a URL
    /// that is not such an address.
    pub fn push_to(self, url: &str) -> Result<Editor, String> {
        let game = crate::live::push::Game::at(url)?;
        Ok(self.with_save_hook(SaveHook(Arc::new(move |name: &str, tree: &str| game.push(name, tree)))))
    }

    /// Calls `hook` with each saved tree that the loader accepts.
    pub(crate) fn with_save_hook(mut self, hook: SaveHook) -> Editor {
        self.on_save = Some(hook);
        self
    }

    /// The folder of the tree file, where new files may be saved.
    fn folder(&self) -> PathBuf {
        let parent = self
            .file
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        parent.canonicalize().unwrap_or_else(|_| parent.to_path_buf())
    }

    /// The tree file's name.
    fn file_name(&self) -> String {
        self.file
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    }

    /// What the page opens with: the document (or why it cannot be read;
    /// `"new"`: there is no such file yet, an empty sequence to start from),
    /// the palette, the leaves, the library's subtrees and the recorded trace.
    pub fn open(&self) -> Value {
        let library = self.read_library();
        let (doc, error) = match read_tree_file(&self.file) {
            Ok(text) if xml::is_xml(&self.file) => match xml::read(&text, self.leaves.as_ref()) {
                Ok(file) => self.editable(file.main),
                Err(e) => (Value::Null, Some(format!("{} does not load: {e}", self.file_name()))),
            },
            Ok(text) => match serde_json::from_str::<Value>(&text) {
                Ok(doc) => self.editable(doc),
                Err(e) => (Value::Null, Some(format!("{} is not JSON: {e}", self.file_name()))),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (json!({ "type": "sequence", "children": [] }), None),
            Err(e) => (Value::Null, Some(format!("cannot read {}: {e}", self.file.display()))),
        };
        let new = !self.file.exists();
        let trace = self
            .trace
            .as_ref()
            .map(|path| match crate::files::read_trace_file(path) {
                Ok(t) => json!({ "trace": t }),
                Err(e) => json!({ "error": e }),
            });
        json!({
            "name": self.file_name(),
            "new": new,
            "doc": doc,
            "error": error,
            "palette": palette::palette(),
            "leaves": self.leaves,
            "library": library.docs,
            "recorded": trace,
        })
    }

    /// `doc` if the page may edit it, else why not.
    fn editable(&self, doc: Value) -> (Value, Option<String>) {
        match crate::limits::tree_past_limits(&doc) {
            Some(why) => (
                Value::Null,
                Some(format!("{} cannot be edited: {why}", self.file_name())),
            ),
            None => (doc, None),
        }
    }

    /// The opened `.xml` file as read now (`None`: the file is JSON, or
    /// there is no such file yet), or why it cannot be read.
    fn xml_file(&self) -> Option<Result<xml::XmlFile, String>> {
        if !xml::is_xml(&self.file) {
            return None;
        }
        match read_tree_file(&self.file) {
            Ok(text) => Some(xml::read(&text, self.leaves.as_ref()).map_err(|e| e.to_string())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => Some(Err(e.to_string())),
        }
    }

    /// The subtrees trees may use: the library folder's and, in an `.xml`
    /// file, its other `<BehaviorTree>`s (read again each time).
    fn read_library(&self) -> library::Read {
        let mut read = library::read(self.library.as_deref());
        match self.xml_file() {
            Some(Ok(file)) => {
                read.docs.extend(file.docs());
                for id in file.others.ids() {
                    if let Some(node) = file.others.get(id) {
                        read.library.insert(id, node.clone());
                    }
                }
            }
            Some(Err(e)) => read
                .problems
                .push(Problem::new("", format!("{}: {e}", self.file_name()))),
            None => {}
        }
        read
    }

    /// Stand-ins for the leaves of `doc` and of the library's subtrees:
    /// the manifest's, or without one every name they use.
    fn stand_ins(&self, doc: &Value, library: &library::Read) -> behaved_interp::Registry<stand_in::Script> {
        stand_in::registry(self.leaves.as_ref(), &json!([doc, library.docs]))
    }

    /// The loader's problems with the tree file as it is (none: it loads),
    /// each at its line and column in the file where it has one
    /// (`behaved-studio check`); `Err`: the file cannot be read, or is not
    /// JSON.
    pub fn check_file(&self) -> Result<Vec<Problem>, String> {
        let text = read_tree_file(&self.file).map_err(|e| format!("cannot read {}: {e}", self.file.display()))?;
        // The check placed its problems in the text it loaded (the document
        // on one line): they are placed again, in the file.
        let located = |mut problems: Vec<Problem>, place: &dyn Fn(LoadError) -> LoadError| {
            if problems.is_empty() {
                return problems;
            }
            problems.iter_mut().for_each(|p| p.location = None);
            place(LoadError::new(problems)).problems().to_vec()
        };
        if xml::is_xml(&self.file) {
            return Ok(match xml::read(&text, self.leaves.as_ref()) {
                Ok(file) => located(self.check(&file.main), &|e| file.trees.located(e)),
                Err(e) => e.problems().to_vec(),
            });
        }
        let doc: Value = serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", self.file_name()))?;
        Ok(located(self.check(&doc), &|e| e.located(&text)))
    }

    /// The loader's problems with `doc`, in document order (none: it loads).
    pub fn check(&self, doc: &Value) -> Vec<Problem> {
        let library = self.read_library();
        let registry = self.stand_ins(doc, &library);
        let mut problems = library.problems;
        if let Err(e) = registry.load_with(&doc.to_string(), &library.library) {
            problems.extend(e.problems().iter().cloned());
        }
        // One report from the library's files and the tree.
        behaved_format::node_types_once(&mut problems);
        problems
    }

    /// The path a save as `name` writes: the tree file, or a new `.json`
    /// file in its folder (or one this editor created there).
    fn target(&self, name: &str) -> Result<PathBuf, String> {
        let refuse = |why: &str| Err(format!("cannot save as {name:?}: {why}"));
        if name == self.file_name() {
            return Ok(self.file.clone());
        }
        if name.is_empty() || name.contains(['/', '\\', '\0']) || name.starts_with('.') {
            return refuse("the editor saves only in the folder of the opened file; give a file name, not a path");
        }
        if !name.ends_with(".json") && !name.ends_with(".xml") {
            return refuse("a tree file's name ends with .json (or .xml: BehaviorTree.CPP)");
        }
        let path = self.folder().join(name);
        let created = self.created.lock().unwrap_or_else(|e| e.into_inner());
        if path.symlink_metadata().is_ok() && !created.contains(&path) {
            return refuse("another file of that name exists; the editor writes only the opened file or new files");
        }
        Ok(path)
    }

    /// Saves `doc` in the stable layout as `name`: the opened file's name, or a
    /// new `.json` or `.xml` file in its folder (or one this editor created
    /// there); a `.xml` file as BehaviorTree.CPP XML, with the opened XML
    /// file's other trees, refused when BT.CPP cannot express the tree;
    /// a tree the loader rejects only when `force`. In a game's live view
    /// ([`Studio::serve_with_editor`](crate::Studio::serve_with_editor)), or
    /// with [`Editor::push_to`], a tree the loader accepts also goes to the
    /// game; that it did not is no error ([`Saved::push_error`]).
    pub fn save(&self, name: &str, doc: &Value, force: bool) -> Result<Saved, SaveError> {
        let path = self.target(name).map_err(SaveError::Refused)?;
        let problems = self.check(doc);
        if !problems.is_empty() && !force {
            return Err(SaveError::Rejected(problems));
        }
        let json = pretty::to_stable_json(doc);
        let text = if xml::is_xml(&path) {
            self.as_xml(name, doc)?
        } else {
            json.clone()
        };
        std::fs::write(&path, &text).map_err(|e| SaveError::Io(format!("cannot write {}: {e}", path.display())))?;
        if path != self.file {
            self.created
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(path.clone());
        }
        let push = match &self.on_save {
            // The game loads JSON, whatever the file's format.
            Some(hook) if problems.is_empty() => Some((hook.0)(name, &json)),
            _ => None,
        };
        Ok(Saved {
            path,
            text,
            pushed: matches!(push, Some(Ok(()))),
            push_error: push.and_then(Result::err),
        })
    }

    /// `doc` as the BT.CPP XML file `name`: the opened XML file's main tree
    /// (its id kept) with its other trees, or a new file's only tree, named
    /// by the file's stem.
    fn as_xml(&self, name: &str, doc: &Value) -> Result<String, SaveError> {
        let stem = name.strip_suffix(".xml").unwrap_or(name);
        let (main_id, others) = match self.xml_file() {
            Some(Ok(file)) => (file.main_id, file.others),
            Some(Err(e)) => {
                let why = format!(
                    "cannot save {name}: {} no longer reads, so its other trees would be lost: {e}",
                    self.file_name()
                );
                return Err(SaveError::Unwritable(why, Vec::new()));
            }
            None => (stem.to_string(), Library::new()),
        };
        xml::write(&main_id, doc, &others).map_err(|e| {
            let why = format!("cannot save {name} as BehaviorTree.CPP XML: {e}");
            SaveError::Unwritable(why, e.problems().to_vec())
        })
    }

    /// Replays `doc` against `recorded` (the editor's trace when `None`),
    /// leaves without a recorded result returning `picks` (else failure);
    /// a recording that starts mid-run, from its first tick where the
    /// recorded tree started afresh ([`preview::from_a_fresh_start`]), which is the recording returned.
    pub fn preview(
        &self,
        doc: &Value,
        recorded: Option<Trace>,
        picks: BTreeMap<String, Status>,
    ) -> Result<(Trace, preview::Preview), Value> {
        let recorded = match recorded {
            Some(t) => t,
            None => {
                let path = self.trace.as_ref().ok_or_else(|| json!({ "error": "no recorded trace to replay against: open one (or start the editor with --trace)" }))?;
                crate::files::read_trace_file(path).map_err(|e| json!({ "error": e }))?
            }
        };
        let library = self.read_library();
        let registry = self.stand_ins(doc, &library);
        let def = registry
            .load_with(&doc.to_string(), &library.library)
            .map_err(|e| json!({ "error": "the edited tree does not load; fix it first", "problems": problems_json(e.problems()) }))?;
        let (recorded, mid_run) = preview::from_a_fresh_start(recorded);
        let mut preview = preview::run(&def, &recorded, picks).map_err(|e| json!({ "error": e }))?;
        preview.notes.splice(0..0, mid_run);
        Ok((recorded, preview))
    }
}

/// The text of the tree file at `path`, refused unread past
/// [`MAX_TREE_BYTES`](crate::limits::MAX_TREE_BYTES).
fn read_tree_file(path: &Path) -> std::io::Result<String> {
    let bytes = std::fs::metadata(path)?.len();
    if let Some(why) = crate::limits::tree_bytes_past_limit(bytes) {
        return Err(std::io::Error::other(why));
    }
    std::fs::read_to_string(path)
}

/// Problems as the page reads them: `[{"path", "message"}]`.
pub(crate) fn problems_json(problems: &[Problem]) -> Value {
    problems
        .iter()
        .map(|p| json!({ "path": p.path, "message": p.message }))
        .collect()
}

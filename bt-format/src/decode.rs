//! The decoder: a read JSON document checked into a [`Node`], every
//! problem reported at its JSON path.

use behaved_runtime::Arity;
use behaved_runtime::catalog::{self, NodeKind, Slots};
use std::collections::HashMap;
use std::sync::LazyLock;

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use crate::document::{DEFAULT_MAX_DEPTH, Json, Object, read, shown, too_deep};
use crate::error::{LoadError, Problem, Problems, path};
use crate::messages::{NODE_TYPES, article, describe, did_you_mean, one_of, some_of};
use crate::model::{Hooks, Key, Leaf, Node, Params, Policy};

mod utility;

/// Reads and checks the tree in `json`, its problems under `root_path`.
pub(crate) fn parse_at(
    json: &str,
    root_path: &str,
    max_depth: usize,
    leaves: Option<LeafCheck<'_>>,
) -> Result<Node, LoadError> {
    let mut problems = Problems::default();
    let doc = read(json, max_depth, false, &mut problems)?;
    decode(&doc, root_path, max_depth, leaves, problems).map_err(|e| e.located_in(json, root_path, false))
}

impl Node {
    /// Parses and checks a tree written as JSON text, nested at most
    /// [`Reader::DEFAULT_MAX_DEPTH`](crate::Reader::DEFAULT_MAX_DEPTH) levels
    /// ([`Reader`](crate::Reader) sets other limits).
    pub fn parse(json: &str) -> Result<Node, LoadError> {
        parse_at(json, "", DEFAULT_MAX_DEPTH, None)
    }

    /// Checks the shape of a tree given as a JSON value.
    pub fn from_json(value: &Value) -> Result<Node, LoadError> {
        let doc = Json::from_value(value);
        decode(&doc, "", DEFAULT_MAX_DEPTH, None, Problems::default())
    }
}

impl<'de> Deserialize<'de> for Node {
    /// Deserializes through [`Node::from_json`], so every check applies.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Node, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Node::from_json(&value).map_err(serde::de::Error::custom)
    }
}

/// Decodes a read document into a checked node, with problems reported under
/// `root_path` after those already in `problems` (the reader's). Unknown leaf
/// types alone (from `leaves`) do not fail it: the loader reports them again
/// with their parameters' problems; next to a problem of the tree's shape,
/// they are reported with it.
pub(crate) fn decode(
    doc: &Json<'_>,
    root_path: &str,
    max_depth: usize,
    leaves: Option<LeafCheck<'_>>,
    problems: Problems,
) -> Result<Node, LoadError> {
    let mut d = Decoder {
        structural: !problems.is_empty(),
        problems,
        max_depth,
        leaves,
        loops: Vec::new(),
        ids: HashMap::new(),
    };
    let node = d.node(doc, root_path, 0);
    match node {
        Some(node) if !d.structural => Ok(node),
        _ => Err(d
            .problems
            .into_result(())
            .expect_err("a node is built whenever no problem was found")),
    }
}

/// Why a `"type"` names no node kind.
enum BadKind {
    /// The whole message, with a hint naming the right kind.
    Hinted(String),
    /// No kind is close: the message, to be followed by the catalogue.
    Far(String),
}

/// The node kind whose JSON name is `name`, or a hint naming the right one.
fn kind_named(name: &str) -> Result<NodeKind, BadKind> {
    if let Some(k) = NodeKind::from_json_name(name) {
        return Ok(k);
    }
    /// Every kind's DSL and JSON names, folded (`forceSuccess`, `force_success` -> `forcesuccess`).
    static FOLDED: LazyLock<Vec<(NodeKind, String, String)>> = LazyLock::new(|| {
        NodeKind::ALL
            .iter()
            .map(|k| (*k, fold(k.dsl_name()), fold(k.json_name())))
            .collect()
    });
    fn fold(s: &str) -> String {
        s.replace(['_', ' '], "").to_ascii_lowercase()
    }
    if name.is_empty() {
        return Err(BadKind::Far("the node type is empty".into()));
    }
    // A DSL keyword (`force_success`, `invert`, `repeat`) or a camelCase spelling of one.
    let folded = fold(name);
    let by_dsl = FOLDED
        .iter()
        .find(|(k, dsl, json)| k.dsl_name() == name || *dsl == folded || *json == folded);
    let unknown = format!("unknown node type {}", shown(name));
    match by_dsl {
        Some((k, ..)) => Err(BadKind::Hinted(format!("{unknown}; did you mean {:?}?", k.json_name()))),
        None => match catalog::closest(name, NodeKind::ALL.iter().map(|k| k.json_name())) {
            Some(k) => Err(BadKind::Hinted(format!("{unknown}; did you mean {k:?}?"))),
            None => Err(BadKind::Far(unknown)),
        },
    }
}

/// A node's list of two-field objects, as its messages name it: an `if`'s
/// `"branches"`, a `match`'s `"cases"`.
struct EntryList {
    /// The node's field, also the entries' plural (`"branches"`).
    field: &'static str,
    /// One entry (`"branch"`).
    one: &'static str,
    /// An entry's two fields.
    fields: [&'static str; 2],
    /// An entry, as messages show it.
    shape: &'static str,
    /// Whether the list may be empty.
    may_be_empty: bool,
}

impl EntryList {
    /// The list `field` of `one`s, two-field objects written as `shape`.
    const fn new(field: &'static str, one: &'static str, fields: [&'static str; 2], shape: &'static str) -> Self {
        EntryList {
            field,
            one,
            fields,
            shape,
            may_be_empty: false,
        }
    }
}

/// An `if`'s branches: at least one.
const BRANCHES: EntryList = EntryList::new(
    "branches",
    "branch",
    ["if", "then"],
    "{\"if\": <condition node>, \"then\": <node>}",
);

/// A `match`'s cases: none is fine (the default runs).
const CASES: EntryList = EntryList {
    may_be_empty: true,
    ..EntryList::new(
        "cases",
        "case",
        ["when", "child"],
        "{\"when\": <key or keys>, \"child\": <node>}",
    )
};

/// Checks a leaf's type name, for the leaves' problems to be reported with
/// the tree's own: `Some(message)` when the name is not a registered type
/// of its family.
pub type LeafCheck<'c> = &'c dyn Fn(LeafFamily, &str) -> Option<String>;

/// What a leaf is, for [`LeafCheck`]: hooks are actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeafFamily {
    /// A `condition` leaf (also the conditions of `if`, `while`, `abortIf`).
    Condition,
    /// An `action` leaf or a hook.
    Action,
    /// The value of a `match`.
    Value,
    /// The items of a `forEach`.
    List,
    /// A consideration of a `utility` node's score.
    Consideration,
}

/// Walks a JSON document, building nodes and collecting problems.
struct Decoder<'c> {
    problems: Problems,
    /// Whether a problem of the tree's shape was found (not only unknown leaves).
    structural: bool,
    max_depth: usize,
    leaves: Option<LeafCheck<'c>>,
    /// Enclosing loops: their labels (for `break`/`continue`).
    loops: Vec<Option<String>>,
    /// Node ids seen in this tree, with the path where each was first used.
    ids: HashMap<String, String>,
}

impl Decoder<'_> {
    /// A problem with the tree's shape.
    fn report(&mut self, at: &str, message: impl Into<String>) {
        self.structural = true;
        self.problems.push(at, message);
    }

    /// Reports an unregistered leaf type, without failing the shape.
    fn check_leaf(&mut self, family: LeafFamily, leaf: &Leaf, at: &str) {
        if let Some(check) = self.leaves
            && let Some(message) = check(family, &leaf.type_name)
        {
            self.problems.push(at, message);
        }
    }

    fn node(&mut self, v: &Json<'_>, at: &str, depth: usize) -> Option<Node> {
        // One level of recursion per level of the tree: grow the stack rather
        // than overflow it on a deep (but allowed) tree.
        crate::document::deep(|| self.node_here(v, at, depth))
    }

    fn node_here(&mut self, v: &Json<'_>, at: &str, depth: usize) -> Option<Node> {
        if depth > self.max_depth {
            self.report(at, too_deep(self.max_depth));
            return None;
        }
        let Some(obj) = v.as_object() else {
            self.report(
                at,
                format!("expected a node (an object with a \"type\"), found {}", describe(v)),
            );
            return None;
        };
        let kind = match obj.get("type") {
            None => {
                self.report(at, "a node needs a \"type\", e.g. \"sequence\"");
                None
            }
            Some(Json::String(t)) => match kind_named(t) {
                Ok(k) => Some(k),
                Err(BadKind::Hinted(msg)) => {
                    self.report(&path::field(at, "type"), msg);
                    None
                }
                Err(BadKind::Far(msg)) => {
                    // The catalogue: only the first problem of a report lists it.
                    self.structural = true;
                    self.problems
                        .add(Problem::listing_types(&path::field(at, "type"), msg, &NODE_TYPES));
                    None
                }
            },
            Some(other) => {
                self.report(
                    &path::field(at, "type"),
                    format!(
                        "\"type\" must be a string naming the node kind, found {}",
                        describe(other)
                    ),
                );
                None
            }
        };
        let Some(kind) = kind else {
            // Still look inside, so problems below are reported too.
            self.children_of_unknown(obj, at, depth);
            return None;
        };
        let id = self.opt_string(obj, at, "id");
        let name = self.opt_string(obj, at, "name");
        if let Some(id) = &id {
            match self.ids.get(id) {
                Some(first) => {
                    let first = if first.is_empty() {
                        "the root".to_string()
                    } else {
                        format!("`{first}`")
                    };
                    let message = format!("duplicate node id {} (first used at {first})", shown(id));
                    self.report(&path::field(at, "id"), message);
                }
                None => drop(self.ids.insert(id.clone(), at.to_string())),
            }
        }
        self.unknown_fields(obj, at, kind);
        let label = if kind.fields().contains(&"label") {
            self.opt_string(obj, at, "label")
        } else {
            None
        };
        let (hooks, hooks_ok) = self.hooks(obj, at);
        let mut node = Node {
            kind,
            id,
            name,
            label,
            hooks,
            params: Params::None,
            remap: None,
            children: Vec::new(),
        };
        let ok = self.body(&mut node, obj, at, depth);
        debug_assert!(!ok || node.well_formed(), "the decoder checks what `Node::new` checks");
        (ok && hooks_ok).then_some(node)
    }

    /// Fills in the kind's parameters and children; `false` if something was missing.
    fn body(&mut self, node: &mut Node, obj: &Object<'_>, at: &str, depth: usize) -> bool {
        use NodeKind as K;
        let kind = node.kind;
        let name = kind.json_name();
        let mut ok = true;
        match kind.slots() {
            Slots::Branches => ok &= self.branches(node, obj, at, depth),
            Slots::Cases => ok &= self.cases(node, obj, at, depth),
            Slots::ConditionChild => {
                ok &= self.condition_child(node, obj, at, depth);
                ok &= self.one_child(node, obj, at, depth);
            }
            Slots::Children => ok &= self.many_children(node, obj, at, depth),
            Slots::Child => ok &= self.one_child(node, obj, at, depth),
            Slots::None if matches!(kind, K::Break | K::Continue) => self.jump(node, at),
            Slots::None => {}
        }
        match kind {
            K::Parallel => match self.policy(obj, at, node.children.len()) {
                Some(p) => node.params = Params::Parallel(p),
                None => ok = false,
            },
            K::Utility => match self.utility(obj, at, node.children.len()) {
                Some(p) => node.params = p,
                None => ok = false,
            },
            K::Weighted => match self.weights(obj, at, node.children.len()) {
                Some(w) => node.params = Params::Weights(w),
                None => ok = false,
            },
            K::Repeat | K::Retry | K::Limit => {
                let hint = if kind == K::Repeat {
                    " (for an endless loop use \"loop\")"
                } else {
                    ""
                };
                match self.count(obj, at, name, hint) {
                    Some(n) => node.params = Params::Count(n),
                    None => ok = false,
                }
            }
            K::ForEach => match self.for_each(obj, at) {
                Some(p) => node.params = p,
                None => ok = false,
            },
            K::Pick => match self.pick(obj, at) {
                Some(p) => node.params = p,
                None => ok = false,
            },
            K::Wait | K::Timeout | K::Delay | K::Cooldown => match self.seconds(obj, at, name) {
                Some(s) => node.params = Params::Seconds(s),
                None => ok = false,
            },
            K::Condition | K::Action | K::WaitUntil => match self.leaf(obj, at, name) {
                Some(l) => node.params = Params::Leaf(l),
                None => ok = false,
            },
            K::Subtree => match obj.get("subtreeId") {
                Some(Json::String(id)) => {
                    node.params = Params::Subtree(id.to_string());
                    match self.remap(obj, at) {
                        Some(remap) => node.remap = remap,
                        None => ok = false,
                    }
                }
                Some(other) => {
                    self.report(
                        &path::field(at, "subtreeId"),
                        format!(
                            "expected the id of a library subtree (a string), found {}",
                            describe(other)
                        ),
                    );
                    ok = false;
                }
                None => {
                    self.report(
                        at,
                        "\"subtree\" needs \"subtreeId\": the id of a subtree in the library",
                    );
                    ok = false;
                }
            },
            _ => {}
        }
        ok
    }

    /// A `subtree`'s `"remap"`: an object of non-empty entry keys to
    /// non-empty entry keys; `Some(None)` when absent or empty, `None`
    /// after a problem.
    fn remap(&mut self, obj: &Object<'_>, at: &str) -> Option<Option<Box<crate::model::Remap>>> {
        let Some(field) = obj.get("remap") else {
            return Some(None);
        };
        let at = path::field(at, "remap");
        let Json::Object(pairs) = field else {
            self.report(
                &at,
                format!(
                    "expected an object of the subtree's entry keys to this tree's (\"remap\": {{\"goal\": \"target\"}}), found {}",
                    describe(field)
                ),
            );
            return None;
        };
        let mut remap = crate::model::Remap::new();
        let mut ok = true;
        for (key, value) in pairs.iter() {
            match value {
                Json::String(to) if !key.is_empty() && !to.is_empty() => {
                    remap.insert(key.to_string(), to.to_string());
                }
                _ if key.is_empty() => {
                    self.report(&at, "an entry key of \"remap\" is empty");
                    ok = false;
                }
                other => {
                    self.report(
                        &path::field(&at, key),
                        format!(
                            "expected the key of this tree's entry (a non-empty string), found {}",
                            describe(other)
                        ),
                    );
                    ok = false;
                }
            }
        }
        ok.then(|| (!remap.is_empty()).then(|| Box::new(remap)))
    }

    fn opt_string(&mut self, obj: &Object<'_>, at: &str, field: &str) -> Option<String> {
        match obj.get(field)? {
            Json::String(s) if !s.is_empty() => Some(s.to_string()),
            other => {
                self.report(
                    &path::field(at, field),
                    format!("\"{field}\" must be a non-empty string, found {}", describe(other)),
                );
                None
            }
        }
    }

    fn unknown_fields(&mut self, obj: &Object<'_>, at: &str, kind: NodeKind) {
        let allowed = kind.fields();
        let name = kind.json_name();
        for key in obj.keys() {
            if matches!(key, "type" | "id" | "name") || Hooks::FIELDS.contains(&key) || allowed.contains(&key) {
                continue;
            }
            let msg = match (key, kind.arity()) {
                ("children", Arity::One) => {
                    format!("{name:?} takes exactly one child, in \"child\" (not \"children\")")
                }
                ("child", Arity::Many) => {
                    format!("{name:?} takes its children as an array in \"children\" (not \"child\")")
                }
                ("child" | "children", Arity::Leaf) => format!("{name:?} is a leaf and takes no children"),
                _ => match did_you_mean(key, allowed.iter().chain(&Hooks::FIELDS).copied()) {
                    hint if !hint.is_empty() => format!("unknown field {} for {name:?}{hint}", shown(key)),
                    _ => {
                        let mut known = vec!["type", "id", "name"];
                        known.extend_from_slice(allowed);
                        known.extend_from_slice(&Hooks::FIELDS);
                        format!(
                            "unknown field {} for {name:?}; its fields are {}",
                            shown(key),
                            one_of(&known)
                        )
                    }
                },
            };
            self.report(&path::field(at, key), msg);
        }
    }

    fn children_of_unknown(&mut self, obj: &Object<'_>, at: &str, depth: usize) {
        if let Some(Json::Array(kids)) = obj.get("children") {
            let p = path::field(at, "children");
            for (i, k) in kids.iter().enumerate() {
                self.node(k, &path::index(&p, i), depth + 1);
            }
        }
        if let Some(child) = obj.get("child") {
            self.node(child, &path::field(at, "child"), depth + 1);
        }
    }

    fn many_children(&mut self, node: &mut Node, obj: &Object<'_>, at: &str, depth: usize) -> bool {
        let name = node.kind.json_name();
        let p = path::field(at, "children");
        match obj.get("children") {
            None => {
                self.report(
                    at,
                    format!("{name:?} needs \"children\": an array of at least one node"),
                );
                false
            }
            Some(Json::Array(kids)) if kids.is_empty() => {
                self.report(&p, format!("{name:?} needs at least one child, found an empty array"));
                false
            }
            Some(Json::Array(kids)) => {
                let mut ok = true;
                for (i, k) in kids.iter().enumerate() {
                    match self.node(k, &path::index(&p, i), depth + 1) {
                        Some(n) => node.children.push(n),
                        None => ok = false,
                    }
                }
                if crate::model::is_parallel_like(node.kind) && kids.len() > crate::model::MAX_PARALLEL {
                    self.report(
                        &p,
                        format!(
                            "{name:?} can have at most {} children, found {}",
                            crate::model::MAX_PARALLEL,
                            kids.len()
                        ),
                    );
                    ok = false;
                }
                ok
            }
            Some(other) => {
                self.report(&p, format!("expected an array of nodes, found {}", describe(other)));
                false
            }
        }
    }

    fn one_child(&mut self, node: &mut Node, obj: &Object<'_>, at: &str, depth: usize) -> bool {
        let name = node.kind.json_name();
        let looped = node.kind.is_loop();
        if looped {
            if let Some(label) = &node.label
                && self.loops.iter().any(|l| l.as_ref() == Some(label))
            {
                self.report(&path::field(at, "label"), crate::messages::shadowed_label(label));
            }
            self.loops.push(node.label.clone());
        }
        let child = match obj.get("child") {
            None => {
                let hint = if obj.contains_key("children") { "" } else { ": a node" };
                self.report(at, format!("{name:?} needs exactly one child in \"child\"{hint}"));
                None
            }
            Some(Json::Array(_)) => {
                self.report(
                    &path::field(at, "child"),
                    format!(
                        "{name:?} takes exactly one child, found an array; wrap the nodes in a \"sequence\" or \"selector\""
                    ),
                );
                None
            }
            Some(c) => self.node(c, &path::field(at, "child"), depth + 1),
        };
        if looped {
            self.loops.pop();
        }
        match child {
            Some(c) => {
                node.children.push(c);
                true
            }
            None => false,
        }
    }

    /// A condition node in a field (`"condition"` of `while`/`abortIf`, `"if"` of a branch).
    fn condition_at(&mut self, v: Option<&Json<'_>>, at: &str, field: &str, owner: &str, depth: usize) -> Option<Node> {
        let p = path::field(at, field);
        let Some(v) = v else {
            self.report(
                at,
                format!(
                    "{owner} needs {field:?}: a condition node, e.g. {{\"type\": \"condition\", \"condition\": {{..}}}}"
                ),
            );
            return None;
        };
        let n = self.node(v, &p, depth + 1)?;
        if n.kind != NodeKind::Condition {
            self.report(
                &path::field(&p, "type"),
                format!(
                    "{field:?} must be a condition node ({{\"type\": \"condition\", ..}}), found {:?}",
                    n.kind.json_name()
                ),
            );
            return None;
        }
        Some(n)
    }

    fn condition_child(&mut self, node: &mut Node, obj: &Object<'_>, at: &str, depth: usize) -> bool {
        let owner = format!("{:?}", node.kind.json_name());
        match self.condition_at(obj.get("condition"), at, "condition", &owner, depth) {
            Some(c) => {
                node.children.push(c);
                true
            }
            None => false,
        }
    }

    /// The array `list.field` of the node at `at` (`name`: its kind in
    /// messages); empty where it is missing, not an array or (where it may
    /// not be) empty, which is reported and clears `ok`.
    fn entry_list<'o, 'j>(
        &mut self,
        obj: &'o Object<'j>,
        at: &str,
        name: &str,
        list: &EntryList,
        ok: &mut bool,
    ) -> &'o [Json<'j>] {
        let p = path::field(at, list.field);
        match obj.get(list.field) {
            Some(Json::Array(entries)) if list.may_be_empty || !entries.is_empty() => return entries,
            Some(Json::Array(_)) => self.report(
                &p,
                format!("{name:?} needs at least one {}, found an empty array", list.one),
            ),
            Some(other) => self.report(
                &p,
                format!("expected an array of {}, found {}", list.field, describe(other)),
            ),
            None => self.report(
                at,
                format!("{name:?} needs {:?}: an array of {}", list.field, list.shape),
            ),
        }
        *ok = false;
        &[]
    }

    /// Entry `v` (at `at`) of a `list`: the object, or `None` where it is
    /// not one. What is wrong (not an object, an unknown field) is reported
    /// and clears `ok`.
    fn entry<'v, 'j>(&mut self, v: &'v Json<'j>, at: &str, list: &EntryList, ok: &mut bool) -> Option<&'v Object<'j>> {
        let (what, [a, b]) = (list.one, list.fields);
        let Some(obj) = v.as_object() else {
            self.report(at, format!("expected a {what} {}, found {}", list.shape, describe(v)));
            *ok = false;
            return None;
        };
        for key in obj.keys().filter(|k| *k != a && *k != b) {
            self.report(
                &path::field(at, key),
                format!(
                    "unknown field {} in a {what}; its fields are \"{a}\" and \"{b}\"",
                    shown(key)
                ),
            );
            *ok = false;
        }
        Some(obj)
    }

    /// The child node in `field` of the entry at `at` (one level below
    /// `depth`); `missing` is reported where there is none.
    fn required_node(&mut self, obj: &Object<'_>, at: &str, field: &str, depth: usize, missing: &str) -> Option<Node> {
        match obj.get(field) {
            Some(n) => self.node(n, &path::field(at, field), depth + 1),
            None => {
                self.report(at, missing);
                None
            }
        }
    }

    fn branches(&mut self, node: &mut Node, obj: &Object<'_>, at: &str, depth: usize) -> bool {
        let name = node.kind.json_name();
        let p = path::field(at, "branches");
        let mut ok = true;
        for (i, b) in self.entry_list(obj, at, name, &BRANCHES, &mut ok).iter().enumerate() {
            let bp = path::index(&p, i);
            let Some(bo) = self.entry(b, &bp, &BRANCHES, &mut ok) else {
                continue;
            };
            let cond = self.condition_at(bo.get("if"), &bp, "if", "a branch", depth);
            let then = self.required_node(
                bo,
                &bp,
                "then",
                depth,
                "a branch needs \"then\": the node run when \"if\" holds",
            );
            match (cond, then) {
                (Some(c), Some(t)) => node.children.extend([c, t]),
                _ => ok = false,
            }
        }
        let has_else = match obj.get("else") {
            Some(e) => match self.node(e, &path::field(at, "else"), depth + 1) {
                Some(n) => {
                    node.children.push(n);
                    true
                }
                None => {
                    ok = false;
                    false
                }
            },
            None => false,
        };
        node.params = Params::Branches { has_else };
        ok
    }

    fn cases(&mut self, node: &mut Node, obj: &Object<'_>, at: &str, depth: usize) -> bool {
        let name = node.kind.json_name();
        let mut ok = true;
        let value = self.checked_leaf(obj, at, "value", LeafFamily::Value, "value", || {
            format!("{name:?} needs \"value\": the registered value it matches on")
        });
        let p = path::field(at, "cases");
        let mut keys = Vec::new();
        // Each key, with the case that first matches it.
        let mut matched: HashMap<Key, usize> = HashMap::new();
        for (i, c) in self.entry_list(obj, at, name, &CASES, &mut ok).iter().enumerate() {
            let cp = path::index(&p, i);
            let Some(co) = self.entry(c, &cp, &CASES, &mut ok) else {
                continue;
            };
            let when = self.when(co.get("when"), &cp, i, &mut matched);
            let child = self.required_node(
                co,
                &cp,
                "child",
                depth,
                "a case needs \"child\": the node run when it matches",
            );
            match (when, child) {
                (Some(w), Some(c)) => {
                    keys.push(w);
                    node.children.push(c);
                }
                _ => ok = false,
            }
        }
        match obj.get("default") {
            Some(d) => match self.node(d, &path::field(at, "default"), depth + 1) {
                Some(n) => node.children.push(n),
                None => ok = false,
            },
            None => {
                self.report(
                    at,
                    format!(
                        "{name:?} needs \"default\": the node run when no case matches (the loader cannot know every value)"
                    ),
                );
                ok = false;
            }
        }
        match value {
            Some(value) if ok => node.params = Params::Match { value, cases: keys },
            _ => ok = false,
        }
        ok
    }

    /// The keys of case `case`; a key an earlier case already matches is a problem.
    fn when(
        &mut self,
        v: Option<&Json<'_>>,
        at: &str,
        case: usize,
        matched: &mut HashMap<Key, usize>,
    ) -> Option<Vec<Key>> {
        let p = path::field(at, "when");
        let keys = self.keys(v, at, &p)?;
        let mut ok = true;
        for (i, k) in keys.iter().enumerate() {
            if let Some(first) = matched.get(k) {
                let kp = if matches!(v, Some(Json::Array(_))) {
                    path::index(&p, i)
                } else {
                    p.clone()
                };
                let key = match k {
                    Key::Str(s) => shown(s),
                    other => other.to_json().to_string(),
                };
                self.report(&kp, format!("the key {key} is already matched by case {first}"));
                ok = false;
            } else {
                matched.insert(k.clone(), case);
            }
        }
        ok.then_some(keys)
    }

    /// The keys of a case's `"when"` (at `p`), one or an array.
    fn keys(&mut self, v: Option<&Json<'_>>, at: &str, p: &str) -> Option<Vec<Key>> {
        let key = |v: &Json<'_>| match v {
            Json::String(s) => Some(Key::Str(s.to_string())),
            Json::Bool(b) => Some(Key::Bool(*b)),
            Json::Number(n) => n.as_i64().map(Key::Int),
            _ => None,
        };
        match v {
            None => {
                self.report(
                    at,
                    "a case needs \"when\": a key (string, integer or boolean) or an array of keys",
                );
                None
            }
            Some(Json::Array(list)) if !list.is_empty() => {
                let mut keys = Vec::new();
                for (i, k) in list.iter().enumerate() {
                    match key(k) {
                        Some(k) => keys.push(k),
                        None => self.report(
                            &path::index(p, i),
                            format!("expected a key (string, integer or boolean), found {}", describe(k)),
                        ),
                    }
                }
                (keys.len() == list.len()).then_some(keys)
            }
            Some(k) => match key(k) {
                Some(k) => Some(vec![k]),
                None => {
                    self.report(
                        p,
                        format!(
                            "expected a key (string, integer or boolean) or a non-empty array of keys, found {}",
                            describe(k)
                        ),
                    );
                    None
                }
            },
        }
    }

    fn jump(&mut self, node: &Node, at: &str) {
        let name = node.kind.json_name();
        match (&node.label, self.loops.is_empty()) {
            (_, true) => {
                // From the catalogue, so that a new loop kind is listed too.
                let loops: Vec<String> = NodeKind::ALL
                    .iter()
                    .filter(|k| k.is_loop())
                    .map(|k| format!("{:?}", k.json_name()))
                    .collect();
                self.report(at, format!("{name:?} is not inside a loop ({})", loops.join(", ")))
            }
            (Some(label), false) => {
                if !self.loops.iter().any(|l| l.as_deref() == Some(label.as_str())) {
                    let known: Vec<&str> = self.loops.iter().filter_map(|l| l.as_deref()).collect();
                    let hint = match catalog::closest(label, known.iter().copied()) {
                        Some(k) => format!("; did you mean {}?", shown(k)),
                        None if known.is_empty() => "; no enclosing loop has a \"label\"".to_string(),
                        None => format!("; enclosing labels: {}", some_of(&known)),
                    };
                    self.report(
                        &path::field(at, "label"),
                        format!("no enclosing loop is labelled {}{hint}", shown(label)),
                    );
                }
            }
            (None, false) => {}
        }
    }

    fn positive(&mut self, v: &Json<'_>, at: &str, what: &str) -> Option<u32> {
        match v.as_u64() {
            Some(n) if n >= 1 && n <= u64::from(u32::MAX) => Some(n as u32),
            _ => {
                self.report(at, format!("{what} must be a positive integer, found {}", describe(v)));
                None
            }
        }
    }

    /// `forEach`'s `"items"` (a registered list) and `"max"`.
    fn for_each(&mut self, obj: &Object<'_>, at: &str) -> Option<Params> {
        let (items, max) = self.items_and_max(obj, at, "forEach", "runs its child for");
        Some(Params::ForEach {
            items: items?,
            max: max?,
        })
    }

    /// `pick`'s `"items"` and `"max"` (as `forEach`'s) and its `"score"`.
    fn pick(&mut self, obj: &Object<'_>, at: &str) -> Option<Params> {
        let (items, max) = self.items_and_max(obj, at, "pick", "chooses from");
        let score = match obj.get("score") {
            Some(v) => self.score(v, &path::field(at, "score"), 0),
            None => {
                self.report(
                    at,
                    "\"pick\" needs \"score\": the score of one candidate ({\"consider\": <registered consideration>})",
                );
                None
            }
        };
        Some(Params::Pick {
            items: items?,
            max: max?,
            score: score?,
        })
    }

    /// The `"items"` (a registered list) and `"max"` of a `kind` node that
    /// reads items from the context (`does`: what it does with them).
    fn items_and_max(&mut self, obj: &Object<'_>, at: &str, kind: &str, does: &str) -> (Option<Leaf>, Option<u32>) {
        let items = self.checked_leaf(obj, at, "items", LeafFamily::List, "list", || {
            format!("\"{kind}\" needs \"items\": the registered list whose items it {does}")
        });
        let max = match obj.get("max") {
            Some(v) => self.positive(v, &path::field(at, "max"), "\"max\""),
            None => {
                self.report(
                    at,
                    format!("\"{kind}\" needs \"max\": the most items it holds (a positive integer)"),
                );
                None
            }
        };
        (items, max)
    }

    fn count(&mut self, obj: &Object<'_>, at: &str, name: &str, hint: &str) -> Option<u32> {
        match obj.get("count") {
            Some(v) => self.positive(v, &path::field(at, "count"), "\"count\""),
            None => {
                self.report(at, format!("{name:?} needs \"count\": a positive integer{hint}"));
                None
            }
        }
    }

    fn seconds(&mut self, obj: &Object<'_>, at: &str, name: &str) -> Option<f64> {
        match obj.get("seconds") {
            Some(v) => match v.as_f64() {
                Some(s) if s.is_finite() && s >= 0.0 => Some(s),
                _ => {
                    self.report(
                        &path::field(at, "seconds"),
                        format!("\"seconds\" must be a number >= 0, found {}", describe(v)),
                    );
                    None
                }
            },
            None => {
                self.report(at, format!("{name:?} needs \"seconds\": a duration (a number >= 0)"));
                None
            }
        }
    }

    fn policy(&mut self, obj: &Object<'_>, at: &str, n: usize) -> Option<Policy> {
        const POLICY: &str =
            "\"policy\": \"requireAll\" or \"requireOne\", or thresholds \"success\": S and/or \"failure\": F";
        let policy = obj.get("policy");
        let (s, f) = (obj.get("success"), obj.get("failure"));
        let p = match (policy, s.is_some() || f.is_some()) {
            (Some(_), true) => {
                self.report(
                    at,
                    "a parallel has either a \"policy\" or \"success\"/\"failure\" thresholds, not both",
                );
                return None;
            }
            (None, false) => {
                self.report(at, format!("\"parallel\" needs {POLICY}"));
                return None;
            }
            (Some(Json::String(p)), false) if p == "requireAll" => Policy::RequireAll,
            (Some(Json::String(p)), false) if p == "requireOne" => Policy::RequireOne,
            (Some(other), false) => {
                let hint = match other {
                    Json::String(s) if s == "main" => "; for a main child use {\"type\": \"parallelMain\"}".into(),
                    Json::String(s) => did_you_mean(s, ["requireAll", "requireOne"]),
                    _ => String::new(),
                };
                self.report(
                    &path::field(at, "policy"),
                    format!(
                        "expected \"requireAll\" or \"requireOne\", found {}{hint}",
                        describe(other)
                    ),
                );
                return None;
            }
            (None, true) => {
                let success = s.map(|v| self.positive(v, &path::field(at, "success"), "\"success\""));
                let failure = f.map(|v| self.positive(v, &path::field(at, "failure"), "\"failure\""));
                if matches!(success, Some(None)) || matches!(failure, Some(None)) {
                    return None;
                }
                Policy::Thresholds {
                    success: success.flatten(),
                    failure: failure.flatten(),
                }
            }
        };
        if let Policy::Thresholds { success, failure } = p {
            let mut ok = true;
            for (field, t) in [("success", success), ("failure", failure)] {
                if let Some(t) = t
                    && t as usize > n
                    && n > 0
                {
                    self.report(
                        &path::field(at, field),
                        format!("\"{field}\": {t} can never be met: the parallel has {n} children"),
                    );
                    ok = false;
                }
            }
            if !ok {
                return None;
            }
        }
        Some(p)
    }

    fn weights(&mut self, obj: &Object<'_>, at: &str, n: usize) -> Option<Vec<u32>> {
        let p = path::field(at, "weights");
        let list = match obj.get("weights") {
            Some(Json::Array(list)) => list,
            Some(other) => {
                self.report(
                    &p,
                    format!(
                        "expected an array of positive integers, one per child, found {}",
                        describe(other)
                    ),
                );
                return None;
            }
            None => {
                self.report(
                    at,
                    "\"weighted\" needs \"weights\": an array of positive integers, one per child",
                );
                return None;
            }
        };
        // Every bad weight is reported, not only the first.
        let weights: Vec<Option<u32>> = list
            .iter()
            .enumerate()
            .map(|(i, w)| self.positive(w, &path::index(&p, i), "a weight"))
            .collect();
        let weights: Vec<u32> = weights.into_iter().collect::<Option<_>>()?;
        if n > 0 && weights.len() != n {
            self.report(
                &p,
                format!("expected one weight per child: {n} children, {} weights", weights.len()),
            );
            return None;
        }
        if weights.iter().map(|&w| u64::from(w)).sum::<u64>() > u64::from(u32::MAX) {
            self.report(&p, "the weights must add up to at most 4294967295");
            return None;
        }
        Some(weights)
    }

    fn leaf(&mut self, obj: &Object<'_>, at: &str, kind: &str) -> Option<Leaf> {
        // A `waitUntil` names its condition in "condition", as a condition node does.
        let name = if kind == "action" { "action" } else { "condition" };
        let family = if name == "condition" {
            LeafFamily::Condition
        } else {
            LeafFamily::Action
        };
        self.checked_leaf(obj, at, name, family, name, || {
            format!("{kind:?} needs {name:?}: {{\"type\": <a registered {name} type>, ..parameters}}")
        })
    }

    /// The leaf named in `field` of the node at `at`: a leaf of `family`
    /// (`what`, in messages), checked against the registry. Without the
    /// field, `missing()` is reported.
    fn checked_leaf(
        &mut self,
        obj: &Object<'_>,
        at: &str,
        field: &str,
        family: LeafFamily,
        what: &str,
        missing: impl FnOnce() -> String,
    ) -> Option<Leaf> {
        let Some(v) = obj.get(field) else {
            self.report(at, missing());
            return None;
        };
        let lp = path::field(at, field);
        let leaf = self.leaf_spec(v, &lp, what)?;
        self.check_leaf(family, &leaf, &lp);
        Some(leaf)
    }

    /// `{"type": "name", ..params}` or the shorthand `"name"`.
    fn leaf_spec(&mut self, v: &Json<'_>, at: &str, what: &str) -> Option<Leaf> {
        let a = article(what);
        match v {
            Json::String(s) if !s.is_empty() => Some(Leaf {
                type_name: s.to_string(),
                params: Map::new(),
            }),
            Json::Object(o) => match o.get("type") {
                Some(Json::String(t)) if !t.is_empty() => {
                    let params = o.to_map("type");
                    let bad = crate::port::malformed(&params);
                    for (param, message) in &bad {
                        self.report(&path::field(at, param), message.clone());
                    }
                    bad.is_empty().then(|| Leaf {
                        type_name: t.to_string(),
                        params,
                    })
                }
                Some(other) => {
                    self.report(
                        &path::field(at, "type"),
                        format!(
                            "expected the name of a registered {what} type, found {}",
                            describe(other)
                        ),
                    );
                    None
                }
                None => {
                    self.report(
                        at,
                        format!("{a} {what} needs a \"type\": the name of a registered {what} type"),
                    );
                    None
                }
            },
            other => {
                self.report(
                    at,
                    format!(
                        "expected {a} {what}: {{\"type\": <registered name>, ..parameters}} or a name, found {}",
                        describe(other)
                    ),
                );
                None
            }
        }
    }

    /// The node's lifecycle hooks, if it has any; `false` if one is malformed.
    fn hooks(&mut self, obj: &Object<'_>, at: &str) -> (Option<Box<Hooks>>, bool) {
        let mut h = Hooks::default();
        let mut ok = true;
        let mut any = false;
        for (field, slot) in Hooks::FIELDS.iter().zip(h.all_mut()) {
            if let Some(v) = obj.get(field) {
                any = true;
                let hp = path::field(at, field);
                *slot = self.leaf_spec(v, &hp, "action");
                match slot {
                    Some(leaf) => {
                        if let Some(check) = self.leaves
                            && let Some(message) = check(LeafFamily::Action, &leaf.type_name)
                        {
                            self.problems.push(&hp, message);
                        }
                    }
                    None => ok = false,
                }
            }
        }
        (any.then(|| Box::new(h)), ok)
    }
}

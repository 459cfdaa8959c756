//! The JSON form of a tree as typed data: ADR-017's model extended with every
//! node of the catalogue. [`Node::from_json`] checks the document's shape (node
//! types, fields, children, parameters, loop labels) and reports every problem
//! at its JSON path; [`Node::to_json`] writes a node back in canonical form.
//! Leaf types are only names here: the registry resolves them at load time.

use behaved_runtime::Arity;
use behaved_runtime::catalog::{self, NodeKind};
use std::collections::HashMap;
use std::sync::LazyLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::document::{DEFAULT_MAX_DEPTH, Json, Object, read, shown, too_deep};
use crate::error::{LoadError, Problem, Problems, path};

/// One node of a tree, with its children in node-table order.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What kind of node this is.
    pub kind: NodeKind,
    /// ADR-017's optional node id (an editor's handle; unique within a tree).
    pub id: Option<String>,
    /// ADR-017's optional human-readable name, shown in traces.
    pub name: Option<String>,
    /// A loop's label, or the label a `break`/`continue` targets.
    pub label: Option<String>,
    /// Lifecycle hooks (`onEnter`, `onSuccess`, `onFailure`, `onExit`), allowed on any node.
    pub hooks: Option<Box<Hooks>>,
    /// The kind's parameters.
    pub params: Params,
    /// The children in node-table (depth-first pre-order) order. For `if`:
    /// condition 0, branch 0, condition 1, branch 1, .., then the `else`
    /// branch; for `while` and `abortIf`: the condition, then the body; for
    /// `match`: the cases' children, then the default.
    pub children: Vec<Node>,
}

/// The parameters of a node, by kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Params {
    /// Kinds without parameters.
    None,
    /// `parallel`: its policy.
    Parallel(Policy),
    /// `weighted`: one weight per child.
    Weights(Vec<u32>),
    /// `if`/`reactiveIf`: whether the last child is an `else` branch.
    Branches {
        /// The last child is the `else` branch.
        has_else: bool,
    },
    /// `match`/`reactiveMatch`: the value looked at, and the keys of each case
    /// (the last child, the default, has none).
    Match {
        /// The registered value leaf.
        value: Leaf,
        /// For each case child, the keys that choose it.
        cases: Vec<Vec<Key>>,
    },
    /// `repeater`, `retry`, `limit`: the count.
    Count(u32),
    /// `wait`, `timeout`, `delay`, `cooldown`: the duration in seconds.
    Seconds(f64),
    /// `condition`, `action`: the user's leaf.
    Leaf(Leaf),
    /// `subtree`: the id of the subtree in the library.
    Subtree(String),
    /// `forEach`: the registered list its items are read from, and the most
    /// items it holds.
    ForEach {
        /// The registered list leaf (`"items"`).
        items: Leaf,
        /// The most items the loop holds (`"max"`).
        max: u32,
    },
}

/// A parallel's policy as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// ADR-017 `"requireAll"`: success when all children succeed, failure on the first failure.
    RequireAll,
    /// ADR-017 `"requireOne"`: success on the first success, failure when all fail.
    RequireOne,
    /// Explicit thresholds; a missing one means "all children".
    Thresholds {
        /// Successes needed.
        success: Option<u32>,
        /// Failures that fail the parallel.
        failure: Option<u32>,
    },
}

impl Policy {
    /// The thresholds `(successes needed, failures that fail)` for `n` children.
    pub fn thresholds(self, n: u32) -> (u32, u32) {
        match self {
            Policy::RequireAll => (n, 1),
            Policy::RequireOne => (1, n),
            Policy::Thresholds { success, failure } => (success.unwrap_or(n), failure.unwrap_or(n)),
        }
    }
}

/// A user leaf: the registered type name and its parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaf {
    /// The registered name (`"dialogue"`, `"timeOfDay"`).
    pub type_name: String,
    /// The other fields of the leaf object.
    pub params: Map<String, Value>,
}

/// A key of a `match` case.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Key {
    /// An integer.
    Int(i64),
    /// A string.
    Str(String),
    /// A boolean.
    Bool(bool),
}

/// The lifecycle hooks of a node (each an action leaf, ticked once, its
/// status ignored), as the DSL's `#[on_enter(..)]` .. `#[on_exit(..)]`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Hooks {
    /// Before the child's first tick of an activation.
    pub on_enter: Option<Leaf>,
    /// When the child succeeds.
    pub on_success: Option<Leaf>,
    /// When the child fails.
    pub on_failure: Option<Leaf>,
    /// After success or failure, and when halted.
    pub on_exit: Option<Leaf>,
    /// On every tick of the node, before its own work.
    pub on_pre_tick: Option<Leaf>,
    /// On every tick of the node, after its own work.
    pub on_tick: Option<Leaf>,
    /// When the agent is reset, whatever the node's state.
    pub on_reset: Option<Leaf>,
}

impl Hooks {
    /// The JSON field names, in the order of [`Hooks::all`].
    pub const FIELDS: [&'static str; 7] = [
        "onEnter",
        "onSuccess",
        "onFailure",
        "onExit",
        "onPreTick",
        "onTick",
        "onReset",
    ];

    /// The hooks in the order of [`Hooks::FIELDS`].
    pub fn all(&self) -> [&Option<Leaf>; 7] {
        [
            &self.on_enter,
            &self.on_success,
            &self.on_failure,
            &self.on_exit,
            &self.on_pre_tick,
            &self.on_tick,
            &self.on_reset,
        ]
    }

    /// The hooks in the order of [`Hooks::FIELDS`], to fill in.
    pub fn all_mut(&mut self) -> [&mut Option<Leaf>; 7] {
        [
            &mut self.on_enter,
            &mut self.on_success,
            &mut self.on_failure,
            &mut self.on_exit,
            &mut self.on_pre_tick,
            &mut self.on_tick,
            &mut self.on_reset,
        ]
    }
}

/// The fields a node of `kind` may have besides `type`, `id` and `name`.
pub fn fields_of(kind: NodeKind) -> &'static [&'static str] {
    use NodeKind as K;
    match kind {
        K::Parallel => &["children", "policy", "success", "failure"],
        K::Weighted => &["children", "weights"],
        K::If | K::ReactiveIf => &["branches", "else"],
        K::Match | K::ReactiveMatch => &["value", "cases", "default"],
        K::Loop | K::UntilFail | K::UntilSuccess => &["child", "label"],
        K::Repeat | K::Retry => &["child", "count", "label"],
        K::ForEach => &["items", "max", "child", "label"],
        K::While => &["condition", "child", "label"],
        K::Break | K::Continue => &["label"],
        K::Timeout | K::Delay | K::Cooldown => &["child", "seconds"],
        K::Limit => &["child", "count"],
        K::AbortIf | K::Latch => &["condition", "child"],
        K::Wait => &["seconds"],
        K::Condition | K::WaitUntil => &["condition"],
        K::Action => &["action"],
        K::Subtree => &["subtreeId"],
        K::Success | K::Failure | K::Running => &[],
        _ => match kind.arity() {
            Arity::Many => &["children"],
            _ => &["child"],
        },
    }
}

/// Whether `kind` is a loop that `break` and `continue` act on.
pub fn is_loop(kind: NodeKind) -> bool {
    matches!(
        kind,
        NodeKind::Loop
            | NodeKind::Repeat
            | NodeKind::Retry
            | NodeKind::While
            | NodeKind::UntilFail
            | NodeKind::UntilSuccess
            | NodeKind::ForEach
    )
}

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

    /// The path segment of child `i` below this node (`children[1]`, `child`,
    /// `branches[0].then`, ...), as written in the JSON.
    pub fn child_path(&self, at: &str, i: usize) -> String {
        use NodeKind as K;
        match self.kind {
            K::If | K::ReactiveIf => {
                let has_else = matches!(self.params, Params::Branches { has_else: true });
                if has_else && i + 1 == self.children.len() {
                    path::field(at, "else")
                } else {
                    let b = path::index(&path::field(at, "branches"), i / 2);
                    path::field(&b, if i.is_multiple_of(2) { "if" } else { "then" })
                }
            }
            K::Match | K::ReactiveMatch => {
                if i + 1 == self.children.len() {
                    path::field(at, "default")
                } else {
                    path::field(&path::index(&path::field(at, "cases"), i), "child")
                }
            }
            K::While | K::AbortIf | K::Latch if i == 0 => path::field(at, "condition"),
            _ if self.kind.arity() == Arity::Many => path::index(&path::field(at, "children"), i),
            _ => path::field(at, "child"),
        }
    }

    /// The node in canonical JSON form.
    pub fn to_json(&self) -> Value {
        self.to_json_with(&mut |_, _| {})
    }

    /// [`Node::to_json`], where `extra` may add or replace fields of each
    /// node's object once it is written (in post-order: children first).
    /// The `behave!` macro writes there what the model cannot hold: Rust
    /// expressions in place of a count or a duration.
    pub fn to_json_with(&self, extra: &mut dyn FnMut(&Node, &mut Map<String, Value>)) -> Value {
        let mut kids: Vec<Value> = self.children.iter().map(|c| c.to_json_with(extra)).collect();
        let mut m = Map::new();
        m.insert("type".into(), self.kind.json_name().into());
        if let Some(id) = &self.id {
            m.insert("id".into(), id.as_str().into());
        }
        if let Some(name) = &self.name {
            m.insert("name".into(), name.as_str().into());
        }
        if let Some(label) = &self.label {
            m.insert("label".into(), label.as_str().into());
        }
        match &self.params {
            Params::None | Params::Count(_) | Params::Seconds(_) => {}
            Params::Parallel(policy) => match policy {
                Policy::RequireAll => drop(m.insert("policy".into(), "requireAll".into())),
                Policy::RequireOne => drop(m.insert("policy".into(), "requireOne".into())),
                Policy::Thresholds { success, failure } => {
                    if let Some(s) = success {
                        m.insert("success".into(), (*s).into());
                    }
                    if let Some(f) = failure {
                        m.insert("failure".into(), (*f).into());
                    }
                }
            },
            Params::Weights(w) => drop(m.insert("weights".into(), w.clone().into())),
            Params::Branches { has_else } => {
                let pairs = kids.len() - usize::from(*has_else);
                let otherwise = kids.drain(pairs..).next();
                let mut kids = kids.drain(..);
                let mut branches = Vec::new();
                while let (Some(cond), Some(then)) = (kids.next(), kids.next()) {
                    branches.push(serde_json::json!({ "if": cond, "then": then }));
                }
                m.insert("branches".into(), Value::Array(branches));
                if let Some(e) = otherwise {
                    m.insert("else".into(), e);
                }
            }
            Params::Match { value, cases } => {
                m.insert("value".into(), value.to_json());
                let default = kids.pop();
                let list = cases
                    .iter()
                    .zip(kids.drain(..))
                    .map(|(keys, child)| {
                        let when = match keys.as_slice() {
                            [one] => one.to_json(),
                            many => Value::Array(many.iter().map(Key::to_json).collect()),
                        };
                        serde_json::json!({ "when": when, "child": child })
                    })
                    .collect();
                m.insert("cases".into(), Value::Array(list));
                if let Some(default) = default {
                    m.insert("default".into(), default);
                }
            }
            Params::Leaf(leaf) => {
                let field = if matches!(self.kind, NodeKind::Condition | NodeKind::WaitUntil) {
                    "condition"
                } else {
                    "action"
                };
                m.insert(field.into(), leaf.to_json());
            }
            Params::Subtree(id) => drop(m.insert("subtreeId".into(), id.as_str().into())),
            Params::ForEach { items, max } => {
                m.insert("items".into(), items.to_json());
                m.insert("max".into(), (*max).into());
            }
        }
        if let Some(h) = &self.hooks {
            for (name, hook) in Hooks::FIELDS.iter().zip(h.all()) {
                if let Some(leaf) = hook {
                    m.insert((*name).into(), leaf.to_json());
                }
            }
        }
        match &self.params {
            Params::Count(n) => drop(m.insert("count".into(), (*n).into())),
            Params::Seconds(s) => drop(m.insert("seconds".into(), (*s).into())),
            _ => {}
        }
        let mut kids = kids.into_iter();
        match self.kind {
            NodeKind::If | NodeKind::ReactiveIf | NodeKind::Match | NodeKind::ReactiveMatch => {}
            NodeKind::While | NodeKind::AbortIf | NodeKind::Latch => {
                m.insert("condition".into(), kids.next().unwrap_or_default());
                m.insert("child".into(), kids.next().unwrap_or_default());
            }
            k if k.arity() == Arity::Many => drop(m.insert("children".into(), Value::Array(kids.collect()))),
            k if k.arity() == Arity::One => drop(m.insert("child".into(), kids.next().unwrap_or_default())),
            _ => {}
        }
        extra(self, &mut m);
        Value::Object(m)
    }
}

impl Leaf {
    /// `{"type": name, ..params}`.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), self.type_name.as_str().into());
        m.extend(self.params.iter().map(|(k, v)| (k.clone(), v.clone())));
        Value::Object(m)
    }
}

impl Key {
    /// The key as a JSON value.
    pub fn to_json(&self) -> Value {
        match self {
            Key::Int(i) => (*i).into(),
            Key::Str(s) => s.as_str().into(),
            Key::Bool(b) => (*b).into(),
        }
    }
}

impl Serialize for Node {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(serializer)
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

/// A short description of a JSON value for messages: `a string "x"`, `an array`.
pub(crate) fn describe(v: &Json<'_>) -> String {
    match v {
        Json::Null => "null".into(),
        Json::Bool(b) => format!("a boolean `{b}`"),
        Json::Number(n) => format!("the number {n}"),
        Json::String(s) => format!("a string {}", shown(s)),
        Json::Array(_) => "an array".into(),
        Json::Object(_) => "an object".into(),
    }
}

/// "a" or "an", for `word`.
fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// `"a", "b" or "c"` for messages.
pub fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// `, did you mean "x"?` or nothing.
pub fn did_you_mean<'a>(unknown: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    match catalog::closest(unknown, known) {
        Some(k) => format!("; did you mean {k:?}?"),
        None => String::new(),
    }
}

/// Why a `"type"` names no node kind.
enum BadKind {
    /// The whole message, with a hint naming the right kind.
    Hinted(String),
    /// No kind is close: the message, to be followed by the catalogue.
    Far(String),
}

/// `; expected one of "sequence", "selector", .. or "subtree"`: the end of
/// the message of a type close to no node kind.
static NODE_TYPES: LazyLock<String> = LazyLock::new(|| {
    let names: Vec<&str> = NodeKind::ALL.iter().map(|k| k.json_name()).collect();
    format!("; expected one of {}", one_of(&names))
});

/// Lists the catalogue of node types once in a report: the first problem
/// that lists it keeps it, the later ones point to its path instead of
/// repeating some forty names. Loading does it; a report made of several
/// loads' problems (a folder of libraries and a tree) does it again.
pub fn node_types_once(problems: &mut [Problem]) {
    let mut first: Option<String> = None;
    for p in problems.iter_mut() {
        let Some(unknown) = p.message.strip_suffix(NODE_TYPES.as_str()) else {
            continue;
        };
        match &first {
            None => first = Some(p.path.clone()),
            Some(at) => p.message = format!("{unknown}; expected one of the node types listed at `{at}`"),
        }
    }
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
                    // The catalogue: `node_types_once` keeps the first one of a report.
                    self.report(&path::field(at, "type"), format!("{msg}{}", *NODE_TYPES));
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
        let label = if is_loop(kind) || matches!(kind, NodeKind::Break | NodeKind::Continue) {
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
            children: Vec::new(),
        };
        let ok = self.body(&mut node, obj, at, depth);
        (ok && hooks_ok).then_some(node)
    }

    /// Fills in the kind's parameters and children; `false` if something was missing.
    fn body(&mut self, node: &mut Node, obj: &Object<'_>, at: &str, depth: usize) -> bool {
        use NodeKind as K;
        let kind = node.kind;
        let name = kind.json_name();
        let mut ok = true;
        match kind {
            K::If | K::ReactiveIf => ok &= self.branches(node, obj, at, depth),
            K::Match | K::ReactiveMatch => ok &= self.cases(node, obj, at, depth),
            K::While | K::AbortIf | K::Latch => {
                ok &= self.condition_child(node, obj, at, depth);
                ok &= self.one_child(node, obj, at, depth);
            }
            K::Break | K::Continue => self.jump(node, at),
            _ => match kind.arity() {
                Arity::Many => ok &= self.many_children(node, obj, at, depth),
                Arity::One => ok &= self.one_child(node, obj, at, depth),
                _ => {}
            },
        }
        match kind {
            K::Parallel => match self.policy(obj, at, node.children.len()) {
                Some(p) => node.params = Params::Parallel(p),
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
            K::Wait | K::Timeout | K::Delay | K::Cooldown => match self.seconds(obj, at, name) {
                Some(s) => node.params = Params::Seconds(s),
                None => ok = false,
            },
            K::Condition | K::Action | K::WaitUntil => match self.leaf(obj, at, name) {
                Some(l) => node.params = Params::Leaf(l),
                None => ok = false,
            },
            K::Subtree => match obj.get("subtreeId") {
                Some(Json::String(id)) => node.params = Params::Subtree(id.to_string()),
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
        let allowed = fields_of(kind);
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
        let looped = is_loop(node.kind);
        if looped {
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

    fn branches(&mut self, node: &mut Node, obj: &Object<'_>, at: &str, depth: usize) -> bool {
        let name = node.kind.json_name();
        let p = path::field(at, "branches");
        let mut ok = true;
        match obj.get("branches") {
            Some(Json::Array(list)) if !list.is_empty() => {
                for (i, b) in list.iter().enumerate() {
                    let bp = path::index(&p, i);
                    let Some(bo) = b.as_object() else {
                        self.report(
                            &bp,
                            format!(
                                "expected a branch {{\"if\": <condition node>, \"then\": <node>}}, found {}",
                                describe(b)
                            ),
                        );
                        ok = false;
                        continue;
                    };
                    for key in bo.keys().filter(|k| !matches!(*k, "if" | "then")) {
                        self.report(
                            &path::field(&bp, key),
                            format!("unknown field {key:?} in a branch; its fields are \"if\" and \"then\""),
                        );
                        ok = false;
                    }
                    let cond = self.condition_at(bo.get("if"), &bp, "if", "a branch", depth);
                    let then = match bo.get("then") {
                        Some(t) => self.node(t, &path::field(&bp, "then"), depth + 1),
                        None => {
                            self.report(&bp, "a branch needs \"then\": the node run when \"if\" holds");
                            None
                        }
                    };
                    match (cond, then) {
                        (Some(c), Some(t)) => node.children.extend([c, t]),
                        _ => ok = false,
                    }
                }
            }
            Some(Json::Array(_)) => {
                self.report(&p, format!("{name:?} needs at least one branch, found an empty array"));
                ok = false;
            }
            Some(other) => {
                self.report(&p, format!("expected an array of branches, found {}", describe(other)));
                ok = false;
            }
            None => {
                self.report(
                    at,
                    format!("{name:?} needs \"branches\": an array of {{\"if\": <condition node>, \"then\": <node>}}"),
                );
                ok = false;
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
        let value = match obj.get("value") {
            Some(v) => {
                let vp = path::field(at, "value");
                let leaf = self.leaf_spec(v, &vp, "value");
                if let Some(l) = &leaf {
                    self.check_leaf(LeafFamily::Value, l, &vp);
                }
                leaf
            }
            None => {
                self.report(
                    at,
                    format!("{name:?} needs \"value\": the registered value it matches on"),
                );
                None
            }
        };
        let p = path::field(at, "cases");
        let mut keys = Vec::new();
        // Each key, with the case that first matches it.
        let mut matched: HashMap<Key, usize> = HashMap::new();
        match obj.get("cases") {
            Some(Json::Array(list)) => {
                for (i, c) in list.iter().enumerate() {
                    let cp = path::index(&p, i);
                    let Some(co) = c.as_object() else {
                        self.report(
                            &cp,
                            format!(
                                "expected a case {{\"when\": <key or keys>, \"child\": <node>}}, found {}",
                                describe(c)
                            ),
                        );
                        ok = false;
                        continue;
                    };
                    for key in co.keys().filter(|k| !matches!(*k, "when" | "child")) {
                        self.report(
                            &path::field(&cp, key),
                            format!(
                                "unknown field {} in a case; its fields are \"when\" and \"child\"",
                                shown(key)
                            ),
                        );
                        ok = false;
                    }
                    let when = self.when(co.get("when"), &cp, i, &mut matched);
                    let child = match co.get("child") {
                        Some(n) => self.node(n, &path::field(&cp, "child"), depth + 1),
                        None => {
                            self.report(&cp, "a case needs \"child\": the node run when it matches");
                            None
                        }
                    };
                    match (when, child) {
                        (Some(w), Some(c)) => {
                            keys.push(w);
                            node.children.push(c);
                        }
                        _ => ok = false,
                    }
                }
            }
            Some(other) => {
                self.report(&p, format!("expected an array of cases, found {}", describe(other)));
                ok = false;
            }
            None => {
                self.report(
                    at,
                    format!("{name:?} needs \"cases\": an array of {{\"when\": <key or keys>, \"child\": <node>}}"),
                );
                ok = false;
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
                    .filter(|k| is_loop(**k))
                    .map(|k| format!("{:?}", k.json_name()))
                    .collect();
                self.report(at, format!("{name:?} is not inside a loop ({})", loops.join(", ")))
            }
            (Some(label), false) => {
                if !self.loops.iter().any(|l| l.as_deref() == Some(label.as_str())) {
                    let known: Vec<&str> = self.loops.iter().filter_map(|l| l.as_deref()).collect();
                    let hint = match catalog::closest(label, known.iter().copied()) {
                        Some(k) => format!("; did you mean {k:?}?"),
                        None if known.is_empty() => "; no enclosing loop has a \"label\"".to_string(),
                        None => format!("; enclosing labels: {}", one_of(&known)),
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
        let items = match obj.get("items") {
            Some(v) => {
                let ip = path::field(at, "items");
                let leaf = self.leaf_spec(v, &ip, "list");
                if let Some(l) = &leaf {
                    self.check_leaf(LeafFamily::List, l, &ip);
                }
                leaf
            }
            None => {
                self.report(
                    at,
                    "\"forEach\" needs \"items\": the registered list whose items it runs its child for",
                );
                None
            }
        };
        let max = match obj.get("max") {
            Some(v) => self.positive(v, &path::field(at, "max"), "\"max\""),
            None => {
                self.report(
                    at,
                    "\"forEach\" needs \"max\": the most items it holds (a positive integer)",
                );
                None
            }
        };
        Some(Params::ForEach {
            items: items?,
            max: max?,
        })
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
        match obj.get(name) {
            Some(v) => {
                let lp = path::field(at, name);
                let leaf = self.leaf_spec(v, &lp, name)?;
                self.check_leaf(family, &leaf, &lp);
                Some(leaf)
            }
            None => {
                self.report(
                    at,
                    format!("{kind:?} needs {name:?}: {{\"type\": <a registered {name} type>, ..parameters}}"),
                );
                None
            }
        }
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
                Some(Json::String(t)) if !t.is_empty() => Some(Leaf {
                    type_name: t.to_string(),
                    params: o.to_map("type"),
                }),
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

//! The writer: a tree and its library as a BT.CPP v4 document, and leaves
//! as a `<TreeNodesModel>` for Groot2's palette. A node BT.CPP has no
//! counterpart for is an error at its JSON path: the file would mean
//! another tree (SEMANTICS.md, "BehaviorTree.CPP XML").

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write;

use behaved_runtime::NodeKind;

use super::builtins::btcpp_name;
use super::ports::{is_blackboard, port_text};
use super::{LeafKind, LeafModel, PortType};
use crate::document::{deep, shown};
use crate::error::{LoadError, Problems, path};
use crate::library::Library;
use crate::model::{Node, Params, Policy};

/// The BT.CPP v4 document of the tree `main` (written as the
/// `<BehaviorTree>` `main_id`, the `main_tree_to_execute`) and every other
/// tree of `library`, with a `<TreeNodesModel>` of the leaves they use (each
/// port typed by its values, so that the file reads back to the same
/// parameters). Every node BT.CPP cannot express is a problem at its path.
///
/// ```
/// use behaved_format::{Library, model::Node, xml::to_xml};
///
/// let tree = Node::parse(r#"{"type": "sequence", "children": [
///     {"type": "condition", "condition": {"type": "seesEnemy"}},
///     {"type": "timeout", "seconds": 1.5, "child": {"type": "action", "action": {"type": "attack", "power": 3}}}]}"#)?;
/// let xml = to_xml("Main", &tree, &Library::new())?;
/// assert!(xml.contains(r#"<Timeout msec="1500">"#));
/// assert!(xml.contains(r#"<Action ID="attack" power="3"/>"#));
/// assert!(xml.contains(r#"<input_port name="power" type="int"/>"#));
/// # Ok::<(), behaved_format::LoadError>(())
/// ```
pub fn to_xml(main_id: &str, main: &Node, library: &Library) -> Result<String, LoadError> {
    let mut w = Writer::new();
    let mut all = library.clone();
    all.insert(main_id, main.clone());
    w.shared = super::scopes::with_entries(&all);
    let _ = writeln!(w.out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    let _ = writeln!(
        w.out,
        "<root BTCPP_format=\"4\" main_tree_to_execute=\"{}\">",
        escape(main_id)
    );
    w.tree(main_id, main, "");
    for id in library.ids().filter(|id| *id != main_id) {
        if let Some(node) = library.get(id) {
            w.tree(id, node, &path::subtree(id));
        }
    }
    // A loop BT.CPP would run differently: below a reactive node or a Parallel.
    for p in super::yields::yielding_loops(main_id, &all) {
        w.problems.push(&p.path, p.message);
    }
    let models: Vec<(String, LeafModel)> = std::mem::take(&mut w.leaves).into_iter().collect();
    w.models(&models);
    w.out.push_str("</root>\n");
    w.problems.into_result(w.out)
}

/// A BT.CPP v4 document holding only a `<TreeNodesModel>` of `leaves`
/// (name and model): Groot2 loads it to show the leaves in its palette.
///
/// ```
/// use behaved_format::xml::{LeafKind, LeafModel, PortType, nodes_model};
///
/// let xml = nodes_model(&[("moveTo".into(), LeafModel { kind: LeafKind::Action, ports: vec![("speed".into(), PortType::Number), ("at".into(), PortType::Json)], outputs: vec!["at".into()] })]);
/// assert!(xml.contains("<Action ID=\"moveTo\">\n      <input_port name=\"speed\" type=\"double\"/>"));
/// assert!(xml.contains("<output_port name=\"at\" type=\"json\"/>"));
/// ```
pub fn nodes_model(leaves: &[(String, LeafModel)]) -> String {
    let mut w = Writer::new();
    w.out
        .push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<root BTCPP_format=\"4\">\n");
    w.models(leaves);
    w.out.push_str("</root>\n");
    w.out
}

/// The state of one write.
struct Writer {
    out: String,
    problems: Problems,
    /// The leaves used, with their ports' types as their values say.
    leaves: BTreeMap<String, LeafModel>,
    /// Where each leaf's port is in its model's list (a use looks each of
    /// its ports up in constant time).
    port_index: HashMap<(String, String), usize>,
    /// The ports used so far only as blackboard references: typed by their
    /// first literal use.
    untyped: HashSet<(String, String)>,
    /// The trees that name blackboard entries: their `<SubTree>`s share
    /// the parent's (`_autoremap="true"`), as ours do.
    shared: BTreeSet<String>,
}

impl Writer {
    /// A write with nothing written yet.
    fn new() -> Writer {
        Writer {
            out: String::new(),
            problems: Problems::default(),
            leaves: BTreeMap::new(),
            port_index: HashMap::new(),
            untyped: HashSet::new(),
            shared: BTreeSet::new(),
        }
    }

    fn tree(&mut self, id: &str, node: &Node, at: &str) {
        let _ = writeln!(self.out, "  <BehaviorTree ID=\"{}\">", escape(id));
        self.node(node, at, 2);
        self.out.push_str("  </BehaviorTree>\n");
    }

    fn models(&mut self, leaves: &[(String, LeafModel)]) {
        if leaves.is_empty() {
            return;
        }
        self.out.push_str("  <TreeNodesModel>\n");
        for (name, model) in leaves {
            let tag = match model.kind {
                LeafKind::Action => "Action",
                LeafKind::Condition => "Condition",
            };
            if model.ports.is_empty() {
                let _ = writeln!(self.out, "    <{tag} ID=\"{}\"/>", escape(name));
                continue;
            }
            let _ = writeln!(self.out, "    <{tag} ID=\"{}\">", escape(name));
            for (port, ty) in &model.ports {
                let element = if model.is_output(port) {
                    "output_port"
                } else {
                    "input_port"
                };
                let _ = writeln!(
                    self.out,
                    "      <{element} name=\"{}\" type=\"{}\"/>",
                    escape(port),
                    ty.btcpp_name()
                );
            }
            let _ = writeln!(self.out, "    </{tag}>");
        }
        self.out.push_str("  </TreeNodesModel>\n");
    }

    /// Writes `node` (at JSON path `at`) indented `level` steps.
    fn node(&mut self, node: &Node, at: &str, level: usize) {
        deep(|| self.node_inner(node, at, level));
    }

    fn node_inner(&mut self, node: &Node, at: &str, level: usize) {
        let kind = node.kind();
        let pad = "  ".repeat(level);
        if node.id().is_some() {
            self.problems.push(
                at,
                "a node id has no BT.CPP counterpart; remove the \"id\" to write this tree as XML",
            );
        }
        if node.hooks().is_some() {
            self.problems.push(
                at,
                "hooks have no BT.CPP counterpart; remove them to write this tree as XML",
            );
        }
        if node.loop_label().is_some() {
            self.problems.push(
                at,
                "a loop label has no BT.CPP counterpart; remove it to write this tree as XML",
            );
        }
        let mut attrs = String::new();
        let mut attr = |name: &str, value: &str| {
            let _ = write!(attrs, " {name}=\"{}\"", escape(value));
        };
        let tag = match (kind, node.params()) {
            (NodeKind::Action | NodeKind::Condition, Params::Leaf(leaf)) => {
                let (tag, leaf_kind) = if kind == NodeKind::Action {
                    ("Action", LeafKind::Action)
                } else {
                    ("Condition", LeafKind::Condition)
                };
                attr("ID", &leaf.type_name);
                if let Some(name) = node.name() {
                    attr("name", name);
                }
                let mut ports = Vec::new();
                for (k, v) in &leaf.params {
                    let param_at = path::field(&path::field(at, kind.json_name()), k);
                    if let Some(key) = crate::port::entry_key(v) {
                        // A blackboard reference: `{key}`, its port typed by the literal uses.
                        attr(k, &format!("{{{key}}}"));
                        ports.push((k.clone(), None));
                        continue;
                    }
                    let (text, ty) = port_text(v);
                    if ty == PortType::String && is_blackboard(&text) {
                        self.problems.push(
                            &param_at,
                            format!("the string {} would read as a BT.CPP blackboard port", shown(&text)),
                        );
                    }
                    if matches!(k.as_str(), "ID" | "name") || k.starts_with('_') {
                        self.problems.push(
                            &param_at,
                            format!(
                                "a parameter named {} is a BT.CPP attribute of its own (BT.CPP allows no port named `name` or `ID`, or starting with `_`: `name` is the node's name); rename the leaf's parameter (a serde rename keeps its field)",
                                shown(k)
                            ),
                        );
                    }
                    attr(k, &text);
                    ports.push((k.clone(), Some(ty)));
                }
                self.model(&leaf.type_name, leaf_kind, ports, at);
                let _ = writeln!(self.out, "{pad}<{tag}{attrs}/>");
                return;
            }
            (NodeKind::Subtree, Params::Subtree(id)) => {
                attr("ID", id);
                if self.shared.contains(id) {
                    attr("_autoremap", "true");
                }
                for (key, to) in node.remap().into_iter().flatten() {
                    if matches!(key.as_str(), "ID" | "name") || key.starts_with('_') {
                        self.problems.push(
                            &path::field(&path::field(at, "remap"), key),
                            format!(
                                "an entry named {} is a BT.CPP attribute of its own (BT.CPP allows no port named `name` or `ID`, or starting with `_`); rename the entry",
                                shown(key)
                            ),
                        );
                    }
                    attr(key, &format!("{{{to}}}"));
                }
                "SubTree"
            }
            _ => match btcpp_name(kind) {
                Some(tag) => tag,
                None => {
                    self.problems.push(
                        at,
                        format!(
                            "`{}` has no BehaviorTree.CPP counterpart (SEMANTICS.md, \"BehaviorTree.CPP XML\")",
                            kind.json_name()
                        ),
                    );
                    return;
                }
            },
        };
        if let Some(name) = node.name() {
            attr("name", name);
        }
        match node.params() {
            Params::Count(n) => attr(
                if kind == NodeKind::Repeat {
                    "num_cycles"
                } else {
                    "num_attempts"
                },
                &n.to_string(),
            ),
            Params::Seconds(s) => {
                let ms = (s * 1000.0).round();
                if ms / 1000.0 != *s || ms < 1.0 {
                    self.problems.push(
                        &path::field(at, "seconds"),
                        format!("BT.CPP's durations are whole milliseconds, at least 1; {s} seconds is not"),
                    );
                }
                attr(
                    if kind == NodeKind::Delay { "delay_msec" } else { "msec" },
                    &format!("{ms:.0}"),
                );
            }
            Params::Parallel(policy) => match policy {
                Policy::RequireAll => {}
                Policy::RequireOne => {
                    attr("success_count", "1");
                    attr("failure_count", "-1");
                }
                Policy::Thresholds { success, failure } => {
                    attr("success_count", &success.map_or("-1".into(), |s| s.to_string()));
                    attr("failure_count", &failure.map_or("-1".into(), |f| f.to_string()));
                }
            },
            _ => {}
        }
        if kind == NodeKind::RunOnce {
            attr("then_skip", "false");
        }
        let kids = node.children();
        if matches!(kind, NodeKind::If | NodeKind::ReactiveIf) && kids.len() > 3 {
            self.problems.push(
                at,
                "BT.CPP's `IfThenElse` and `WhileDoElse` have one condition; write each `else if` as an `if` in the `else`",
            );
            return;
        }
        if kids.is_empty() {
            let _ = writeln!(self.out, "{pad}<{tag}{attrs}/>");
            return;
        }
        let _ = writeln!(self.out, "{pad}<{tag}{attrs}>");
        for (i, kid) in kids.iter().enumerate() {
            self.node(kid, &node.child_path(at, i), level + 1);
        }
        if (kind == NodeKind::If || kind == NodeKind::ReactiveIf) && kids.len() == 2 {
            // Ours succeeds when no branch is taken and there is no `else`; BT.CPP's fails.
            let _ = writeln!(self.out, "{pad}  <AlwaysSuccess/>");
        }
        let _ = writeln!(self.out, "{pad}</{tag}>");
    }

    /// Adds the ports of a use of leaf `name` to its model; a port whose
    /// uses have different types is a problem (BT.CPP ports have one).
    /// A port whose type is `None` (a blackboard reference) is listed, as a
    /// string until a literal use gives its type.
    fn model(&mut self, name: &str, kind: LeafKind, ports: Vec<(String, Option<PortType>)>, at: &str) {
        let model = self.leaves.entry(name.to_string()).or_insert(LeafModel {
            kind,
            ports: Vec::new(),
            outputs: Vec::new(),
        });
        if model.kind != kind {
            self.problems.push(
                at,
                format!("{} is used both as an action and as a condition", shown(name)),
            );
        }
        for (port, ty) in ports {
            let untyped = (name.to_string(), port.clone());
            let ty = match ty {
                Some(ty) if self.untyped.remove(&untyped) => {
                    // The first literal use: the port's type from now on.
                    if let Some(i) = self.port_index.get(&untyped) {
                        model.ports[*i].1 = ty;
                    }
                    continue;
                }
                Some(ty) => ty,
                None if self.port_index.contains_key(&untyped) => continue,
                None => {
                    self.untyped.insert(untyped);
                    PortType::String
                }
            };
            let found = match self.port_index.entry((name.to_string(), port.clone())) {
                Entry::Occupied(i) => model.ports.get_mut(*i.get()),
                Entry::Vacant(v) => {
                    v.insert(model.ports.len());
                    None
                }
            };
            match found {
                None => model.ports.push((port, ty)),
                Some((_, old)) if *old == ty => {}
                // An integer and a float: both read back as JSON numbers.
                Some((_, old))
                    if matches!(
                        (*old, ty),
                        (
                            PortType::Integer | PortType::Number,
                            PortType::Integer | PortType::Number
                        )
                    ) =>
                {
                    *old = PortType::Number
                }
                Some((_, old)) => {
                    let old = *old;
                    self.problems.push(
                        at,
                        format!(
                            "the port {} of {} is {} here and {} elsewhere; a BT.CPP port has one type",
                            shown(&port),
                            shown(name),
                            ty.btcpp_name(),
                            old.btcpp_name()
                        ),
                    );
                }
            }
        }
    }
}

/// `text` as an XML attribute value: the markup characters and the
/// whitespace that attribute normalisation would turn into spaces escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c => out.push(c),
        }
    }
    out
}

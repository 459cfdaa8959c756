//! Finding a node by what a test author sees: its label (as either form
//! writes it, durations in any unit), its JSON `"name"`, a path of them with
//! sibling indices where siblings look alike, or its id.

use behaved_observe::TraceNode;
use behaved_runtime::catalog::Parameters;
use behaved_runtime::{NodeId, NodeKind};

use crate::Error;

/// Finds the one node `selector` names in `nodes`; `names` holds each node's
/// JSON `"name"` (by id; shorter than `nodes`, or empty, where nodes have none):
///
/// - `#3`: the node with id 3;
/// - `Chase`: the node labelled exactly so (`MoveTo::new(GUARDHOUSE)`, `wait(1.0)`),
///   or whose JSON `"name"` is exactly so;
/// - `sequence/wait(1.0)`: a path of labels, each the parent of the next,
///   ending at the node (segments may be ids: `#6/wait(1.0)`);
/// - `Chase[1]`: of the siblings a segment names, the one at that index
///   (counting from 0, as JSON paths do): `sequence/Chase[1]` is the second
///   `Chase` child of a `sequence`.
///
/// Both forms of a tree label a node alike (`SEMANTICS.md`, "Labels"); a
/// label as the DSL source or an older JSON label wrote it still names the
/// node (see [`same_node`]): `act(async Fetch)` and `act(Fetch)` find
/// `Fetch`, `cond(Hungry)` finds `Hungry`, `repeater(3)` finds `repeat(3)`,
/// `wait(3s)`, `wait(3000ms)` and `wait(3)` find `wait(3.0)`.
/// Exact labels are tried first.
///
/// Several matches are an error listing, for each, a selector that names it
/// alone (the shortest path, with sibling indices where needed).
pub fn find(nodes: &[TraceNode], names: &[Option<String>], selector: &str) -> Result<NodeId, Error> {
    let table = Table { nodes, names };
    let mut found = matching(table, selector, exact);
    if found.is_empty() {
        found = matching(table, selector, same_node);
    }
    match found[..] {
        [id] => Ok(NodeId(id)),
        [] => {
            let hint = closest(nodes, selector);
            // Without a close label, the labels there are: the first few.
            const SHOWN: usize = 12;
            let labels = || nodes.iter().map(|n| n.label.clone());
            let known: Vec<String> = if hint.is_some() {
                Vec::new()
            } else {
                labels().take(SHOWN).collect()
            };
            let more = if hint.is_some() {
                0
            } else {
                nodes.len().saturating_sub(SHOWN)
            };
            Err(Error::NoSuchNode {
                selector: selector.to_owned(),
                hint,
                known,
                more,
            })
        }
        _ => Err(Error::Ambiguous {
            selector: selector.to_owned(),
            matches: found
                .iter()
                .map(|&id| format!("`{}` (#{id})", unique_selector(table, id)))
                .collect(),
        }),
    }
}

/// A tree's node table with its nodes' JSON names.
#[derive(Clone, Copy)]
struct Table<'a> {
    nodes: &'a [TraceNode],
    names: &'a [Option<String>],
}

impl Table<'_> {
    /// The JSON `"name"` of node `id`, if it has one.
    fn name(&self, id: u32) -> Option<&str> {
        self.names.get(id as usize).and_then(Option::as_deref)
    }
}

/// How a segment names a node: [`exact`] or [`same_node`].
type Names = fn(&TraceNode, &str) -> bool;

/// `true` when `label` is `node`'s label exactly.
fn exact(node: &TraceNode, label: &str) -> bool {
    node.label == label
}

/// `true` when `segment` names `node`: its label (as `names` reads it) or
/// its JSON name.
fn names_node(table: Table<'_>, node: &TraceNode, segment: &str, names: Names) -> bool {
    names(node, segment) || table.name(node.id) == Some(segment)
}

/// The ids of the nodes whose whole label `names` the selector, or else
/// those that the selector's path of labels `names`.
fn matching(table: Table<'_>, selector: &str, names: Names) -> Vec<u32> {
    let nodes = table.nodes;
    let whole: Vec<u32> = nodes
        .iter()
        .filter(|n| names_node(table, n, selector, names))
        .map(|n| n.id)
        .collect();
    if !whole.is_empty() {
        return whole;
    }
    let segments: Vec<&str> = selector.split('/').map(str::trim).collect();
    nodes
        .iter()
        .filter(|n| matches_path(table, n.id, &segments, names))
        .map(|n| n.id)
        .collect()
}

/// `segment` without a trailing sibling index, and the index: `Chase[1]`
/// is `("Chase", 1)`.
fn sibling_index(segment: &str) -> Option<(&str, usize)> {
    let (base, index) = segment.strip_suffix(']')?.rsplit_once('[')?;
    let index = index.trim().parse().ok()?;
    Some((base.trim_end(), index))
}

/// How many earlier siblings of `node` `segment` names.
fn rank(table: Table<'_>, node: &TraceNode, segment: &str, names: Names) -> usize {
    table
        .nodes
        .iter()
        .take(node.id as usize)
        .filter(|s| s.parent == node.parent && names_node(table, s, segment, names))
        .count()
}

/// `true` when `segment` names `node`: an id (`#3`), a label or JSON name,
/// or one of those with a sibling index (`Chase[1]`).
fn segment_names(table: Table<'_>, node: &TraceNode, segment: &str, names: Names) -> bool {
    if let Some(n) = segment.strip_prefix('#') {
        return n.parse() == Ok(node.id);
    }
    if names_node(table, node, segment, names) {
        return true;
    }
    match sibling_index(segment) {
        Some((base, index)) => names_node(table, node, base, names) && rank(table, node, base, names) == index,
        None => false,
    }
}

/// The shortest selector that names `id` alone: its JSON name if that is
/// unique, else the shortest path ending at it that is, each node by its
/// JSON name or else its label, with its index among the siblings so named
/// where there are several; `#id` if none is (a label with a `/` in it).
fn unique_selector(table: Table<'_>, id: u32) -> String {
    let alone = |selector: &str| {
        // As `find` reads it: exact labels first.
        let mut found = matching(table, selector, exact);
        if found.is_empty() {
            found = matching(table, selector, same_node);
        }
        found == [id]
    };
    if let Some(name) = table.name(id)
        && alone(name)
    {
        return name.to_owned();
    }
    let mut segments: Vec<String> = Vec::new();
    let mut at = Some(id);
    while let Some(i) = at {
        let node = &table.nodes[i as usize];
        let word = table.name(i).unwrap_or(&node.label);
        let twins = table
            .nodes
            .iter()
            .filter(|s| s.parent == node.parent && names_node(table, s, word, exact))
            .count();
        segments.push(if twins > 1 {
            format!("{word}[{}]", rank(table, node, word, exact))
        } else {
            word.to_owned()
        });
        let selector = segments.iter().rev().cloned().collect::<Vec<_>>().join("/");
        if alone(&selector) {
            return selector;
        }
        at = node.parent;
    }
    format!("#{id}")
}

/// `true` when `label`, as the DSL source or the JSON form writes the node,
/// is `node`'s label: a leaf value with its `cond(..)`, `act(..)` or
/// `act(async ..)` around it (a closure keeps its `cond(..)` or `act(..)`),
/// a struct literal as the JSON form holds it (`Move { to_x: -1 }` is
/// `Move(toX: -1)`), a node word by its JSON name (`repeater(3)`,
/// `reactiveSelector`).
fn same_node(node: &TraceNode, label: &str) -> bool {
    if let (Some(a), Some(b)) = (seconds(node.kind, &node.label), seconds(node.kind, label)) {
        // The same duration, whatever the unit: `wait(1.5min)` is `wait(90.0)`.
        return (a - b).abs() <= 1e-12 * a.abs().max(b.abs());
    }
    node.label == canonical(node.kind, label)
}

/// The seconds of a timed node (`wait`, `timeout`, `delay`, `cooldown`)
/// written as the DSL or the node table writes it: `wait(3s)`, `wait(500ms)`,
/// `wait(1.5min)`, `wait(1h)`, `wait(3)`, `wait(3.0)`.
fn seconds(kind: NodeKind, label: &str) -> Option<f64> {
    if kind.params() != Parameters::Seconds {
        return None;
    }
    let arg = [kind.dsl_name(), kind.json_name()]
        .iter()
        .find_map(|word| label.trim().strip_prefix(word))?
        .trim_start()
        .strip_prefix('(')?
        .strip_suffix(')')?
        .trim()
        .replace('_', "");
    // The units the DSL reads (`bt-macros`, `seconds_of`), the longest first.
    let units = [
        ("min", 60.0),
        ("ms", 0.001),
        ("f64", 1.0),
        ("f32", 1.0),
        ("s", 1.0),
        ("h", 3600.0),
    ];
    let (number, unit) = units
        .iter()
        .find_map(|&(suffix, unit)| arg.strip_suffix(suffix).map(|n| (n, unit)))
        .unwrap_or((&arg, 1.0));
    let n: f64 = number.parse().ok()?;
    (n.is_finite() && n >= 0.0).then_some(n * unit)
}

/// `label` as the node table writes it (see [`same_node`]).
fn canonical(kind: NodeKind, label: &str) -> String {
    let label = label.trim();
    if !matches!(kind, NodeKind::Condition | NodeKind::Action) {
        return node_word(kind, label);
    }
    if kind == NodeKind::Condition && (label.starts_with('|') || label.starts_with("move ")) {
        // The DSL's condition of an `if` or `while`: a bare closure.
        return format!("cond({label})");
    }
    let wrappers: &[&str] = if kind == NodeKind::Condition {
        &["cond("]
    } else {
        &["act(async ", "act("]
    };
    for wrapper in wrappers {
        if let Some(inner) = label.strip_prefix(wrapper).and_then(|l| l.strip_suffix(')')) {
            let inner = inner.trim();
            let closure = inner.starts_with('|') || inner.starts_with("move ");
            return if closure {
                label.to_owned()
            } else {
                struct_literal(inner)
            };
        }
    }
    struct_literal(label)
}

/// A node that is not a leaf value as the node table writes it: the JSON
/// name as the DSL word (`repeater(3)`), the DSL's head of a node with its
/// condition in a child as the word alone (`if |c| c.hungry` is `if`), the
/// DSL's `for` and `match` heads with their parameters in parentheses
/// (`for x: T in |c| c.xs.iter() max 4` is `for(|c| c.xs.iter(), max 4)`).
fn node_word(kind: NodeKind, label: &str) -> String {
    let (loop_label, label) = match label.split_once(": ") {
        Some((l, rest)) if l.starts_with('\'') && !l.contains(' ') => (format!("{l}: "), rest),
        _ => (String::new(), label),
    };
    let (dsl, json) = (kind.dsl_name(), kind.json_name());
    let after = |word: &str| {
        label
            .strip_prefix(word)
            .filter(|rest| rest.is_empty() || rest.starts_with(['(', ' ']))
    };
    let Some(rest) = after(dsl).or_else(|| after(json)) else {
        return format!("{loop_label}{label}");
    };
    let head = rest.trim();
    let rest = match kind {
        // A condition that is its own child node is not in the label (the
        // kind's shape says which: a branch's `if`, a `condition` before the
        // `child`), unless this is a path (`if |c| c.hungry/failure` is two
        // segments).
        _ if kind.slots().has_condition_nodes() && !head.contains('/') => String::new(),
        NodeKind::Match | NodeKind::ReactiveMatch if !head.starts_with('(') => format!("({head})"),
        NodeKind::ForEach | NodeKind::Pick if !head.starts_with('(') => {
            // A `pick`'s score after `by` is not part of its label's arguments.
            let head = match kind {
                NodeKind::Pick => head.split_once(" by ").map_or(head, |(h, _)| h),
                _ => head,
            };
            match head.split_once(" in ").map(|(_, s)| s.rsplit_once(" max ")) {
                Some(Some((items, max))) => format!("({}, max {})", items.trim(), max.trim()),
                _ => rest.to_owned(),
            }
        }
        _ => rest.to_owned(),
    };
    format!("{loop_label}{dsl}{rest}")
}

/// A struct literal as the JSON form holds it: `Move { to_x: -1, name: "a",
/// at: HOME }` is `Move(at: "HOME", name: "a", toX: -1)` (fields in camel
/// case and in order, literals as they are, other code as a string);
/// anything else as it is.
fn struct_literal(value: &str) -> String {
    let Some((ty, rest)) = value.split_once('{') else {
        return value.to_owned();
    };
    let (ty, Some(body)) = (ty.trim(), rest.trim_end().strip_suffix('}')) else {
        return value.to_owned();
    };
    if ty.is_empty() || !ty.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ':') {
        return value.to_owned();
    }
    let mut fields: Vec<(String, String)> = Vec::new();
    for field in top_level(body) {
        let Some((name, code)) = field.split_once(':') else {
            return value.to_owned();
        };
        fields.push((behaved_format::json_field_name(name.trim()), json_value(code.trim())));
    }
    if fields.is_empty() {
        return ty.to_owned();
    }
    fields.sort();
    let fields: Vec<String> = fields.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!("{ty}({})", fields.join(", "))
}

/// The comma-separated parts of `body` outside brackets and strings.
fn top_level(body: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut in_string, mut start) = (Vec::new(), 0i32, false, 0);
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' if in_string => drop(chars.next()),
            '"' => in_string = !in_string,
            '(' | '[' | '{' if !in_string => depth += 1,
            ')' | ']' | '}' if !in_string => depth -= 1,
            ',' if !in_string && depth == 0 => {
                parts.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

/// A field's code as the JSON form writes its value: a number, string or
/// `bool` literal as JSON, other code as a string of it.
fn json_value(code: &str) -> String {
    let number = code.replace('_', "");
    if let Ok(i) = number.parse::<i64>() {
        return i.to_string();
    }
    if number.contains(['.', 'e', 'E'])
        && let Ok(f) = number.trim_end_matches("f64").trim_end_matches("f32").parse::<f64>()
    {
        return format!("{f:?}");
    }
    if matches!(code, "true" | "false") || (code.len() >= 2 && code.starts_with('"') && code.ends_with('"')) {
        return code.to_owned();
    }
    format!("{code:?}")
}

/// `true` when the last segment names `id` and the others its ancestors, in order.
fn matches_path(table: Table<'_>, id: u32, segments: &[&str], names: Names) -> bool {
    let mut at = Some(id);
    for segment in segments.iter().rev() {
        let Some(node) = at.map(|i| &table.nodes[i as usize]) else {
            return false;
        };
        if !segment_names(table, node, segment, names) {
            return false;
        }
        at = node.parent;
    }
    true
}

fn closest(nodes: &[TraceNode], selector: &str) -> Option<String> {
    let last = selector.rsplit('/').next().unwrap_or(selector).trim();
    behaved_runtime::catalog::closest(last, nodes.iter().map(|n| n.label.as_str())).map(str::to_owned)
}

/// The labels from the root down to `id`, joined by `/`.
pub fn path(nodes: &[TraceNode], id: u32) -> String {
    let mut labels = Vec::new();
    let mut at = Some(id);
    while let Some(i) = at {
        let node = &nodes[i as usize];
        labels.push(node.label.as_str());
        at = node.parent;
    }
    labels.reverse();
    labels.join("/")
}

/// A node as messages name it: `` #3 `Chase` ``.
pub fn describe(nodes: &[TraceNode], id: NodeId) -> String {
    match nodes.get(id.index()) {
        Some(n) => format!("#{} `{}`", n.id, n.label),
        None => format!("{id} (not in the tree)"),
    }
}

#[cfg(test)]
mod tests {
    use super::canonical;
    use behaved_runtime::NodeKind as K;

    /// The node as the DSL source or an older JSON label wrote it, and the
    /// label both forms now give it (`SEMANTICS.md`, "Labels").
    #[test]
    fn written_forms_read_as_the_node_table_labels() {
        let cases = [
            (K::Action, "act(async Fetch)", "Fetch"),
            (K::Action, "act(Fetch)", "Fetch"),
            (K::Condition, "cond(Hungry)", "Hungry"),
            (K::Condition, "cond(|c| c.hp < 10)", "cond(|c| c.hp < 10)"),
            (K::Condition, "|c| c.hp < 10", "cond(|c| c.hp < 10)"),
            (K::Action, "act(|c| c.n += 1)", "act(|c| c.n += 1)"),
            (
                K::Action,
                r#"Move { to_x: -1, speed: 2.5, name: "a, b", at: HOME, on: true }"#,
                r#"Move(at: "HOME", name: "a, b", on: true, speed: 2.5, toX: -1)"#,
            ),
            (K::Action, "act(async Find { to: (1, 2) })", r#"Find(to: "(1, 2)")"#),
            (K::Action, "Chase {}", "Chase"),
            (K::Action, "Patrol::new(3)", "Patrol::new(3)"),
            (K::Repeat, "repeater(3)", "repeat(3)"),
            (K::ReactiveSelector, "reactiveSelector", "reactive selector"),
            (K::If, "if |c| c.hungry", "if"),
            (K::ReactiveIf, "reactive if |c| c.a", "reactive if"),
            (K::While, "'w: while |c| c.a", "'w: while"),
            (K::Latch, "latch(Hungry)", "latch"),
            (K::AbortIf, "abort_if |c| c.hp < 10", "abort_if"),
            (K::AbortIf, "abortIf", "abort_if"),
            (K::Match, "match |c| c.stage", "match(|c| c.stage)"),
            (
                K::ForEach,
                "'rows: for t: (u8, u8) in |c| c.cells.iter() max 8",
                "'rows: for(|c| c.cells.iter(), max 8)",
            ),
            (K::ForEach, "forEach(cells, max 3)", "for(cells, max 3)"),
            (
                K::Pick,
                "pick t: u32 in |c| c.near.iter() max 8 by |c, t| c.w * *t as f32",
                "pick(|c| c.near.iter(), max 8)",
            ),
            (K::Pick, "pick(near, max 3)", "pick(near, max 3)"),
        ];
        for (kind, written, label) in cases {
            assert_eq!(canonical(kind, written), label, "{written}");
        }
    }

    #[test]
    fn other_kinds_and_paths_are_left_alone() {
        assert_eq!(
            canonical(K::Action, "cond(Fetch)"),
            "cond(Fetch)",
            "an action is not a condition"
        );
        assert_eq!(canonical(K::Sequence, "selector"), "selector");
        assert_eq!(
            canonical(K::If, "if |c| c.a/failure"),
            "if |c| c.a/failure",
            "a path, not a head"
        );
        assert_eq!(
            canonical(K::Latch, "latch |c| c.a/failure"),
            "latch |c| c.a/failure",
            "a path, not a head, for every kind with its condition in a child"
        );
    }
}

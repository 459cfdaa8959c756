//! The short label a node shows in node tables, traces and the studio: one
//! rule for both forms of a tree, so a node reads the same whether `behave!`
//! compiled it from the DSL or from JSON, or the interpreter loaded it.
//!
//! - A node is named by its DSL word ([`NodeKind::dsl_name`]: `sequence`,
//!   `reactive selector`, `repeat`, `until_fail`, `wait_until`, `for`), its
//!   parameters in parentheses: `repeat(3)`, `wait(1.5)` (seconds, whatever
//!   the unit written), `weighted(3, 1)`, `subtree(Patrol)`,
//!   `parallel(all)` / `parallel(any)` / `parallel(success = 2, failure = 1)`,
//!   `match(Mood)`, `for(Nearby(radius: 2.5), max 8)`, `wait_until(Ready)`.
//!   Conditions that are child nodes (`if`, `while`, `abort_if`, `latch`) show
//!   as those children, not in the parent's label.
//! - A leaf value is its type and parameters as the JSON form holds them:
//!   `Chase`, `MoveTo(x: -3, speed: 2.5, name: "gate")`; one kept as Rust code
//!   (`Patrol::new(3)`) is that code. An async action reads as the action it
//!   runs (`Fetch`), a condition value as itself (`Hungry`): the node's kind
//!   says which it is.
//! - A closure has no name: as a node it reads `cond(|c| c.hp < 10)` or
//!   `act(|c| c.n += 1)`; as a parameter, its code (`match(|c| c.stage)`).
//! - A loop's label comes first, as in Rust (`'outer: loop`); a jump's after
//!   (`break 'outer`).

use crate::model::{Leaf, Node, Params, Policy};
use behaved_runtime::NodeKind;

/// The `"type"` of a leaf that holds Rust code (`Tree::JSON` of a DSL tree).
const INLINE: &str = "inline";

impl Node {
    /// The label a node shows in the node table and traces (`wait(1.0)`,
    /// `dialogue(dialogueId: "x")`, `'outer: loop`): the same for a tree the
    /// interpreter loads, one `behave!` compiles from JSON and one it
    /// compiles from the DSL ([`node_label`] says the rule).
    pub fn label(&self) -> String {
        node_label(self.kind, &self.params, self.children.len(), self.label.as_deref())
    }
}

/// The label of a node of `kind` with `params`, `children` children and the
/// loop label `label` (a loop's own, or a jump's target): see the module
/// documentation for the rule.
pub fn node_label(kind: NodeKind, params: &Params, children: usize, label: Option<&str>) -> String {
    let args = match params {
        Params::Leaf(l) if matches!(kind, NodeKind::Condition | NodeKind::Action) => {
            let word = if kind == NodeKind::Condition { "cond" } else { "act" };
            return match inline_code(l) {
                Some(code) => format!("{word}({code})"),
                None => leaf_label(l),
            };
        }
        Params::Leaf(l) | Params::Match { value: l, .. } => Some(leaf_label(l)),
        Params::Count(c) => Some(c.to_string()),
        Params::Seconds(s) => Some(format!("{s:?}")),
        Params::Subtree(id) => Some(id.clone()),
        Params::Parallel(policy) => Some(parallel_args(*policy, children)),
        Params::Weights(w) => Some(w.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")),
        Params::Utility { choice, .. } => choice.label(),
        Params::ForEach { items, max } | Params::Pick { items, max, .. } => {
            Some(format!("{}, max {max}", leaf_label(items)))
        }
        Params::None | Params::Branches { .. } => None,
    };
    with_args(kind, args.as_deref(), label)
}

/// The label of a node of `kind` whose parameters read `args` (`None`: it
/// has none), for parameters written as Rust code (`repeat(TRIES)`).
pub fn with_args(kind: NodeKind, args: Option<&str>, label: Option<&str>) -> String {
    let word = kind.dsl_name();
    let base = match args {
        Some(args) => format!("{word}({args})"),
        None => word.to_owned(),
    };
    match label {
        Some(l) if matches!(kind, NodeKind::Break | NodeKind::Continue) => format!("{base} '{l}"),
        Some(l) => format!("'{l}: {base}"),
        None => base,
    }
}

/// A leaf as a value: `Chase`, `MoveTo(x: 3, y: -4.5)`; Rust code the JSON
/// form keeps (an `"inline"` closure, `{"type": "Patrol", "code":
/// "Patrol::new(3)"}`) as that code.
pub fn leaf_label(leaf: &Leaf) -> String {
    if let Some(code) = inline_code(leaf).or_else(|| value_code(leaf)) {
        return code.to_owned();
    }
    if leaf.params.is_empty() {
        return leaf.type_name.clone();
    }
    let params: Vec<String> = leaf.params.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!("{}({})", leaf.type_name, params.join(", "))
}

/// The code of an `"inline"` leaf.
fn inline_code(leaf: &Leaf) -> Option<&str> {
    if leaf.type_name != INLINE {
        return None;
    }
    leaf.params.get("code")?.as_str()
}

/// The code of a leaf value kept as Rust code: its only parameter is `code`,
/// and the code builds the type (`Patrol::new(3)`, `Say(HELLO)`).
fn value_code(leaf: &Leaf) -> Option<&str> {
    if leaf.params.len() != 1 {
        return None;
    }
    let code = leaf.params.get("code")?.as_str()?;
    let rest = code.strip_prefix(leaf.type_name.as_str())?;
    rest.starts_with(['(', ':', ' ', '{']).then_some(code)
}

/// `all`, `any`, or the thresholds, for `children` children.
fn parallel_args(policy: Policy, children: usize) -> String {
    let n = u32::try_from(children).unwrap_or(u32::MAX);
    match policy.thresholds(n) {
        (s, 1) if s == n => "all".into(),
        (1, f) if f == n => "any".into(),
        (s, f) => format!("success = {s}, failure = {f}"),
    }
}

#[cfg(test)]
mod tests {
    use crate::model::Node;

    fn label(json: &str) -> String {
        Node::parse(json).unwrap().label()
    }

    const CHILD: &str = r#""child": {"type": "success"}"#;

    #[test]
    fn a_leaf_shows_its_parameters_wherever_it_is() {
        assert_eq!(
            label(r#"{"type": "action", "action": {"type": "MoveTo", "x": -3, "speed": 2.5}}"#),
            "MoveTo(speed: 2.5, x: -3)"
        );
        assert_eq!(
            label(&format!(
                r#"{{"type": "forEach", "items": {{"type": "Near", "radius": 2.5}}, "max": 4, {CHILD}}}"#
            )),
            "for(Near(radius: 2.5), max 4)"
        );
        assert_eq!(
            label(&format!(r#"{{"type": "forEach", "items": "Near", "max": 4, {CHILD}}}"#)),
            "for(Near, max 4)"
        );
        assert_eq!(
            label(
                r#"{"type": "match", "value": {"type": "Mood", "of": "dog"}, "cases": [{"when": 1, "child": {"type": "success"}}], "default": {"type": "failure"}}"#
            ),
            r#"match(Mood(of: "dog"))"#
        );
    }

    #[test]
    fn node_words_are_the_dsl_words() {
        assert_eq!(
            label(&format!(r#"{{"type": "repeater", "count": 3, {CHILD}}}"#)),
            "repeat(3)"
        );
        assert_eq!(label(&format!(r#"{{"type": "untilFail", {CHILD}}}"#)), "until_fail");
        assert_eq!(label(&format!(r#"{{"type": "inverter", {CHILD}}}"#)), "invert");
        assert_eq!(
            label(r#"{"type": "reactiveSelector", "children": [{"type": "success"}]}"#),
            "reactive selector"
        );
        assert_eq!(
            label(r#"{"type": "delay", "seconds": 2, "child": {"type": "running"}}"#),
            "delay(2.0)"
        );
        assert_eq!(
            label(r#"{"type": "waitUntil", "condition": {"type": "Near", "radius": 2}}"#),
            "wait_until(Near(radius: 2))"
        );
    }

    #[test]
    fn parallel_policies_read_the_same_however_written() {
        let two = r#""children": [{"type": "success"}, {"type": "running"}]"#;
        let parallel = |policy: &str| label(&format!(r#"{{"type": "parallel", {policy}, {two}}}"#));
        assert_eq!(parallel(r#""policy": "requireAll""#), "parallel(all)");
        assert_eq!(parallel(r#""success": 2, "failure": 1"#), "parallel(all)");
        assert_eq!(parallel(r#""policy": "requireOne""#), "parallel(any)");
        assert_eq!(parallel(r#""success": 1"#), "parallel(any)");
        assert_eq!(
            parallel(r#""success": 1, "failure": 1"#),
            "parallel(success = 1, failure = 1)"
        );
    }

    #[test]
    fn code_reads_as_code() {
        let inline = r#"{"type": "inline", "code": "|c| c.hp < 10"}"#;
        assert_eq!(
            label(&format!(r#"{{"type": "condition", "condition": {inline}}}"#)),
            "cond(|c| c.hp < 10)"
        );
        assert_eq!(
            label(&format!(r#"{{"type": "action", "action": {inline}}}"#)),
            "act(|c| c.hp < 10)"
        );
        assert_eq!(
            label(r#"{"type": "action", "action": {"type": "Patrol", "code": "Patrol::new(3)"}}"#),
            "Patrol::new(3)"
        );
        // A parameter named `code` that is not the leaf's own code stays a parameter.
        assert_eq!(
            label(r#"{"type": "action", "action": {"type": "Unlock", "code": "1234"}}"#),
            r#"Unlock(code: "1234")"#
        );
    }

    #[test]
    fn loop_labels_come_first_and_jump_targets_after() {
        let tree =
            Node::parse(r#"{"type": "loop", "label": "outer", "child": {"type": "break", "label": "outer"}}"#).unwrap();
        assert_eq!(tree.label(), "'outer: loop");
        assert_eq!(tree.children[0].label(), "break 'outer");
    }
}

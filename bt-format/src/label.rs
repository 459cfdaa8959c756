//! The short label a node shows in node tables and traces.

use crate::model::{Leaf, Node, Params, Policy};
use bt_runtime::NodeKind;

impl Node {
    /// The label a node shows in the node table and traces (`wait(1.0)`,
    /// `dialogue(dialogueId: "x")`, `loop 'outer`): the same for a tree the
    /// interpreter loads and one `behave!` compiles from JSON. A leaf's
    /// parameters show wherever it is (a condition, a `forEach` list, a
    /// `match` value), as the editor shows them; a `waitUntil` reads
    /// `wait_until(Cond)`, as in `behave!`, so that a test's stand-in
    /// selector finds it in either form.
    pub fn label(&self) -> String {
        let name = self.kind.json_name();
        let base = match &self.params {
            Params::Leaf(l) if self.kind == NodeKind::WaitUntil => {
                format!("{}({})", NodeKind::WaitUntil.dsl_name(), leaf_label(l))
            }
            Params::Leaf(l) => leaf_label(l),
            Params::Count(c) => format!("{name}({c})"),
            Params::Seconds(s) => format!("{name}({s:?})"),
            Params::Subtree(id) => format!("subtree({id})"),
            Params::Parallel(Policy::RequireAll) => "parallel(requireAll)".into(),
            Params::Parallel(Policy::RequireOne) => "parallel(requireOne)".into(),
            Params::Parallel(Policy::Thresholds { success, failure }) => {
                let mut parts = Vec::new();
                if let Some(s) = success {
                    parts.push(format!("success = {s}"));
                }
                if let Some(f) = failure {
                    parts.push(format!("failure = {f}"));
                }
                format!("parallel({})", parts.join(", "))
            }
            Params::Weights(w) => {
                let w: Vec<String> = w.iter().map(ToString::to_string).collect();
                format!("weighted({})", w.join(", "))
            }
            Params::Match { value, .. } => format!("{name}({})", leaf_label(value)),
            Params::ForEach { items, max } => format!("{name}({}, max {max})", leaf_label(items)),
            _ => name.to_string(),
        };
        match &self.label {
            Some(l) => format!("{base} '{l}"),
            None => base,
        }
    }
}

/// A leaf's type and its parameters: `Chase`, `MoveTo(x: 3, y: 4)`.
fn leaf_label(leaf: &Leaf) -> String {
    if leaf.params.is_empty() {
        return leaf.type_name.clone();
    }
    let params: Vec<String> = leaf.params.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!("{}({})", leaf.type_name, params.join(", "))
}

#[cfg(test)]
mod tests {
    use crate::model::Node;

    fn label(json: &str) -> String {
        Node::parse(json).unwrap().label()
    }

    #[test]
    fn a_leaf_shows_its_parameters_wherever_it_is() {
        let child = r#""child": {"type": "success"}"#;
        assert_eq!(
            label(r#"{"type": "action", "action": {"type": "MoveTo", "x": 3}}"#),
            "MoveTo(x: 3)"
        );
        assert_eq!(
            label(&format!(
                r#"{{"type": "forEach", "items": {{"type": "Near", "radius": 2.5}}, "max": 4, {child}}}"#
            )),
            "forEach(Near(radius: 2.5), max 4)"
        );
        assert_eq!(
            label(&format!(r#"{{"type": "forEach", "items": "Near", "max": 4, {child}}}"#)),
            "forEach(Near, max 4)"
        );
        assert_eq!(
            label(
                r#"{"type": "match", "value": {"type": "Mood", "of": "dog"}, "cases": [{"when": 1, "child": {"type": "success"}}], "default": {"type": "failure"}}"#
            ),
            r#"match(Mood(of: "dog"))"#
        );
    }

    #[test]
    fn a_wait_until_reads_as_in_behave() {
        assert_eq!(
            label(r#"{"type": "waitUntil", "condition": "Supplied"}"#),
            "wait_until(Supplied)"
        );
        assert_eq!(
            label(r#"{"type": "waitUntil", "condition": {"type": "Near", "radius": 2}}"#),
            "wait_until(Near(radius: 2))"
        );
    }
}

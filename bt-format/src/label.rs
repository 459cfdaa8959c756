//! The short label a node shows in node tables and traces.

use crate::model::{Node, Params, Policy};

impl Node {
    /// The label a node shows in the node table and traces (`wait(1.0)`,
    /// `dialogue(dialogueId: "x")`, `loop 'outer`): the same for a tree the
    /// interpreter loads and one `behave!` compiles from JSON.
    pub fn label(&self) -> String {
        let name = self.kind.json_name();
        let base = match &self.params {
            Params::Leaf(l) if l.params.is_empty() => l.type_name.clone(),
            Params::Leaf(l) => {
                let params: Vec<String> = l.params.iter().map(|(k, v)| format!("{k}: {v}")).collect();
                format!("{}({})", l.type_name, params.join(", "))
            }
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
            Params::Match { value, .. } => format!("{name}({})", value.type_name),
            Params::ForEach { items, max } => format!("{name}({}, max {max})", items.type_name),
            _ => name.to_string(),
        };
        match &self.label {
            Some(l) => format!("{base} '{l}"),
            None => base,
        }
    }
}

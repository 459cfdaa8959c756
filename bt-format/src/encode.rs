//! The writer: a checked [`Node`] back in canonical JSON form.

use behaved_runtime::catalog::{NodeKind, Slots};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use crate::model::{Hooks, Key, Leaf, Node, Params, Policy};

impl Node {
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
            Params::Utility { choice, scores } => crate::utility::encode(choice, scores, &mut m),
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
            Params::Subtree(id) => {
                m.insert("subtreeId".into(), id.as_str().into());
                if let Some(remap) = &self.remap {
                    let pairs = remap.iter().map(|(k, v)| (k.clone(), Value::String(v.clone())));
                    m.insert("remap".into(), Value::Object(pairs.collect()));
                }
            }
            Params::ForEach { items, max } => {
                m.insert("items".into(), items.to_json());
                m.insert("max".into(), (*max).into());
            }
            Params::Pick { items, max, score } => {
                m.insert("items".into(), items.to_json());
                m.insert("max".into(), (*max).into());
                m.insert("score".into(), score.to_json());
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
        match self.kind.slots() {
            // Written with their parameters above.
            Slots::Branches | Slots::Cases | Slots::None => {}
            Slots::ConditionChild => {
                m.insert("condition".into(), kids.next().unwrap_or_default());
                m.insert("child".into(), kids.next().unwrap_or_default());
            }
            Slots::Children => drop(m.insert("children".into(), Value::Array(kids.collect()))),
            Slots::Child => drop(m.insert("child".into(), kids.next().unwrap_or_default())),
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

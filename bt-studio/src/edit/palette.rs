//! The palette: the runtime's catalogue of node kinds, grouped as a
//! designer looks for them, with the fields each kind takes.

use behaved_format::model::{fields_of, is_loop};
use behaved_runtime::{Arity, NodeKind};
use serde_json::{Value, json};

/// The group a kind is listed under.
fn group(kind: NodeKind) -> &'static str {
    use NodeKind as K;
    match kind {
        K::Condition | K::Action | K::Subtree | K::Success | K::Failure | K::Running => "leaves",
        K::Wait | K::WaitUntil | K::Timeout | K::Delay | K::Cooldown => "timing",
        K::Break | K::Continue => "loops",
        k if is_loop(k) => "loops",
        k if k.arity() == Arity::Many || k.arity() == Arity::Branches => "composites",
        _ => "decorators",
    }
}

/// Every kind of the catalogue: `{"type", "dsl", "group", "arity", "fields"}`.
pub fn palette() -> Value {
    let kinds: Vec<Value> = NodeKind::ALL
        .iter()
        .map(|&k| {
            let arity = match k.arity() {
                Arity::Leaf => "leaf",
                Arity::One => "one",
                Arity::Many => "many",
                Arity::Branches => "branches",
            };
            json!({ "type": k.json_name(), "dsl": k.dsl_name(), "group": group(k), "arity": arity, "fields": fields_of(k) })
        })
        .collect();
    json!({ "groups": ["composites", "decorators", "loops", "timing", "leaves"], "kinds": kinds })
}

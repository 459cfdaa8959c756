//! The palette: the runtime's catalogue of node kinds, as the editor and the
//! viewer read it (`/api/catalogue`, and the editor's open document): the
//! group each kind is listed under, its fields, its icon and where its
//! children sit. The pages keep no list of kinds of their own.

use behaved_runtime::catalog::{Group, Slots};
use behaved_runtime::{Arity, NodeKind};
use serde_json::{Value, json};

/// Every kind of the catalogue: `{"type", "dsl", "summary", "group",
/// "arity", "fields", "icon", "slots", "loop"}`, the groups in the order they are shown, and
/// `utility`'s response curves with their parameters (`{"name", "params"}`).
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
            let slots = match k.slots() {
                Slots::None => "none",
                Slots::Child => "child",
                Slots::Children => "children",
                Slots::ConditionChild => "conditionChild",
                Slots::Branches => "branches",
                Slots::Cases => "cases",
            };
            json!({
                "type": k.json_name(),
                "dsl": k.dsl_name(),
                "summary": k.summary(),
                "group": k.group().name(),
                "arity": arity,
                "fields": k.fields(),
                "icon": k.icon(),
                "slots": slots,
                "loop": k.is_loop(),
            })
        })
        .collect();
    let groups: Vec<&str> = Group::ALL.iter().map(|g| g.name()).collect();
    // `utility`'s response curves and their parameters, for the editor's curve editor.
    let curves: Vec<Value> = behaved_runtime::utility::CURVES
        .iter()
        .map(|(name, params)| json!({ "name": name, "params": params }))
        .collect();
    json!({ "groups": groups, "kinds": kinds, "curves": curves })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_listed_with_its_facts() {
        let p = palette();
        let kinds = p["kinds"].as_array().unwrap();
        assert_eq!(kinds.len(), NodeKind::ALL.len());
        let find = |t: &str| kinds.iter().find(|k| k["type"] == t).unwrap();
        assert_eq!(find("while")["slots"], "conditionChild");
        assert_eq!(find("while")["group"], "loops");
        assert_eq!(find("while")["loop"], true);
        assert_eq!(find("sequence")["icon"], "→");
        assert_eq!(find("abortIf")["summary"], NodeKind::AbortIf.summary());
        assert_eq!(find("break")["group"], "loops");
        assert_eq!(find("break")["loop"], false);
        assert_eq!(find("waitUntil")["group"], "timing");
        assert_eq!(
            p["groups"],
            json!(["composites", "decorators", "loops", "timing", "leaves"])
        );
    }
}

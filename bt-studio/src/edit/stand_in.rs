//! Stand-in leaves: the editor has no game code, so it loads trees with a
//! [`Registry`] whose leaves stand in for the game's. With a leaf manifest
//! they accept exactly the registered names and check each parameter
//! against its declared type; without one, every leaf name the document uses
//! is accepted with any parameters. In a preview each stand-in returns what
//! the same leaf returned in a recording ([`Script`]). A recording does not
//! keep a `forEach` list's items, so a stand-in list has none (the preview
//! says so at the loop). A consideration stands in scoring 1, with any
//! parameters: the manifest's, or without one every consideration the
//! document's scores name (a `utility`'s or a `pick`'s).

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::Arc;

use behaved_format::messages::did_you_mean;
use behaved_interp::{KeyRef, Manifest, MatchValue, Param, ParamType, Registry};
use behaved_observe::{Event, Trace};
use behaved_runtime::{Action, Condition, ItemList, NodeKind, Status};
use serde_json::{Map, Value};

/// What the stand-ins of a preview return: the recorded results of each
/// leaf (by its label, the leaf's name and parameters) in order of
/// occurrence, and for the others the result the user picked.
#[derive(Debug, Default)]
pub struct Script {
    state: RefCell<ScriptState>,
}

#[derive(Debug, Default)]
struct ScriptState {
    recorded: HashMap<String, VecDeque<Status>>,
    picks: BTreeMap<String, Status>,
    unknown: BTreeSet<String>,
}

impl Script {
    /// The results of every condition and action leaf in `trace`, with
    /// `picks` for leaves the recording has no (more) results for.
    pub fn new(trace: &Trace, picks: BTreeMap<String, Status>) -> Script {
        let mut recorded: HashMap<String, VecDeque<Status>> = HashMap::new();
        for event in &trace.events {
            if let Event::Ticked { node, status } = *event
                && let Some(row) = trace.nodes.get(node.0 as usize)
                && matches!(row.kind, NodeKind::Condition | NodeKind::Action)
            {
                recorded.entry(row.label.clone()).or_default().push_back(status);
            }
        }
        Script {
            state: RefCell::new(ScriptState {
                recorded,
                picks,
                unknown: BTreeSet::new(),
            }),
        }
    }

    /// The next result of leaf `key`.
    fn next(&self, key: &str) -> Status {
        let mut s = self.state.borrow_mut();
        if let Some(status) = s.recorded.get_mut(key).and_then(VecDeque::pop_front) {
            return status;
        }
        s.unknown.insert(key.to_string());
        s.picks.get(key).copied().unwrap_or(Status::Failure)
    }

    /// The leaves that ran without a recorded result.
    pub fn unknown(&self) -> BTreeSet<String> {
        self.state.borrow().unknown.clone()
    }
}

/// A stand-in leaf: its key is its label, as in a trace's node table.
#[derive(Debug, Clone)]
struct StandIn {
    key: Arc<str>,
}

impl Condition<Script> for StandIn {
    fn check(&self, script: &Script) -> bool {
        script.next(&self.key) == Status::Success
    }
}

impl Action<Script> for StandIn {
    fn tick(&mut self, script: &mut Script) -> Status {
        script.next(&self.key)
    }
}

/// A stand-in `match` value: no recording says what it was, so previews
/// take the `default` arm.
struct NoValue;

impl MatchValue<Script> for NoValue {
    fn get<'c>(&self, _: &'c Script) -> KeyRef<'c> {
        KeyRef::Str("\u{0}no recorded value")
    }
}

/// A stand-in `forEach` list: no recording keeps the items a list held, so
/// it has none (checked against the manifest's parameters like a leaf).
struct NoItems;

impl ItemList<Script> for NoItems {
    type Item = ();
    fn items<'c>(&'c self, _: &'c Script) -> impl Iterator<Item = ()> + 'c {
        std::iter::empty()
    }
    fn select(&self, _: &mut Script, _: &()) {}
}

/// A stand-in consideration: no recording keeps what a consideration read,
/// so every one scores 1 (in a preview, a `utility` runs its first child).
struct Even;

impl behaved_runtime::utility::Consideration<Script> for Even {
    fn score(&self, _: &Script) -> f32 {
        1.0
    }
}

/// A leaf's label in node tables and traces: `name` or `name(k: v, ..)`
/// (as `behaved_format`'s `Node::label` writes it).
pub fn leaf_label(name: &str, params: &Map<String, Value>) -> String {
    if params.is_empty() {
        return name.to_string();
    }
    let params: Vec<String> = params.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!("{name}({})", params.join(", "))
}

/// Checks `given` against the manifest's `params`: unknown fields (with a
/// did-you-mean), missing required ones and values of the wrong type.
fn check_params(params: &[Param], given: &Map<String, Value>) -> Result<(), String> {
    for (key, value) in given {
        let Some(p) = params.iter().find(|p| &p.name == key) else {
            let names = params.iter().map(|p| p.name.as_str());
            let hint = did_you_mean(key, names.clone());
            let known: Vec<String> = names.map(|n| format!("{n:?}")).collect();
            return Err(match (hint.is_empty(), known.is_empty()) {
                (false, _) => format!("unknown parameter {key:?}{hint}"),
                (true, true) => format!("unknown parameter {key:?}; this leaf takes none"),
                (true, false) => format!("unknown parameter {key:?}; expected one of {}", known.join(", ")),
            });
        };
        if !(fits(&p.ty, value) || (!p.required && value.is_null())) {
            return Err(format!(
                "parameter {key:?} should be {}, found {value}",
                described(&p.ty)
            ));
        }
    }
    match params.iter().find(|p| p.required && !given.contains_key(&p.name)) {
        Some(missing) => Err(format!(
            "missing parameter {:?} ({})",
            missing.name,
            described(&missing.ty)
        )),
        None => Ok(()),
    }
}

/// Whether `value` is of type `ty`.
fn fits(ty: &ParamType, value: &Value) -> bool {
    match ty {
        ParamType::String => value.is_string(),
        ParamType::Boolean => value.is_boolean(),
        ParamType::Integer { minimum } => {
            value.as_i64().is_some_and(|v| minimum.is_none_or(|m| v >= m)) || value.is_u64()
        }
        ParamType::Number => value.is_number(),
        ParamType::Choice { values } => value.as_str().is_some_and(|v| values.iter().any(|c| c == v)),
        ParamType::List { items } => value.as_array().is_some_and(|a| a.iter().all(|v| fits(items, v))),
        ParamType::Object => value.is_object(),
        ParamType::Any => true,
    }
}

/// `ty` in words, for messages.
fn described(ty: &ParamType) -> String {
    match ty {
        ParamType::String => "a string".into(),
        ParamType::Boolean => "true or false".into(),
        ParamType::Integer { minimum: Some(m) } => format!("an integer of at least {m}"),
        ParamType::Integer { minimum: None } => "an integer".into(),
        ParamType::Number => "a number".into(),
        ParamType::Choice { values } => {
            let v: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
            format!("one of {}", v.join(", "))
        }
        ParamType::List { items } => format!("a list of {}", described(items)),
        ParamType::Object => "an object".into(),
        ParamType::Any => "any value".into(),
    }
}

/// A stand-in constructor for leaf `name` with the manifest's `params` (`None`: any).
fn make(name: &str, params: Option<Vec<Param>>) -> impl Fn(Map<String, Value>) -> Result<StandIn, String> + use<> {
    let name = name.to_string();
    move |given: Map<String, Value>| {
        if let Some(params) = &params {
            check_params(params, &given)?;
        }
        Ok(StandIn {
            key: leaf_label(&name, &given).into(),
        })
    }
}

/// The stand-in registry: the manifest's leaves, or else every leaf name `doc` uses.
pub fn registry(manifest: Option<&Manifest>, doc: &Value) -> Registry<Script> {
    let mut r = Registry::new();
    let owned;
    let manifest = match manifest {
        Some(m) => m,
        None => {
            owned = names_in(doc);
            &owned
        }
    };
    for (name, leaf) in &manifest.conditions {
        r.try_condition(name, make(name, leaf.params.clone()));
    }
    for (name, leaf) in &manifest.actions {
        r.try_action(name, make(name, leaf.params.clone()));
    }
    for name in manifest.values.keys() {
        r.value(name, |_: Map<String, Value>| NoValue);
    }
    for (name, list) in &manifest.lists {
        let check = make(name, list.params.clone());
        r.try_list(name, move |given: Map<String, Value>| check(given).map(|_| NoItems));
    }
    for name in manifest.considerations.keys() {
        r.consideration(name, |_: Map<String, Value>| Even);
    }
    r
}

/// The names of the considerations that the scores in `v` name (`"consider"`),
/// but `inline` (code written by `Tree::JSON`, which no registry runs).
fn considerations_in(v: &Value, names: &mut BTreeSet<String>) {
    match v {
        Value::Object(o) => {
            for (key, value) in o {
                let name = match value {
                    Value::String(s) => Some(s.as_str()),
                    Value::Object(leaf) => leaf.get("type").and_then(Value::as_str),
                    _ => None,
                };
                match name {
                    Some(name) if key == "consider" && name != "inline" => drop(names.insert(name.to_string())),
                    _ => considerations_in(value, names),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| considerations_in(v, names)),
        _ => {}
    }
}

/// A manifest of every leaf name in `doc`, with any parameters.
fn names_in(doc: &Value) -> Manifest {
    let mut m = Manifest::new();
    collect(doc, &mut m);
    let mut considerations = BTreeSet::new();
    considerations_in(doc, &mut considerations);
    for name in considerations {
        m.considerations.insert(name, behaved_interp::LeafDoc { params: None });
    }
    m
}

/// Adds the leaves of the nodes in `v` to `m`.
fn collect(v: &Value, m: &mut Manifest) {
    let any = || behaved_interp::LeafDoc { params: None };
    let name_of = |leaf: &Value| match leaf {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o.get("type").and_then(Value::as_str).map(str::to_string),
        _ => None,
    };
    match v {
        Value::Object(o) => {
            let kind = o.get("type").and_then(Value::as_str).unwrap_or("");
            for (key, value) in o {
                let family = match (kind, key.as_str()) {
                    ("condition" | "waitUntil", "condition") => Some(&mut m.conditions),
                    ("action", "action")
                    | (_, "onEnter" | "onSuccess" | "onFailure" | "onExit" | "onPreTick" | "onTick" | "onReset") => {
                        Some(&mut m.actions)
                    }
                    ("match" | "reactiveMatch", "value") => Some(&mut m.values),
                    _ => None,
                };
                if matches!((kind, key.as_str()), ("forEach" | "pick", "items"))
                    && let Some(name) = name_of(value)
                {
                    let any = behaved_interp::ListDoc {
                        params: None,
                        item: None,
                    };
                    m.lists.insert(name, any);
                    continue;
                }
                match family.zip(name_of(value)) {
                    Some((family, name)) => drop(family.insert(name, any())),
                    None => collect(value, m),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| collect(v, m)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn manifest() -> Manifest {
        serde_json::from_value(json!({"format": "bt-leaves", "version": 1,
            "conditions": {"timeOfDay": {"params": [{"name": "value", "type": "string", "required": true}]}},
            "actions": {"wander": {"params": [
                {"name": "radius", "type": "number", "required": true},
                {"name": "gait", "type": "choice", "values": ["walk", "run"], "required": false}]}},
            "values": {}}))
        .unwrap()
    }

    fn problems(doc: Value, manifest: Option<&Manifest>) -> Vec<String> {
        match registry(manifest, &doc).load(&doc.to_string()) {
            Ok(_) => vec![],
            Err(e) => e.messages(),
        }
    }

    #[test]
    fn the_manifest_decides_names_and_parameters() {
        let m = manifest();
        let tree = |leaf: Value| json!({"type": "sequence", "children": [leaf]});
        let ok = tree(json!({"type": "action", "action": {"type": "wander", "radius": 2.5}}));
        assert_eq!(problems(ok, Some(&m)), Vec::<String>::new());
        let typo = tree(json!({"type": "action", "action": {"type": "wander", "radius": 1, "giat": "run"}}));
        assert_eq!(
            problems(typo, Some(&m)),
            [
                "at `children[0].action`: bad parameters for action \"wander\": unknown parameter \"giat\"; did you mean \"gait\"?"
            ]
        );
        let wrong = tree(json!({"type": "condition", "condition": {"type": "timeOfDay", "value": 3}}));
        assert_eq!(
            problems(wrong, Some(&m)),
            [
                "at `children[0].condition`: bad parameters for condition \"timeOfDay\": parameter \"value\" should be a string, found 3"
            ]
        );
        let unknown = tree(json!({"type": "condition", "condition": {"type": "timeOfDy", "value": "x"}}));
        assert_eq!(
            problems(unknown, Some(&m)),
            ["at `children[0].condition`: unknown condition type \"timeOfDy\"; did you mean \"timeOfDay\"?"]
        );
    }

    #[test]
    fn without_a_manifest_every_leaf_of_the_document_is_accepted() {
        let doc = json!({"type": "sequence", "onEnter": "greet", "children": [
            {"type": "condition", "condition": {"type": "seen", "anything": [1]}},
            {"type": "while", "condition": {"type": "condition", "condition": "awake"}, "child": {"type": "action", "action": "walk"}},
            {"type": "waitUntil", "condition": "arrived"}]});
        assert_eq!(problems(doc, None), Vec::<String>::new());
    }

    #[test]
    fn considerations_stand_in_from_the_manifest_or_else_from_the_document() {
        let scored = |items: &str| {
            json!({"type": "sequence", "children": [
                {"type": "utility", "scores": [{"consider": "hunger"}, {"all": [{"consider": {"type": "near", "within": 2}}]}],
                 "children": [{"type": "success"}, {"type": "failure"}]},
                {"type": "pick", "items": items, "max": 4, "score": {"consider": "health", "curve": {"curve": "linear", "slope": 1, "intercept": 0}},
                 "child": {"type": "success"}}]})
        };
        assert_eq!(problems(scored("targets"), None), Vec::<String>::new());
        let mut m = manifest();
        m.lists.insert(
            "targets".into(),
            behaved_interp::ListDoc {
                params: None,
                item: None,
            },
        );
        // With a manifest, its considerations: a name it lacks is the loader's error.
        let missing = problems(scored("targets"), Some(&m));
        assert_eq!(missing.len(), 3, "{missing:?}");
        assert!(
            missing[0].contains("unknown consideration type \"hunger\""),
            "{missing:?}"
        );
        for name in ["hunger", "near", "health"] {
            m.considerations
                .insert(name.into(), behaved_interp::LeafDoc { params: None });
        }
        assert_eq!(problems(scored("targets"), Some(&m)), Vec::<String>::new());
        assert_eq!(
            problems(scored("targts"), Some(&m)),
            ["at `children[1].items`: unknown list type \"targts\"; did you mean \"targets\"?"],
            "a pick's list is the manifest's"
        );
        let inline = json!({"type": "pick", "items": "targets", "max": 4,
                            "score": {"consider": {"type": "inline", "code": "|c| 1.0"}}, "child": {"type": "success"}});
        assert_eq!(
            problems(inline, Some(&m)).len(),
            1,
            "an inline consideration does not stand in"
        );
    }
}

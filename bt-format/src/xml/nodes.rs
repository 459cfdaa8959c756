//! The nodes of a `<BehaviorTree>`: each BT.CPP element as the JSON form of
//! one of our nodes (SEMANTICS.md, "BehaviorTree.CPP XML"), or a problem at
//! its line and column.

use std::collections::HashMap;

use roxmltree::Node as XNode;
use serde_json::{Map, Value, json};

use super::builtins::{Builtin, builtin, underscore_refusal};
use super::ports::{blackboard_key, count, is_blackboard, millis, port_value};
use super::read::{Read, in_file};
use super::scopes::SubtreeUse;
use super::{LeafKind, PortType};
use crate::decode::LeafFamily;
use crate::document::{deep, shown, too_deep};
use crate::error::Problem;
use crate::error::path;
use behaved_runtime::NodeKind;

/// BT.CPP v4's `_description` attribute, a comment on any node: read and
/// left out of the tree (it changes nothing a node does).
const DESCRIPTION: &str = "_description";

impl Read<'_, '_> {
    /// The JSON form of the element `el` at JSON path `at`, `depth` levels
    /// below its tree's root; `None` after a problem.
    pub(super) fn node(&mut self, el: XNode<'_, '_>, at: &str, depth: usize) -> Option<Value> {
        let pos = el.range().start;
        self.place(at, pos);
        if depth > self.options.max_depth {
            self.problem(at, pos, too_deep(self.options.max_depth));
            return None;
        }
        let tag = el.tag_name().name();
        let explicit = matches!(tag, "Action" | "Condition" | "Control" | "Decorator" | "SubTree");
        let id = el.attribute("ID");
        let name = match (explicit, id) {
            (true, Some(id)) => id,
            (true, None) => {
                self.problem(at, pos, format!("`<{tag}>` needs an `ID`"));
                return None;
            }
            (false, Some(_)) => {
                self.problem(at, pos, format!("`<{tag}>` takes no `ID`: only `<Action>`, `<Condition>`, `<Control>`, `<Decorator>` and `<SubTree>` do"));
                return None;
            }
            (false, None) => tag,
        };
        for text in el.children().filter(|c| c.is_text()) {
            if !text.text().unwrap_or("").trim().is_empty() {
                self.problem(at, text.range().start, format!("unexpected text in `<{tag}>`"));
            }
        }
        let mut out = Map::new();
        if let Some(n) = el.attribute("name") {
            out.insert("name".into(), n.into());
        }
        if tag == "SubTree" {
            return self.subtree(el, at, name, out);
        }
        match builtin(name) {
            Some(Builtin::Refused(why)) => {
                self.problem(at, pos, format!("`{name}` has no counterpart: {why}"));
                None
            }
            Some(Builtin::Ours(kind, ports)) => {
                let mut attrs = HashMap::new();
                for a in el.attributes() {
                    match a.name() {
                        "ID" | "name" | DESCRIPTION => {}
                        n if n.starts_with('_') => self.problem(at, a.range().start, underscore_refusal(n)),
                        n if ports.contains(&n) => {
                            // A blackboard port is refused here, and kept so that it is not also missing.
                            attrs.insert(n, (a.value(), a.range().start));
                            if is_blackboard(a.value()) {
                                self.problem(
                                    at,
                                    a.range().start,
                                    format!(
                                        "the port `{n}` of `{name}` is the blackboard entry {}: ours are fixed when the tree loads; write the value",
                                        shown(a.value().trim())
                                    ),
                                );
                            }
                        }
                        n => self.problem(
                            at,
                            a.range().start,
                            format!("`{name}` has no port `{n}`{}", expected_ports(ports)),
                        ),
                    }
                }
                let kids: Vec<XNode<'_, '_>> = el.children().filter(XNode::is_element).collect();
                deep(|| self.ours(kind, name, &attrs, &kids, at, pos, depth, out))
            }
            None if matches!(tag, "Control" | "Decorator") => {
                self.problem(
                    at,
                    pos,
                    format!(
                        "`{name}` is a user's {} node, which has no counterpart; write it with our nodes",
                        tag.to_lowercase()
                    ),
                );
                None
            }
            None => self.leaf(el, at, name, tag, out),
        }
    }

    /// A `<SubTree ID=..>`: our `subtree`. Its ports remap the subtree's
    /// blackboard entries: an entry to itself (`goal="{goal}"`, `goal="{=}"`)
    /// needs nothing; to another entry (`goal="{target}"`) is the node's
    /// `"remap"`; a value is refused. Which entries the subtree needs
    /// remapped is checked once every tree is read ([`super::scopes`]).
    fn subtree(&mut self, el: XNode<'_, '_>, at: &str, id: &str, mut out: Map<String, Value>) -> Option<Value> {
        let mut ok = true;
        let mut remap = Map::new();
        let mut used = SubtreeUse {
            at: at.to_string(),
            id: id.to_string(),
            autoremap: false,
            remapped: Default::default(),
        };
        for a in el.attributes() {
            let (n, text) = (a.name(), a.value());
            match n {
                "ID" | "name" | DESCRIPTION => {}
                "_autoremap" if matches!(text, "true" | "false") => used.autoremap = text == "true",
                n if n.starts_with('_') => {
                    ok = false;
                    self.problem(at, a.range().start, underscore_refusal(n));
                }
                n => match is_blackboard(text).then(|| blackboard_key(n, text)) {
                    Some(Ok(key)) => {
                        if key != n {
                            remap.insert(n.to_string(), Value::String(key));
                        }
                        used.remapped.insert(n.to_string());
                    }
                    Some(Err(why)) => {
                        ok = false;
                        self.problem(at, a.range().start, why);
                    }
                    None => {
                        ok = false;
                        self.problem(
                            at,
                            a.range().start,
                            format!(
                                "the `SubTree` port `{n}` is {}: a value for the subtree's own blackboard entry, which ours does not have; give the subtree's leaves their values, or remap the entry (`{n}=\"{{{n}}}\"`)",
                                shown(text)
                            ),
                        );
                    }
                },
            }
        }
        if el.children().any(|c| c.is_element()) {
            self.problem(at, el.range().start, "a `<SubTree>` has no children");
            return None;
        }
        if ok {
            self.subtree_uses.push(used);
        }
        out.insert("type".into(), "subtree".into());
        out.insert("subtreeId".into(), id.into());
        if !remap.is_empty() {
            out.insert("remap".into(), Value::Object(remap));
        }
        ok.then_some(Value::Object(out))
    }

    /// A user's leaf: an action or a condition with its ports as parameters.
    fn leaf(
        &mut self,
        el: XNode<'_, '_>,
        at: &str,
        name: &str,
        tag: &str,
        mut out: Map<String, Value>,
    ) -> Option<Value> {
        let pos = el.range().start;
        let known = self.options.leaves.and_then(|f| f(name));
        let kind = match tag {
            "Action" => Some(LeafKind::Action),
            "Condition" => Some(LeafKind::Condition),
            _ => (self.models.get(name).map(|m| m.0)).or(known.as_ref().map(|m| m.kind)),
        };
        let Some(kind) = kind else {
            self.problem(
                at,
                pos,
                format!(
                    "{} is neither a BT.CPP built-in nor a known leaf: write `<Action ID={}/>` or `<Condition ID={}/>`, or declare it in `<TreeNodesModel>`",
                    shown(name),
                    shown(name),
                    shown(name)
                ),
            );
            return None;
        };
        if el.children().any(|c| c.is_element()) {
            self.problem(at, pos, format!("the leaf {} has children", shown(name)));
            return None;
        }
        let field = match kind {
            LeafKind::Action => "action",
            LeafKind::Condition => "condition",
        };
        let leaf_at = path::field(at, field);
        let family = match kind {
            LeafKind::Action => LeafFamily::Action,
            LeafKind::Condition => LeafFamily::Condition,
        };
        if let Some(message) = self.options.check.and_then(|check| check(family, name)) {
            // Reported only beside other problems: alone, the loader reports it.
            let mut p = Problem::new(path::field(&leaf_at, "type"), in_file(self.file.as_deref(), message));
            p.location = Some(self.cursor.location(pos));
            self.unknown.push(p);
        }
        let mut leaf = Map::new();
        leaf.insert("type".into(), name.into());
        let mut ok = true;
        for a in el.attributes() {
            let (n, text, apos) = (a.name(), a.value(), a.range().start);
            match n {
                "ID" | "name" | DESCRIPTION => continue,
                _ if n.starts_with('_') => {
                    ok = false;
                    self.problem(at, apos, underscore_refusal(n));
                    continue;
                }
                "type" => {
                    ok = false;
                    self.problem(
                        at,
                        apos,
                        "a port named `type` cannot be a leaf's parameter (our leaves' `type` is their name)",
                    );
                    continue;
                }
                _ => {}
            }
            let param_at = path::field(&leaf_at, n);
            if is_blackboard(text) {
                self.place(&param_at, apos);
                match blackboard_key(n, text) {
                    Ok(key) => drop(leaf.insert(n.to_string(), crate::port::entry_value(&key))),
                    Err(why) => {
                        ok = false;
                        self.problem(&param_at, apos, why);
                    }
                }
                continue;
            }
            let ty = known
                .as_ref()
                .and_then(|m| m.port(n))
                .or_else(|| self.models.get(name).and_then(|m| m.1.get(n).copied()))
                .unwrap_or(PortType::String);
            self.place(&param_at, apos);
            match port_value(text, ty) {
                Ok(v) => drop(leaf.insert(n.to_string(), v)),
                Err(why) => {
                    ok = false;
                    self.problem(&param_at, apos, format!("the port `{n}` of {}: {why}", shown(name)));
                }
            }
        }
        out.insert("type".into(), field.into());
        out.insert(field.into(), Value::Object(leaf));
        ok.then_some(Value::Object(out))
    }

    /// One of our kinds from a BT.CPP built-in with its ports' text (and
    /// their positions) and its children.
    #[allow(clippy::too_many_arguments)]
    fn ours(
        &mut self,
        kind: NodeKind,
        name: &str,
        attrs: &HashMap<&str, (&str, usize)>,
        kids: &[XNode<'_, '_>],
        at: &str,
        pos: usize,
        depth: usize,
        mut out: Map<String, Value>,
    ) -> Option<Value> {
        out.insert("type".into(), kind.json_name().into());
        let arity = match kind {
            NodeKind::If | NodeKind::ReactiveIf => (2, 3),
            k if k.arity() == behaved_runtime::Arity::Leaf => (0, 0),
            k if k.arity() == behaved_runtime::Arity::One => (1, 1),
            _ => (1, usize::MAX),
        };
        if kids.len() < arity.0 || kids.len() > arity.1 {
            let want = match arity {
                (0, 0) => "no children".to_string(),
                (1, 1) => "exactly one child".to_string(),
                (2, 3) => "two or three children (a condition, then, else)".to_string(),
                _ => "at least one child".to_string(),
            };
            self.problem(at, pos, format!("`{name}` takes {want}, found {}", kids.len()));
            return None;
        }
        let mut ok = true;
        let ms = |least: u64| move |t: &str| millis(t, least).map(|ms| json!(ms as f64 / 1000.0));
        let positive = |t: &str| match count(t)? {
            n if n >= 1 && n <= i64::from(u32::MAX) => Ok(json!(n)),
            n => Err(format!(
                "must be a positive count, found {n}: BT.CPP's -1 (forever) and 0 have no counterpart"
            )),
        };
        // The port a kind needs, the JSON field it becomes, and how it is read.
        type Parse<'p> = Box<dyn Fn(&str) -> Result<Value, String> + 'p>;
        let needed: Option<(&str, &str, Parse<'_>)> = match kind {
            NodeKind::Repeat => Some(("num_cycles", "count", Box::new(positive))),
            NodeKind::Retry => Some(("num_attempts", "count", Box::new(positive))),
            NodeKind::Timeout | NodeKind::Delay | NodeKind::Wait => {
                let why = match kind {
                    NodeKind::Timeout => "0 (BT.CPP then never times out)",
                    NodeKind::Delay => "0 (BT.CPP's timer then races the first tick)",
                    _ => "0 (BT.CPP then succeeds at once: write `AlwaysSuccess`)",
                };
                let parse = ms(1);
                let parse = move |t: &str| {
                    parse(t).map_err(|e| {
                        if e.starts_with("must be") {
                            format!("{e}; {why} has no counterpart")
                        } else {
                            e
                        }
                    })
                };
                let p = if kind == NodeKind::Delay { "delay_msec" } else { "msec" };
                Some((p, "seconds", Box::new(parse)))
            }
            _ => None,
        };
        if let Some((p, field, parse)) = needed {
            match self.port(attrs, p, at, field, name, &parse) {
                Some(Ok(v)) => drop(out.insert(field.into(), v)),
                Some(Err(())) => ok = false,
                None => {
                    ok = false;
                    self.problem(at, pos, format!("`{name}` needs `{p}`"));
                }
            }
        }
        match kind {
            NodeKind::RunOnce => {
                let skip = attrs.get("then_skip").map(|(t, apos)| (t.trim(), *apos));
                if !matches!(skip, Some(("false", _))) {
                    ok = false;
                    let apos = skip.map_or(pos, |(_, p)| p);
                    self.problem(
                        at,
                        apos,
                        "`RunOnce` returns SKIPPED after its first run unless `then_skip=\"false\"`, and SKIPPED has no counterpart; write `then_skip=\"false\"` to keep returning the first status",
                    );
                }
            }
            NodeKind::Parallel => match self.parallel(attrs, kids.len(), at, name) {
                Some(fields) => out.extend(fields),
                None => ok = false,
            },
            _ => {}
        }
        let mut children = Vec::with_capacity(kids.len());
        let child_at = |i: usize| match kind {
            NodeKind::If | NodeKind::ReactiveIf => match i {
                0 => path::field(&path::index(&path::field(at, "branches"), 0), "if"),
                1 => path::field(&path::index(&path::field(at, "branches"), 0), "then"),
                _ => path::field(at, "else"),
            },
            k if k.arity() == behaved_runtime::Arity::One => path::field(at, "child"),
            _ => path::index(&path::field(at, "children"), i),
        };
        for (i, kid) in kids.iter().enumerate() {
            match self.node(*kid, &child_at(i), depth + 1) {
                Some(v) => children.push(v),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        match kind {
            NodeKind::If | NodeKind::ReactiveIf => {
                if children[0].get("type").and_then(Value::as_str) != Some("condition") {
                    self.problem(
                        &child_at(0),
                        kids[0].range().start,
                        format!("the first child of `{name}` must be a condition: ours evaluate only conditions there"),
                    );
                    return None;
                }
                let mut it = children.into_iter();
                let (cond, then) = (it.next()?, it.next()?);
                // BT.CPP fails when the condition fails and there is no third child.
                let otherwise = it.next().unwrap_or_else(|| json!({"type": "failure"}));
                out.insert("branches".into(), json!([{"if": cond, "then": then}]));
                out.insert("else".into(), otherwise);
            }
            k if k.arity() == behaved_runtime::Arity::One => {
                out.insert("child".into(), children.pop()?);
            }
            k if k.arity() == behaved_runtime::Arity::Leaf => {}
            _ => drop(out.insert("children".into(), Value::Array(children))),
        }
        Some(Value::Object(out))
    }
}

impl Read<'_, '_> {
    /// Port `port` of a built-in parsed by `parse`, placed at the JSON field
    /// `field`: `None` when absent, `Some(Err(()))` after a problem.
    fn port(
        &mut self,
        attrs: &HashMap<&str, (&str, usize)>,
        port: &str,
        at: &str,
        field: &str,
        name: &str,
        parse: &dyn Fn(&str) -> Result<Value, String>,
    ) -> Option<Result<Value, ()>> {
        let (text, apos) = attrs.get(port).copied()?;
        if is_blackboard(text) {
            return Some(Err(()));
        }
        let field_at = path::field(at, field);
        self.place(&field_at, apos);
        Some(parse(text).map_err(|why| self.problem(&field_at, apos, format!("`{port}` of `{name}`: {why}"))))
    }

    /// A `Parallel`'s fields: its policy from `success_count` and
    /// `failure_count` (BT.CPP's defaults -1, all, and 1; `-k` is `n - k + 1`).
    fn parallel(
        &mut self,
        attrs: &HashMap<&str, (&str, usize)>,
        n: usize,
        at: &str,
        name: &str,
    ) -> Option<Map<String, Value>> {
        let n = n as i64;
        let threshold = |t: &str| match count(t)? {
            -1 => Ok(Value::Null),
            k if k < 0 && n + k + 1 >= 1 => Ok(json!(n + k + 1)),
            k if k >= 1 && k <= n => Ok(json!(k)),
            k => Err(format!(
                "must be from 1 to the {n} children, or from -1 (all) to -{n}, found {k}"
            )),
        };
        let s = self.port(attrs, "success_count", at, "success", name, &threshold);
        let f = self.port(attrs, "failure_count", at, "failure", name, &threshold);
        let mut out = Map::new();
        if attrs.is_empty() {
            out.insert("policy".into(), "requireAll".into());
            return Some(out);
        }
        let s = s.unwrap_or(Ok(Value::Null)).ok()?;
        let f = f.unwrap_or(Ok(json!(1))).ok()?;
        let one = json!(1);
        if s.is_null() && f == one {
            out.insert("policy".into(), "requireAll".into());
        } else if s == one && f.is_null() {
            out.insert("policy".into(), "requireOne".into());
        } else {
            if !s.is_null() {
                out.insert("success".into(), s);
            }
            if !f.is_null() {
                out.insert("failure".into(), f);
            }
        }
        Some(out)
    }
}

/// ", expected one of `a`, `b`" for a built-in's ports, or ": it takes none".
fn expected_ports(ports: &[&str]) -> String {
    if ports.is_empty() {
        "; it takes no ports".into()
    } else {
        let list: Vec<String> = ports.iter().map(|p| format!("`{p}`")).collect();
        format!("; its ports: {}", list.join(", "))
    }
}

//! `Tree::JSON`: a tree written back in the JSON form, so DSL trees open in
//! JSON tools. The tree becomes `behaved-format`'s model and is written by that
//! model's writer, the one interpreted trees are written with, so there is
//! one JSON writer. Rust code that JSON cannot hold is kept as text: closures
//! in an `"inline"` leaf (`{"type": "inline", "code": "|c| c.hp < 10"}`),
//! patterns that are not literals as a `"when"` string, and constant
//! expressions as a string in place of a count or a duration.

use behaved_format::model::{Hooks as JsonHooks, Key, Leaf as JsonLeaf, Node as JsonNode, Params, Policy};
use quote::ToTokens;
use serde_json::{Map, Value};
use syn::Expr;

use crate::model::{Count, Duration, ForSource, Hook, Kind, Leaf, Node, Weight, thresholds, value_expr};
use crate::render::render;

/// The tree below `root` as pretty-printed JSON.
pub fn export(root: &Node) -> String {
    // The writers recurse once per level: give a deep tree the stack it needs.
    crate::depth::grow_large(|| export_here(root))
}

fn export_here(root: &Node) -> String {
    let mut code = Vec::new();
    let tree = convert(root, &mut code);
    // The writer visits the nodes in the order `convert` finished them.
    let mut code = code.into_iter();
    let json = tree.to_json_with(&mut |_, fields| {
        if let Some(Some((field, text))) = code.next() {
            fields.insert(field.into(), text.into());
        }
    });
    serde_json::to_string_pretty(&json).unwrap_or_default()
}

/// A count or duration written as a Rust expression: its JSON field and the
/// expression's text.
pub type Code = Option<(&'static str, String)>;

/// The model of `node`; pushes onto `code`, in post-order, each node's
/// parameter that the model cannot hold.
fn convert(node: &Node, code: &mut Vec<Code>) -> JsonNode {
    crate::depth::grow(|| convert_here(node, code))
}

fn convert_here(node: &Node, code: &mut Vec<Code>) -> JsonNode {
    let children: Vec<JsonNode> = node.children.iter().map(|c| convert(c, code)).collect();
    let (params, own) = params(node);
    code.push(own);
    let h = &node.hooks;
    let hook = |h: &Option<Hook>| {
        h.as_ref().map(|h| match h {
            Hook::Closure(c) => inline(text(c)),
            Hook::Action(leaf) => json_leaf(leaf),
        })
    };
    let hooks = JsonHooks {
        on_enter: hook(&h.enter),
        on_success: hook(&h.success),
        on_failure: hook(&h.failure),
        on_exit: hook(&h.exit),
        on_pre_tick: hook(&h.pre_tick),
        on_tick: hook(&h.tick),
        on_reset: hook(&h.reset),
    };
    // A checked tree fits the model: a constant's place holds a valid stand-in.
    let mut json = JsonNode::new(node.kind.catalog(), params, children).expect("a checked tree is well formed");
    if let Some(label) = loop_label(node) {
        json = json.with_loop_label(label).expect("only loops and jumps have labels");
    }
    if hooks != JsonHooks::default() {
        json = json.with_hooks(hooks);
    }
    if let Kind::Subtree { remap, .. } = &node.kind
        && !remap.is_empty()
    {
        let remap = remap.iter().map(|(k, to, _)| (k.clone(), to.clone())).collect();
        json = json.with_remap(remap).expect("a file's remap was checked when read");
    }
    json
}

/// The label of a loop, or the one a `break`/`continue` targets, as JSON writes it (`outer`).
pub fn loop_label(node: &Node) -> Option<String> {
    let label = match &node.kind {
        Kind::Break(l) | Kind::Continue(l) => l.as_ref(),
        _ => node.loop_label.as_ref(),
    };
    label.map(|l| l.ident.to_string())
}

/// The node's parameters as the JSON model holds them, and the one it
/// cannot hold (a constant count, duration, weight or `max`) as code.
pub fn params(node: &Node) -> (Params, Code) {
    let children = node.children.len();
    let mut own = None;
    let params = match &node.kind {
        Kind::Parallel { success, failure } => {
            let (s, f) = thresholds(*success, *failure, children);
            Params::Parallel(Policy::Thresholds {
                success: Some(s as u32),
                failure: Some(f as u32),
            })
        }
        Kind::Weighted(w) => {
            let literal = |w: &Weight| match w {
                Weight::Literal(v) => Some(*v),
                Weight::Const(_) => None,
            };
            if w.iter().any(|w| literal(w).is_none()) {
                let all: Vec<String> = w
                    .iter()
                    .map(|w| match w {
                        Weight::Literal(v) => v.to_string(),
                        Weight::Const(e) => text(e),
                    })
                    .collect();
                own = Some(("weights", format!("[{}]", all.join(", "))));
            }
            Params::Weights(w.iter().map(|w| literal(w).unwrap_or(1)).collect())
        }
        Kind::Utility { choose, scores, .. } => utility_params(*choose, scores),
        Kind::If { has_else, .. } => Params::Branches { has_else: *has_else },
        Kind::Match {
            param, scrutinee, arms, ..
        } => {
            let value = format!("|{}| {}", text(param), text(scrutinee));
            // The last arm is the default: it runs when no arm before it matches.
            let cases = arms[..arms.len().saturating_sub(1)].iter().map(keys).collect();
            Params::Match {
                value: inline(value),
                cases,
            }
        }
        Kind::Repeat(c) | Kind::Retry(c) | Kind::Limit(c) => match c {
            Count::Literal(n) => Params::Count(u32::try_from(*n).unwrap_or(u32::MAX)),
            Count::Expr(e) => {
                // The writer puts the expression's text in its place.
                own = Some(("count", text(e)));
                Params::Count(1)
            }
        },
        Kind::Timeout(d) | Kind::Delay(d) | Kind::Cooldown(d) | Kind::Wait(d) => match d {
            Duration::Literal(s) => Params::Seconds(*s),
            Duration::Expr(e) => {
                own = Some(("seconds", text(e)));
                Params::Seconds(0.0)
            }
        },
        Kind::Cond(leaf) | Kind::Act(leaf) | Kind::WaitUntil(leaf) => Params::Leaf(json_leaf(leaf)),
        Kind::Subtree { ty, .. } => Params::Subtree(text(ty)),
        Kind::ForEach { source, max } | Kind::Pick { source, max, .. } => {
            let source = match source {
                ForSource::Closure { var, ty, param, items } => {
                    let mut source = inline(format!("|{}| {}", text(param), text(items)));
                    source
                        .params
                        .insert("item".into(), format!("{var}: {}", text(ty)).into());
                    source
                }
                ForSource::List(leaf) => json_leaf(leaf),
            };
            let max = match max {
                Count::Literal(n) => u32::try_from(*n).unwrap_or(u32::MAX),
                Count::Expr(e) => {
                    own = Some(("max", text(e)));
                    1
                }
            };
            match &node.kind {
                // The score as an inline consideration with its code.
                // A consideration written as a path is one of that name
                // (`{"consider": "Nearest"}`), as `utility`'s; any other score its code.
                Kind::Pick { score, .. } => {
                    let score = pick_score_json(score);
                    Params::Pick {
                        items: source,
                        max,
                        score,
                    }
                }
                _ => Params::ForEach { items: source, max },
            }
        }
        _ => Params::None,
    };
    (params, own)
}

/// A `pick`'s score as data: a consideration written as a path is one of
/// that name (`{"consider": "Nearest"}`), any other score its code.
pub(crate) fn pick_score_json(score: &crate::model::PickScore) -> behaved_format::utility::Score {
    match score {
        crate::model::PickScore::Value(Expr::Path(p)) if p.qself.is_none() => {
            behaved_format::utility::Score::consider(JsonLeaf {
                type_name: text(p),
                params: Map::new(),
            })
        }
        crate::model::PickScore::Value(e) => behaved_format::utility::Score::consider(inline(text(e))),
        crate::model::PickScore::Closure(c, x, body) => {
            behaved_format::utility::Score::consider(inline(format!("|{}, {}| {}", text(c), text(x), text(body))))
        }
        // A JSON tree's score, written as a `utility` child's is.
        crate::model::PickScore::Selected(e, _) => score_json(e),
    }
}

/// A `utility`'s parameters: a consideration written as a path is a leaf of
/// that name (`{"consider": "Hunger"}`), any other score its code.
fn utility_params(choice: behaved_format::utility::Choice, scores: &[Expr]) -> Params {
    let scores = scores.iter().map(score_json).collect();
    Params::Utility { choice, scores }
}

/// A score as data where its form says what it is: `curve.of(input)` with a
/// curve of literal parameters, `all((a, b, ..))`, `.weight(w)` with a
/// literal `w`, a consideration named by a path; any other code as an inline
/// consideration with that code.
pub(crate) fn score_json(e: &Expr) -> behaved_format::utility::Score {
    use behaved_format::utility::{Score, ScoreOf};
    let code = || Score::consider(inline(text(e)));
    match e {
        Expr::Path(p) if p.qself.is_none() => Score::consider(JsonLeaf {
            type_name: text(p),
            params: Map::new(),
        }),
        Expr::Paren(p) => score_json(&p.expr),
        // A JSON `pick`'s consideration, checked by rustc: the value it passes on.
        Expr::Call(c)
            if c.args.len() == 1
                && matches!(&*c.func, Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "pick_consideration")) =>
        {
            score_json(&c.args[0])
        }
        Expr::MethodCall(m) if m.method == "weight" && m.args.len() == 1 => match crate::model::number(&m.args[0]) {
            Some(w) => {
                let mut inner = score_json(&m.receiver);
                if inner.weight != 1.0 {
                    return code();
                }
                inner.weight = w;
                inner
            }
            None => code(),
        },
        Expr::MethodCall(m) if m.method == "of" && m.args.len() == 1 => {
            let curve = match &*m.receiver {
                Expr::Struct(s) => crate::model::literal_curve(s),
                _ => None,
            };
            let inner = score_json(&m.args[0]);
            let plain = inner.weight == 1.0;
            match (curve, inner.of) {
                (Some(curve), ScoreOf::Consider { leaf, curve: None }) if plain => Score {
                    weight: 1.0,
                    of: ScoreOf::Consider {
                        leaf,
                        curve: Some(curve),
                    },
                },
                _ => code(),
            }
        }
        Expr::Call(c)
            if c.args.len() == 1
                && matches!(&*c.func, Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "all")) =>
        {
            match &c.args[0] {
                Expr::Tuple(t) if !t.elems.is_empty() => Score {
                    weight: 1.0,
                    of: ScoreOf::All(t.elems.iter().map(score_json).collect()),
                },
                _ => code(),
            }
        }
        _ => code(),
    }
}

fn text(tokens: &impl ToTokens) -> String {
    render(&tokens.to_token_stream())
}

/// `{"type": "inline", "code": ".."}`.
fn inline(code: String) -> JsonLeaf {
    let mut params = Map::new();
    params.insert("code".into(), code.into());
    JsonLeaf {
        type_name: "inline".into(),
        params,
    }
}

/// A closure as an inline leaf; a value as `{"type": "TypeName", "field":
/// literal, ..}` when it is a struct literal, otherwise as its type with the
/// code kept.
pub fn json_leaf(leaf: &Leaf) -> JsonLeaf {
    let (expr, ty) = match leaf {
        Leaf::Inline(c) => return inline(text(c)),
        Leaf::Value {
            ty, json: Some(params), ..
        } => {
            return JsonLeaf {
                type_name: text(ty),
                params: params.clone(),
            };
        }
        Leaf::Value { expr, ty, json: None } => unwrap_async(value_expr(expr), ty),
    };
    let mut params = Map::new();
    match expr {
        Expr::Path(_) => {}
        Expr::Struct(s) => {
            for f in &s.fields {
                params.insert(behaved_format::json_field_name(&text(&f.member)), literal(&f.expr));
            }
        }
        other => drop(params.insert("code".into(), text(other).into())),
    }
    JsonLeaf {
        type_name: text(ty),
        params,
    }
}

/// An async action (`act(async X)`, stored as `async_leaf(X)` of type
/// `Async<X, ..>`) as the action it wraps: in JSON it is an action like any other.
fn unwrap_async<'a>(expr: &'a Expr, ty: &'a syn::Type) -> (&'a Expr, &'a syn::Type) {
    let wrapped = |path: &syn::Path| {
        path.segments.len() == 3 && path.segments[1].ident == "__private" && path.segments[2].ident == "async_leaf"
    };
    if let (Expr::Call(call), syn::Type::Path(tp)) = (expr, ty)
        && let Expr::Path(func) = &*call.func
        && wrapped(&func.path)
        && call.args.len() == 1
        && let Some(last) = tp.path.segments.last()
        && last.ident == "Async"
        && let syn::PathArguments::AngleBracketed(args) = &last.arguments
        && let Some(syn::GenericArgument::Type(inner)) = args.args.first()
    {
        return (&call.args[0], inner);
    }
    (expr, ty)
}

/// A field's value: a literal as JSON (`-10` as a number), anything else as its code.
fn literal(expr: &Expr) -> Value {
    let (negative, lit) = match expr {
        Expr::Lit(l) => (false, &l.lit),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => match &*u.expr {
            Expr::Lit(l) => (true, &l.lit),
            _ => return text(expr).into(),
        },
        _ => return text(expr).into(),
    };
    let number = |digits: String| {
        let digits = if negative { format!("-{digits}") } else { digits };
        serde_json::from_str::<serde_json::Number>(&digits).map_or(Value::Null, Value::Number)
    };
    match lit {
        syn::Lit::Str(s) if !negative => s.value().into(),
        syn::Lit::Bool(b) if !negative => b.value.into(),
        syn::Lit::Int(i) => number(i.base10_digits().to_string()),
        syn::Lit::Float(f) => number(f.base10_digits().to_string()),
        _ => text(expr).into(),
    }
}

/// A `match` arm's keys: its literals (`1 | 2` is two keys), or the pattern
/// and guard as text.
fn keys((pat, guard): &(syn::Pat, Option<Expr>)) -> Vec<Key> {
    if let Some(g) = guard {
        return vec![Key::Str(format!("{} if {}", text(pat), text(g)))];
    }
    let key = |p: &syn::Pat| match p {
        syn::Pat::Lit(l) => match &l.lit {
            syn::Lit::Int(i) => i.base10_parse().map_or_else(|_| Key::Str(text(p)), Key::Int),
            syn::Lit::Str(s) => Key::Str(s.value()),
            syn::Lit::Bool(b) => Key::Bool(b.value),
            _ => Key::Str(text(p)),
        },
        _ => Key::Str(text(p)),
    };
    match pat {
        syn::Pat::Or(or) => or.cases.iter().map(key).collect(),
        p => vec![key(p)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::Errors;
    use crate::model;
    use serde_json::json;

    fn export_of(src: &str) -> Value {
        let mut errors = Errors::default();
        let mut trees = model::build(syn::parse_str(src).unwrap(), &mut errors);
        assert!(errors.is_empty(), "{:?}", errors.messages());
        serde_json::from_str(&export(&trees.remove(0).roots.remove(0))).unwrap()
    }

    #[test]
    fn dsl_trees_export_as_the_json_form() {
        let json = export_of(
            "tree T for C { 'l: loop { sequence { cond(|c| c.hp < 10), Say { line: \"hi\", volume: 3 }, wait(1.5), \
             if |c| c.a { break 'l } else { parallel(any) { success, failure } } } } }",
        );
        assert_eq!(json["type"], "loop");
        assert_eq!(json["label"], "l");
        let seq = &json["child"]["children"];
        assert_eq!(seq[0]["condition"], json!({"type": "inline", "code": "|c| c.hp < 10"}));
        assert_eq!(seq[1]["action"], json!({"type": "Say", "line": "hi", "volume": 3}));
        assert_eq!(seq[2], json!({"type": "wait", "seconds": 1.5}));
        assert_eq!(seq[3]["branches"][0]["then"], json!({"type": "break", "label": "l"}));
        assert_eq!(seq[3]["else"]["success"], 1);
        assert!(
            JsonNode::from_json(&seq[2]).is_ok(),
            "the export is the format behaved-format reads"
        );
    }

    #[test]
    fn negative_and_float_parameters_are_numbers() {
        let json = export_of("tree T for C { Move { dx: -10, dy: 2.5, speed: -0.5, name: \"n\", on: true } }");
        assert_eq!(
            json["action"],
            json!({"type": "Move", "dx": -10, "dy": 2.5, "speed": -0.5, "name": "n", "on": true})
        );
    }

    #[test]
    fn an_async_action_exports_as_the_action_it_wraps() {
        let json = export_of("tree T for C { sequence { act(async FindPath { to: 3 }), act(async Ask::new(2)) } }");
        let seq = &json["children"];
        assert_eq!(seq[0]["action"], json!({"type": "FindPath", "to": 3}));
        assert_eq!(seq[1]["action"], json!({"type": "Ask", "code": "Ask::new(2)"}));
    }

    #[test]
    fn what_json_cannot_hold_is_kept_as_code() {
        let json = export_of(
            "tree T for C { sequence { repeat(TRIES) { wait(PAUSE) }, Patrol::new(3), \
             #[on_enter(|c| c.n += 1)] success } }",
        );
        let seq = &json["children"];
        assert_eq!(seq[0]["count"], "TRIES");
        assert_eq!(seq[0]["child"], json!({"type": "wait", "seconds": "PAUSE"}));
        assert_eq!(seq[1]["action"], json!({"type": "Patrol", "code": "Patrol::new(3)"}));
        assert_eq!(
            seq[2],
            json!({"type": "success", "onEnter": {"type": "inline", "code": "|c| c.n += 1"}})
        );
    }

    #[test]
    fn match_arms_become_cases_and_a_default() {
        let json = export_of(
            "tree T for C { match |c| c.stage { 1 | 2 => success, \"x\" => failure, \
             n if n > 9 => running, _ => success } }",
        );
        assert_eq!(json["value"], json!({"type": "inline", "code": "|c| c.stage"}));
        let cases = &json["cases"];
        assert_eq!(cases[0]["when"], json!([1, 2]));
        assert_eq!(cases[1]["when"], "x");
        assert_eq!(cases[2]["when"], "n if n > 9");
        assert_eq!(cases.as_array().map(Vec::len), Some(3));
        assert_eq!(json["default"], json!({"type": "success"}));
    }
}

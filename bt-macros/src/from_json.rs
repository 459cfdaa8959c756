//! Trees read from JSON files (`tree Name for Ctx = json("file.json") { .. }`).
//!
//! The file is parsed and checked by `behaved-format`'s model (the same code the
//! interpreter loads with), then turned into this crate's model, so a tree
//! compiled from JSON goes through the same checks, lowering and codegen as
//! one written in the DSL and numbers its nodes like the interpreter does.
//! Every problem is a compile error naming the file and the JSON path.

use std::collections::HashMap;

use behaved_format::model::{Key, Leaf as JsonLeaf, Node as JsonNode, Params, Policy};
use behaved_format::utility::{Score, ScoreOf};
use behaved_format::{LoadError, Problem};
use behaved_runtime::NodeKind;
use proc_macro2::Span;
use quote::ToTokens;
use serde_json::Value;
use syn::Expr;

use crate::errors::Errors;
use crate::model::{Count, Duration, Hook, Kind, Leaf, Node, Threshold, Tree, plain, tree};
use crate::parse::{JsonSource, TreeSyntax};
use crate::render::render;

/// The model of tree `t`, read from the JSON file of `source`.
pub fn build_tree(t: TreeSyntax, source: &JsonSource, errors: &mut Errors) -> Tree {
    let ctx = t.ctx.clone();
    match build(source, &ctx, errors) {
        Some((root, file, json_scores)) => Tree {
            json_scores,
            ..tree(t, vec![root], Some(file))
        },
        None => tree(t, vec![plain(Kind::Invalid, source.path.span(), String::new())], None),
    }
}

/// A file's considerations with parameters ([`Tree::json_scores`]).
type JsonScores = Vec<(syn::Ident, proc_macro2::TokenStream)>;

/// Reads and converts the tree of `source`; returns its root, the file's
/// absolute path and its considerations with parameters, or `None` after
/// recording why not.
fn build(source: &JsonSource, ctx: &syn::Type, errors: &mut Errors) -> Option<(Node, String, JsonScores)> {
    let span = source.path.span();
    let relative = source.path.value();
    // Relative to the crate's Cargo.toml; failing that, to the invoking source
    // file (as `include_str!` resolves).
    let crate_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| String::from("."));
    let mut file = std::path::Path::new(&crate_dir).join(&relative);
    if !file.exists()
        && let Some(beside) = span.local_file().and_then(|f| f.parent().map(|d| d.join(&relative)))
        && beside.exists()
    {
        file = beside;
    }
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) => {
            errors.at(
                span,
                format!(
                    "cannot read `{relative}` (looked beside the crate's Cargo.toml and beside this source file): {e}"
                ),
            );
            return None;
        }
    };
    let read = match &source.xml {
        None => JsonNode::parse(&text).map(|tree| (tree, String::new(), None)),
        Some(id) => read_xml(&text, id.as_ref().map(syn::LitStr::value), file.parent()),
    };
    let (tree, root, xml) = match read {
        Ok(read) => read,
        Err(e) => {
            errors.at(span, format!("{relative}: {e}"));
            return None;
        }
    };
    let mut convert = Convert {
        source,
        xml,
        text: &text,
        pending: Vec::new(),
        file: &relative,
        span,
        errors,
        used: vec![false; source.leaves.len()],
        index: HashMap::new(),
        ctx,
        ports_used: vec![false; source.ports.len()],
        port_checks: Default::default(),
        in_pick: false,
        json_scores: Vec::new(),
    };
    for (i, (name, _)) in source.leaves.iter().enumerate() {
        // The first mapping of a name wins, as a scan from the start finds it.
        convert.index.entry(name.value()).or_insert(i);
    }
    let root = convert.node(&tree, &root);
    convert.report();
    for (used, (key, _)) in convert.ports_used.iter().zip(&source.ports) {
        if !used {
            convert.errors.at(
                key.span(),
                format!("the blackboard entry `{}` is not used by {relative}", key.value()),
            );
        }
    }
    for (used, (name, _)) in convert.used.iter().zip(&source.leaves) {
        if !used {
            convert
                .errors
                .at(name.span(), format!("`{}` is not used by {relative}", name.value()));
        }
    }
    Some((root, file.display().to_string(), convert.json_scores))
}

/// The trees of a BT.CPP XML file (the `xml` feature), for errors' places.
#[cfg(feature = "xml")]
type XmlTrees = behaved_format::xml::XmlTrees;
/// Without the `xml` feature no XML file is read.
#[cfg(not(feature = "xml"))]
type XmlTrees = std::convert::Infallible;

/// Reads the tree `id` (or the main one) of a BT.CPP XML file: its node, the
/// JSON path of its root in the file's trees, and the trees.
/// Its `<include>`s are read relative to the file's folder, `dir`.
#[cfg(feature = "xml")]
fn read_xml(
    text: &str,
    id: Option<String>,
    dir: Option<&std::path::Path>,
) -> Result<(JsonNode, String, Option<XmlTrees>), LoadError> {
    let dir = dir.unwrap_or(std::path::Path::new("."));
    let load = |path: &str| std::fs::read_to_string(dir.join(path)).map_err(|e| e.to_string());
    let mut reader = behaved_format::xml::XmlReader::new().includes(&load);
    if let Some(id) = &id {
        reader = reader.main_tree(id);
    }
    let trees = reader.read(text)?;
    Ok((trees.main().clone(), String::new(), Some(trees)))
}

/// Without the `xml` feature: an error that says which feature reads XML.
#[cfg(not(feature = "xml"))]
fn read_xml(
    _: &str,
    _: Option<String>,
    _: Option<&std::path::Path>,
) -> Result<(JsonNode, String, Option<XmlTrees>), LoadError> {
    Err(LoadError::one(
        "",
        "trees from BehaviorTree.CPP XML files need the facade's `xml` feature: `behaved = { version = \"0.1\", features = [\"xml\"] }`",
    ))
}

/// `err` at the lines and columns of the XML file its trees were read from.
#[cfg(feature = "xml")]
fn located_in_xml(trees: &XmlTrees, err: LoadError) -> LoadError {
    trees.located(err)
}

/// Without the `xml` feature there are no XML trees.
#[cfg(not(feature = "xml"))]
fn located_in_xml(trees: &XmlTrees, _: LoadError) -> LoadError {
    match *trees {}
}

/// One conversion: the mapping of leaf names to Rust, and where errors go.
pub(crate) struct Convert<'a> {
    pub(crate) source: &'a JsonSource,
    /// A BT.CPP XML file's trees, which place errors at its lines and columns.
    xml: Option<XmlTrees>,
    /// The file's text, where errors find their line and column.
    text: &'a str,
    /// The errors found so far, reported with their positions at the end.
    pending: Vec<Problem>,
    pub(crate) file: &'a str,
    pub(crate) span: Span,
    pub(crate) errors: &'a mut Errors,
    /// Which mappings the file used (an unused one is likely a typo).
    used: Vec<bool>,
    /// Each mapped name's index in `source.leaves`: a file's every leaf
    /// looks its name up, and a scan would read every mapping's string
    /// literal per leaf.
    index: HashMap<String, usize>,
    /// The tree's context, the blackboard its `ports { .. }` entries are in.
    pub(crate) ctx: &'a syn::Type,
    /// Which blackboard entries the file used.
    pub(crate) ports_used: Vec<bool>,
    /// The (leaf type, parameter, entry) triples whose types rustc is
    /// already asked to check: one error for a mistake, however many leaves.
    pub(crate) port_checks: std::collections::HashSet<(String, String, String)>,
    /// Whether the score being read is a `pick`'s (its considerations read
    /// the selected candidate), for the messages.
    in_pick: bool,
    /// The considerations with parameters read so far.
    json_scores: JsonScores,
}

impl Convert<'_> {
    /// Records an error at `path` of the file; [`Convert::report`] gives them.
    pub(crate) fn error(&mut self, path: &str, message: impl std::fmt::Display) {
        self.pending.push(Problem::new(path, message.to_string()));
    }

    /// Reports the errors recorded, each with its path's line and column in
    /// the file (found in one pass over the text).
    fn report(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        if pending.is_empty() {
            return;
        }
        let located = match &self.xml {
            Some(trees) => located_in_xml(trees, LoadError::new(pending)),
            None => LoadError::new(pending).located(self.text),
        };
        for p in located.problems() {
            let at = if p.path.is_empty() { "the root" } else { &p.path };
            let location = p.location.map(|l| format!(" ({l})")).unwrap_or_default();
            self.errors
                .at(self.span, format!("{}: {at}{location}: {}", self.file, p.message));
        }
    }

    /// The Rust a leaf name stands for.
    fn mapped(&mut self, name: &str, path: &str, what: &str) -> Option<Expr> {
        match self.index.get(name).copied() {
            Some(i) => {
                self.used[i] = true;
                Some(self.source.leaves[i].1.clone())
            }
            None => {
                let known = self.source.leaves.iter().map(|(n, _)| n.value()).collect::<Vec<_>>();
                let hint = match behaved_runtime::catalog::closest(name, known.iter().map(String::as_str)) {
                    Some(close) => format!(" (did you mean `{close}`?)"),
                    None => String::new(),
                };
                self.error(path, format!("the {what} `{name}` is not mapped to a Rust type{hint}; add `\"{name}\" => YourType` to the tree"));
                None
            }
        }
    }

    fn node(&mut self, j: &JsonNode, path: &str) -> Node {
        let mut node = plain(Kind::Invalid, self.span, j.label());
        node.children = j
            .children()
            .iter()
            .enumerate()
            .map(|(i, c)| self.node(c, &j.child_path(path, i)))
            .collect();
        node.loop_label = j
            .loop_label()
            .filter(|_| j.kind().is_loop())
            .map(|l| lifetime(l, self.span));
        node.kind = self.kind(j, path, &node.children);
        for (slot, (name, leaf)) in [
            &mut node.hooks.enter,
            &mut node.hooks.success,
            &mut node.hooks.failure,
            &mut node.hooks.exit,
            &mut node.hooks.pre_tick,
            &mut node.hooks.tick,
            &mut node.hooks.reset,
        ]
        .into_iter()
        .zip(behaved_format::model::Hooks::FIELDS.iter().zip(hooks_of(j)))
        {
            if let Some(leaf) = leaf {
                *slot = self.hook(leaf, &field(path, name));
            }
        }
        node
    }

    fn kind(&mut self, j: &JsonNode, path: &str, children: &[Node]) -> Kind {
        let n = children.len() as u32;
        let count = |c: u32| Count::Literal(u64::from(c));
        let seconds = || match *j.params() {
            Params::Seconds(s) => Duration::Literal(s),
            _ => Duration::Literal(0.0),
        };
        let jump_label = || j.loop_label().map(|l| lifetime(l, self.span));
        if let Some(kind) = Kind::plain(j.kind()) {
            return kind;
        }
        match (j.kind(), j.params()) {
            (NodeKind::Parallel, Params::Parallel(policy)) => {
                let (s, f) = policy.thresholds(n);
                let t = |k: u32| Threshold::Count(k, self.span);
                match policy {
                    Policy::RequireAll => Kind::Parallel {
                        success: Threshold::All,
                        failure: t(1),
                    },
                    Policy::RequireOne => Kind::Parallel {
                        success: Threshold::Any,
                        failure: Threshold::All,
                    },
                    Policy::Thresholds { .. } => Kind::Parallel {
                        success: t(s),
                        failure: t(f),
                    },
                }
            }
            (NodeKind::Weighted, Params::Weights(w)) => {
                Kind::Weighted(w.iter().map(|&w| crate::model::Weight::Literal(w)).collect())
            }
            (NodeKind::If | NodeKind::ReactiveIf, Params::Branches { has_else }) => Kind::If {
                reactive: j.kind() == NodeKind::ReactiveIf,
                has_else: *has_else,
            },
            (NodeKind::Match | NodeKind::ReactiveMatch, Params::Match { value, cases }) => {
                let reactive = j.kind() == NodeKind::ReactiveMatch;
                self.matching(value, cases, reactive, &field(path, "value"))
            }
            (NodeKind::Repeat, Params::Count(c)) => Kind::Repeat(count(*c)),
            (NodeKind::Retry, Params::Count(c)) => Kind::Retry(count(*c)),
            (NodeKind::ForEach, Params::ForEach { items, max }) => self
                .leaf(items, &field(path, "items"), "list")
                .map_or(Kind::Invalid, |list| Kind::ForEach {
                    source: crate::model::ForSource::List(list),
                    max: count(*max),
                }),
            (NodeKind::Pick, Params::Pick { items, max, score }) => {
                // Both are read, so that each problem is reported.
                let list = self.leaf(items, &field(path, "items"), "list");
                self.in_pick = true;
                let written = score;
                let score = self.score(written, &field(path, "score"));
                self.in_pick = false;
                match (list, score) {
                    (Some(list), Some(score)) => Kind::Pick {
                        source: crate::model::ForSource::List(list),
                        max: count(*max),
                        score: Box::new(crate::model::PickScore::Selected(score, written.clone())),
                    },
                    _ => Kind::Invalid,
                }
            }
            (NodeKind::Break, _) => Kind::Break(jump_label()),
            (NodeKind::Continue, _) => Kind::Continue(jump_label()),
            (NodeKind::Timeout, _) => Kind::Timeout(seconds()),
            (NodeKind::Delay, _) => Kind::Delay(seconds()),
            (NodeKind::Cooldown, _) => Kind::Cooldown(seconds()),
            (NodeKind::Limit, Params::Count(c)) => Kind::Limit(count(*c)),
            (NodeKind::Wait, _) => Kind::Wait(seconds()),
            (NodeKind::Condition, Params::Leaf(leaf)) => self
                .leaf(leaf, &field(path, "condition"), "condition")
                .map_or(Kind::Invalid, Kind::Cond),
            (NodeKind::WaitUntil, Params::Leaf(leaf)) => self
                .leaf(leaf, &field(path, "condition"), "condition")
                .map_or(Kind::Invalid, Kind::WaitUntil),
            (NodeKind::Action, Params::Leaf(leaf)) => self
                .leaf(leaf, &field(path, "action"), "action")
                .map_or(Kind::Invalid, Kind::Act),
            (NodeKind::Subtree, Params::Subtree(id)) => match self.mapped(id, &field(path, "subtreeId"), "subtree") {
                Some(Expr::Path(p)) => match self.remap(j, path) {
                    Some(remap) => Kind::Subtree {
                        ty: syn::TypePath {
                            qself: None,
                            path: p.path,
                        }
                        .into(),
                        map: None,
                        remap,
                    },
                    None => Kind::Invalid,
                },
                Some(other) => {
                    self.error(
                        path,
                        format!(
                            "subtree `{id}` must map to a tree type, not `{}`",
                            render(&other.to_token_stream())
                        ),
                    );
                    Kind::Invalid
                }
                None => Kind::Invalid,
            },
            (NodeKind::Utility, Params::Utility { choice, scores }) => {
                let choose = *choice;
                let at = field(path, "scores");
                let scores_written = scores;
                // Every score is read, so that each problem is reported.
                let scores: Vec<Option<Expr>> = scores
                    .iter()
                    .enumerate()
                    .map(|(i, score)| self.score(score, &format!("{at}[{i}]")))
                    .collect();
                scores
                    .into_iter()
                    .collect::<Option<_>>()
                    .map_or(Kind::Invalid, |scores| Kind::Utility {
                        choose,
                        scores,
                        written: Some(scores_written.clone()),
                    })
            }
            (kind, _) => {
                self.error(
                    path,
                    format!("`{}` is not supported in a compiled tree", kind.json_name()),
                );
                Kind::Invalid
            }
        }
    }

    /// A condition or action leaf: the mapped type. Without parameters it is
    /// the literal `Type {}`; with parameters it is deserialized from them
    /// with serde when the tree is built, as the interpreter builds its
    /// leaves, so nested objects, enums, defaults and renames mean the same in
    /// both forms.
    fn leaf(&mut self, leaf: &JsonLeaf, path: &str, what: &str) -> Option<Leaf> {
        let ty = match self.mapped(&leaf.type_name, path, what)? {
            Expr::Path(p) => syn::Type::from(syn::TypePath {
                qself: None,
                path: p.path,
            }),
            other => {
                let code = render(&other.to_token_stream());
                self.error(
                    path,
                    format!("the {what} `{}` must map to a type, not `{code}`", leaf.type_name),
                );
                return None;
            }
        };
        let expr: Expr = if leaf.params.is_empty() {
            syn::parse_quote_spanned!(self.span=> #ty {})
        } else if !behaved_format::port::references(&leaf.params).is_empty() {
            self.leaf_with_ports(leaf, &ty, path)?
        } else {
            let params = Value::Object(leaf.params.clone()).to_string();
            let at = format!("{}: {path}", self.file);
            let private = crate::facade::private(self.span);
            let name = &leaf.type_name;
            syn::parse_quote_spanned!(self.span=> #private::json_leaf::<#ty>(#params, #at, #name))
        };
        Some(Leaf::Value {
            expr,
            ty,
            json: Some(leaf.params.clone()),
        })
    }

    /// A `utility` child's score as the DSL would write it: the mapped
    /// consideration, through its curve (`Curve::..{..}.of(..)`), `all((..))`
    /// for a product, `.weight(w)` for a weight other than 1.
    fn score(&mut self, score: &Score, path: &str) -> Option<Expr> {
        let private = crate::facade::private(self.span);
        let rt = quote::quote_spanned!(self.span=> #private::utility);
        let expr: Expr = match &score.of {
            ScoreOf::Consider { leaf, curve } => {
                let input = self.consideration(leaf, &field(path, "consider"))?;
                match curve {
                    None => input,
                    Some(curve) => {
                        let curve = curve_code(curve, &rt);
                        syn::parse_quote_spanned!(self.span=> #curve.of(#input))
                    }
                }
            }
            ScoreOf::All(parts) => {
                let at = field(path, "all");
                let parts: Vec<Option<Expr>> = parts
                    .iter()
                    .enumerate()
                    .map(|(i, part)| self.score(part, &format!("{at}[{i}]")))
                    .collect();
                let parts: Vec<Expr> = parts.into_iter().collect::<Option<_>>()?;
                syn::parse_quote_spanned!(self.span=> #rt::all((#(#parts,)*)))
            }
        };
        if score.weight == 1.0 {
            return Some(expr);
        }
        let (ctx, w) = (self.ctx, score.weight);
        Some(syn::parse_quote_spanned!(self.span=> #rt::Consideration::<#ctx>::weight(#expr, #w)))
    }

    /// A consideration leaf: the mapped value (a unit type, a constant or a
    /// closure) when it has no parameters; with parameters, the mapped type
    /// deserialized from them once, when the first tree is built (an
    /// associated function of [`Tree::json_scores`]), as the interpreter
    /// builds it once at load.
    fn consideration(&mut self, leaf: &JsonLeaf, path: &str) -> Option<Expr> {
        if leaf.type_name == "inline" {
            self.error(
                path,
                "an inline consideration's code (written by `Tree::JSON`) cannot be compiled from the file; register it by name and map the name to a Rust value".to_string(),
            );
            return None;
        }
        let mapped = self.mapped(&leaf.type_name, path, "consideration")?;
        if let Expr::Closure(c) = &mapped
            && c.inputs.len() != 1
        {
            let code = render(&mapped.to_token_stream());
            let why = if self.in_pick {
                ": in a JSON `pick` the list's `select` puts each candidate in the context, where the consideration reads it (a closure `|c, t| ..` is the DSL's `pick .. by`)"
            } else {
                ""
            };
            self.error(
                path,
                format!(
                    "the consideration `{}` maps to a closure of {} parameters, `{code}`; a consideration is a closure of the context alone, `|c: &Ctx| ..`, or a type implementing `Consideration<Ctx>`{why}",
                    leaf.type_name,
                    c.inputs.len()
                ),
            );
            return None;
        }
        if leaf.params.is_empty() {
            if self.in_pick && !matches!(mapped, Expr::Closure(_)) {
                // rustc's error for a value that is no consideration says
                // what a JSON pick's score reads, at the mapping.
                let (private, ctx) = (crate::facade::private(self.span), self.ctx);
                let at = syn::spanned::Spanned::span(&mapped);
                return Some(syn::parse_quote_spanned!(at=> #private::pick_consideration::<#ctx, _>(#mapped)));
            }
            return Some(mapped);
        }
        let Expr::Path(p) = mapped else {
            let code = render(&mapped.to_token_stream());
            self.error(
                path,
                format!(
                    "the consideration `{}` has parameters, so it must map to a type that serde builds from them, not `{code}`",
                    leaf.type_name
                ),
            );
            return None;
        };
        let ty = syn::Type::from(syn::TypePath {
            qself: None,
            path: p.path,
        });
        let params = Value::Object(leaf.params.clone()).to_string();
        let at = format!("{}: {path}", self.file);
        let private = crate::facade::private(self.span);
        let name = &leaf.type_name;
        let build = quote::format_ident!("__json_score_{}", self.json_scores.len());
        self.json_scores.push((
            build.clone(),
            quote::quote_spanned!(self.span=>
                #[doc(hidden)]
                fn #build() -> &'static #ty {
                    static SCORE: #private::OnceLock<#ty> = #private::OnceLock::new();
                    SCORE.get_or_init(|| #private::json_leaf::<#ty>(#params, #at, #name))
                }
            ),
        ));
        Some(syn::parse_quote_spanned!(self.span=> #private::JsonScore(Self::#build())))
    }

    /// A hook: the mapped action, one instance per tree built in `new()`,
    /// ticked on the event (its status ignored), as the interpreter runs it.
    fn hook(&mut self, leaf: &JsonLeaf, path: &str) -> Option<Hook> {
        self.leaf(leaf, path, "hook action").map(Hook::Action)
    }

    /// `match`: the mapped value closure is the scrutinee, the keys patterns.
    fn matching(&mut self, value: &JsonLeaf, cases: &[Vec<Key>], reactive: bool, path: &str) -> Kind {
        let Some(mapped) = self.mapped(&value.type_name, path, "match value") else {
            return Kind::Invalid;
        };
        let Expr::Closure(closure) = mapped else {
            self.error(
                path,
                format!(
                    "the match value `{}` must map to a closure on the context: `|c| ..`",
                    value.type_name
                ),
            );
            return Kind::Invalid;
        };
        let arms = cases
            .iter()
            .map(|keys| {
                let pats = keys.iter().map(|k| match k {
                    Key::Int(i) => proc_macro2::Literal::i64_unsuffixed(*i).into_token_stream(),
                    Key::Str(s) => quote::quote!(#s),
                    Key::Bool(b) => quote::quote!(#b),
                });
                (syn::parse_quote!(#(#pats)|*), None)
            })
            .chain([(syn::parse_quote!(_), None)])
            .collect();
        Kind::Match {
            reactive,
            param: closure.inputs[0].clone(),
            scrutinee: (*closure.body).clone(),
            arms,
        }
    }
}

fn hooks_of(j: &JsonNode) -> [Option<&JsonLeaf>; 7] {
    match j.hooks() {
        Some(h) => h.all().map(Option::as_ref),
        None => [None; 7],
    }
}

/// `path.name`, or `name` at the root.
/// A curve as the DSL writes it: `<rt>::Curve::Logistic { steepness: 10.0, midpoint: 0.5 }`,
/// its fields those `behaved_runtime::utility::CURVES` lists, their values as the JSON
/// writer gives them.
fn curve_code(curve: &behaved_format::utility::Curve, rt: &proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    if let behaved_runtime::utility::CurveOf::Piecewise(points) = curve {
        let points = points.iter().map(|(x, y)| quote::quote!((#x, #y)));
        return quote::quote!(#rt::Curve::Piecewise(&[#(#points),*]));
    }
    let name = curve.name();
    let variant = syn::Ident::new(
        &format!("{}{}", name[..1].to_uppercase(), &name[1..]),
        Span::call_site(),
    );
    let json = behaved_format::utility::curve_json(curve);
    let (_, params) = behaved_runtime::utility::CURVES
        .iter()
        .find(|(n, _)| *n == name)
        .expect("every curve is listed in CURVES");
    let fields = params.iter().map(|p| {
        let field = syn::Ident::new(p, Span::call_site());
        let value = json[*p].as_f64().unwrap_or_default() as f32;
        quote::quote!(#field: #value)
    });
    quote::quote!(#rt::Curve::#variant { #(#fields),* })
}

fn field(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

fn lifetime(label: &str, span: Span) -> syn::Lifetime {
    syn::Lifetime::new(&format!("'{label}"), span)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_name_fields() {
        assert_eq!(field("", "child"), "child");
        assert_eq!(field("children[1]", "child"), "children[1].child");
    }
}

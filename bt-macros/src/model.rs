//! Stage 2: syntax to meaning. Resolves node words to node kinds (suggesting the
//! closest name for typos), reads their arguments into typed parameters, and
//! works out the type of each leaf value so it can be stored as a field.
//! Every problem is recorded and the rest of the tree is still built.

// The model lives only during expansion; boxing syntax trees would buy nothing.
#![allow(clippy::large_enum_variant)]

use behaved_runtime::NodeKind;
use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Ident, Lit, Token, Type, Visibility};

use crate::errors::Errors;
use crate::hints;
use crate::parse::{Args, Children, Else, IfSyntax, LetVar, MatchSyntax, NodeBody, NodeSyntax, TreeSyntax, WordNode};
use crate::render::render;

/// A tree, ready to be checked.
#[derive(Debug)]
pub struct Tree {
    /// Attributes and doc comments for the generated struct.
    pub attrs: Vec<Attribute>,
    /// Visibility of the generated struct.
    pub vis: Visibility,
    /// The struct's name.
    pub name: Ident,
    /// The context type.
    pub ctx: Type,
    /// The nodes of the body (one, when the tree is well-formed).
    pub roots: Vec<Node>,
    /// The body's braces.
    pub body_span: Span,
    /// The JSON file the tree was read from (absolute), so editing it rebuilds the crate.
    pub source_file: Option<String>,
}

/// One node with its meaning resolved.
#[derive(Debug)]
pub struct Node {
    /// What the node does.
    pub kind: Kind,
    /// Where it is written (the node word, or the leaf expression).
    pub span: Span,
    /// The node as written, for the node table and traces.
    pub label: String,
    /// Source line, 0 when unknown.
    pub line: u32,
    /// Its children, in order. For `if`, `while` and `abort_if` the first
    /// child is the condition.
    pub children: Vec<Node>,
    /// The braces around the children, if the node was written with them.
    pub braces: Option<Span>,
    /// `'label:` of a loop.
    pub loop_label: Option<syn::Lifetime>,
    /// Code run on the node's lifecycle events.
    pub hooks: Hooks,
    /// `#[persist]`: the leaf value is saved with the tree's running state.
    pub persist: bool,
}

/// ClosureBT's lifecycle callbacks.
#[derive(Debug, Default)]
pub struct Hooks {
    /// Before the first tick of an activation.
    pub enter: Option<Hook>,
    /// When the node completes with Success (before `exit`).
    pub success: Option<Hook>,
    /// When the node completes with Failure (before `exit`).
    pub failure: Option<Hook>,
    /// When the node completes or is halted.
    pub exit: Option<Hook>,
    /// On every tick of the node, before its own work (after `enter`).
    pub pre_tick: Option<Hook>,
    /// On every tick of the node, after its own work (before `success`/`failure`).
    pub tick: Option<Hook>,
    /// When the tree is reset, whatever the node's state (never in the flow of ticks).
    pub reset: Option<Hook>,
}

impl Hooks {
    /// The hooks with their field-name suffixes.
    pub fn all(&self) -> [(&'static str, Option<&Hook>); 7] {
        [
            ("on_enter", self.enter.as_ref()),
            ("on_success", self.success.as_ref()),
            ("on_failure", self.failure.as_ref()),
            ("on_exit", self.exit.as_ref()),
            ("on_pre_tick", self.pre_tick.as_ref()),
            ("on_tick", self.tick.as_ref()),
            ("on_reset", self.reset.as_ref()),
        ]
    }

    /// The hooks that may run during a tick (all but `reset`), for the work bound.
    pub fn in_tick(&self) -> usize {
        self.all()
            .iter()
            .filter(|(name, h)| *name != "on_reset" && h.is_some())
            .count()
    }
}

/// One lifecycle hook.
#[derive(Debug)]
pub enum Hook {
    /// `#[on_enter(|c| ..)]`: a closure on `&mut Ctx`, run on the event.
    Closure(Expr),
    /// A JSON tree's hook action (`"onEnter": {"type": "log", ..}`): a
    /// [`Leaf::Value`] stored in the tree, built once in `new()` and ticked on
    /// the event (its status ignored, never entered or halted), as the
    /// interpreter keeps one hook leaf per agent.
    Action(Leaf),
}

/// What a node does, with its parameters.
#[derive(Debug)]
pub enum Kind {
    /// `sequence`.
    Sequence,
    /// `selector` / `fallback`.
    Selector,
    /// `reactive sequence`.
    ReactiveSequence,
    /// `reactive selector`.
    ReactiveSelector,
    /// `sequence_always`.
    SequenceAlways,
    /// `parallel(all | any | success = S, failure = F)`.
    Parallel {
        /// Successes needed.
        success: Threshold,
        /// Failures that fail the parallel.
        failure: Threshold,
    },
    /// `parallel(main)`.
    ParallelMain,
    /// `random { .. }`.
    Random,
    /// `weighted { w => child, .. }`, with the weights in child order.
    Weighted(Vec<Weight>),
    /// `shuffle { .. }`.
    Shuffle,
    /// `if c0 { b0 } else if c1 { b1 } .. else { e }` / `reactive if`: one
    /// node for the whole chain; children are `c0, b0, c1, b1, .., e`.
    If {
        /// Re-evaluate the conditions on every tick.
        reactive: bool,
        /// The last child is an `else` branch.
        has_else: bool,
    },
    /// `match` / `reactive match`: children are the arms' nodes.
    Match {
        /// Re-evaluate the scrutinee on every tick.
        reactive: bool,
        /// The closure's parameter (`c` in `|c| c.stage`).
        param: syn::Pat,
        /// The closure's body, matched against the arms' patterns.
        scrutinee: Expr,
        /// Each arm's pattern and guard.
        arms: Vec<(syn::Pat, Option<Expr>)>,
    },
    /// `invert`.
    Invert,
    /// `force_success`.
    ForceSuccess,
    /// `force_failure`.
    ForceFailure,
    /// `repeat(n)`.
    Repeat(Count),
    /// `retry(n)`.
    Retry(Count),
    /// `loop` / `forever`.
    Loop,
    /// `while c { .. }`: children are the condition and the body.
    While,
    /// `until_fail`.
    UntilFail,
    /// `until_success`.
    UntilSuccess,
    /// `for var: ty in |param| items max N { body }`, or a JSON tree's
    /// `forEach`: children are the body.
    ForEach {
        /// Where the items come from.
        source: ForSource,
        /// The most items the loop holds.
        max: Count,
    },
    /// `break` / `break 'label`.
    Break(Option<syn::Lifetime>),
    /// `continue` / `continue 'label`.
    Continue(Option<syn::Lifetime>),
    /// `timeout(d)`.
    Timeout(Duration),
    /// `delay(d)`.
    Delay(Duration),
    /// `cooldown(d)`.
    Cooldown(Duration),
    /// `limit(n)`.
    Limit(Count),
    /// `run_once`.
    RunOnce,
    /// `abort_if(c)`: children are the condition and the guarded child.
    AbortIf,
    /// `latch(c)`: children are the condition and the latched child.
    Latch,
    /// `scope { let x: T = init; child }`: node-local variables.
    Scope(Vec<LetVar>),
    /// `wait(d)`.
    Wait(Duration),
    /// `wait_until(c)`: the condition, checked on every tick.
    WaitUntil(Leaf),
    /// `success`.
    Success,
    /// `failure`.
    Failure,
    /// `running`.
    Running,
    /// `cond(..)`.
    Cond(Leaf),
    /// `act(..)` or a bare leaf value.
    Act(Leaf),
    /// A node too broken to understand (already reported); kept so that its
    /// parent's child count stays right and no second error follows from it.
    Invalid,
    /// `subtree(Type)` or `subtree(Type, |c| &mut c.part)`.
    Subtree {
        /// The subtree's type.
        ty: Type,
        /// Gives the subtree its part of the context.
        map: Option<Expr>,
    },
}

impl Kind {
    /// The kind for the catalogue's `kind` when it holds nothing more than
    /// its children (`Sequence`, `Invert`, `Loop`, a `Scope` before its
    /// variables are added): the DSL and the JSON form build it alike.
    pub fn plain(kind: NodeKind) -> Option<Kind> {
        use NodeKind as K;
        Some(match kind {
            K::Sequence => Kind::Sequence,
            K::Selector => Kind::Selector,
            K::ReactiveSequence => Kind::ReactiveSequence,
            K::ReactiveSelector => Kind::ReactiveSelector,
            K::SequenceAlways => Kind::SequenceAlways,
            K::ParallelMain => Kind::ParallelMain,
            K::Random => Kind::Random,
            K::Shuffle => Kind::Shuffle,
            K::Invert => Kind::Invert,
            K::ForceSuccess => Kind::ForceSuccess,
            K::ForceFailure => Kind::ForceFailure,
            K::Loop => Kind::Loop,
            K::While => Kind::While,
            K::UntilFail => Kind::UntilFail,
            K::UntilSuccess => Kind::UntilSuccess,
            K::RunOnce => Kind::RunOnce,
            K::AbortIf => Kind::AbortIf,
            K::Latch => Kind::Latch,
            K::Scope => Kind::Scope(Vec::new()),
            K::Success => Kind::Success,
            K::Failure => Kind::Failure,
            K::Running => Kind::Running,
            _ => return None,
        })
    }

    /// The catalogue entry of this kind.
    pub fn catalog(&self) -> NodeKind {
        match self {
            Kind::Sequence => NodeKind::Sequence,
            Kind::Selector => NodeKind::Selector,
            Kind::ReactiveSequence => NodeKind::ReactiveSequence,
            Kind::ReactiveSelector => NodeKind::ReactiveSelector,
            Kind::SequenceAlways => NodeKind::SequenceAlways,
            Kind::Parallel { .. } => NodeKind::Parallel,
            Kind::ParallelMain => NodeKind::ParallelMain,
            Kind::Random => NodeKind::Random,
            Kind::Weighted(_) => NodeKind::Weighted,
            Kind::Shuffle => NodeKind::Shuffle,
            Kind::If { reactive: false, .. } => NodeKind::If,
            Kind::If { reactive: true, .. } => NodeKind::ReactiveIf,
            Kind::Match { reactive: false, .. } => NodeKind::Match,
            Kind::Match { reactive: true, .. } => NodeKind::ReactiveMatch,
            Kind::Invert => NodeKind::Invert,
            Kind::ForceSuccess => NodeKind::ForceSuccess,
            Kind::ForceFailure => NodeKind::ForceFailure,
            Kind::Repeat(_) => NodeKind::Repeat,
            Kind::Retry(_) => NodeKind::Retry,
            Kind::Loop => NodeKind::Loop,
            Kind::While => NodeKind::While,
            Kind::UntilFail => NodeKind::UntilFail,
            Kind::UntilSuccess => NodeKind::UntilSuccess,
            Kind::ForEach { .. } => NodeKind::ForEach,
            Kind::Break(_) => NodeKind::Break,
            Kind::Continue(_) => NodeKind::Continue,
            Kind::Timeout(_) => NodeKind::Timeout,
            Kind::Delay(_) => NodeKind::Delay,
            Kind::Cooldown(_) => NodeKind::Cooldown,
            Kind::Limit(_) => NodeKind::Limit,
            Kind::RunOnce => NodeKind::RunOnce,
            Kind::AbortIf => NodeKind::AbortIf,
            Kind::Latch => NodeKind::Latch,
            Kind::Scope(_) => NodeKind::Scope,
            Kind::Wait(_) => NodeKind::Wait,
            Kind::WaitUntil(_) => NodeKind::WaitUntil,
            Kind::Success | Kind::Invalid => NodeKind::Success,
            Kind::Failure => NodeKind::Failure,
            Kind::Running => NodeKind::Running,
            Kind::Cond(_) => NodeKind::Condition,
            Kind::Act(_) => NodeKind::Action,
            Kind::Subtree { .. } => NodeKind::Subtree,
        }
    }

    /// `true` for the loops that `break` and `continue` act on.
    pub fn is_loop(&self) -> bool {
        self.catalog().is_loop()
    }

    /// How many leading children are conditions rather than bodies.
    pub fn condition_children(&self) -> usize {
        usize::from(matches!(self, Kind::While | Kind::AbortIf | Kind::Latch))
    }
}

/// The items of a `for` loop.
#[derive(Debug)]
pub enum ForSource {
    /// `for var: ty in |param| items`: the item is named in the body.
    Closure {
        /// The item's name, bound to `&ty` in the body's inline leaves.
        var: Ident,
        /// The item's type.
        ty: Type,
        /// The source closure's parameter (`c` in `|c| c.targets.iter()`).
        param: syn::Pat,
        /// The source closure's body: an iterator (or `IntoIterator`) of `ty` or `&ty`.
        items: Expr,
    },
    /// A JSON tree's `forEach`: a value implementing `behaved::ItemList`, stored in
    /// the tree, whose `select` puts the current item in the context before
    /// each tick of the body (as the interpreter does).
    List(Leaf),
}

/// A parallel threshold as written.
#[derive(Debug, Clone, Copy)]
pub enum Threshold {
    /// Every child.
    All,
    /// One child.
    Any,
    /// A fixed number, with the span of the number.
    Count(u32, Span),
}

/// A parallel's thresholds as numbers of children.
pub fn thresholds(success: Threshold, failure: Threshold, children: usize) -> (usize, usize) {
    let count = |t: Threshold| match t {
        Threshold::All => children,
        Threshold::Any => 1,
        Threshold::Count(k, _) => k as usize,
    };
    (count(success), count(failure))
}

/// A loop count: `repeat(3)` or `repeat(MAX_TRIES)`.
#[derive(Debug)]
pub enum Count {
    /// An integer literal, already checked.
    Literal(u64),
    /// A constant expression of type `u32`, checked by rustc.
    Expr(Expr),
}

/// A weight of a `weighted` child: `3 => node` or `HEAVY => node`.
#[derive(Debug, Clone)]
pub enum Weight {
    /// An integer literal, already checked.
    Literal(u32),
    /// A constant expression of type `u32`, checked by rustc (at least 1).
    Const(Expr),
}

/// A duration in seconds: `wait(1.5)` or `wait(ATTACK_PAUSE)`.
#[derive(Debug)]
pub enum Duration {
    /// A numeric literal, already checked.
    Literal(f64),
    /// A constant expression of type `f64`, checked by rustc.
    Expr(Expr),
}

/// A condition or action leaf.
#[derive(Debug)]
pub enum Leaf {
    /// A closure on the context, or a path to a function, compiled inline.
    Inline(Expr),
    /// A value stored as a field of the tree.
    Value {
        /// The expression that makes it (evaluated in `new()`).
        expr: Expr,
        /// Its type.
        ty: Type,
        /// The parameters it is deserialized from, in a JSON tree (`Tree::JSON`
        /// writes them back as they were).
        json: Option<serde_json::Map<String, serde_json::Value>>,
    },
}

/// Builds the model of every tree, recording problems in `errors` (for tests).
#[cfg(test)]
pub fn build(input: crate::parse::Input, errors: &mut Errors) -> Vec<Tree> {
    input.trees.into_iter().map(|t| build_tree(t, errors)).collect()
}

/// Builds the model of one tree written in the DSL, recording problems in
/// `errors` (a tree read from a JSON file is built by `from_json`).
pub fn build_tree(mut t: TreeSyntax, errors: &mut Errors) -> Tree {
    let roots = std::mem::take(&mut t.roots);
    let roots = roots.into_iter().map(|n| build_node(n, errors)).collect();
    tree(t, roots, None)
}

/// The tree declared by `t`, with its nodes.
pub fn tree(t: TreeSyntax, roots: Vec<Node>, source_file: Option<String>) -> Tree {
    Tree {
        attrs: t.attrs,
        vis: t.vis,
        name: t.name,
        ctx: t.ctx,
        roots,
        body_span: t.body_span,
        source_file,
    }
}

/// A node with no children, hooks or label.
pub(crate) fn plain(kind: Kind, span: Span, label: String) -> Node {
    Node {
        kind,
        span,
        label,
        line: line_of(span),
        children: Vec::new(),
        braces: None,
        loop_label: None,
        hooks: Hooks::default(),
        persist: false,
    }
}

/// The node; `Kind::Invalid` when it is too broken to understand (already reported).
fn build_node(syntax: NodeSyntax, errors: &mut Errors) -> Node {
    crate::depth::grow(|| build_node_here(syntax, errors))
}

fn build_node_here(syntax: NodeSyntax, errors: &mut Errors) -> Node {
    let mut node = match syntax.body {
        NodeBody::Value(expr) => {
            let span = expr.span();
            let label = render(&expr.to_token_stream());
            plain(leaf_value(expr, errors).map_or(Kind::Invalid, Kind::Act), span, label)
        }
        NodeBody::Word(word) => build_word(word, errors),
        NodeBody::If(syntax) => build_if(syntax, errors),
        NodeBody::Match(syntax) => build_match(syntax, errors),
        NodeBody::While(w) => {
            let label = format!("while {}", render(&w.cond.to_token_stream()));
            let mut node = plain(Kind::While, w.span, label);
            node.children.push(condition(w.cond, "while", errors));
            node.children.extend(single_body(w.body, "a `while` body", errors));
            node
        }
        NodeBody::For(f) => build_for(f, errors),
        NodeBody::Break(span, label) => {
            let text = label.as_ref().map_or(String::from("break"), |l| format!("break {l}"));
            plain(Kind::Break(label), span, text)
        }
        NodeBody::Continue(span, label) => {
            let text = label
                .as_ref()
                .map_or(String::from("continue"), |l| format!("continue {l}"));
            plain(Kind::Continue(label), span, text)
        }
        NodeBody::Missing(span) => {
            errors.at(
                span,
                "a hook or label on nothing: it must be followed by the node it applies to",
            );
            plain(Kind::Invalid, span, String::new())
        }
    };
    if let Some(weight) = syntax.weight {
        errors.over(
            &weight,
            "only the children of `weighted { .. }` take a weight (`3 => node`)",
        );
    }
    if let Some(label) = syntax.label {
        if node.kind.is_loop() || matches!(node.kind, Kind::Invalid) {
            node.label = format!("{label}: {}", node.label);
            node.loop_label = Some(label);
        } else {
            errors.over(
                &label,
                "a label names a loop: `loop`, `while`, `for`, `repeat`, `retry`, `until_fail` or `until_success`",
            );
        }
    }
    let (attrs, persist): (Vec<Attribute>, Vec<Attribute>) =
        syntax.attrs.into_iter().partition(|a| !a.path().is_ident("persist"));
    for attr in &persist {
        if !matches!(attr.meta, syn::Meta::Path(_)) {
            errors.at(attr.path().span(), "`#[persist]` takes no arguments");
        } else if !matches!(
            node.kind,
            Kind::Act(Leaf::Value { .. }) | Kind::Cond(Leaf::Value { .. }) | Kind::Invalid
        ) {
            errors.at(
                attr.path().span(),
                "`#[persist]` applies to leaf values: their state is saved with the tree (control state always is)",
            );
        } else if let Kind::Act(leaf) = &node.kind
            && is_async(leaf)
        {
            errors.at(
                attr.path().span(),
                "an async action cannot be `#[persist]`: its future cannot be saved; a running one is \
                 started again after a load (SEMANTICS.md, \"act(async ..)\"), so keep its progress in the context",
            );
        }
    }
    node.persist = !persist.is_empty();
    node.hooks = hooks(attrs, errors);
    node
}

/// `#[on_enter(|c| ..)]` and friends.
fn hooks(attrs: Vec<Attribute>, errors: &mut Errors) -> Hooks {
    let mut hooks = Hooks::default();
    for attr in attrs {
        let name = attr.path().get_ident().map(ToString::to_string).unwrap_or_default();
        let slot = match name.as_str() {
            "on_enter" => &mut hooks.enter,
            "on_success" => &mut hooks.success,
            "on_failure" => &mut hooks.failure,
            "on_exit" => &mut hooks.exit,
            "on_pre_tick" => &mut hooks.pre_tick,
            "on_tick" => &mut hooks.tick,
            "on_reset" => &mut hooks.reset,
            _ => {
                // ClosureBT's names for the hooks that exist under another name.
                let hint = match name.as_str() {
                    "on_disabled" | "on_disable" => "; ClosureBT's OnDisabled (reset only) is `#[on_reset(..)]`",
                    "on_enabled" | "on_enable" => {
                        "; the nearest to ClosureBT's OnEnabled is `#[on_enter(..)]` (it runs on every activation)"
                    }
                    _ => "",
                };
                errors.at(
                    attr.path().span(),
                    format!(
                        "unknown hook `#[{}]`; expected `on_enter`, `on_pre_tick`, `on_tick`, `on_success`, `on_failure`, `on_exit` or `on_reset`{hint}",
                        render(&attr.path().to_token_stream())
                    ),
                );
                continue;
            }
        };
        match attr.parse_args::<Expr>() {
            Ok(Expr::Closure(c)) if c.inputs.len() == 2 => errors.over(
                &c.inputs[1],
                format!(
                    "a hook gets only the context: `#[{name}(|c| ..)]`; to act on how the node ended, \
                     use `#[on_success(|c| ..)]` or `#[on_failure(|c| ..)]`"
                ),
            ),
            Ok(Expr::Closure(c)) if c.inputs.len() == 1 => {
                if slot.is_some() {
                    errors.at(attr.path().span(), format!("`#[{name}]` is given twice"));
                }
                *slot = Some(Hook::Closure(Expr::Closure(c)));
            }
            Ok(other) => errors.over(
                &other,
                format!("`#[{name}]` takes a closure on the context: `#[{name}(|c| ..)]`"),
            ),
            Err(e) => errors.push(e),
        }
    }
    hooks
}

/// The single node of a block (an `if` branch, a `while` body, a `scope`).
fn single_body(block: Children, what: &str, errors: &mut Errors) -> Option<Node> {
    if let Some(var) = block.lets.first() {
        errors.over(&var.name, "`let` declares a node-local variable only in `scope { .. }`");
    }
    let mut nodes = block.nodes.into_iter();
    let Some(first) = nodes.next() else {
        errors.at(block.span, format!("{what} needs a node"));
        return None;
    };
    if let Some(second) = nodes.next() {
        errors.at(
            node_span(&second),
            format!("{what} holds exactly one node; wrap several in `sequence {{ .. }}` or `selector {{ .. }}`"),
        );
    }
    Some(build_node(first, errors))
}

/// Where a node's syntax starts, for errors about it.
fn node_span(node: &NodeSyntax) -> Span {
    match &node.body {
        NodeBody::Word(w) => w.reactive.unwrap_or_else(|| w.name.span()),
        NodeBody::Value(e) => e.span(),
        NodeBody::If(i) => i.span,
        NodeBody::Match(m) => m.span,
        NodeBody::While(w) => w.span,
        NodeBody::For(f) => f.span,
        NodeBody::Break(s, _) | NodeBody::Continue(s, _) | NodeBody::Missing(s) => *s,
    }
}

/// The condition of `if`, `while` or `abort_if` (`keyword`) as a condition node.
pub(crate) fn condition(expr: Expr, keyword: &str, errors: &mut Errors) -> Node {
    let span = expr.span();
    let label = render(&expr.to_token_stream());
    let kind = match expr {
        Expr::Closure(c) if c.inputs.len() == 1 => {
            reads_only(&c, errors);
            Kind::Cond(Leaf::Inline(Expr::Closure(c)))
        }
        Expr::Closure(c) => {
            errors.at(
                c.or1_token.span,
                "a condition closure takes one argument, the context: `|c| ..`",
            );
            Kind::Invalid
        }
        other if type_of_value(&other).is_none() && function_path(&other).is_none() => {
            let form = if matches!(keyword, "abort_if" | "latch") {
                format!("`{keyword}({}) {{ .. }}`", hints::as_closure(&other))
            } else if keyword == "wait_until" {
                format!("`wait_until({})`", hints::as_closure(&other))
            } else {
                format!("`{keyword} {} {{ .. }}`", hints::as_closure(&other))
            };
            errors.over(
                &other,
                format!("a condition is a closure on the context (or a condition value): write {form}"),
            );
            Kind::Invalid
        }
        other => leaf_arg_value(other, errors).map_or(Kind::Invalid, Kind::Cond),
    };
    plain(kind, span, label)
}

/// Reports a condition closure that would change the context: conditions get
/// `&Ctx`; changing it is an action's job.
fn reads_only(closure: &syn::ExprClosure, errors: &mut Errors) {
    if let Some(r) = hints::mut_param(closure) {
        errors.over(
            r,
            "a condition only reads the context (`&Ctx`); to change it, use an action: `act(|c| ..)`",
        );
    } else if let Some(e) = hints::assignment_in(closure) {
        errors.over(
            &e,
            format!(
                "a condition only reads the context (`&Ctx`), so `{}` cannot be done here; \
                 to change the context, use an action: `act(|c| ..)`",
                render(&e.to_token_stream())
            ),
        );
    }
}

/// `is_hurt` or `checks::is_hurt`: a path to a function (its last segment is
/// lower case), used as a leaf: it is called like an inline closure.
fn function_path(expr: &Expr) -> Option<Expr> {
    let Expr::Path(p) = expr else { return None };
    let last = p.path.segments.last()?;
    let lower = last
        .ident
        .to_string()
        .starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
    (p.qself.is_none() && lower).then(|| expr.clone())
}

/// A leaf given as a value or as a path to a function.
fn leaf_arg_value(expr: Expr, errors: &mut Errors) -> Option<Leaf> {
    match function_path(&expr) {
        Some(function) => Some(Leaf::Inline(function)),
        None => leaf_value(expr, errors),
    }
}

fn build_if(syntax: IfSyntax, errors: &mut Errors) -> Node {
    let reactive = syntax.reactive.is_some();
    let label = format!(
        "{}if {}",
        if reactive { "reactive " } else { "" },
        render(&syntax.cond.to_token_stream())
    );
    let mut node = plain(
        Kind::If {
            reactive,
            has_else: false,
        },
        syntax.reactive.unwrap_or(syntax.span),
        label,
    );
    // The chain `if .. else if .. else ..` becomes one node: condition, branch, condition, branch, .., else.
    let mut link = syntax;
    loop {
        node.children.push(condition(link.cond, "if", errors));
        let then = single_body(link.then, "an `if` branch", errors);
        node.children
            .push(then.unwrap_or_else(|| plain(Kind::Invalid, link.span, String::new())));
        match link.otherwise.map(|e| *e) {
            Some(Else::If(NodeSyntax {
                body: NodeBody::If(next),
                ..
            })) => link = next,
            Some(Else::If(_)) => unreachable!("`else if` parses as an if"),
            Some(Else::Block(block)) => {
                let otherwise = single_body(block, "an `else` branch", errors);
                node.children
                    .push(otherwise.unwrap_or_else(|| plain(Kind::Invalid, link.span, String::new())));
                node.kind = Kind::If {
                    reactive,
                    has_else: true,
                };
                break;
            }
            None => break,
        }
    }
    node
}

fn build_match(syntax: MatchSyntax, errors: &mut Errors) -> Node {
    let reactive = syntax.reactive.is_some();
    let span = syntax.reactive.unwrap_or(syntax.span);
    let label = format!(
        "{}match {}",
        if reactive { "reactive " } else { "" },
        render(&syntax.scrutinee.to_token_stream())
    );
    let (param, scrutinee) = match syntax.scrutinee {
        Expr::Closure(c) if c.inputs.len() == 1 => (c.inputs[0].clone(), *c.body),
        other => {
            errors.over(
                &other,
                "`match` takes a closure on the context: `match |c| c.stage { .. }`",
            );
            return plain(Kind::Invalid, span, label);
        }
    };
    if syntax.arms.is_empty() {
        errors.at(
            syntax.braces,
            "`match` without arms: it needs at least one `pattern => node`",
        );
    }
    let mut arms = Vec::new();
    let mut children = Vec::new();
    for arm in syntax.arms {
        arms.push((arm.pat, arm.guard));
        children.push(build_node(arm.node, errors));
    }
    let mut node = plain(
        Kind::Match {
            reactive,
            param,
            scrutinee,
            arms,
        },
        span,
        label,
    );
    node.children = children;
    node.braces = Some(syntax.braces);
    node
}

/// `for x: T in |c| items max N { body }`.
fn build_for(f: crate::parse::ForSyntax, errors: &mut Errors) -> Node {
    const FORM: &str = "`for x: Type in |c| c.items.iter() max 8 { .. }`";
    let max_text = f
        .max
        .as_ref()
        .map_or(String::new(), |(_, m)| format!(" max {}", render(&m.to_token_stream())));
    let ty_text =
        f.ty.as_ref()
            .map_or(String::new(), |t| format!(": {}", render(&t.to_token_stream())));
    let label = format!(
        "for {}{ty_text} in {}{max_text}",
        f.var,
        render(&f.source.to_token_stream())
    );
    let mut node = plain(Kind::Invalid, f.span, label);
    node.braces = Some(f.body.span);
    let ty = match f.ty {
        Some(ty) => Some(ty),
        None => {
            errors.over(
                &f.var,
                format!(
                    "the item of a `for` loop needs its type, as the loop keeps a copy of the items: `for {}: Type in ..`",
                    f.var
                ),
            );
            None
        }
    };
    let source = match f.source {
        Expr::Closure(c) if c.inputs.len() == 1 => {
            reads_only(&c, errors);
            Some((c.inputs[0].clone(), *c.body))
        }
        other => {
            errors.over(
                &other,
                format!("a `for` loop reads its items with a closure on the context: {FORM}"),
            );
            None
        }
    };
    let max = match f.max {
        Some((_, expr)) => count_of(expr, "for", |n| format!("max {n}"), errors),
        None => {
            errors.at(
                f.body.span,
                format!(
                    "a `for` loop needs `max N` before its body, the most items it holds (its copy lives in the tree): {FORM}"
                ),
            );
            None
        }
    };
    node.children.extend(single_body(f.body, "a `for` body", errors));
    if let (Some(ty), Some((param, items)), Some(max)) = (ty, source, max) {
        node.kind = Kind::ForEach {
            source: ForSource::Closure {
                var: f.var,
                ty,
                param,
                items,
            },
            max,
        };
    }
    node
}

fn build_word(word: WordNode, errors: &mut Errors) -> Node {
    let span = word.reactive.unwrap_or_else(|| word.name.span());
    let name = word.name.to_string();
    let label = label_of(&word);
    let args = word.args.as_ref();
    let mut guard = None;
    if let Some(node) = children_in_parentheses(&word, span, label.clone(), errors) {
        return node;
    }
    // The word names a kind through the catalogue (with its aliases: `fallback`, `forever`).
    let written = match word.reactive {
        Some(_) => format!("reactive {name}"),
        None => name.clone(),
    };
    use NodeKind as K;
    let kind =
        match (
            word.reactive.is_some(),
            NodeKind::from_dsl_word(&written),
            name.as_str(),
        ) {
            // A kind that holds nothing but its children takes no arguments
            // (`abort_if` and `latch` take their condition, below).
            (_, Some(k), _) if !matches!(k, K::AbortIf | K::Latch) && Kind::plain(k).is_some() => {
                Kind::plain(k).and_then(|kind| no_args(kind, &name, args, errors))
            }
            (true, _, _) => {
                errors.over(
                    &word.name,
                    format!("`reactive` applies to `sequence`, `selector`, `if` and `match`, not to `{name}`"),
                );
                None
            }
            (_, Some(K::Parallel), _) => parallel(&word, errors),
            (_, Some(K::Weighted), _) => no_args(Kind::Weighted(Vec::new()), &name, args, errors),
            (_, Some(K::Repeat), _) => count(&word, errors).map(Kind::Repeat),
            (_, Some(K::Retry), _) => count(&word, errors).map(Kind::Retry),
            (_, Some(K::Limit), _) => count(&word, errors).map(Kind::Limit),
            (_, Some(K::Timeout), _) => duration(&word, errors).map(Kind::Timeout),
            (_, Some(K::Delay), _) => duration(&word, errors).map(Kind::Delay),
            (_, Some(K::Cooldown), _) => duration(&word, errors).map(Kind::Cooldown),
            // The condition becomes the first child.
            (_, Some(k @ (K::AbortIf | K::Latch)), _) => {
                single_arg(&word, "a condition `|c| ..` or a condition value", errors).map(|arg| {
                    guard = Some(condition(arg, k.dsl_name(), errors));
                    if k == K::AbortIf { Kind::AbortIf } else { Kind::Latch }
                })
            }
            (_, Some(K::WaitUntil), _) => single_arg(&word, "a condition `|c| ..` or a condition value", errors)
                .and_then(|arg| match condition(arg, "wait_until", errors).kind {
                    Kind::Cond(leaf) => Some(Kind::WaitUntil(leaf)),
                    _ => None,
                }),
            (_, Some(K::Wait), _) => duration(&word, errors).map(Kind::Wait),
            (_, Some(K::Condition), _) => leaf_arg(&word, errors).map(Kind::Cond),
            (_, Some(K::Action), _) => leaf_arg(&word, errors).map(Kind::Act),
            (_, Some(K::Subtree), _) => subtree(&word, errors),
            (_, _, "else") => {
                errors.over(&word.name, "`else` without `if`: write `if |c| .. { .. } else { .. }`");
                None
            }
            (_, _, "reactive") => {
                errors.over(
                    &word.name,
                    "`reactive` must be followed by `sequence`, `selector`, `if` or `match`",
                );
                None
            }
            // `walk(3)`: a function call where a leaf goes.
            _ if word.children.is_none()
                && let Some(args) = args
                && name.starts_with(|c: char| c.is_ascii_lowercase())
                && hints::node_word(&name).is_none() =>
            {
                let mut call = word.name.to_token_stream();
                let mut parens = proc_macro2::Group::new(proc_macro2::Delimiter::Parenthesis, args.tokens.clone());
                parens.set_span(args.span);
                call.extend([TokenTree::Group(parens)]);
                errors.over(&call, hints::function_call_leaf(&name));
                None
            }
            _ => {
                let close = hints::node_word(&name)
                    .or_else(|| behaved_runtime::catalog::closest(&name, NodeKind::dsl_words()).map(String::from));
                let hint = match (close, hints::json_kind(&name)) {
                    (Some(close), Some(_)) => {
                        format!(", did you mean `{close}`? (`{name}` is its name in the JSON form)")
                    }
                    (Some(close), None) => format!(", did you mean `{close}`?"),
                    (None, _) => String::new(),
                };
                errors.over(
                    &word.name,
                    format!(
                        "unknown node `{name}`{hint}\n\
                     known nodes: {}; a leaf value starts with an upper-case type name (`MoveTo {{ .. }}`)",
                        NodeKind::dsl_words().collect::<Vec<_>>().join(", ")
                    ),
                );
                None
            }
        };
    let mut node = plain(kind.unwrap_or(Kind::Invalid), span, label);
    node.children.extend(guard);
    let Some(block) = word.children else { return node };
    node.braces = Some(block.span);
    match &mut node.kind {
        Kind::Scope(vars) => *vars = block.lets,
        _ => {
            if let Some(var) = block.lets.first() {
                errors.over(&var.name, "`let` declares a node-local variable only in `scope { .. }`");
            }
        }
    }
    let weighted = matches!(node.kind, Kind::Weighted(_));
    let mut weights = Vec::new();
    for mut child in block.nodes {
        if weighted {
            match child.weight.take() {
                Some(w) => weights.push(weight(w, errors)),
                None => errors.at(
                    node_span(&child),
                    "every child of `weighted` needs a weight: `3 => node`",
                ),
            }
        }
        node.children.push(build_node(child, errors));
    }
    if let Kind::Weighted(w) = &mut node.kind {
        let literal_total = weights.iter().try_fold(0u32, |sum, w| match w {
            Weight::Literal(v) => sum.checked_add(*v),
            Weight::Const(_) => Some(sum),
        });
        if literal_total.is_none() {
            errors.at(span, "the weights add up to more than `u32::MAX`; scale them down");
        }
        *w = weights;
    }
    node
}

/// A positive integer weight: a literal, or a constant checked by rustc.
fn weight(expr: Expr, errors: &mut Errors) -> Weight {
    match literal_of(&expr) {
        Some((false, Lit::Int(i))) => match i.base10_parse::<u32>() {
            Ok(0) => {
                errors.over(
                    &expr,
                    "a weight of 0 means the child is never chosen; remove the child instead",
                );
                Weight::Literal(1)
            }
            Ok(w) => Weight::Literal(w),
            Err(_) => {
                errors.over(&expr, "a weight must fit in a `u32`");
                Weight::Literal(1)
            }
        },
        Some(_) => {
            errors.over(
                &expr,
                "a weight must be a positive integer (`3 => node`) or a `u32` constant (`HEAVY => node`)",
            );
            Weight::Literal(1)
        }
        None => Weight::Const(expr),
    }
}

/// `sequence(a, b)`: children written in parentheses, as in function calls or
/// behavior3's constructors, for a node that takes no arguments and no braces
/// after them. One error that says where children go, instead of "takes no
/// arguments" followed by "empty `sequence`".
fn children_in_parentheses(word: &WordNode, span: Span, label: String, errors: &mut Errors) -> Option<Node> {
    let args = word.args.as_ref()?;
    let name = word.name.to_string();
    use NodeKind as K;
    let braced = matches!(
        NodeKind::from_dsl_word(&name),
        Some(
            K::Sequence
                | K::SequenceAlways
                | K::Selector
                | K::Random
                | K::Shuffle
                | K::Invert
                | K::ForceSuccess
                | K::ForceFailure
        )
    );
    if !braced || word.children.is_some() || args.tokens.is_empty() {
        return None;
    }
    let written = match word.reactive {
        Some(_) => format!("reactive {name}"),
        None => name,
    };
    errors.at(
        args.span,
        format!(
            "children go in braces, not parentheses: write `{written} {{ {} }}`",
            render(&args.tokens)
        ),
    );
    Some(plain(Kind::Invalid, span, label))
}

fn no_args(kind: Kind, name: &str, args: Option<&Args>, errors: &mut Errors) -> Option<Kind> {
    if let Some(args) = args {
        errors.at(args.span, format!("`{name}` takes no arguments"));
    }
    Some(kind)
}

/// The single argument of `repeat(n)`, `wait(d)`, ...; reports a missing or extra one.
fn single_arg(word: &WordNode, what: &str, errors: &mut Errors) -> Option<Expr> {
    let name = &word.name;
    let Some(args) = &word.args else {
        errors.over(&name, format!("`{name}` needs {what}: `{name}(..)`"));
        return None;
    };
    let parsed = Punctuated::<Expr, Token![,]>::parse_terminated.parse2(args.tokens.clone());
    match parsed {
        Ok(list) if list.len() == 1 => list.into_iter().next(),
        Ok(list) if list.is_empty() => {
            errors.at(args.span, format!("`{name}` needs {what}"));
            None
        }
        Ok(list) => {
            errors.at(
                list[1].span(),
                format!("`{name}` takes one argument ({what}), found {}", list.len()),
            );
            None
        }
        Err(e) => {
            match hints::unbraced_statements(&args.tokens) {
                Some((semi, braced)) => errors.at(
                    semi,
                    format!("a closure body with statements goes in braces: `{name}({braced})`"),
                ),
                None => errors.push(e),
            }
            None
        }
    }
}

fn count(word: &WordNode, errors: &mut Errors) -> Option<Count> {
    let expr = single_arg(word, "a count", errors)?;
    let name = word.name.to_string();
    count_of(expr, &name, |n| format!("{name}({n})"), errors)
}

/// A positive count of node `name` (a literal, or a constant checked by
/// rustc); `written(n)` is how count `n` is written (`repeat(3)`, `max 3`).
fn count_of(expr: Expr, name: &str, written: impl Fn(&str) -> String, errors: &mut Errors) -> Option<Count> {
    match literal_of(&expr) {
        Some((false, Lit::Int(i))) => match i.base10_parse::<u32>() {
            Ok(0) => {
                errors.over(
                    &i,
                    format!("`{}` never runs its child; the count must be at least 1", written("0")),
                );
                None
            }
            Ok(_) if !matches!(i.suffix(), "" | "u8" | "u16" | "u32" | "u64" | "usize") => {
                errors.over(
                    &i,
                    format!(
                        "`{name}` expects a plain count (`{}`), found the suffix `{}`",
                        written("3"),
                        i.suffix()
                    ),
                );
                None
            }
            Ok(n) => Some(Count::Literal(u64::from(n))),
            Err(_) => {
                errors.over(&i, format!("`{name}` count must fit in a `u32`"));
                None
            }
        },
        Some((negative, lit)) => {
            let found = if negative {
                format!("`-{}`", render(&lit.to_token_stream()))
            } else {
                describe(&lit)
            };
            errors.over(
                &expr,
                format!("`{name}` expects a positive integer count, found {found}"),
            );
            None
        }
        None => Some(Count::Expr(expr)),
    }
}

/// The duration forms, for messages.
const DURATION_FORMS: &str = "seconds (`1.5`, `2s`), milliseconds (`500ms`), minutes (`1.5min`) or hours (`1h`)";

fn duration(word: &WordNode, errors: &mut Errors) -> Option<Duration> {
    let expr = single_arg(word, "a duration", errors)?;
    let name = &word.name;
    let value = match literal_of(&expr) {
        Some((false, lit @ (Lit::Float(_) | Lit::Int(_)))) => match seconds_of(&lit) {
            Ok(v) => v,
            Err(message) => {
                errors.over(&expr, format!("`{name}`: {message}"));
                return None;
            }
        },
        Some((negative, lit)) => {
            let found = if negative {
                format!("`-{}`", render(&lit.to_token_stream()))
            } else {
                describe(&lit)
            };
            errors.over(
                &expr,
                format!("`{name}` expects a duration >= 0: {DURATION_FORMS}; found {found}"),
            );
            return None;
        }
        None => return Some(Duration::Expr(expr)),
    };
    if value.is_finite() {
        Some(Duration::Literal(value))
    } else {
        errors.over(
            &expr,
            format!("`{name}` duration is too large: it must be a finite number of seconds"),
        );
        None
    }
}

/// The seconds a numeric literal stands for, read with its unit suffix.
fn seconds_of(lit: &Lit) -> Result<f64, String> {
    let (number, suffix) = match lit {
        Lit::Int(i) => (i.base10_digits().parse::<f64>(), i.suffix()),
        Lit::Float(f) => (f.base10_digits().parse::<f64>(), f.suffix()),
        _ => unreachable!("only numbers have units"),
    };
    let unit = match suffix {
        "" | "s" | "f64" | "f32" => 1.0,
        "ms" => 0.001,
        "min" => 60.0,
        "h" => 3600.0,
        other => return Err(format!("unknown unit `{other}`; a duration is {DURATION_FORMS}")),
    };
    number
        .map(|n| n * unit)
        .map_err(|_| format!("`{}` is not a number", render(&lit.to_token_stream())))
}

/// A literal argument, possibly negated: `(negated, literal)`.
fn literal_of(expr: &Expr) -> Option<(bool, Lit)> {
    match expr {
        Expr::Lit(l) => Some((false, l.lit.clone())),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => literal_of(&u.expr).map(|(n, l)| (!n, l)),
        Expr::Paren(p) => literal_of(&p.expr),
        _ => None,
    }
}

fn describe(lit: &Lit) -> String {
    let kind = match lit {
        Lit::Str(_) => "a string",
        Lit::ByteStr(_) | Lit::CStr(_) => "a byte string",
        Lit::Byte(_) | Lit::Char(_) => "a character",
        Lit::Int(_) => "an integer",
        Lit::Float(_) => "a float",
        Lit::Bool(_) => "a bool",
        _ => "a literal",
    };
    format!("{kind} `{}`", render(&lit.to_token_stream()))
}

fn parallel(word: &WordNode, errors: &mut Errors) -> Option<Kind> {
    const POLICY: &str = "`parallel(all)`, `parallel(any)`, `parallel(main)` or `parallel(success = S, failure = F)`";
    let Some(args) = &word.args else {
        errors.over(&word.name, format!("`parallel` needs a policy: {POLICY}"));
        return None;
    };
    let parsed = Punctuated::<Expr, Token![,]>::parse_terminated.parse2(args.tokens.clone());
    let list = match parsed {
        Ok(list) => list,
        Err(e) => {
            errors.push(e);
            return None;
        }
    };
    let single = if list.len() == 1 {
        match &list[0] {
            Expr::Path(p) => p.path.get_ident().map(ToString::to_string),
            _ => None,
        }
    } else {
        None
    };
    match single.as_deref() {
        Some("all") => {
            return Some(Kind::Parallel {
                success: Threshold::All,
                failure: Threshold::Count(1, args.span),
            });
        }
        Some("any") => {
            return Some(Kind::Parallel {
                success: Threshold::Any,
                failure: Threshold::All,
            });
        }
        Some("main") => return Some(Kind::ParallelMain),
        _ => {}
    }
    let (mut success, mut failure) = (None, None);
    let mut ok = !list.is_empty();
    for arg in &list {
        let Expr::Assign(assign) = arg else {
            errors.over(&arg, format!("unknown parallel policy; expected {POLICY}"));
            ok = false;
            continue;
        };
        let key = match &*assign.left {
            Expr::Path(p) => p.path.get_ident().map(ToString::to_string),
            _ => None,
        };
        let slot = match key.as_deref() {
            Some("success") => &mut success,
            Some("failure") => &mut failure,
            _ => {
                errors.over(&assign.left, "expected `success = N` or `failure = N`");
                ok = false;
                continue;
            }
        };
        match literal_of(&assign.right) {
            Some((false, Lit::Int(i))) => match i.base10_parse::<u32>() {
                Ok(n) if n > 0 => *slot = Some(Threshold::Count(n, i.span())),
                _ => {
                    errors.over(&i, "a parallel threshold must be a positive integer");
                    ok = false;
                }
            },
            _ => {
                errors.over(&assign.right, "a parallel threshold must be a positive integer literal");
                ok = false;
            }
        }
    }
    if list.is_empty() {
        errors.at(args.span, format!("`parallel` needs a policy: {POLICY}"));
    }
    ok.then(|| Kind::Parallel {
        success: success.unwrap_or(Threshold::All),
        failure: failure.unwrap_or(Threshold::All),
    })
}

/// The argument of `cond(..)` / `act(..)`: a closure or a leaf value.
fn leaf_arg(word: &WordNode, errors: &mut Errors) -> Option<Leaf> {
    let what = if word.name == "cond" {
        "a closure `|c| ..` returning bool, or a value implementing `behaved::Condition`"
    } else {
        "a closure `|c| ..` on the context, or a value implementing `behaved::Action`"
    };
    if word.name == "act"
        && let Some(args) = &word.args
        && let Some(rest) = after_async(&args.tokens)
    {
        return async_leaf(rest, errors);
    }
    match single_arg(word, what, errors)? {
        Expr::Closure(c) => {
            if c.inputs.len() != 1 {
                errors.at(
                    c.or1_token.span,
                    format!("`{}` closures take one argument, the context", word.name),
                );
                return None;
            }
            if word.name == "cond" {
                reads_only(&c, errors);
            }
            Some(Leaf::Inline(Expr::Closure(c)))
        }
        expr => leaf_arg_value(expr, errors),
    }
}

/// Whether `leaf` is an async action (`act(async ..)`, stored in `behaved::Async`).
pub(crate) fn is_async(leaf: &Leaf) -> bool {
    matches!(leaf, Leaf::Value { ty: Type::Path(tp), .. }
        if tp.path.segments.len() == 3 && tp.path.segments[2].ident == "Async"
            && tp.path.segments[1].ident == "__private")
}

/// The tokens after a leading `async` keyword in `act(async ..)`, if any.
fn after_async(tokens: &TokenStream) -> Option<TokenStream> {
    let mut iter = tokens.clone().into_iter();
    match iter.next()? {
        TokenTree::Ident(i) if i == "async" => Some(iter.collect()),
        _ => None,
    }
}

/// `act(async Value)`: an `AsyncAction` value, stored in the tree wrapped in
/// `behaved::Async` (its future inline, next to it).
fn async_leaf(tokens: TokenStream, errors: &mut Errors) -> Option<Leaf> {
    const FORM: &str = "`act(async MyTask { .. })`, with `MyTask` implementing `behaved::AsyncAction`";
    let expr: Expr = match syn::parse2(tokens) {
        Ok(expr) => expr,
        Err(e) => {
            errors.at(e.span(), format!("expected an async action value: {FORM}"));
            return None;
        }
    };
    if matches!(expr, Expr::Block(_) | Expr::Closure(_) | Expr::Async(_)) {
        errors.over(
            &expr,
            format!(
                "an async action is a value whose type implements `behaved::AsyncAction` (its `start` returns the future; \
                 return a `behaved::BoxFuture` from an `async` block): {FORM}"
            ),
        );
        return None;
    }
    let Some(ty) = type_of_value(&expr) else {
        errors.over(
            &expr,
            "cannot tell the type of this async action; write it as `Type`, `Type { .. }`, \
             `Type(..)` or `Type::constructor(..)`",
        );
        return None;
    };
    // The future is named in the field's type, and the value is made
    // without a bound (`async_leaf`): a type that is not an async action
    // fails where its future is named, not at every use of the wrapper.
    let span = ty.span();
    let private = crate::facade::private(span);
    Some(Leaf::Value {
        ty: syn::parse_quote_spanned!(span=> #private::Async<#ty, <#ty as #private::Task>::Future>),
        expr: syn::parse_quote_spanned!(span=> #private::async_leaf(#expr)),
        json: None,
    })
}

/// A leaf value and the type of the field that stores it.
fn leaf_value(expr: Expr, errors: &mut Errors) -> Option<Leaf> {
    match type_of_value(&expr) {
        Some(ty) => Some(Leaf::Value { ty, expr, json: None }),
        None => {
            errors.over(
                &expr,
                "cannot tell the type of this leaf value; write it as `Type`, `Type { .. }`, \
                 `Type(..)`, `Type::constructor(..)` or `leaf::<Type>(expr)`",
            );
            None
        }
    }
}

/// The type of a leaf value, read from its syntax.
fn type_of_value(expr: &Expr) -> Option<Type> {
    let path_type = |path: &syn::Path| -> Type {
        syn::TypePath {
            qself: None,
            path: path.clone(),
        }
        .into()
    };
    match expr {
        Expr::Path(p) if p.qself.is_none() => Some(path_type(&p.path)),
        Expr::Struct(s) if s.qself.is_none() => Some(path_type(&s.path)),
        Expr::Paren(p) => type_of_value(&p.expr),
        Expr::Call(call) => {
            let Expr::Path(func) = &*call.func else { return None };
            let path = &func.path;
            let last = path.segments.last()?;
            if path.segments.len() == 1 && last.ident == "leaf" {
                // leaf::<Type>(expr)
                if let syn::PathArguments::AngleBracketed(args) = &last.arguments
                    && let Some(syn::GenericArgument::Type(ty)) = args.args.first()
                {
                    return Some(ty.clone());
                }
                return None;
            }
            if starts_upper(&last.ident) {
                // A tuple struct: `Patrol(3)`.
                Some(path_type(path))
            } else if path.segments.len() >= 2 {
                // A constructor: `Patrol::new(3)` is a `Patrol`.
                let mut owner = path.clone();
                owner.segments.pop();
                owner.segments.pop_punct();
                Some(path_type(&owner))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The inner expression of `leaf::<Type>(expr)`, or the value itself.
pub fn value_expr(expr: &Expr) -> &Expr {
    if let Expr::Call(call) = expr
        && let Expr::Path(func) = &*call.func
        && func.path.segments.len() == 1
        && func.path.segments[0].ident == "leaf"
        && call.args.len() == 1
    {
        return &call.args[0];
    }
    expr
}

fn starts_upper(ident: &Ident) -> bool {
    ident.to_string().starts_with(|c: char| c.is_ascii_uppercase())
}

fn subtree(word: &WordNode, errors: &mut Errors) -> Option<Kind> {
    const FORM: &str = "`subtree(Type)` or `subtree(Type, |c| &mut c.part)`";
    let Some(args) = &word.args else {
        errors.over(&word.name, format!("`subtree` needs the tree's type: {FORM}"));
        return None;
    };
    let parser = |input: syn::parse::ParseStream| -> syn::Result<(Type, Option<Expr>)> {
        let ty: Type = input.parse()?;
        if input.is_empty() {
            return Ok((ty, None));
        }
        input.parse::<Token![,]>()?;
        let map: Expr = input.parse()?;
        if !input.is_empty() {
            input.parse::<Token![,]>()?;
        }
        if !input.is_empty() {
            return Err(input.error(format!("unexpected tokens; expected {FORM}")));
        }
        Ok((ty, Some(map)))
    };
    match parser.parse2(args.tokens.clone()) {
        Ok((ty, map)) => {
            if let Some(m) = &map
                && !matches!(m, Expr::Closure(c) if c.inputs.len() == 1)
            {
                errors.over(
                    &m,
                    format!("the context mapping must be a closure `|c| &mut c.part`; expected {FORM}"),
                );
                return None;
            }
            Some(Kind::Subtree { ty, map })
        }
        Err(e) => {
            errors.push(e);
            None
        }
    }
}

/// `sequence`, `wait(1.0)`, `reactive selector`: the node word and its arguments.
fn label_of(word: &WordNode) -> String {
    let mut label = String::new();
    if word.reactive.is_some() {
        label.push_str("reactive ");
    }
    label.push_str(&word.name.to_string());
    if let Some(args) = &word.args {
        label.push('(');
        label.push_str(&render(&args.tokens));
        label.push(')');
    }
    label
}

/// The source line of `span` (1-based), or 0 outside a compiler.
pub fn line_of(span: Span) -> u32 {
    u32::try_from(span.start().line).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(src: &str) -> (Vec<Tree>, Vec<String>) {
        let input: crate::parse::Input = syn::parse_str(src).unwrap();
        let mut errors = Errors::default();
        let trees = build(input, &mut errors);
        (trees, errors.messages())
    }

    fn root(src: &str) -> Node {
        let (mut trees, errors) = model(src);
        assert!(errors.is_empty(), "{errors:?}");
        trees.remove(0).roots.remove(0)
    }

    #[test]
    fn words_resolve_to_kinds_with_parameters() {
        let n = root(
            "tree T for C { sequence { repeat(3) { wait(1.5) }, parallel(success = 2, failure = 1) { success, failure }, reactive fallback { running } } }",
        );
        assert!(matches!(n.kind, Kind::Sequence));
        assert!(matches!(n.children[0].kind, Kind::Repeat(Count::Literal(3))));
        assert!(matches!(n.children[0].children[0].kind, Kind::Wait(Duration::Literal(d)) if d == 1.5));
        assert!(matches!(
            n.children[1].kind,
            Kind::Parallel {
                success: Threshold::Count(2, _),
                failure: Threshold::Count(1, _)
            }
        ));
        assert!(matches!(n.children[2].kind, Kind::ReactiveSelector));
        assert_eq!(n.children[2].label, "reactive fallback");
    }

    #[test]
    fn leaf_values_get_their_types() {
        let n = root(
            "tree T for C { sequence { Face, Move { speed: 2 }, m::Hit(3), Patrol::new(1), leaf::<Dir>(Dir::Left), cond(IsNight) } }",
        );
        let types: Vec<String> = n
            .children
            .iter()
            .map(|c| match &c.kind {
                Kind::Act(Leaf::Value { ty, .. }) | Kind::Cond(Leaf::Value { ty, .. }) => render(&ty.to_token_stream()),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(types, ["Face", "Move", "m::Hit", "Patrol", "Dir", "IsNight"]);
    }

    #[test]
    fn typos_get_a_suggestion_and_all_errors_are_reported() {
        let (_, errors) =
            model("tree T for C { sequnce { repeat(-1) { success }, wait(\"x\"), selectr { failure } } }");
        assert_eq!(errors.len(), 4, "{errors:?}");
        assert!(
            errors[0].starts_with("unknown node `sequnce`, did you mean `sequence`?"),
            "{}",
            errors[0]
        );
        assert_eq!(errors[1], "`repeat` expects a positive integer count, found `-1`");
        assert_eq!(
            errors[2],
            "`wait` expects a duration >= 0: seconds (`1.5`, `2s`), milliseconds (`500ms`), minutes (`1.5min`) or hours (`1h`); found a string `\"x\"`"
        );
        assert!(errors[3].starts_with("unknown node `selectr`, did you mean `selector`?"));
    }

    #[test]
    fn for_reads_item_type_source_and_capacity() {
        let n = root("tree T for C { 'rows: for t: (u8, u8) in |c| c.cells.iter() max CELLS { act(|_| *t) } }");
        let Kind::ForEach {
            source: ForSource::Closure { var, ty, items, .. },
            max,
        } = &n.kind
        else {
            panic!("{:?}", n.kind)
        };
        assert_eq!(var, "t");
        assert_eq!(render(&ty.to_token_stream()), "(u8, u8)");
        assert_eq!(render(&items.to_token_stream()), "c.cells.iter()");
        assert!(matches!(max, Count::Expr(_)));
        assert_eq!(n.label, "'rows: for t: (u8, u8) in |c| c.cells.iter() max CELLS");
        assert!(n.loop_label.is_some() && n.children.len() == 1);
    }

    #[test]
    fn parallel_policies() {
        let (_, errors) = model("tree T for C { parallel { success } }");
        assert!(errors[0].starts_with("`parallel` needs a policy"), "{errors:?}");
        let n = root("tree T for C { parallel(any) { success } }");
        assert!(matches!(
            n.kind,
            Kind::Parallel {
                success: Threshold::Any,
                failure: Threshold::All
            }
        ));
        let (_, errors) = model("tree T for C { parallel(success = 0, speed = 1) { success } }");
        assert_eq!(
            errors,
            [
                "a parallel threshold must be a positive integer",
                "expected `success = N` or `failure = N`"
            ]
        );
    }

    #[test]
    fn labels_read_like_source() {
        let n = root(
            "tree T for C { sequence { cond(|c| c.hp < 10 && !c.dead), act(|c: &mut C| c.say(format!(\"hi\"))), Move { to: (1, 2) }, wait(0.5) } }",
        );
        let labels: Vec<&str> = n.children.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "cond(|c| c.hp < 10 && !c.dead)",
                "act(|c: &mut C| c.say(format!(\"hi\")))",
                "Move { to: (1, 2) }",
                "wait(0.5)"
            ]
        );
    }
}

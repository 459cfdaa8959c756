//! Stage 2: syntax to meaning. Resolves node words to node kinds (suggesting the
//! closest name for typos), reads their arguments into typed parameters, and
//! works out the type of each leaf value so it can be stored as a field.
//! Every problem is recorded and the rest of the tree is still built.

// The model lives only during expansion; boxing syntax trees would buy nothing.
#![allow(clippy::large_enum_variant)]

use behaved_format::utility::Choice;
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

mod args;
mod branches;
mod build;
mod leaves;
mod utility;

use args::*;
use branches::*;
pub use build::*;
pub use leaves::*;
use utility::*;
pub use utility::{literal_curve, number, score_expr};

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
    /// A file's considerations with parameters: each an associated function
    /// (its name, its item) that builds the consideration once per process.
    /// `with_seed` calls each, so that their parameters are read when the
    /// tree is built, as its leaves' are, and no tick allocates.
    pub json_scores: Vec<(Ident, TokenStream)>,
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
    /// A kind that holds nothing but its children (`sequence`, `invert`,
    /// `abort_if`, `success`, ..: [`NodeKind::holds_only_children`]); its
    /// facts are the catalogue's. For `while`, `abort_if` and `latch` the
    /// first child is the condition ([`Kind::condition_children`]).
    Plain(NodeKind),
    /// `parallel(all | any | success = S, failure = F)`.
    Parallel {
        /// Successes needed.
        success: Threshold,
        /// Failures that fail the parallel.
        failure: Threshold,
    },
    /// `weighted { w => child, .. }`, with the weights in child order.
    Weighted(Vec<Weight>),
    /// `utility(..) { score => child, .. }`, with the scores in child order.
    Utility {
        /// How it chooses.
        choose: Choice,
        /// Each child's score: a closure `|c| ..` giving an `f32`, or a value
        /// implementing `Consideration` (curves and `all(..)` included).
        scores: Vec<Expr>,
        /// The scores as a JSON file wrote them (a tree compiled from one):
        /// its parts are labelled as the interpreter labels them from the
        /// same file, not by the generated code. `None` in the DSL.
        written: Option<Vec<behaved_format::utility::Score>>,
    },
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
    /// `repeat(n)`.
    Repeat(Count),
    /// `retry(n)`.
    Retry(Count),
    /// `for var: ty in |param| items max N { body }`, or a JSON tree's
    /// `forEach`: children are the body.
    ForEach {
        /// Where the items come from.
        source: ForSource,
        /// The most items the loop holds.
        max: Count,
    },
    /// `pick var: ty in |param| items max N by |c, x| score { body }`, or a
    /// JSON tree's `pick`: the body runs once with the best-scoring
    /// candidate bound (selected, from JSON); children are the body.
    Pick {
        /// Where the candidates come from (a closure in the DSL, a list from JSON).
        source: ForSource,
        /// The most candidates it holds.
        max: Count,
        /// The score of one candidate.
        score: Box<PickScore>,
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
    /// `scope { let x: T = init; child }`: node-local variables.
    Scope(Vec<LetVar>),
    /// `wait(d)`.
    Wait(Duration),
    /// `wait_until(c)`: the condition, checked on every tick.
    WaitUntil(Leaf),
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
        /// Its blackboard keys remapped (a file's `"remap"`, BT.CPP's
        /// `<SubTree ID="X" goal="{target}"/>`): the subtree's key, this
        /// tree's key it stands for, and this tree's `ports { .. }` entry
        /// of that key.
        remap: Vec<(String, String, TokenStream)>,
    },
}

impl Kind {
    /// The kind for the catalogue's `kind` when it holds nothing more than
    /// its children ([`NodeKind::holds_only_children`]: [`Kind::Plain`], or
    /// a `Scope` before its variables are added): the DSL and the JSON form
    /// build it alike.
    pub fn plain(kind: NodeKind) -> Option<Kind> {
        match kind {
            NodeKind::Scope => Some(Kind::Scope(Vec::new())),
            kind if kind.holds_only_children() => Some(Kind::Plain(kind)),
            _ => None,
        }
    }

    /// The catalogue entry of this kind.
    pub fn catalog(&self) -> NodeKind {
        match self {
            Kind::Plain(kind) => *kind,
            Kind::Parallel { .. } => NodeKind::Parallel,
            Kind::Weighted(_) => NodeKind::Weighted,
            Kind::Utility { .. } => NodeKind::Utility,
            Kind::If { reactive: false, .. } => NodeKind::If,
            Kind::If { reactive: true, .. } => NodeKind::ReactiveIf,
            Kind::Match { reactive: false, .. } => NodeKind::Match,
            Kind::Match { reactive: true, .. } => NodeKind::ReactiveMatch,
            Kind::Repeat(_) => NodeKind::Repeat,
            Kind::Retry(_) => NodeKind::Retry,
            Kind::ForEach { .. } => NodeKind::ForEach,
            Kind::Pick { .. } => NodeKind::Pick,
            Kind::Break(_) => NodeKind::Break,
            Kind::Continue(_) => NodeKind::Continue,
            Kind::Timeout(_) => NodeKind::Timeout,
            Kind::Delay(_) => NodeKind::Delay,
            Kind::Cooldown(_) => NodeKind::Cooldown,
            Kind::Limit(_) => NodeKind::Limit,
            Kind::Scope(_) => NodeKind::Scope,
            Kind::Wait(_) => NodeKind::Wait,
            Kind::WaitUntil(_) => NodeKind::WaitUntil,
            Kind::Invalid => NodeKind::Success,
            Kind::Cond(_) => NodeKind::Condition,
            Kind::Act(_) => NodeKind::Action,
            Kind::Subtree { .. } => NodeKind::Subtree,
        }
    }

    /// `true` for the loops that `break` and `continue` act on.
    pub fn is_loop(&self) -> bool {
        self.catalog().is_loop()
    }

    /// How many leading children are conditions rather than bodies (the
    /// catalogue's [`behaved_runtime::catalog::Slots::condition_children`]).
    pub fn condition_children(&self) -> usize {
        self.catalog().slots().condition_children()
    }
}

/// How a `pick` scores one candidate.
#[derive(Debug)]
pub enum PickScore {
    /// `by |c, t| body`: the context and candidate parameters, and the body
    /// (an `f32`), written in place.
    Closure(syn::Pat, syn::Pat, Expr),
    /// `by Nearest { .. }`: a value implementing
    /// `behaved::utility::CandidateConsideration<Ctx, T>`.
    Value(Expr),
    /// A JSON tree's `"score"` (its source a `ForSource::List`): a
    /// `behaved::utility::Consideration<Ctx>`, as a `utility` child's score
    /// is written, that reads the candidate the list's `select` put in the
    /// context, as the interpreter scores it; and the score as the file
    /// wrote it, which labels its parts.
    Selected(Expr, behaved_format::utility::Score),
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
    /// A JSON tree's `forEach` or `pick`: a value implementing
    /// `behaved::ItemList`, stored in the tree, whose `select` puts the
    /// current item (a `pick`'s candidate being scored, then its chosen one)
    /// in the context before each tick of the body (as the interpreter does).
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
    fn an_unknown_word_without_a_close_one_lists_every_node_word_of_the_catalogue() {
        let (_, errors) = model("tree T for C { zzzzzz { success } }");
        assert_eq!(errors.len(), 1, "{errors:?}");
        for word in NodeKind::dsl_words() {
            assert!(
                errors[0].contains(&format!(" {word},")) || errors[0].contains(&format!(" {word};")),
                "`{word}` in {errors:?}"
            );
        }
    }

    #[test]
    fn an_unknown_word_with_a_close_one_names_it_and_where_every_word_is() {
        let (_, errors) = model("tree T for C { sequnce { success } }");
        assert_eq!(
            errors,
            [
                "unknown node `sequnce`, did you mean `sequence`?\nevery node word is in the README's \"Nodes\" table; \
              a leaf value starts with an upper-case type name (`MoveTo { .. }`)"
            ]
        );
    }

    #[test]
    fn children_in_parentheses_go_in_braces_for_every_kind_that_holds_only_children() {
        for word in ["sequence", "invert", "until_fail", "run_once", "forever"] {
            let (_, errors) = model(&format!("tree T for C {{ {word}(success, failure) }}"));
            assert_eq!(
                errors,
                [format!(
                    "children go in braces, not parentheses: write `{word} {{ success, failure }}`"
                )]
            );
        }
        // A condition in parentheses is `abort_if`'s argument, not its children.
        let n = root("tree T for C { abort_if(|c| c.stop) { running } }");
        assert!(matches!(n.kind, Kind::Plain(NodeKind::AbortIf)));
        assert!(matches!(n.children[0].kind, Kind::Cond(Leaf::Inline(_))));
        assert_eq!(n.kind.condition_children(), 1);
    }

    #[test]
    fn words_resolve_to_kinds_with_parameters() {
        let n = root(
            "tree T for C { sequence { repeat(3) { wait(1.5) }, parallel(success = 2, failure = 1) { success, failure }, reactive fallback { running } } }",
        );
        assert!(matches!(n.kind, Kind::Plain(NodeKind::Sequence)));
        assert!(matches!(n.children[0].kind, Kind::Repeat(Count::Literal(3))));
        assert!(matches!(n.children[0].children[0].kind, Kind::Wait(Duration::Literal(d)) if d == 1.5));
        assert!(matches!(
            n.children[1].kind,
            Kind::Parallel {
                success: Threshold::Count(2, _),
                failure: Threshold::Count(1, _)
            }
        ));
        assert!(matches!(n.children[2].kind, Kind::Plain(NodeKind::ReactiveSelector)));
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

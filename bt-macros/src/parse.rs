//! Stage 1: tokens to syntax. Recognises the shape of trees and nodes without
//! judging them: which names are nodes and what their arguments mean is the
//! job of [`crate::model`], so one malformed node does not hide the others.

// Syntax lives only during expansion; boxing it would buy nothing.
#![allow(clippy::large_enum_variant)]

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream, Parser, discouraged::Speculative};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Ident, Token, Type, Visibility, braced, parenthesized};

syn::custom_keyword!(tree);
syn::custom_keyword!(reactive);
syn::custom_keyword!(max);
syn::custom_keyword!(pick);
syn::custom_keyword!(by);

/// Everything inside one `behave! { .. }`: any number of trees.
#[derive(Debug)]
pub struct Input {
    /// `crate = path;` before the first tree: the path of the facade crate,
    /// for a user who renamed the dependency.
    pub facade: Option<syn::Path>,
    /// The trees whose header could be read, in source order (a tree whose
    /// body has a syntax error is kept, with the error, so that it gets a stand-in).
    pub trees: Vec<TreeSyntax>,
    /// Syntax errors in tree headers; the parser skips to the next tree after one.
    pub errors: Vec<syn::Error>,
}

/// `#[attrs] vis tree Name for Ctx { root }`.
#[derive(Debug)]
pub struct TreeSyntax {
    /// Doc comments and attributes, carried to the generated struct.
    pub attrs: Vec<Attribute>,
    /// Visibility of the generated struct.
    pub vis: Visibility,
    /// The struct's name.
    pub name: Ident,
    /// The context (blackboard) type the tree runs on.
    pub ctx: Type,
    /// The nodes written in the body; a well-formed tree has exactly one.
    pub roots: Vec<NodeSyntax>,
    /// The braces of the body, for errors about the root.
    pub body_span: Span,
    /// `= json("file.json") { "leafType" => RustType, .. }`: the tree is read from a
    /// file, relative to the crate's `Cargo.toml` or else to the source file.
    pub json: Option<JsonSource>,
    /// The first syntax error in the body; the body is then not read further.
    pub syntax_error: Option<syn::Error>,
}

/// A tree written as JSON in a file (the `behaved-format` form), with the Rust
/// types its leaf type names stand for.
#[derive(Debug)]
pub struct JsonSource {
    /// The file, relative to the crate's `Cargo.toml`.
    pub path: syn::LitStr,
    /// A BehaviorTree.CPP XML file (`xml("file.xml")`), and the
    /// `<BehaviorTree>` to compile when it is not the file's main one
    /// (`xml("file.xml", "Patrol")`).
    pub xml: Option<Option<syn::LitStr>>,
    /// `"leafType" => RustType` (conditions, actions, hooks, subtrees, `forEach` lists) or
    /// `"valueName" => |c| ..` (the value a `match` compares).
    pub leaves: Vec<(syn::LitStr, Expr)>,
    /// `ports { "key" => |c| &mut c.field, .. }`: the blackboard entries the
    /// file's `{key}` ports (`{"$entry": "key"}`) name, each a part of the context.
    pub ports: Vec<(syn::LitStr, Expr)>,
}

/// One node as written, with what may precede it.
#[derive(Debug)]
pub struct NodeSyntax {
    /// `#[on_enter(..)]` and the other lifecycle hooks.
    pub attrs: Vec<Attribute>,
    /// `'outer:` before a loop.
    pub label: Option<syn::Lifetime>,
    /// `3 =>` before a child of `weighted`.
    pub weight: Option<Expr>,
    /// The node itself.
    pub body: NodeBody,
}

/// The node itself, by its syntactic form.
#[derive(Debug)]
pub enum NodeBody {
    /// A lower-case node word with optional `(args)` and `{ children }`:
    /// `sequence { .. }`, `wait(1.0)`, `reactive selector { .. }`, `cond(|c| ..)`.
    Word(WordNode),
    /// A Rust expression making a leaf value: `FaceTarget`, `Move { speed: 2 }`.
    Value(Expr),
    /// `if c { .. } else if d { .. } else { .. }`, possibly `reactive`.
    If(IfSyntax),
    /// `match |c| c.x { pat => node, .. }`, possibly `reactive`.
    Match(MatchSyntax),
    /// `while c { .. }`.
    While(WhileSyntax),
    /// `for x: T in |c| .. max N { .. }`.
    For(ForSyntax),
    /// `break` or `break 'label`.
    Break(Span, Option<syn::Lifetime>),
    /// `continue` or `continue 'label`.
    Continue(Span, Option<syn::Lifetime>),
    /// Attributes or a label with no node after them.
    Missing(Span),
}

/// A node written with a lower-case word.
#[derive(Debug)]
pub struct WordNode {
    /// The `reactive` prefix, if present.
    pub reactive: Option<Span>,
    /// The node word (`sequence`, `loop`, ...).
    pub name: Ident,
    /// The tokens between the parentheses, if any.
    pub args: Option<Args>,
    /// The children between the braces, if any.
    pub children: Option<Children>,
}

/// `( .. )` after a node word.
#[derive(Debug)]
pub struct Args {
    /// The parentheses.
    pub span: Span,
    /// What is inside them.
    pub tokens: TokenStream,
}

/// `{ .. }`: node-local variables, then child nodes.
#[derive(Debug)]
pub struct Children {
    /// The braces.
    pub span: Span,
    /// `let name: Type = init;` declarations (only meaningful in `scope`).
    pub lets: Vec<LetVar>,
    /// The child nodes, in order.
    pub nodes: Vec<NodeSyntax>,
}

/// `let name: Type = init;` in a `scope` block.
#[derive(Debug)]
pub struct LetVar {
    /// The variable's name, visible to inline leaves in the block.
    pub name: Ident,
    /// Its type (stored as a field of the tree).
    pub ty: Type,
    /// Its value each time the block is entered.
    pub init: Expr,
}

/// `reactive? if cond { node } (else if ..)* (else { node })?`
#[derive(Debug)]
pub struct IfSyntax {
    /// The `reactive` prefix, if present.
    pub reactive: Option<Span>,
    /// The `if` keyword.
    pub span: Span,
    /// The condition: a closure on the context or a condition value.
    pub cond: Expr,
    /// The branch taken when the condition holds.
    pub then: Children,
    /// `else { .. }` or `else if ..`.
    pub otherwise: Option<Box<Else>>,
}

/// What follows `else`.
#[derive(Debug)]
pub enum Else {
    /// `else if ..`
    If(NodeSyntax),
    /// `else { .. }`
    Block(Children),
}

/// `reactive? match |c| expr { pat => node, .. }`
#[derive(Debug)]
pub struct MatchSyntax {
    /// The `reactive` prefix, if present.
    pub reactive: Option<Span>,
    /// The `match` keyword.
    pub span: Span,
    /// The scrutinee: a closure on the context.
    pub scrutinee: Expr,
    /// The arms' braces.
    pub braces: Span,
    /// The arms, in order.
    pub arms: Vec<Arm>,
}

/// `pat (if guard)? => node`
#[derive(Debug)]
pub struct Arm {
    /// The pattern, checked for exhaustiveness by rustc.
    pub pat: syn::Pat,
    /// An optional guard.
    pub guard: Option<Expr>,
    /// The node run when the arm is chosen.
    pub node: NodeSyntax,
}

/// `while cond { node }`
#[derive(Debug)]
pub struct WhileSyntax {
    /// The `while` keyword.
    pub span: Span,
    /// The condition, checked at the start of each iteration.
    pub cond: Expr,
    /// The body.
    pub body: Children,
}

/// `for name: Type in |c| items max N { node }`, or `pick name: Type in
/// |c| items max N by |c, name| score { node }`.
#[derive(Debug)]
pub struct ForSyntax {
    /// The `for` (or `pick`) keyword.
    pub span: Span,
    /// `pick`'s score of one candidate, after `by` (`None` for `for`; for a
    /// `pick` without `by`, an error in `model`).
    pub pick: Option<Option<Expr>>,
    /// The item's name, visible to the inline leaves of the body.
    pub var: Ident,
    /// The item's type (`None` when not written: an error in `model`).
    pub ty: Option<Type>,
    /// The items: a closure on the context returning an iterator.
    pub source: Expr,
    /// `max N`: the most items the loop holds (`None` when not written).
    pub max: Option<(Span, Expr)>,
    /// The body.
    pub body: Children,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let facade = if input.peek(Token![crate]) && input.peek2(Token![=]) {
            input.parse::<Token![crate]>()?;
            input.parse::<Token![=]>()?;
            let path = input.call(syn::Path::parse_mod_style).map_err(|e| {
                syn::Error::new(
                    e.span(),
                    "expected the path of the `behaved` crate, as in `crate = ::my_name;`",
                )
            })?;
            input.parse::<Token![;]>()?;
            Some(path)
        } else {
            None
        };
        let mut trees = Vec::new();
        let mut errors = Vec::new();
        while !input.is_empty() {
            let fork = input.fork();
            match fork.parse::<TreeSyntax>() {
                Ok(tree) => {
                    input.advance_to(&fork);
                    trees.push(tree);
                }
                Err(e) => {
                    errors.push(e);
                    skip_tree(input)?;
                }
            }
        }
        Ok(Input { facade, trees, errors })
    }
}

/// Skips what is left of a tree whose header is malformed: everything up to
/// and including the next `{ .. }` at this level (its body).
fn skip_tree(input: ParseStream) -> syn::Result<()> {
    while !input.is_empty() {
        if input.peek(syn::token::Brace) {
            input.parse::<proc_macro2::Group>()?;
            return Ok(());
        }
        input.parse::<proc_macro2::TokenTree>()?;
    }
    Ok(())
}

impl Parse for TreeSyntax {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis: Visibility = input.parse()?;
        input.parse::<tree>().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected `tree`: a tree is declared as `pub tree Name for Context { .. }`",
            )
        })?;
        let name: Ident = input.parse()?;
        if input.peek(Token![<]) {
            let generics: syn::Generics = input.parse()?;
            return Err(syn::Error::new_spanned(
                generics,
                "a tree cannot be generic: `behave!` builds each tree for one concrete context type \
                 (`tree Name for World { .. }`); for several context types, declare a tree for each \
                 (its leaves can be generic over a trait the types share)",
            ));
        }
        input.parse::<Token![for]>().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected `for` and the context type: `tree Name for Context { .. }`",
            )
        })?;
        let mut ctx = input.call(Type::without_plus)?;
        // A context the macro cannot take: reported at the type, and the
        // tree's stand-in is generated for `()` so that nothing else fails.
        let ctx_error = unsized_context(&ctx);
        if ctx_error.is_some() {
            ctx = syn::parse_quote_spanned!(ctx.span()=> ());
        }
        let json = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            let word: Ident = input.parse()?;
            if word != "json" && word != "xml" {
                return Err(syn::Error::new(
                    word.span(),
                    "expected `json(\"file.json\")`: a tree read from a JSON file",
                ));
            }
            let file;
            parenthesized!(file in input);
            let path = file.parse::<syn::LitStr>()?;
            // `xml("file.xml")` or `xml("file.xml", "TreeId")`.
            let xml = (word == "xml")
                .then(|| -> syn::Result<Option<syn::LitStr>> {
                    if file.is_empty() {
                        return Ok(None);
                    }
                    file.parse::<Token![,]>()?;
                    Ok(Some(file.parse()?))
                })
                .transpose()?;
            Some((path, xml))
        } else {
            None
        };
        if !input.peek(syn::token::Brace) {
            return Err(input.error("expected the tree's body: `{ .. }`"));
        }
        // The body is read on its own, so that a syntax error in it stops only this tree.
        let body: proc_macro2::Group = input.parse()?;
        let body_span = body.span();
        let whole = TokenStream::from(proc_macro2::TokenTree::Group(body));
        let parsed = match json {
            None => (|input: ParseStream| {
                let body;
                braced!(body in input);
                parse_nodes(&body)
            })
            .parse2(whole)
            .map(|roots| (roots, None)),
            Some((path, xml)) => (|input: ParseStream| {
                let body;
                braced!(body in input);
                parse_leaf_map(&body)
            })
            .parse2(whole)
            .map(|(leaves, ports)| {
                (
                    Vec::new(),
                    Some(JsonSource {
                        path,
                        xml,
                        leaves,
                        ports,
                    }),
                )
            }),
        };
        let (roots, json, syntax_error) = match parsed {
            Ok((roots, json)) => (roots, json, None),
            Err(e) => (Vec::new(), None, Some(e)),
        };
        let syntax_error = match (ctx_error, syntax_error) {
            (Some(mut first), Some(then)) => {
                first.combine(then);
                Some(first)
            }
            (first, then) => first.or(then),
        };
        Ok(TreeSyntax {
            attrs,
            vis,
            name,
            ctx,
            roots,
            body_span,
            json,
            syntax_error,
        })
    }
}

/// Why `ctx` cannot be a tree's context, if it cannot: a trait object or an
/// `impl Trait` (the generated impls need one sized, concrete type).
fn unsized_context(ctx: &Type) -> Option<syn::Error> {
    let written = crate::render::render(&ctx.to_token_stream());
    let what = match ctx {
        Type::TraitObject(_) => "a trait object",
        Type::ImplTrait(_) => "`impl Trait`",
        Type::Infer(_) => "`_`",
        Type::Paren(p) => return unsized_context(&p.elem),
        Type::Group(g) => return unsized_context(&g.elem),
        _ => return None,
    };
    Some(syn::Error::new_spanned(
        ctx,
        format!(
            "`{written}` cannot be a tree's context: it is {what}, and `behave!` needs one sized, concrete \
             type (a struct or an enum, lifetimes allowed: `tree Name for World<'w> {{ .. }}`); write the tree \
             for the type that implements the trait, or for a struct that holds a `&mut dyn Trait`"
        ),
    ))
}

/// What the braces after `json("file.json")` map: `"leafType" => RustType`
/// pairs, and the blackboard entries of `ports { "key" => |c| &mut c.field, .. }`.
type LeafMap = (Vec<(syn::LitStr, Expr)>, Vec<(syn::LitStr, Expr)>);

/// `"leafType" => RustType, ..` after `json("file.json")`, with at most
/// one `ports { .. }` among them.
fn parse_leaf_map(body: ParseStream) -> syn::Result<LeafMap> {
    let mut leaves = Vec::new();
    let mut ports: Option<Vec<(syn::LitStr, Expr)>> = None;
    while !body.is_empty() {
        if body.peek(Ident) && body.peek2(syn::token::Brace) {
            let word: Ident = body.parse()?;
            if word != "ports" {
                return Err(syn::Error::new(
                    word.span(),
                    "expected `\"leafType\" => RustType` or the blackboard entries `ports { \"key\" => |c| &mut c.field }`",
                ));
            }
            if ports.is_some() {
                return Err(syn::Error::new(
                    word.span(),
                    "a second `ports { .. }`: write every entry in one",
                ));
            }
            let inner;
            braced!(inner in body);
            let mut entries = Vec::new();
            while !inner.is_empty() {
                let key: syn::LitStr = inner.parse()?;
                inner.parse::<Token![=>]>()?;
                entries.push((key, inner.parse()?));
                if !inner.is_empty() {
                    inner.parse::<Token![,]>()?;
                }
            }
            ports = Some(entries);
        } else {
            let name: syn::LitStr = body.parse()?;
            body.parse::<Token![=>]>()?;
            leaves.push((name, body.parse()?));
        }
        if !body.is_empty() {
            body.parse::<Token![,]>()?;
        }
    }
    Ok((leaves, ports.unwrap_or_default()))
}

/// Comma-separated nodes up to the end of `input` (a trailing comma is fine).
pub fn parse_nodes(input: ParseStream) -> syn::Result<Vec<NodeSyntax>> {
    let mut nodes = Vec::new();
    while !input.is_empty() {
        nodes.push(input.parse()?);
        if input.is_empty() {
            break;
        }
        if let Err(e) = input.parse::<Token![,]>() {
            let hint = match nodes.last().map(|n: &NodeSyntax| &n.body) {
                Some(NodeBody::Word(w)) if w.children.is_none() && takes_children(&w.name) => {
                    let args = w
                        .args
                        .as_ref()
                        .map_or(String::new(), |a| format!("({})", crate::render::render(&a.tokens)));
                    format!(
                        "; `{name}{args}` takes its child in braces: `{name}{args} {{ {next} .. }}`",
                        name = w.name,
                        next = input
                            .cursor()
                            .token_tree()
                            .map_or(String::new(), |(t, _)| t.to_string()),
                    )
                }
                Some(NodeBody::Value(value)) if input.peek(syn::token::Brace) => {
                    if let Some((at, message)) = node_word_called_as_a_type(value) {
                        return Err(syn::Error::new(at, message));
                    }
                    String::new()
                }
                _ => String::new(),
            };
            return Err(syn::Error::new(e.span(), format!("expected `,` between nodes{hint}")));
        }
    }
    Ok(nodes)
}

/// Whether the node word `name` has children (a composite or a decorator).
fn takes_children(name: &Ident) -> bool {
    behaved_runtime::NodeKind::from_dsl_word(&name.to_string())
        .is_some_and(|k| k.arity() != behaved_runtime::Arity::Leaf)
}

/// `{ let ..; nodes }`
fn parse_children(input: ParseStream) -> syn::Result<Children> {
    let content;
    let brace = braced!(content in input);
    let mut lets = Vec::new();
    while content.peek(Token![let]) {
        content.parse::<Token![let]>()?;
        let name: Ident = content.parse()?;
        content.parse::<Token![:]>().map_err(|e| {
            syn::Error::new(
                e.span(),
                "a node-local variable needs its type: `let name: Type = value;`",
            )
        })?;
        let ty: Type = content.parse()?;
        content.parse::<Token![=]>()?;
        let init: Expr = content.parse()?;
        content.parse::<Token![;]>()?;
        lets.push(LetVar { name, ty, init });
    }
    Ok(Children {
        span: brace.span.join(),
        lets,
        nodes: parse_nodes(&content)?,
    })
}

impl Parse for NodeSyntax {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let _level = crate::depth::Level::enter().map_err(|_| {
            input.error(format!(
                "this node is nested more than {} levels deep, the most `behave!` takes; \
                 move a part of the tree into a tree of its own and use it here with `subtree(Part)`",
                crate::depth::MAX_DEPTH
            ))
        })?;
        crate::depth::grow(|| parse_node(input))
    }
}

/// One node, with its hooks, label and weight.
fn parse_node(input: ParseStream) -> syn::Result<NodeSyntax> {
    {
        let mut attrs = input.call(Attribute::parse_outer)?;
        // `score => node` in `utility` (any expression: `all((a, b)).weight(2.0) => node`).
        if !input.peek(syn::Lifetime) {
            let fork = input.fork();
            if let Ok(score) = fork.parse::<Expr>()
                && fork.peek(Token![=>])
                && !matches!(score, Expr::Lit(_) | Expr::Path(_))
            {
                input.advance_to(&fork);
                input.parse::<Token![=>]>()?;
                attrs.extend(input.call(Attribute::parse_outer)?);
                let (label, body) = labelled_body(input, &attrs)?;
                return Ok(NodeSyntax {
                    attrs,
                    label,
                    weight: Some(score),
                    body,
                });
            }
        }
        let (mut label, mut body) = labelled_body(input, &attrs)?;
        let mut weight = None;
        // `3 => node` or `WEIGHT => node` in `weighted`: what was read is the weight
        // (in `utility`, the score: `all((..)) => node` reads as a node word first).
        if label.is_none()
            && input.peek(Token![=>])
            && let Some(w) = crate::model::score_expr(&body)
        {
            input.parse::<Token![=>]>()?;
            weight = Some(w);
            // `3 => #[persist] Leaf` as well as `#[persist] 3 => Leaf`.
            attrs.extend(input.call(Attribute::parse_outer)?);
            (label, body) = labelled_body(input, &attrs)?;
        }
        Ok(NodeSyntax {
            attrs,
            label,
            weight,
            body,
        })
    }
}

/// `'label:` (optional) and the node after it.
fn labelled_body(input: ParseStream, attrs: &[Attribute]) -> syn::Result<(Option<syn::Lifetime>, NodeBody)> {
    let label = if input.peek(syn::Lifetime) {
        let label: syn::Lifetime = input.parse()?;
        input.parse::<Token![:]>()?;
        Some(label)
    } else {
        None
    };
    let body = if input.is_empty() || input.peek(Token![,]) {
        let span = attrs
            .first()
            .map(|a| a.pound_token.span)
            .or(label.as_ref().map(|l| l.span()));
        NodeBody::Missing(span.unwrap_or_else(|| input.span()))
    } else {
        input.parse()?
    };
    Ok((label, body))
}

impl Parse for NodeBody {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let reactive_then = |kw: fn(ParseStream) -> bool| {
            input.peek(reactive) && {
                let fork = input.fork();
                fork.parse::<reactive>().is_ok() && kw(&fork)
            }
        };
        if input.peek(Token![if]) || reactive_then(|f| f.peek(Token![if])) {
            return input.parse().map(NodeBody::If);
        }
        if input.peek(Token![match]) || reactive_then(|f| f.peek(Token![match])) {
            return input.parse().map(NodeBody::Match);
        }
        if input.peek(Token![while]) {
            let span = input.parse::<Token![while]>()?.span;
            let cond = Expr::parse_without_eager_brace(input)?;
            let body = parse_children(input)?;
            return Ok(NodeBody::While(WhileSyntax { span, cond, body }));
        }
        if input.peek(Token![for]) || (input.peek(pick) && input.peek2(Ident)) {
            return input.parse().map(NodeBody::For);
        }
        if input.peek(Token![break]) {
            let span = input.parse::<Token![break]>()?.span;
            return Ok(NodeBody::Break(span, input.parse()?));
        }
        if input.peek(Token![continue]) {
            let span = input.parse::<Token![continue]>()?.span;
            return Ok(NodeBody::Continue(span, input.parse()?));
        }
        if is_node_word(input) {
            Ok(NodeBody::Word(input.parse()?))
        } else {
            if let Some(e) = node_word_spelt_as_a_type(input) {
                return Err(e);
            }
            Ok(NodeBody::Value(input.parse()?))
        }
    }
}

impl Parse for ForSyntax {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let picking = input.peek(pick);
        let form = if picking {
            "`pick x: Type in |c| c.items.iter() max 8 by |c, x| score { .. }`"
        } else {
            "`for x: Type in |c| c.items.iter() max 8 { .. }`"
        };
        let span = if picking {
            input.parse::<pick>()?.span
        } else {
            input.parse::<Token![for]>()?.span
        };
        let var: Ident = input
            .parse()
            .map_err(|e| syn::Error::new(e.span(), format!("expected the item's name: {form}")))?;
        let ty = if input.peek(Token![:]) {
            input.parse::<Token![:]>()?;
            Some(input.call(Type::without_plus)?)
        } else {
            None
        };
        input
            .parse::<Token![in]>()
            .map_err(|e| syn::Error::new(e.span(), format!("expected `in` and the items: {form}")))?;
        let source = Expr::parse_without_eager_brace(input)?;
        let max = if input.peek(max) {
            let span = input.parse::<max>()?.span;
            Some((span, Expr::parse_without_eager_brace(input)?))
        } else {
            None
        };
        let pick = if picking {
            Some(if input.peek(by) {
                input.parse::<by>()?;
                Some(Expr::parse_without_eager_brace(input)?)
            } else {
                None
            })
        } else {
            None
        };
        if !input.peek(syn::token::Brace) {
            let what = if picking {
                "`by |c, x| score` or the body"
            } else {
                "`max N` or the loop's body"
            };
            return Err(input.error(format!("expected {what} in braces: {form}")));
        }
        let body = parse_children(input)?;
        Ok(ForSyntax {
            span,
            pick,
            var,
            ty,
            source,
            max,
            body,
        })
    }
}

/// The span of a `reactive` written before a node word (`reactive if`,
/// `reactive match`), if there is one.
fn reactive_prefix(input: ParseStream) -> syn::Result<Option<Span>> {
    Ok(if input.peek(reactive) {
        Some(input.parse::<reactive>()?.span)
    } else {
        None
    })
}

impl Parse for IfSyntax {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let reactive = reactive_prefix(input)?;
        let span = input.parse::<Token![if]>()?.span;
        let cond = Expr::parse_without_eager_brace(input)?;
        let then = parse_children(input)?;
        let otherwise = if input.peek(Token![else]) {
            input.parse::<Token![else]>()?;
            if input.peek(Token![if]) {
                // `else if` inherits `reactive` from the chain's head.
                let mut nested: IfSyntax = input.parse()?;
                nested.reactive = reactive;
                let body = NodeBody::If(nested);
                Some(Box::new(Else::If(NodeSyntax {
                    attrs: Vec::new(),
                    label: None,
                    weight: None,
                    body,
                })))
            } else {
                Some(Box::new(Else::Block(parse_children(input)?)))
            }
        } else {
            None
        };
        Ok(IfSyntax {
            reactive,
            span,
            cond,
            then,
            otherwise,
        })
    }
}

impl Parse for MatchSyntax {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let reactive = reactive_prefix(input)?;
        let span = input.parse::<Token![match]>()?.span;
        let scrutinee = Expr::parse_without_eager_brace(input)?;
        let content;
        let braces = braced!(content in input).span.join();
        let mut arms = Vec::new();
        while !content.is_empty() {
            let pat = syn::Pat::parse_multi_with_leading_vert(&content)?;
            let guard = if content.peek(Token![if]) {
                content.parse::<Token![if]>()?;
                Some(content.parse()?)
            } else {
                None
            };
            content.parse::<Token![=>]>()?;
            let node = content.parse()?;
            arms.push(Arm { pat, guard, node });
            if content.is_empty() {
                break;
            }
            content
                .parse::<Token![,]>()
                .map_err(|e| syn::Error::new(e.span(), "expected `,` between match arms"))?;
        }
        Ok(MatchSyntax {
            reactive,
            span,
            scrutinee,
            braces,
            arms,
        })
    }
}

/// `Sequence { .. }` or `ReactiveSelector { .. }`: a node word written like a
/// type, with children (not struct fields) in the braces.
fn node_word_spelt_as_a_type(input: ParseStream) -> Option<syn::Error> {
    let fork = input.fork();
    let ident: Ident = fork.parse().ok()?;
    let word = crate::hints::node_word(&ident.to_string())?;
    let group: proc_macro2::Group = fork.parse().ok()?;
    if group.delimiter() != proc_macro2::Delimiter::Brace {
        return None;
    }
    let first: Vec<proc_macro2::TokenTree> = group.stream().into_iter().take(2).collect();
    let punct = |t: Option<&proc_macro2::TokenTree>, c: char| matches!(t, Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == c && p.spacing() == proc_macro2::Spacing::Alone);
    // `Name { field: .. }` or `Name { ..base }` is a struct; anything else holds nodes.
    let fields = matches!(first.first(), Some(proc_macro2::TokenTree::Ident(_))) && punct(first.get(1), ':')
        || matches!(first.first(), Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == '.');
    let written = ident.to_string();
    let message = match crate::hints::json_kind(&written) {
        Some(kind) => format!(
            "`{written}` is the JSON form's `{}`; in `behave!` write `{word} {{ .. }}`",
            kind.json_name()
        ),
        None => format!("node words are lower case: write `{word} {{ .. }}`"),
    };
    (!fields).then(|| syn::Error::new(ident.span(), message))
}

/// `Repeater(3) { .. }` or `Timeout(1.0) { .. }`: a node word with arguments
/// written like a type (a call of a tuple struct, to the parser), followed by
/// its children. Where the word is, and the error that names the node word
/// to write.
fn node_word_called_as_a_type(value: &Expr) -> Option<(Span, String)> {
    let Expr::Call(call) = value else { return None };
    let Expr::Path(path) = &*call.func else { return None };
    let ident = path.path.get_ident()?.to_string();
    let word = crate::hints::node_word(&ident)?;
    let args = crate::render::render(&call.args.to_token_stream());
    let why = match crate::hints::json_kind(&ident) {
        Some(kind) => format!("`{ident}` is the JSON form's `{}`", kind.json_name()),
        None => String::from("node words are lower case"),
    };
    Some((
        Spanned::span(&call.func),
        format!("{why}: in `behave!` write `{word}({args}) {{ .. }}`"),
    ))
}

/// `true` when the next tokens are a node word (a lower-case identifier or a
/// keyword such as `loop`, not the start of a path like `leaves::Patrol`).
fn is_node_word(input: ParseStream) -> bool {
    let fork = input.fork();
    let Ok(ident) = fork.call(Ident::parse_any) else {
        return false;
    };
    let text = ident.to_string();
    let lower = text.starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
    lower && !matches!(text.as_str(), "self" | "crate" | "super") && !fork.peek(Token![::]) && !fork.peek(Token![!])
}

impl Parse for WordNode {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let reactive = if input.peek(reactive) && !input.peek2(syn::token::Paren) && !input.peek2(syn::token::Brace) {
            Some(input.parse::<reactive>()?.span)
        } else {
            None
        };
        let name = input.call(Ident::parse_any)?;
        let args = if input.peek(syn::token::Paren) {
            let content;
            let paren = parenthesized!(content in input);
            Some(Args {
                span: paren.span.join(),
                tokens: content.parse()?,
            })
        } else {
            None
        };
        let children = if input.peek(syn::token::Brace) {
            Some(parse_children(input)?)
        } else {
            None
        };
        Ok(WordNode {
            reactive,
            name,
            args,
            children,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> Input {
        syn::parse_str(src).unwrap()
    }

    fn word(node: &NodeSyntax) -> &WordNode {
        match &node.body {
            NodeBody::Word(w) => w,
            other => panic!("expected a node word, got {other:?}"),
        }
    }

    #[test]
    fn a_tree_with_words_values_args_and_children() {
        let input = parse(
            "/// doc
             pub tree Dog for Ctx {
                 loop { sequence { FindTarget { dist: 20 }, leaves::Face, wait(1.0), reactive selector { running } } }
             }",
        );
        let t = &input.trees[0];
        assert_eq!(t.name, "Dog");
        assert_eq!(t.attrs.len(), 1);
        assert_eq!(t.roots.len(), 1);
        let looped = word(&t.roots[0]);
        assert_eq!(looped.name, "loop");
        let seq = word(&looped.children.as_ref().unwrap().nodes[0]);
        let kids = &seq.children.as_ref().unwrap().nodes;
        assert_eq!(kids.len(), 4);
        assert!(matches!(kids[0].body, NodeBody::Value(Expr::Struct(_))));
        assert!(matches!(kids[1].body, NodeBody::Value(Expr::Path(_))));
        assert_eq!(word(&kids[2]).args.as_ref().unwrap().tokens.to_string(), "1.0");
        let reactive = word(&kids[3]);
        assert!(reactive.reactive.is_some());
        assert_eq!(reactive.name, "selector");
    }

    #[test]
    fn several_trees_and_trailing_commas() {
        let input = parse("tree A for X { success, } pub(crate) tree B for Y<'a> { failure }");
        assert_eq!(input.trees.len(), 2);
        assert_eq!(input.trees[0].roots.len(), 1);
    }

    #[test]
    fn missing_comma_is_an_error_at_the_next_node() {
        let input = parse("tree A for X { sequence { success failure } } tree B for X { success }");
        let err = input.trees[0].syntax_error.as_ref().unwrap();
        assert_eq!(err.to_string(), "expected `,` between nodes");
        assert!(input.trees[1].syntax_error.is_none(), "the next tree is read");
    }

    #[test]
    fn control_flow_labels_weights_hooks_and_lets() {
        let input = parse(
            "tree T for C {
                 scope {
                     let n: u32 = 0;
                     'outer: loop {
                         reactive if |c| c.a { break 'outer } else if IsB { continue } else { weighted { 3 => success, 1 => failure } }
                     }
                 }
             }
             tree U for C { #[on_enter(|c| c.go())] match |c| c.stage { S::A | S::B => success, _ if true => while |c| c.x { running } } }",
        );
        let scope = word(&input.trees[0].roots[0]);
        let children = scope.children.as_ref().unwrap();
        assert_eq!(children.lets[0].name, "n");
        let looped = &children.nodes[0];
        assert_eq!(looped.label.as_ref().unwrap().ident, "outer");
        let NodeBody::If(head) = &word(looped).children.as_ref().unwrap().nodes[0].body else {
            panic!()
        };
        assert!(head.reactive.is_some());
        assert!(matches!(head.then.nodes[0].body, NodeBody::Break(_, Some(_))));
        let Some(Else::If(next)) = head.otherwise.as_deref() else {
            panic!()
        };
        let NodeBody::If(next) = &next.body else { panic!() };
        assert!(next.reactive.is_some(), "`else if` inherits `reactive`");
        let Some(Else::Block(last)) = next.otherwise.as_deref() else {
            panic!()
        };
        let weighted = word(&last.nodes[0]);
        assert!(
            weighted
                .children
                .as_ref()
                .unwrap()
                .nodes
                .iter()
                .all(|n| n.weight.is_some())
        );
        let hooked = &input.trees[1].roots[0];
        assert_eq!(hooked.attrs.len(), 1);
        let NodeBody::Match(m) = &hooked.body else { panic!() };
        assert_eq!(m.arms.len(), 2);
        assert!(m.arms[1].guard.is_some());
        assert!(matches!(m.arms[1].node.body, NodeBody::While(_)));
    }

    #[test]
    fn a_hook_on_nothing_is_kept_for_the_model_to_report() {
        let input = parse("tree T for C { sequence { success, #[on_exit(|c| ())] } }");
        let seq = word(&input.trees[0].roots[0]);
        assert!(matches!(
            seq.children.as_ref().unwrap().nodes[1].body,
            NodeBody::Missing(_)
        ));
    }

    #[test]
    fn missing_tree_keyword_says_how_to_declare() {
        let input = parse("pub struct A for X { success } tree B for X { success }");
        assert!(
            input.errors[0].to_string().starts_with("expected `tree`"),
            "{:?}",
            input.errors
        );
        assert_eq!(input.trees.len(), 1, "the parser goes on with the next tree");
    }
}

//! Stage 1: tokens to syntax. Recognises the shape of trees and nodes without
//! judging them: which names are nodes and what their arguments mean is the
//! job of [`crate::model`], so one malformed node does not hide the others.

use proc_macro2::{Span, TokenStream};
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::{Attribute, Expr, Ident, Token, Type, Visibility, braced, parenthesized};

syn::custom_keyword!(tree);
syn::custom_keyword!(reactive);

/// Everything inside one `behave! { .. }`: any number of trees.
#[derive(Debug)]
pub struct Input {
    /// The trees, in source order.
    pub trees: Vec<TreeSyntax>,
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
}

/// One node as written.
#[derive(Debug)]
pub enum NodeSyntax {
    /// A lower-case node word with optional `(args)` and `{ children }`:
    /// `sequence { .. }`, `wait(1.0)`, `reactive selector { .. }`, `cond(|c| ..)`.
    Word(WordNode),
    /// A Rust expression making a leaf value: `FaceTarget`, `Move { speed: 2 }`.
    Value(Expr),
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

/// `{ .. }` after a node word.
#[derive(Debug)]
pub struct Children {
    /// The braces.
    pub span: Span,
    /// The child nodes, in order.
    pub nodes: Vec<NodeSyntax>,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut trees = Vec::new();
        while !input.is_empty() {
            trees.push(input.parse()?);
        }
        Ok(Input { trees })
    }
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
        input.parse::<Token![for]>().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected `for` and the context type: `tree Name for Context { .. }`",
            )
        })?;
        let ctx = input.call(Type::without_plus)?;
        let body;
        let brace = braced!(body in input);
        let roots = parse_nodes(&body)?;
        Ok(TreeSyntax {
            attrs,
            vis,
            name,
            ctx,
            roots,
            body_span: brace.span.join(),
        })
    }
}

/// Comma-separated nodes up to the end of `input` (a trailing comma is fine).
pub fn parse_nodes(input: ParseStream) -> syn::Result<Vec<NodeSyntax>> {
    let mut nodes = Vec::new();
    while !input.is_empty() {
        nodes.push(input.parse()?);
        if input.is_empty() {
            break;
        }
        input
            .parse::<Token![,]>()
            .map_err(|e| syn::Error::new(e.span(), "expected `,` between nodes"))?;
    }
    Ok(nodes)
}

impl Parse for NodeSyntax {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if is_node_word(input) {
            Ok(NodeSyntax::Word(input.parse()?))
        } else {
            Ok(NodeSyntax::Value(input.parse()?))
        }
    }
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
            let content;
            let brace = braced!(content in input);
            Some(Children {
                span: brace.span.join(),
                nodes: parse_nodes(&content)?,
            })
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
        match node {
            NodeSyntax::Word(w) => w,
            NodeSyntax::Value(v) => panic!("expected a node word, got {v:?}"),
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
        assert!(matches!(kids[0], NodeSyntax::Value(Expr::Struct(_))));
        assert!(matches!(kids[1], NodeSyntax::Value(Expr::Path(_))));
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
        let err = syn::parse_str::<Input>("tree A for X { sequence { success failure } }").unwrap_err();
        assert_eq!(err.to_string(), "expected `,` between nodes");
    }

    #[test]
    fn missing_tree_keyword_says_how_to_declare() {
        let err = syn::parse_str::<Input>("pub struct A for X { success }").unwrap_err();
        assert!(err.to_string().starts_with("expected `tree`"), "{err}");
    }
}

//! "Write this instead" for the mistakes people make most: node words spelt
//! like types (`Sequence`, `reactiveSelector`; the words and their aliases are
//! the catalogue's, [`NodeKind::dsl_words`]), conditions written as Rust
//! `if` conditions, closures that change the context where only reading is
//! allowed, closure bodies with statements and no braces.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::visit_mut::VisitMut;
use syn::{Expr, ExprClosure};

use behaved_runtime::catalog::NodeKind;

use crate::render::render;

/// The node word that `written` (`Sequence`, `reactiveSelector`,
/// `ForceSuccess`, `reactive_selector`) most likely means, written the DSL's
/// way: `sequence`, `reactive selector`, `force_success`. A node's name in the
/// JSON form (`condition`, `repeater`, `Inverter`, `forEach`) means its DSL word
/// (`cond`, `repeat`, `invert`, `for`): people who know the file format write it.
pub fn node_word(written: &str) -> Option<String> {
    if let Some(kind) = json_kind(written) {
        return Some(kind.dsl_name().to_string());
    }
    let snake = snake_case(written);
    if let Some(rest) = snake.strip_prefix("reactive_") {
        let reactive = format!("reactive {rest}");
        return NodeKind::from_dsl_word(&reactive).map(|_| reactive);
    }
    (snake != written && NodeKind::dsl_words().any(|w| w == snake)).then_some(snake)
}

/// The node kind whose JSON name is `written`, ignoring the case of its first
/// letter (`Inverter` is `inverter`), when that name is not also a DSL word.
pub fn json_kind(written: &str) -> Option<NodeKind> {
    let mut chars = written.chars();
    let first = chars.next()?.to_ascii_lowercase();
    let json: String = core::iter::once(first).chain(chars).collect();
    NodeKind::ALL
        .iter()
        .copied()
        .find(|k| k.json_name() == json && k.dsl_name() != json)
}

/// `ReactiveSelector` -> `reactive_selector`.
fn snake_case(word: &str) -> String {
    let mut out = String::new();
    for c in word.chars() {
        if c.is_ascii_uppercase() {
            if !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A condition written as a Rust expression (`c.hp > 3`), rewritten as the
/// closure it should be: `|c| c.hp > 3`.
pub fn as_closure(expr: &Expr) -> String {
    format!("|c| {}", render(&expr.to_token_stream()))
}

/// The first place where a closure changes what its parameter points to
/// (`c.hp -= 1`, `c.x = 0`), if any: conditions only read the context.
pub fn assignment_in(closure: &ExprClosure) -> Option<Expr> {
    struct Find(Option<Expr>);
    impl VisitMut for Find {
        fn visit_expr_mut(&mut self, e: &mut Expr) {
            if self.0.is_some() {
                return;
            }
            let assigns = match e {
                Expr::Assign(_) => true,
                Expr::Binary(b) => matches!(
                    b.op,
                    syn::BinOp::AddAssign(_)
                        | syn::BinOp::SubAssign(_)
                        | syn::BinOp::MulAssign(_)
                        | syn::BinOp::DivAssign(_)
                        | syn::BinOp::RemAssign(_)
                        | syn::BinOp::BitXorAssign(_)
                        | syn::BinOp::BitAndAssign(_)
                        | syn::BinOp::BitOrAssign(_)
                        | syn::BinOp::ShlAssign(_)
                        | syn::BinOp::ShrAssign(_)
                ),
                _ => false,
            };
            if assigns {
                self.0 = Some(e.clone());
            } else {
                syn::visit_mut::visit_expr_mut(self, e);
            }
        }
    }
    let mut find = Find(None);
    find.visit_expr_mut(&mut closure.body.clone());
    find.0
}

/// The `&mut` in a closure parameter's type (`|c: &mut Ctx|`), if written.
pub fn mut_param(closure: &ExprClosure) -> Option<&syn::TypeReference> {
    closure.inputs.iter().find_map(|p| match p {
        syn::Pat::Type(t) => match &*t.ty {
            syn::Type::Reference(r) if r.mutability.is_some() => Some(r),
            _ => None,
        },
        _ => None,
    })
}

/// For `|c| c.hp -= 1;` (a closure body ending in `;`): the `;` and the
/// closure with its body in braces, `|c| { c.hp -= 1; }`.
pub fn unbraced_statements(tokens: &TokenStream) -> Option<(proc_macro2::Span, String)> {
    let list: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let semi = list
        .iter()
        .find(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))?
        .span();
    let bars: Vec<usize> = list
        .iter()
        .enumerate()
        .filter(|(_, t)| matches!(t, TokenTree::Punct(p) if p.as_char() == '|'))
        .map(|(i, _)| i)
        .take(2)
        .collect();
    let &[_, close] = bars.as_slice() else { return None };
    let params: TokenStream = list[..=close].iter().cloned().collect();
    let body: TokenStream = list[close + 1..].iter().cloned().collect();
    Some((semi, format!("{} {{ {} }}", render(&params), render(&body))))
}

/// The message for a leaf written as a function call (`walk(3)`): a leaf
/// is a value, and what to write instead; with the node word `name` is one
/// slip from, if any (`wiat(3)`), asked first.
pub fn function_call_leaf(name: &str) -> String {
    let ty: String = name
        .split('_')
        .filter(|part| !part.is_empty())
        .map(|part| part[..1].to_ascii_uppercase() + &part[1..])
        .collect();
    let slip = one_slip_from(name).map_or(String::new(), |word| format!("did you mean `{word}`? Otherwise, "));
    format!(
        "{slip}`{name}(..)` is a function call, and a leaf is a value: a type or a struct value \
         (`{ty}`, `{ty} {{ .. }}`) or a closure (`cond(|c| ..)`, `act(|c| ..)`); to call `{name}` when \
         the leaf ticks, write `cond(|c| {name}(..))` or `act(|c| {name}(..))`"
    )
}

/// The node word that `written` is one slip away from: one letter wrong,
/// missing, extra, or two neighbours swapped (`wiat`, `sequnce`), so a call
/// like `walk(3)` is not taken for a misspelt `wait`.
pub fn one_slip_from(written: &str) -> Option<&'static str> {
    let w = written.as_bytes();
    NodeKind::dsl_words().find(|word| {
        let k = word.as_bytes();
        let (short, long) = if w.len() <= k.len() { (w, k) } else { (k, w) };
        let front = short.iter().zip(long).take_while(|(a, b)| a == b).count();
        let back = |n: usize| {
            short[n..]
                .iter()
                .rev()
                .zip(long.iter().rev())
                .take_while(|(a, b)| a == b)
                .count()
        };
        match long.len() - short.len() {
            // One wrong, or two neighbours swapped.
            0 => {
                front == short.len()
                    || front + 1 + back(front + 1) >= short.len()
                    || (front + 2 <= short.len()
                        && short[front] == long[front + 1]
                        && short[front + 1] == long[front]
                        && front + 2 + back(front + 2) >= short.len())
            }
            // One missing or extra.
            1 => front + back(front) >= short.len(),
            _ => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_slip_is_a_letter_or_a_swap() {
        assert_eq!(one_slip_from("wiat"), Some("wait"));
        assert_eq!(one_slip_from("wair"), Some("wait"));
        assert_eq!(one_slip_from("sequnce"), Some("sequence"));
        assert_eq!(one_slip_from("waits"), Some("wait"));
        assert_eq!(one_slip_from("walk"), None);
        assert_eq!(one_slip_from("go"), None);
    }

    #[test]
    fn node_words_spelt_like_types_or_in_camel_case() {
        assert_eq!(node_word("Sequence").as_deref(), Some("sequence"));
        assert_eq!(node_word("reactiveSelector").as_deref(), Some("reactive selector"));
        assert_eq!(node_word("ReactiveSequence").as_deref(), Some("reactive sequence"));
        assert_eq!(node_word("ForceSuccess").as_deref(), Some("force_success"));
        assert_eq!(node_word("untilFail").as_deref(), Some("until_fail"));
        assert_eq!(node_word("sequence"), None, "already right");
        assert_eq!(node_word("condition").as_deref(), Some("cond"));
        assert_eq!(node_word("Inverter").as_deref(), Some("invert"));
        assert_eq!(node_word("repeater").as_deref(), Some("repeat"));
        assert_eq!(node_word("succeeder").as_deref(), Some("force_success"));
        assert_eq!(node_word("forEach").as_deref(), Some("for"));
        assert_eq!(node_word("parallelMain").as_deref(), Some("parallel(main)"));
        assert_eq!(node_word("Patrol"), None);
    }

    #[test]
    fn assignments_and_statements_are_found() {
        let closure: ExprClosure = syn::parse_str("|c| { c.hp -= 1; c.hp > 0 }").unwrap();
        assert_eq!(render(&assignment_in(&closure).unwrap().to_token_stream()), "c.hp -= 1");
        let reading: ExprClosure = syn::parse_str("|c| c.hp == 3").unwrap();
        assert!(assignment_in(&reading).is_none());
        let tokens: TokenStream = "|c| c.hp -= 1;".parse().unwrap();
        assert_eq!(unbraced_statements(&tokens).unwrap().1, "|c| { c.hp -= 1; }");
    }
}

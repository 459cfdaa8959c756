//! Leaf values: a leaf argument, an async action, and the type of a value stored as a field.

use super::*;

/// The argument of `cond(..)` / `act(..)`: a closure or a leaf value.
pub(super) fn leaf_arg(word: &WordNode, errors: &mut Errors) -> Option<Leaf> {
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
pub(super) fn after_async(tokens: &TokenStream) -> Option<TokenStream> {
    let mut iter = tokens.clone().into_iter();
    match iter.next()? {
        TokenTree::Ident(i) if i == "async" => Some(iter.collect()),
        _ => None,
    }
}

/// `act(async Value)`: an `AsyncAction` value, stored in the tree wrapped in
/// `behaved::Async` (its future inline, next to it).
pub(super) fn async_leaf(tokens: TokenStream, errors: &mut Errors) -> Option<Leaf> {
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
pub(super) fn leaf_value(expr: Expr, errors: &mut Errors) -> Option<Leaf> {
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
pub(super) fn type_of_value(expr: &Expr) -> Option<Type> {
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

pub(super) fn starts_upper(ident: &Ident) -> bool {
    ident.to_string().starts_with(|c: char| c.is_ascii_uppercase())
}

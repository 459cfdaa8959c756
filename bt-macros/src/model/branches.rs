//! Building the branches and the `for` loop: `if`, `match` and `for`, with their conditions, arms and item sources.

use super::*;

pub(super) fn build_if(syntax: IfSyntax, errors: &mut Errors) -> Node {
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

pub(super) fn build_match(syntax: MatchSyntax, errors: &mut Errors) -> Node {
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

/// `for x: T in |c| items max N { body }`, and `pick x: T in |c| items max
/// N by |c, x| score { body }`, which reads its candidates as `for` does.
pub(super) fn build_for(f: crate::parse::ForSyntax, errors: &mut Errors) -> Node {
    let picking = f.pick.is_some();
    let it = if picking { "it" } else { "the loop" };
    let (word, what, form) = if picking {
        (
            "pick",
            "a `pick`",
            "`pick x: Type in |c| c.items.iter() max 8 by |c, x| score { .. }`",
        )
    } else {
        (
            "for",
            "a `for` loop",
            "`for x: Type in |c| c.items.iter() max 8 { .. }`",
        )
    };
    let max_text = f
        .max
        .as_ref()
        .map_or(String::new(), |(_, m)| format!(" max {}", render(&m.to_token_stream())));
    let ty_text =
        f.ty.as_ref()
            .map_or(String::new(), |t| format!(": {}", render(&t.to_token_stream())));
    let by_text = match &f.pick {
        Some(Some(score)) => format!(" by {}", render(&score.to_token_stream())),
        _ => String::new(),
    };
    let label = format!(
        "{word} {}{ty_text} in {}{max_text}{by_text}",
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
                    "the item of {what} needs its type, as {it} keeps a copy of the items: `{word} {}: Type in ..`",
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
                format!("{what} reads its items with a closure on the context: {form}"),
            );
            None
        }
    };
    let max = match f.max {
        Some((_, expr)) => count_of(expr, word, |n| format!("max {n}"), errors),
        None => {
            errors.at(
                f.body.span,
                format!(
                    "{what} needs `max N` before its body, the most items it holds (its copy lives in the tree): {form}"
                ),
            );
            None
        }
    };
    let score = match f.pick {
        None => None,
        Some(Some(Expr::Closure(c))) if c.inputs.len() == 2 => {
            let mut inputs = c.inputs.into_iter();
            let (ctx, item) = (inputs.next().expect("two"), inputs.next().expect("two"));
            Some(Some(Box::new(PickScore::Closure(ctx, item, *c.body))))
        }
        // A consideration value (`by Nearest`, `by Health { max: 100.0 }`).
        Some(Some(value)) if !matches!(value, Expr::Closure(_)) => Some(Some(Box::new(PickScore::Value(value)))),
        Some(Some(other)) => {
            errors.over(
                &other,
                format!("a `pick` scores each candidate with a closure on the context and the candidate, `by |c, x| ..` (an `f32`), or a `CandidateConsideration` value: {form}"),
            );
            Some(None)
        }
        Some(None) => {
            errors.at(
                f.body.span,
                format!("a `pick` needs `by |c, x| score` before its body, the score of one candidate: {form}"),
            );
            Some(None)
        }
    };
    let body_what = if picking { "a `pick` body" } else { "a `for` body" };
    node.children.extend(single_body(f.body, body_what, errors));
    let (Some(ty), Some((param, items)), Some(max)) = (ty, source, max) else {
        return node;
    };
    let source = ForSource::Closure {
        var: f.var,
        ty,
        param,
        items,
    };
    match score {
        Some(Some(score)) => node.kind = Kind::Pick { source, max, score },
        Some(None) => {}
        None => node.kind = Kind::ForEach { source, max },
    }
    node
}

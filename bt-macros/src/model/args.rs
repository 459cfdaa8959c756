//! A node word's arguments: weights, counts, durations and a parallel's policy, each checked where it is written.

use super::*;

/// A positive integer weight: a literal, or a constant checked by rustc.
pub(super) fn weight(expr: Expr, errors: &mut Errors) -> Weight {
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

pub(super) fn count(word: &WordNode, errors: &mut Errors) -> Option<Count> {
    let expr = single_arg(word, "a count", errors)?;
    let name = word.name.to_string();
    count_of(expr, &name, |n| format!("{name}({n})"), errors)
}

/// A positive count of node `name` (a literal, or a constant checked by
/// rustc); `written(n)` is how count `n` is written (`repeat(3)`, `max 3`).
pub(super) fn count_of(expr: Expr, name: &str, written: impl Fn(&str) -> String, errors: &mut Errors) -> Option<Count> {
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
            let found = found(negative, &lit);
            errors.over(
                &expr,
                format!("`{name}` expects a positive integer count, found {found}"),
            );
            None
        }
        None => Some(Count::Expr(expr)),
    }
}

/// How a literal that is not the expected number reads in a message: a
/// negative one as written, another by its kind (`describe`).
fn found(negative: bool, lit: &Lit) -> String {
    if negative {
        format!("`-{}`", render(&lit.to_token_stream()))
    } else {
        describe(lit)
    }
}

/// The duration forms, for messages.
pub(super) const DURATION_FORMS: &str =
    "seconds (`1.5`, `2s`), milliseconds (`500ms`), minutes (`1.5min`) or hours (`1h`)";

/// A timing node's duration in seconds: a literal (with its unit) checked
/// finite and `>= 0` here, or a constant checked by the generated code.
pub(super) fn duration(word: &WordNode, errors: &mut Errors) -> Option<Duration> {
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
            let found = found(negative, &lit);
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
pub(super) fn seconds_of(lit: &Lit) -> Result<f64, String> {
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
pub(super) fn literal_of(expr: &Expr) -> Option<(bool, Lit)> {
    match expr {
        Expr::Lit(l) => Some((false, l.lit.clone())),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => literal_of(&u.expr).map(|(n, l)| (!n, l)),
        Expr::Paren(p) => literal_of(&p.expr),
        _ => None,
    }
}

pub(super) fn describe(lit: &Lit) -> String {
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

pub(super) fn parallel(word: &WordNode, errors: &mut Errors) -> Option<Kind> {
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
        Some("main") => return Some(Kind::Plain(NodeKind::ParallelMain)),
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

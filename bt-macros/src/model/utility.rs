//! `utility`'s arguments (`utility`, `utility(weighted, best = 2)`,
//! `utility(reactive, margin = 0.1)`, `utility(every = 0.5, margin = 0.1)`) and its children's scores (`score =>
//! child`), each checked where it is written (SEMANTICS.md "utility").

use super::*;

const FORMS: &str = "`utility`, `utility(weighted)`, `utility(weighted, best = 2)`, `utility(reactive)`, `utility(reactive, margin = 0.1)` or `utility(every = 0.5)`";

/// `utility(..)`'s arguments.
pub(super) fn utility(word: &WordNode, errors: &mut Errors) -> Option<Choice> {
    let Some(args) = &word.args else {
        return Some(Choice::Best);
    };
    let list = match Punctuated::<Expr, Token![,]>::parse_terminated.parse2(args.tokens.clone()) {
        Ok(list) => list,
        Err(e) => {
            errors.push(e);
            return None;
        }
    };
    let mut items = list.iter();
    let mode = match items.next() {
        None => {
            errors.at(args.span, format!("empty parentheses: write {FORMS}"));
            return None;
        }
        Some(first) => match first {
            Expr::Path(p) if p.path.is_ident("weighted") => Choice::Weighted { best: 0 },
            Expr::Path(p) if p.path.is_ident("reactive") => Choice::Reactive { margin: 0.0 },
            Expr::Assign(a) if matches!(&*a.left, Expr::Path(p) if p.path.is_ident("every")) => {
                match seconds(&a.right) {
                    Some(every) if every.is_finite() && every > 0.0 => Choice::Every { every, margin: 0.0 },
                    _ => {
                        errors.over(
                            &a.right,
                            "`every` is the seconds between scorings: a number literal above 0 (`every = 0.5`)",
                        );
                        return None;
                    }
                }
            }
            other => {
                errors.over(other, format!("unknown way of choosing; expected {FORMS}"));
                return None;
            }
        },
    };
    let mut mode = mode;
    let mut ok = true;
    for arg in items {
        let Expr::Assign(assign) = arg else {
            errors.over(arg, format!("expected `best = N` or `margin = M`: {FORMS}"));
            ok = false;
            continue;
        };
        let key = match &*assign.left {
            Expr::Path(p) => p.path.get_ident().map(ToString::to_string),
            _ => None,
        };
        match (key.as_deref(), &mut mode) {
            (Some("best"), Choice::Weighted { best }) => match literal_of(&assign.right) {
                Some((false, Lit::Int(i))) => match i.base10_parse::<u32>() {
                    Ok(n) if n > 0 => *best = n,
                    _ => {
                        errors.over(&i, "`best` counts children: a positive integer");
                        ok = false;
                    }
                },
                _ => {
                    errors.over(&assign.right, "`best` must be a positive integer literal");
                    ok = false;
                }
            },
            (Some("margin"), Choice::Reactive { margin } | Choice::Every { margin, .. }) => {
                match literal_of(&assign.right) {
                    Some((false, Lit::Float(f))) => match f.base10_parse::<f32>() {
                        Ok(m) if m.is_finite() => *margin = m,
                        _ => {
                            errors.over(&f, "`margin` must be a finite number");
                            ok = false;
                        }
                    },
                    Some((false, Lit::Int(i))) => match i.base10_parse::<u32>() {
                        Ok(m) => *margin = m as f32,
                        Err(_) => {
                            errors.over(&i, "`margin` must be a finite number");
                            ok = false;
                        }
                    },
                    _ => {
                        errors.over(
                            &assign.right,
                            "`margin` must be a number literal of at least 0 (`margin = 0.1`)",
                        );
                        ok = false;
                    }
                }
            }
            (Some("best"), _) => {
                errors.over(
                    &assign.left,
                    "`best = N` limits a draw: write `utility(weighted, best = N)`",
                );
                ok = false;
            }
            (Some("margin"), _) => {
                errors.over(
                    &assign.left,
                    "`margin = M` applies to re-scoring: write `utility(reactive, margin = M)` or `utility(every = D, margin = M)`",
                );
                ok = false;
            }
            (Some("every"), _) => {
                errors.over(
                    &assign.left,
                    "`every = D` is a way of choosing of its own: write it first, `utility(every = D)`",
                );
                ok = false;
            }
            _ => {
                errors.over(&assign.left, format!("expected `best = N` or `margin = M`: {FORMS}"));
                ok = false;
            }
        }
    }
    ok.then_some(mode)
}

/// A number literal's value as `f64` (`every`'s seconds are read at full
/// precision, as the JSON form reads them); `None` for anything else.
fn seconds(expr: &Expr) -> Option<f64> {
    match literal_of(expr)? {
        (false, Lit::Float(f)) => f.base10_parse::<f64>().ok(),
        (false, Lit::Int(i)) => i.base10_parse::<f64>().ok(),
        _ => None,
    }
}

/// A child's score, checked: a curve written with literal parameters
/// (`Curve::Logistic { steepness: 0.0, midpoint: 1.0 }`) anywhere in it is
/// checked by the runtime's rule, and a bad one reported on its parameters.
pub(super) fn score(expr: Expr, errors: &mut Errors) -> Expr {
    check_curves(&expr, errors);
    expr
}

fn check_curves(expr: &Expr, errors: &mut Errors) {
    struct Visit<'e> {
        errors: &'e mut Errors,
    }
    impl<'ast> syn::visit::Visit<'ast> for Visit<'_> {
        fn visit_expr_struct(&mut self, s: &'ast syn::ExprStruct) {
            if let Some(Err(e)) = literal_curve(s).map(|c| c.check()) {
                self.errors.over(s, e.to_string());
            }
            syn::visit::visit_expr_struct(self, s);
        }
    }
    syn::visit::Visit::visit_expr(&mut Visit { errors }, expr);
}

/// A curve written with literal parameters (`Curve::Logistic { steepness:
/// 10.0, midpoint: 0.5 }`, any path ending in `Curve::<Shape>`), as data;
/// `None` for anything else (a piecewise curve, constants).
pub fn literal_curve(s: &syn::ExprStruct) -> Option<behaved_runtime::utility::CurveOf<Vec<(f32, f32)>>> {
    use behaved_runtime::utility::CurveOf;
    let segs: Vec<String> = s.path.segments.iter().map(|g| g.ident.to_string()).collect();
    let n = segs.len();
    if n < 2 || segs[n - 2] != "Curve" || s.rest.is_some() {
        return None;
    }
    let field = |name: &str| -> Option<f32> {
        let f = s
            .fields
            .iter()
            .find(|f| matches!(&f.member, syn::Member::Named(i) if i == name))?;
        number(&f.expr)
    };
    let all = |names: &[&str]| {
        if s.fields.len() != names.len() {
            return None;
        }
        names.iter().map(|n| field(n)).collect::<Option<Vec<f32>>>()
    };
    match segs[n - 1].as_str() {
        "Linear" => all(&["slope", "intercept"]).map(|v| CurveOf::Linear {
            slope: v[0],
            intercept: v[1],
        }),
        "Polynomial" => all(&["exponent", "slope", "shift", "intercept"]).map(|v| CurveOf::Polynomial {
            exponent: v[0],
            slope: v[1],
            shift: v[2],
            intercept: v[3],
        }),
        "Logistic" => all(&["steepness", "midpoint"]).map(|v| CurveOf::Logistic {
            steepness: v[0],
            midpoint: v[1],
        }),
        "Step" => all(&["threshold", "low", "high"]).map(|v| CurveOf::Step {
            threshold: v[0],
            low: v[1],
            high: v[2],
        }),
        _ => None,
    }
}

/// The value of a number literal, `-` included; `None` for anything else.
pub fn number(expr: &Expr) -> Option<f32> {
    match literal_of(expr)? {
        (neg, Lit::Float(f)) => f.base10_parse::<f32>().ok().map(|v| if neg { -v } else { v }),
        (neg, Lit::Int(i)) => i.base10_parse::<f32>().ok().map(|v| if neg { -v } else { v }),
        _ => None,
    }
}

/// What was read before `=>` as an expression: a value (`3`, `Hunger`,
/// `|c| c.hunger`), or a lower-case call that read as a node word
/// (`all((a, b))`). `None` for anything else.
pub fn score_expr(body: &NodeBody) -> Option<Expr> {
    match body {
        NodeBody::Value(e) => Some(e.clone()),
        NodeBody::Word(w) if w.reactive.is_none() && w.children.is_none() => {
            let name = &w.name;
            let tokens = match &w.args {
                Some(args) => {
                    let inner = &args.tokens;
                    quote::quote_spanned!(args.span=> #name(#inner))
                }
                None => quote::quote!(#name),
            };
            syn::parse2(tokens).ok()
        }
        _ => None,
    }
}

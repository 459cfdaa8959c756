//! What an inline closure reads of the context: the top-level fields it
//! touches through its parameter (`|c| c.pos.x > 0` reads `pos`), or
//! unknown. A reactive node whose re-checked conditions all read known
//! fields sleeps until one of them is marked changed (`SEMANTICS.md`,
//! "Sleeping on inputs").
//!
//! The rule is a whitelist, so that whatever it does not understand is
//! unknown: the parameter may only be used as the base of a field access
//! (`c.field`, then anything on that field's value); literals, operators,
//! paths that are not local variables (constants, enum variants:
//! `State::Idle`, `MAX`), calls of functions by path and method calls on
//! what is known are allowed. Anything else is unknown: the parameter used
//! whole (`c.method()`, `f(c)`, `c`), a local variable or node variable (a
//! lower-case single name, which may change between ticks), blocks,
//! closures, macros, `if` and `match` inside the body.

use std::collections::BTreeSet;

use syn::{Expr, Pat};

/// The fields a closure leaf reads, sorted; `None` when unknown (not a
/// closure, or a body the rule above does not accept).
pub fn closure_reads(leaf: &Expr) -> Option<Vec<String>> {
    let Expr::Closure(c) = leaf else { return None };
    if c.inputs.len() != 1 {
        return None;
    }
    // `|_| ..` (no name): reads nothing of the context; the body must still be known.
    let param: String = param_name(&c.inputs[0])?.unwrap_or_default();
    body_reads(&param, &c.body)
}

/// The fields a closure body reads through `param` (`""`: no parameter).
pub fn body_reads(param: &str, body: &Expr) -> Option<Vec<String>> {
    let mut fields = BTreeSet::new();
    visit(param, body, &mut fields).then(|| fields.into_iter().collect())
}

/// `Some(Some(name))` for `c` or `c: &Ctx`, `Some(None)` for `_`, `None` otherwise.
pub fn param_name(pat: &Pat) -> Option<Option<String>> {
    match pat {
        Pat::Ident(i) if i.subpat.is_none() && i.by_ref.is_none() => Some(Some(i.ident.to_string())),
        Pat::Wild(_) => Some(None),
        Pat::Type(t) => param_name(&t.pat),
        _ => None,
    }
}

/// Whether `e` is known, adding the fields it reads.
fn visit(param: &str, e: &Expr, fields: &mut BTreeSet<String>) -> bool {
    match e {
        Expr::Lit(_) => true,
        Expr::Path(p) => {
            if p.qself.is_some() {
                return true;
            }
            match p.path.get_ident() {
                // The parameter whole, or a local variable: unknown.
                Some(ident) => {
                    let name = ident.to_string();
                    name != param && name.chars().next().is_some_and(|ch| ch.is_uppercase())
                }
                // `State::Idle`, `f32::MAX`: fixed.
                None => true,
            }
        }
        Expr::Field(f) => match field_of_param(param, f) {
            Some(name) => {
                fields.insert(name);
                true
            }
            None => visit(param, &f.base, fields),
        },
        Expr::MethodCall(m) => visit(param, &m.receiver, fields) && m.args.iter().all(|a| visit(param, a, fields)),
        Expr::Call(c) => {
            matches!(&*c.func, Expr::Path(p) if p.qself.is_none()) && c.args.iter().all(|a| visit(param, a, fields))
        }
        Expr::Binary(b) => visit(param, &b.left, fields) && visit(param, &b.right, fields),
        Expr::Unary(u) => visit(param, &u.expr, fields),
        Expr::Paren(p) => visit(param, &p.expr, fields),
        Expr::Group(g) => visit(param, &g.expr, fields),
        Expr::Cast(c) => visit(param, &c.expr, fields),
        Expr::Reference(r) => r.mutability.is_none() && visit(param, &r.expr, fields),
        Expr::Index(i) => visit(param, &i.expr, fields) && visit(param, &i.index, fields),
        Expr::Tuple(t) => t.elems.iter().all(|e| visit(param, e, fields)),
        Expr::Array(a) => a.elems.iter().all(|e| visit(param, e, fields)),
        _ => false,
    }
}

/// `Some("pos")` when `f` is `param.pos` itself.
fn field_of_param(param: &str, f: &syn::ExprField) -> Option<String> {
    let Expr::Path(base) = &*f.base else { return None };
    let ident = base.path.get_ident()?;
    if param.is_empty() || *ident != param {
        return None;
    }
    match &f.member {
        syn::Member::Named(name) => Some(name.to_string()),
        syn::Member::Unnamed(i) => Some(i.index.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::closure_reads;

    fn reads(src: &str) -> Option<Vec<String>> {
        closure_reads(&syn::parse_str(src).unwrap())
    }

    fn known(fields: &[&str]) -> Option<Vec<String>> {
        Some(fields.iter().map(|f| f.to_string()).collect())
    }

    #[test]
    fn field_paths_are_read_by_their_first_field() {
        assert_eq!(reads("|c| c.night"), known(&["night"]));
        assert_eq!(reads("|c| c.pos.x > 0.0 && !c.night"), known(&["night", "pos"]));
        assert_eq!(reads("|c: &Ctx| c.seen.len() > MAX"), known(&["seen"]));
        assert_eq!(reads("|c| c.state == State::Idle"), known(&["state"]));
        assert_eq!(reads("|c| dist(c.a, c.b) < 3.0"), known(&["a", "b"]));
        assert_eq!(reads("|c| c.hp[0] as f32 > f32::EPSILON"), known(&["hp"]));
        assert_eq!(reads("|_| true"), known(&[]));
    }

    #[test]
    fn anything_else_is_unknown() {
        for src in [
            "|c| c.is_night()",
            "|c| check(c)",
            "|c| c",
            "|c| c.hp < limit",
            "|c| { let x = c.hp; x > 3 }",
            "|c| if c.a { c.b } else { false }",
            "|c| matches!(c.s, S::A)",
            "|_| rand() > x",
            "is_night",
            "|c| (|| c.a)()",
            "|c| c.list.iter().any(|x| x.0)",
        ] {
            assert_eq!(reads(src), None, "{src}");
        }
    }
}

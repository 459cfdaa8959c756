//! Blackboard ports of trees read from files: a leaf parameter that names
//! an entry (`{"$entry": "goal"}`, BT.CPP's `{goal}`) is resolved in the
//! tree's `ports { "goal" => |c| &mut c.goal }`. The generated code makes
//! rustc check each entry against the leaf's port (its field must be a
//! `Port` or `OutPort` of the entry's context and value type), so a wrong
//! type is a compile error at the table entry; a key the table lacks is the
//! macro's error, naming it.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use serde_json::Value;
use syn::spanned::Spanned;
use syn::{Expr, Type};

use crate::from_json::Convert;
use crate::render::render;
use behaved_format::model::Leaf as JsonLeaf;

impl Convert<'_> {
    /// The expression that builds `leaf` (mapped to `ty`, at JSON path
    /// `path`) with its ports resolved in the tree's entries; `None` after
    /// an error.
    pub(crate) fn leaf_with_ports(&mut self, leaf: &JsonLeaf, ty: &Type, path: &str) -> Option<Expr> {
        let private = crate::facade::private(self.span);
        let mut checks = Vec::new();
        let mut inserts = Vec::new();
        let mut ok = true;
        for (param, key) in behaved_format::port::references(&leaf.params) {
            let Some(entry) = self.port_entry(key, &format!("{path}.{param}")) else {
                ok = false;
                continue;
            };
            // A top-level parameter is a field of the leaf's type: rustc checks
            // it is a port of the entry's type (nested ones are checked when built).
            let triple = (render(&ty.to_token_stream()), param.clone(), key.to_string());
            if let Ok(field) = syn::parse_str::<syn::Ident>(&param)
                && self.port_checks.insert(triple)
            {
                let field = syn::Ident::new(&field.to_string(), self.span);
                let at = entry.span();
                let private_at = crate::facade::private(at);
                checks.push(quote_spanned!(at=> #private_at::PortOf::fits(&__leaf.#field, #entry);));
            }
            inserts.push(quote!(__entries.insert(#key, #entry);));
        }
        if !ok {
            return None;
        }
        let params = Value::Object(leaf.params.clone()).to_string();
        let at = format!("{}: {path}", self.file);
        let name = &leaf.type_name;
        Some(syn::parse_quote_spanned!(self.span=> {
            let _ = |__leaf: &#ty| { #(#checks)* };
            #private::json_leaf_ports::<#ty>(#params, #at, #name, {
                let mut __entries = #private::EntryTable::new();
                #(#inserts)*
                __entries
            })
        }))
    }

    /// A `subtree` node's `"remap"` (at JSON path `path`): each subtree key
    /// with the key of this tree it stands for and that key's entry from
    /// the tree's `ports { .. }`; `None` after an error.
    pub(crate) fn remap(
        &mut self,
        node: &behaved_format::model::Node,
        path: &str,
    ) -> Option<Vec<(String, String, TokenStream)>> {
        let mut out = Vec::new();
        let mut ok = true;
        for (key, to) in node.remap().into_iter().flatten() {
            let at = behaved_format::path::field(&behaved_format::path::field(path, "remap"), key);
            match self.port_entry(to, &at) {
                Some(entry) => out.push((key.clone(), to.clone(), entry)),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// The `Entry` expression of blackboard entry `key` from the tree's
    /// `ports { .. }`, spanned at it; `None` after an error.
    fn port_entry(&mut self, key: &str, path: &str) -> Option<TokenStream> {
        let Some(i) = self.source.ports.iter().position(|(k, _)| k.value() == key) else {
            let known: Vec<String> = self
                .source
                .ports
                .iter()
                .map(|(k, _)| format!("`{}`", k.value()))
                .collect();
            let known = if known.is_empty() {
                "the tree has no `ports { .. }`".to_string()
            } else {
                format!("its entries: {}", known.join(", "))
            };
            self.error(
                path,
                format!("the blackboard entry `{key}` is not in the tree's `ports {{ .. }}` ({known}); add `\"{key}\" => |c| &mut c.{key}`"),
            );
            return None;
        };
        self.ports_used[i] = true;
        let expr = self.source.ports[i].1.clone();
        match entry_tokens(&expr, self.ctx, self.span) {
            Ok(tokens) => Some(tokens),
            Err((span, message)) => {
                self.errors.at(span, message);
                None
            }
        }
    }
}

/// `Entry::<Ctx, _>::new(|c: &Ctx| &c.x, |c: &mut Ctx| &mut c.x)` from the
/// table's `|c| &mut c.x`, spanned at it; or where and why it is not one.
fn entry_tokens(expr: &Expr, ctx: &Type, span: Span) -> Result<TokenStream, (Span, String)> {
    let private = crate::facade::private(span);
    let shape = || {
        (
            expr.span(),
            format!(
                "a blackboard entry is a closure to a part of the context, `|c| &mut c.field`, not `{}`",
                render(&expr.to_token_stream())
            ),
        )
    };
    let Expr::Closure(closure) = expr else {
        return Err(shape());
    };
    let [input] = closure.inputs.iter().collect::<Vec<_>>()[..] else {
        return Err(shape());
    };
    let pat = match input {
        syn::Pat::Type(t) => &*t.pat,
        p => p,
    };
    let Expr::Reference(r) = &*closure.body else {
        return Err(shape());
    };
    if r.mutability.is_none() {
        return Err(shape());
    }
    let place = &r.expr;
    let at = expr.span();
    // The context's tokens at the entry too: an error about the entry is
    // then at the entry alone, not spread from the tree's header to it.
    let ctx = respan(ctx.to_token_stream(), at);
    Ok(quote_spanned!(at=> #private::Entry::<#ctx, _>::new(|#pat: &#ctx| &#place, |#pat: &mut #ctx| &mut #place)))
}

/// `tokens` with every token at `span`.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|t| match t {
            proc_macro2::TokenTree::Group(g) => {
                let mut inner = proc_macro2::Group::new(g.delimiter(), respan(g.stream(), span));
                inner.set_span(span);
                proc_macro2::TokenTree::Group(inner)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}

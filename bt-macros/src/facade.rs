//! The path by which generated code reaches the facade crate: `::behaved`,
//! or the path a block names with `crate = path;` when the user renamed the
//! dependency in `Cargo.toml` (as serde's `#[serde(crate = "..")]`).
//!
//! Set once per `behave!` call ([`with`]) and read wherever code is written,
//! so the stages need not thread it through every function.

use proc_macro2::{Punct, Spacing, Span, TokenStream, TokenTree};
use std::cell::RefCell;

thread_local! {
    /// The facade named by the `behave!` call being expanded; `None` is `::behaved`.
    static FACADE: RefCell<Option<syn::Path>> = const { RefCell::new(None) };
}

/// Runs `f` with `path` (or `::behaved`) as the facade of the code it writes.
pub fn with<R>(path: Option<syn::Path>, f: impl FnOnce() -> R) -> R {
    let before = FACADE.with(|cell| cell.replace(path));
    let out = f();
    FACADE.with(|cell| *cell.borrow_mut() = before);
    out
}

/// Appends the facade's hidden module, `<facade>::__private`, with every token at `span`.
pub fn private_to_tokens(span: Span, out: &mut TokenStream) {
    let punct = |c, spacing| {
        let mut p = Punct::new(c, spacing);
        p.set_span(span);
        TokenTree::Punct(p)
    };
    FACADE.with(|cell| match &*cell.borrow() {
        // The common case, token by token: it is written hundreds of times per tree.
        None => out.extend([
            punct(':', Spacing::Joint),
            punct(':', Spacing::Alone),
            TokenTree::Ident(syn::Ident::new("behaved", span)),
        ]),
        Some(path) => out.extend(quote::ToTokens::to_token_stream(path).into_iter().map(|mut t| {
            t.set_span(span);
            t
        })),
    });
    out.extend([
        punct(':', Spacing::Joint),
        punct(':', Spacing::Alone),
        TokenTree::Ident(syn::Ident::new("__private", span)),
    ]);
}

/// `<facade>::__private` at `span`, as one stream.
pub fn private(span: Span) -> TokenStream {
    let mut out = TokenStream::new();
    private_to_tokens(span, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_facade_is_behaved_and_a_named_one_replaces_it() {
        assert_eq!(private(Span::call_site()).to_string(), ":: behaved :: __private");
        let renamed: syn::Path = syn::parse_quote!(::my_trees);
        let inside = with(Some(renamed), || private(Span::call_site()).to_string());
        assert_eq!(inside, ":: my_trees :: __private");
        let relative: syn::Path = syn::parse_quote!(crate::reexports::bt);
        let inside = with(Some(relative), || private(Span::call_site()).to_string());
        assert_eq!(inside, "crate :: reexports :: bt :: __private");
        // The facade is the call's only: after it, the default again.
        assert_eq!(private(Span::call_site()).to_string(), ":: behaved :: __private");
    }
}

//! Collects every error of an expansion so the user sees all of them at once,
//! in source order.

use proc_macro2::TokenStream;
use quote::ToTokens;

/// The errors found so far.
#[derive(Default)]
pub struct Errors {
    list: Vec<syn::Error>,
}

impl Errors {
    /// Records an error spanned on `span` (one token).
    pub fn at(&mut self, span: proc_macro2::Span, message: impl std::fmt::Display) {
        self.list.push(syn::Error::new(span, message));
    }

    /// Records an error that underlines the whole of `tokens` (`-1`, not just `-`).
    pub fn over(&mut self, tokens: &dyn ToTokens, message: impl std::fmt::Display) {
        self.list.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records an already-built error.
    pub fn push(&mut self, error: syn::Error) {
        self.list.push(error);
    }

    /// `true` when nothing went wrong.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// How many errors there are, to tell which ones a stage added.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// The messages, for tests.
    #[cfg(test)]
    pub fn messages(&self) -> Vec<String> {
        self.list.iter().map(ToString::to_string).collect()
    }

    /// One `compile_error!` per error, in source order (errors at the same
    /// place keep the order they were found in).
    pub fn to_compile_errors(&self) -> TokenStream {
        let mut sorted: Vec<&syn::Error> = self.list.iter().collect();
        sorted.sort_by_key(|e| {
            let start = e.span().start();
            (start.line, start.column)
        });
        sorted.into_iter().map(syn::Error::to_compile_error).collect()
    }
}

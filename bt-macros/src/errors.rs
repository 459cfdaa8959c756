//! Collects every error of an expansion so the user sees all of them at once.

use proc_macro2::TokenStream;

/// The errors found so far, in the order they were found.
#[derive(Default)]
pub struct Errors {
    list: Vec<syn::Error>,
}

impl Errors {
    /// Records an error spanned on `span`.
    pub fn at(&mut self, span: proc_macro2::Span, message: impl std::fmt::Display) {
        self.list.push(syn::Error::new(span, message));
    }

    /// Records an already-built error.
    pub fn push(&mut self, error: syn::Error) {
        self.list.push(error);
    }

    /// `true` when nothing went wrong.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The messages, for tests.
    #[cfg(test)]
    pub fn messages(&self) -> Vec<String> {
        self.list.iter().map(ToString::to_string).collect()
    }

    /// One `compile_error!` per error.
    pub fn to_compile_errors(&self) -> TokenStream {
        self.list.iter().map(syn::Error::to_compile_error).collect()
    }
}

//! The `behave!` macro of the `bt` behavior-tree library. Use it through the
//! `bt` crate, which documents the tree language.
//!
//! The expansion is a pipeline with one module per stage:
//! `parse` (tokens to syntax) -> `model` (syntax to meaning) ->
//! `check` (structural rules) -> `lower` (flat node table and state) ->
//! `codegen` (Rust). Every stage works on `proc_macro2` and is unit-tested.

#![forbid(unsafe_code)]

mod check;
mod codegen;
mod errors;
mod json;
mod lower;
mod model;
mod parse;

use proc_macro::TokenStream;

/// Compiles behavior trees into static state machines. See the `bt` crate.
#[proc_macro]
pub fn behave(input: TokenStream) -> TokenStream {
    expand(input.into()).into()
}

/// The whole expansion: every tree, and every error of every tree.
fn expand(input: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    let input = match syn::parse2::<parse::Input>(input) {
        Ok(input) => input,
        Err(e) => return e.to_compile_error(),
    };
    let mut errors = errors::Errors::default();
    let trees = model::build(input, &mut errors);
    let model_errors = errors.is_empty();
    let mut out = proc_macro2::TokenStream::new();
    let mut tree_errors = errors::Errors::default();
    check::check(&trees, &mut tree_errors);
    if model_errors && tree_errors.is_empty() {
        for tree in &trees {
            out.extend(codegen::tree(&lower::lower(tree)));
        }
    } else {
        // One stand-in struct per name, so a duplicate name adds no rustc errors to ours.
        let mut names = std::collections::BTreeSet::new();
        for tree in trees.iter().filter(|t| names.insert(t.name.to_string())) {
            out.extend(codegen::fallback(tree));
        }
    }
    out.extend(errors.to_compile_errors());
    out.extend(tree_errors.to_compile_errors());
    out
}

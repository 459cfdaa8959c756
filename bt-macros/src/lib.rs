//! The `behave!` macro of the `bt` behavior-tree library. Use it through the
//! `bt` crate, which documents the tree language.
//!
//! The expansion is a pipeline with one module per stage:
//! `parse` (tokens to syntax) -> `model` (syntax to meaning; `from_json`
//! instead for a tree read from a JSON file) -> `check` (structural rules) ->
//! `lower` (flat node table and state) -> `codegen` (Rust, with `to_json`
//! writing `Tree::JSON`). Every stage works on `proc_macro2` and is
//! unit-tested. Both JSON directions go through `bt-format`'s model.

#![forbid(unsafe_code)]

mod check;
mod codegen;
mod errors;
mod from_json;
mod lower;
mod model;
mod parse;
mod to_json;

use proc_macro::TokenStream;

/// Compiles behavior trees into static state machines. See the `bt` crate.
#[proc_macro]
pub fn behave(input: TokenStream) -> TokenStream {
    expand(input.into()).into()
}

/// The whole expansion: every tree, and every error of every tree. A tree
/// with errors becomes a stand-in with the same public items; the other trees
/// of the block are generated as usual.
fn expand(input: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    let input = match syn::parse2::<parse::Input>(input) {
        Ok(input) => input,
        Err(e) => return e.to_compile_error(),
    };
    let mut errors = errors::Errors::default();
    for e in input.errors {
        errors.push(e);
    }
    let mut out = proc_macro2::TokenStream::new();
    let mut names = std::collections::BTreeSet::new();
    for mut syntax in input.trees {
        let before = errors.len();
        if !names.insert(syntax.name.to_string()) {
            // The first tree of that name is generated; this one adds no item of its own.
            errors.over(
                &syntax.name,
                format!("a tree named `{}` is already declared in this `behave!`", syntax.name),
            );
            continue;
        }
        let syntax_error = syntax.syntax_error.clone();
        let tree = match syntax.json.take() {
            Some(source) => from_json::build_tree(syntax, &source, &mut errors),
            None => model::build_tree(syntax, &mut errors),
        };
        match syntax_error {
            Some(e) => errors.push(e),
            None => check::check(&tree, &mut errors),
        }
        if errors.len() == before {
            out.extend(codegen::tree(&lower::lower(&tree)));
        } else {
            out.extend(codegen::fallback(&tree));
        }
    }
    out.extend(errors.to_compile_errors());
    out
}

//! The `behave!` macro of the `behaved` behavior-tree library. Use it through the
//! `behaved` crate, which documents the tree language.
//!
//! The expansion is a pipeline with one module per stage:
//! `parse` (tokens to syntax) -> `model` (syntax to meaning; `from_json`
//! instead for a tree read from a JSON file) -> `check` (structural rules) ->
//! `lower` (flat node table and state) -> `work` (the most work per tick) ->
//! `codegen` (Rust, with `to_json` writing `Tree::JSON`). Every stage works on
//! `proc_macro2` and is unit-tested. Both JSON directions go through
//! `behaved-format`'s model.

#![forbid(unsafe_code)]

mod check;
mod codegen;
mod depth;
mod errors;
mod facade;
mod from_json;
mod hints;
mod items;
mod label;
mod lower;
mod model;
mod parse;
mod ports;
mod reads;
mod render;
#[cfg(test)]
mod scaling;
#[cfg(test)]
mod snapshots;
mod to_json;
mod work;

use proc_macro::TokenStream;

// Documented where users meet it: the `behaved` crate re-exports it with the
// whole tree language as its docs (`src/behave.md` there), whose examples can
// use the facade, which a doctest here cannot.
#[allow(missing_docs)]
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
    facade::with(input.facade.clone(), || expand_trees(input))
}

/// The expansion of the parsed trees, with the facade path set.
fn expand_trees(input: parse::Input) -> proc_macro2::TokenStream {
    let mut errors = errors::Errors::default();
    for e in input.errors {
        errors.push(e);
    }
    let mut names = std::collections::BTreeSet::new();
    // Each tree with whether it has errors of its own.
    let mut trees = Vec::new();
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
        let from_dsl = syntax.json.is_none();
        let mut tree = match syntax.json.take() {
            Some(source) => from_json::build_tree(syntax, &source, &mut errors),
            None => model::build_tree(syntax, &mut errors),
        };
        match syntax_error {
            Some(e) => errors.push(e),
            None => check::check(&tree, &mut errors),
        }
        // A JSON tree is labelled by the loader; a DSL tree, once its shape
        // is checked (those errors name nodes as written), by the same rule.
        if from_dsl && errors.len() == before {
            tree.roots.iter_mut().for_each(label::relabel);
        }
        trees.push((tree, errors.len() > before));
    }
    let all: Vec<&model::Tree> = trees.iter().map(|(t, _)| t).collect();
    let on_cycle = check::subtree_cycles(&all, &mut errors);
    let mut out = proc_macro2::TokenStream::new();
    for ((tree, broken), cyclic) in trees.iter().zip(on_cycle) {
        if *broken || cyclic {
            out.extend(codegen::fallback(tree));
            continue;
        }
        let lowered = lower::lower(tree);
        let before = errors.len();
        let (figures, mut checks) = work::figures(&lowered, &mut errors);
        checks.extend(items::check(&lowered, &mut errors));
        if errors.len() > before {
            out.extend(codegen::fallback(tree));
        } else {
            out.extend(codegen::tree(&lowered, &figures[0], &checks));
        }
    }
    out.extend(errors.to_compile_errors());
    out
}

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
mod render;
#[cfg(test)]
mod scaling;
#[cfg(test)]
mod snapshots;
mod to_json;
mod work;

use proc_macro::TokenStream;

/// Compiles behavior trees into static state machines: one struct per tree.
///
/// Use it through the `behaved` crate (`use behaved::prelude::*;`), whose documentation is
/// the tutorial; the rules of every node are in `SEMANTICS.md` at the
/// repository root.
///
/// # Input
///
/// Any number of trees, each with optional doc comments and attributes (they go
/// on the generated struct), a visibility, a name and the context type it runs on:
///
/// ```text
/// behave! {
///     /// docs
///     pub tree Name for Ctx { node }
///     tree Other for Ctx = json("path/to/tree.json") { "leafType" => RustType, .. }
/// }
/// ```
///
/// The generated code names the `behaved` crate as `::behaved`. A crate that
/// renamed the dependency in its `Cargo.toml` (or reaches it through another
/// crate's re-export) says where it is on the block's first line, as serde's
/// `#[serde(crate = "..")]` does:
///
/// ```text
/// behave! {
///     crate = ::my_trees;
///     tree Name for Ctx { node }
/// }
/// ```
///
/// A node is one of:
///
/// - a composite with children in braces: `sequence { a, b }`, `selector` (alias
///   `fallback`), `reactive sequence`, `reactive selector`, `parallel(all)`,
///   `parallel(any)`, `parallel(success = S, failure = F)`, `parallel(main)`,
///   `sequence_always`, `random`, `weighted { 3 => a, 1 => b }`, `shuffle`;
/// - a branch: `if c { a } else if d { b } else { e }`, `match |c| c.x { pat => a, _ => b }`,
///   each optionally `reactive`;
/// - a loop with one child: `loop` (alias `forever`), `repeat(n)`, `retry(n)`,
///   `while c { .. }`, `for x: T in |c| c.items.iter() max n { .. }` (the item
///   `x` is a `&T` in the body's inline leaves), `until_fail`, `until_success`, optionally labelled
///   (`'outer: loop { .. }`), and the leaves `break`, `continue`, `break 'outer`;
/// - a decorator with one child: `invert`, `force_success`, `force_failure`,
///   `timeout(d)`, `delay(d)`, `cooldown(d)`, `limit(n)`, `run_once`,
///   `abort_if(c)`, `latch(c)`, `scope { let name: Type = init; child }`;
/// - a leaf: `success`, `failure`, `running`, `wait(d)`, `wait_until(c)`, `cond(|c| ..)` or
///   `cond(MyCondition)`, `act(|c| ..)`, a value of a type implementing `Action`
///   (`MoveTo { speed: 2 }`, `Type::new(..)`, `leaf::<Type>(expr)`),
///   `act(async FindPath { .. })` for a value implementing `AsyncAction`
///   (stored in `behaved::Async`: its future starts on entry, is polled on each
///   tick and is dropped when halted), or
///   `subtree(Other)` / `subtree(Other, |c| &mut c.part)`.
///
/// Conditions (`c` above) are closures on `&Ctx` returning `bool` or values
/// implementing `Condition`. Counts and durations are literals or constants;
/// a duration is in seconds (`1.5`, `2s`) or has a unit (`500ms`, `1.5min`, `1h`).
/// Before any node: `#[on_enter(|c| ..)]`, `#[on_pre_tick(..)]`, `#[on_tick(..)]`,
/// `#[on_success(..)]`, `#[on_failure(..)]`, `#[on_exit(..)]`, `#[on_reset(..)]`
/// (hooks: closures on `&mut Ctx`), and
/// before a leaf value `#[persist]` (its state is saved with the tree).
///
/// # Output
///
/// For `pub tree Name for Ctx`, a `pub struct Name` implementing
/// `behaved::Tree<Ctx>`, `Default`, and with the `serde` feature `Serialize` and
/// `Deserialize`, with `new()`, `with_seed(u64)`, `tick(&mut Ctx) -> Status`,
/// `run(&mut Ctx, u32) -> Run`, `reset(&mut Ctx)`, and the constants
/// `NODES: &'static [NodeInfo]`, `NODE_COUNT: u32`, `FINGERPRINT: u64` and
/// `JSON: &'static str`.
///
/// ```
/// use behaved::prelude::*;
///
/// struct Ctx { hp: u32, fled: bool }
///
/// behave! {
///     /// Flee when hurt, otherwise keep fighting.
///     pub tree Brave for Ctx {
///         reactive selector {
///             sequence { cond(|c| c.hp < 10), act(|c| c.fled = true) },
///             running,
///         }
///     }
/// }
///
/// let mut tree = Brave::new();
/// let mut ctx = Ctx { hp: 50, fled: false };
/// assert_eq!(tree.tick(&mut ctx), Status::Running);
/// ctx.hp = 5;
/// assert_eq!(tree.tick(&mut ctx), Status::Success);
/// assert!(ctx.fled);
/// assert_eq!(Brave::NODE_COUNT, 5);
/// ```
///
/// # Errors
///
/// Every mistake is a compile error at the offending tokens: an unknown node
/// (with a "did you mean"), a wrong number of children or arguments, `break`
/// outside a loop, an unknown loop label, a leaf of a type that implements
/// neither `Action` nor `Condition` for the context, a JSON file that does not
/// load (naming the file and the JSON path). All of them are reported at once,
/// in source order. A tree with errors stops only itself: the other trees of
/// the block are generated, and the broken one becomes a stand-in with the same
/// public items, so the rest of the crate still type-checks.
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

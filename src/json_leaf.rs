//! Leaves of trees that `behave!` compiles from JSON files: a leaf with
//! parameters is deserialized from them with serde, as the interpreter
//! (`behaved-interp`) builds its leaves, so both forms accept the same parameters
//! (nested objects, enums, defaults, renames) and build the same values.

/// Builds leaf `T` from its JSON parameters `params` (an object's text, as
/// the file has it). `at` names the file and the JSON path, `leaf` the
/// leaf's JSON type.
///
/// # Panics
///
/// When the parameters do not deserialize into `T` (a wrong type, a missing
/// field, a parameter `T` does not take, as the interpreter reads them:
/// [`behaved_format::leaf_params`]): the type is only known once the
/// generated code compiles, so this is found when the tree is built
/// (`new()`, the first test that builds it), with the file, the path and
/// the message.
#[cfg(feature = "json")]
pub fn json_leaf<T: serde::de::DeserializeOwned>(params: &str, at: &str, leaf: &str) -> T {
    let fail = |e: &dyn core::fmt::Display| -> ! {
        panic!(
            "{at}: the parameters do not make a `{}`: {e}",
            core::any::type_name::<T>()
        )
    };
    let params = serde_json::from_str(params).unwrap_or_else(|e| fail(&e));
    behaved_format::leaf_params(leaf, params).unwrap_or_else(|e| fail(&e))
}

/// [`json_leaf`] for a leaf whose parameters name blackboard entries
/// (`{"$entry": "goal"}`, BT.CPP's `{goal}`): its ports are resolved in
/// `entries`, the tree's `ports { .. }` (rustc has checked each entry's
/// type against its port's).
///
/// # Panics
///
/// As [`json_leaf`]; also when a reference is read by a parameter that is
/// not a port.
#[cfg(feature = "json")]
pub fn json_leaf_ports<T: serde::de::DeserializeOwned>(params: &str, at: &str, leaf: &str, entries: EntryTable) -> T {
    let fail = |e: &dyn core::fmt::Display| -> ! {
        panic!(
            "{at}: the parameters do not make a `{}`: {e}",
            core::any::type_name::<T>()
        )
    };
    let params = serde_json::from_str(params).unwrap_or_else(|e| fail(&e));
    behaved_format::port::leaf_params_in(leaf, params, entries).unwrap_or_else(|e| fail(&e))
}

#[cfg(feature = "json")]
pub use behaved_format::port::{Entry, EntryTable, PortOf, remap_entry, with_remap};

/// Without the `json` feature, a JSON leaf with parameters is a compile error
/// that names the feature.
#[cfg(not(feature = "json"))]
pub fn json_leaf<T: JsonFeature>(_: &str, _: &str, _: &str) -> T {
    unreachable!("JsonFeature has no implementations")
}

/// Implemented by nothing: the bound that explains a missing `json` feature.
#[cfg(not(feature = "json"))]
#[diagnostic::on_unimplemented(
    message = "a JSON tree's leaf with parameters needs `behaved`'s `json` feature",
    label = "its parameters are deserialized with serde_json",
    note = "enable it: `behaved = {{ version = \"0.1\", features = [\"json\"] }}`"
)]
pub trait JsonFeature {}

/// A consideration of a tree compiled from JSON that has parameters: built
/// from them once per process (in a `static` of a hidden function of the
/// tree, which `with_seed` calls, so that a mistake in them is found when a
/// tree is built, as a leaf's is), as the interpreter builds it once at load.
#[cfg(feature = "json")]
#[derive(Debug, Clone, Copy)]
pub struct JsonScore<T: 'static>(pub &'static T);

#[cfg(feature = "json")]
impl<C: ?Sized, T: behaved_runtime::utility::Consideration<C>> behaved_runtime::utility::Consideration<C>
    for JsonScore<T>
{
    #[inline]
    fn score(&self, ctx: &C) -> f32 {
        self.0.score(ctx)
    }
}

// The facade is `no_std`; `json` turns `std` on.
#[cfg(feature = "json")]
extern crate std;

/// Where [`JsonScore`]s are kept.
#[cfg(feature = "json")]
pub use std::sync::OnceLock;

/// A consideration of a JSON `pick`'s score: one on the context (a
/// `Consideration<C>`) that reads the candidate the pick's list selected
/// there. `behave!` passes each mapped value through
/// [`pick_consideration`], so that a value that is not one (a DSL `pick`'s
/// `CandidateConsideration`, say) is an error that says so.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a consideration on `{C}`, which a JSON `pick`'s score needs",
    label = "a consideration of a JSON `pick`'s score",
    note = "a JSON `pick`'s list selects each candidate in the context (its `select`) before the score reads it: implement `behaved::utility::Consideration<{C}>` (fn score(&self, ctx: &{C}) -> f32) reading the selected candidate there; a `CandidateConsideration` scores only the DSL's `pick .. by`"
)]
pub trait PickConsideration<C: ?Sized> {}

impl<C: ?Sized, T: behaved_runtime::utility::Consideration<C>> PickConsideration<C> for T {}

/// `consideration`, unchanged, once rustc has checked that it is a
/// [`PickConsideration`].
#[inline(always)]
pub const fn pick_consideration<C: ?Sized, T: PickConsideration<C>>(consideration: T) -> T {
    consideration
}

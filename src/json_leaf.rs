//! Leaves of trees that `behave!` compiles from JSON files: a leaf with
//! parameters is deserialized from them with serde, as the interpreter
//! (`behaved-interp`) builds its leaves, so both forms accept the same parameters
//! (nested objects, enums, defaults, renames) and build the same values.

/// Builds leaf `T` from its JSON parameters `params` (an object's text, as
/// the file has it). `at` names the file and the JSON path.
///
/// # Panics
///
/// When the parameters do not deserialize into `T` (a wrong type, a missing
/// field): the type is only known once the generated code compiles, so this is
/// found when the tree is built (`new()`, the first test that builds it), with
/// the file, the path and serde's message.
#[cfg(feature = "json")]
pub fn json_leaf<T: serde::de::DeserializeOwned>(params: &str, at: &str) -> T {
    match serde_json::from_str(params) {
        Ok(leaf) => leaf,
        Err(e) => panic!(
            "{at}: the parameters do not make a `{}`: {e}",
            core::any::type_name::<T>()
        ),
    }
}

/// Without the `json` feature, a JSON leaf with parameters is a compile error
/// that names the feature.
#[cfg(not(feature = "json"))]
pub fn json_leaf<T: JsonFeature>(_: &str, _: &str) -> T {
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

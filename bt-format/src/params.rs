//! A leaf's JSON parameters deserialized into its parameter type, where a
//! parameter the type does not take is an error with a "did you mean":
//! the interpreter's registry and the trees `behave!` compiles from JSON
//! build their leaves through [`leaf_params`], so both forms accept the same
//! parameters.
//!
//! serde ignores unknown fields unless the type says
//! `#[serde(deny_unknown_fields)]`, and then names only the field. Here the
//! check comes first, for every type that deserializes as a struct (serde's
//! derive hands the deserializer the names of its fields, renames and
//! aliases included). A type opts out by taking every other field itself:
//! a `#[serde(flatten)]` map (serde's derive then reads the parameters as a
//! map, and the map gets the rest), or a `Deserialize` of its own that reads
//! a map or any value.

use serde::de::{self, DeserializeOwned, Visitor};
use serde_json::Value;

use crate::document::clipped;
use crate::messages::SOME_OF;

/// Deserializes `params` (a leaf's parameters, an object) into `T`, the
/// parameter type of the leaf whose JSON type is `leaf`. A field `T` does
/// not take is an error, unless `T` opts out (see the module documentation):
///
/// ```
/// #[derive(serde::Deserialize, Debug)]
/// struct MoveTo { speed: f64, target: String }
///
/// let ok = serde_json::json!({"speed": 2.0, "target": "gate"});
/// assert_eq!(behaved_format::leaf_params::<MoveTo>("MoveTo", ok).unwrap().speed, 2.0);
///
/// let typo = serde_json::json!({"spped": 2.0, "target": "gate"});
/// assert_eq!(
///     behaved_format::leaf_params::<MoveTo>("MoveTo", typo).unwrap_err(),
///     "unknown parameter `spped` of leaf `MoveTo`, did you mean `speed`? (its parameters: `speed`, `target`)"
/// );
/// ```
pub fn leaf_params<T: DeserializeOwned>(leaf: &str, params: Value) -> Result<T, String> {
    T::deserialize(Checked { value: params, leaf }).map_err(|e| e.to_string())
}

/// The message for the fields of `given` that are not among `known`, if any.
fn unknown(leaf: &str, given: &serde_json::Map<String, Value>, known: &[&str]) -> Option<String> {
    let unknown: Vec<&str> = given
        .keys()
        .map(String::as_str)
        .filter(|k| !known.contains(k))
        .collect();
    if unknown.is_empty() {
        return None;
    }
    let known_ones = if known.is_empty() {
        "it takes none".to_owned()
    } else {
        let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
        format!("its parameters: {}", list.join(", "))
    };
    let close = |k: &str| behaved_runtime::catalog::closest(k, known.iter().copied());
    // The file's names are cut, and past `SOME_OF` of them counted.
    let leaf = clipped(leaf);
    Some(match unknown.as_slice() {
        [one] if is_wrapper(one, &given[*one]) => format!(
            "unknown parameter `{one}` of leaf `{leaf}` ({known_ones}): a leaf's parameters are \
             fields of its own object, beside \"type\" ({{\"type\": \"{leaf}\", \"speed\": 2}}), \
             not an object of their own"
        ),
        [one] => {
            let (hint, one) = (close(one), clipped(one));
            match hint {
                Some(c) => format!("unknown parameter `{one}` of leaf `{leaf}`, did you mean `{c}`? ({known_ones})"),
                None => format!("unknown parameter `{one}` of leaf `{leaf}` ({known_ones})"),
            }
        }
        _ => {
            let named: Vec<String> = unknown
                .iter()
                .take(SOME_OF)
                .map(|k| match close(k) {
                    Some(c) => format!("`{}` (did you mean `{c}`?)", clipped(k)),
                    None => format!("`{}`", clipped(k)),
                })
                .collect();
            let listed = if unknown.len() > SOME_OF {
                format!("{}, .. ({} more)", named.join(", "), unknown.len() - SOME_OF)
            } else {
                let (init, end) = named.split_at(named.len() - 1);
                format!("{} and {}", init.join(", "), end[0])
            };
            format!("unknown parameters {listed} of leaf `{leaf}` ({known_ones})")
        }
    })
}

/// Whether an unknown field is a wrapper around the parameters, as other
/// formats write them (`"params": {..}`): its message then says where
/// parameters go instead of guessing a field name.
fn is_wrapper(field: &str, value: &Value) -> bool {
    matches!(field, "params" | "parameters" | "args" | "arguments" | "ports") && value.is_object()
}

/// A leaf's parameters, checked against the fields of the type that reads them.
struct Checked<'a> {
    value: Value,
    leaf: &'a str,
}

macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, serde_json::Error> {
                self.value.$method($($arg,)* visitor)
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for Checked<'_> {
    type Error = serde_json::Error;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, serde_json::Error> {
        if let Value::Object(given) = &self.value
            && let Some(message) = unknown(self.leaf, given, fields)
        {
            return Err(de::Error::custom(message));
        }
        self.value.deserialize_struct(name, fields, visitor)
    }

    forward! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_i128();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_u128();
        deserialize_f32();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
        deserialize_ignored_any();
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;
    use serde_json::{Value, json};

    use super::leaf_params;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct MoveTo {
        speed: f64,
        #[serde(default, alias = "goal")]
        target_name: String,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Nothing {}

    /// Opts out: every other parameter lands in `rest`.
    #[derive(Debug, Deserialize, PartialEq)]
    struct Open {
        speed: f64,
        #[serde(flatten)]
        rest: BTreeMap<String, Value>,
    }

    fn err<T: serde::de::DeserializeOwned + std::fmt::Debug>(leaf: &str, v: Value) -> String {
        leaf_params::<T>(leaf, v).unwrap_err()
    }

    #[test]
    fn known_parameters_deserialize_as_serde_reads_them() {
        let m: MoveTo = leaf_params("MoveTo", json!({"speed": 2, "targetName": "gate"})).unwrap();
        assert_eq!(
            m,
            MoveTo {
                speed: 2.0,
                target_name: "gate".into()
            }
        );
        let m: MoveTo = leaf_params("MoveTo", json!({"speed": 2, "goal": "gate"})).unwrap();
        assert_eq!(m.target_name, "gate", "an alias is a known parameter");
        let m: MoveTo = leaf_params("MoveTo", json!({"speed": 2})).unwrap();
        assert_eq!(m.target_name, "", "a default may be left out");
    }

    #[test]
    fn parameters_wrapped_in_an_object_of_their_own_say_where_parameters_go() {
        assert_eq!(
            err::<MoveTo>("MoveTo", json!({"params": {"speed": 2}})),
            "unknown parameter `params` of leaf `MoveTo` (its parameters: `speed`, `goal`, `targetName`): \
             a leaf's parameters are fields of its own object, beside \"type\" \
             ({\"type\": \"MoveTo\", \"speed\": 2}), not an object of their own"
        );
        assert!(
            err::<MoveTo>("MoveTo", json!({"params": 3})).ends_with("(its parameters: `speed`, `goal`, `targetName`)"),
            "only an object is taken for a wrapper"
        );
    }

    #[test]
    fn an_unknown_parameter_is_an_error_with_a_hint_and_the_known_ones() {
        assert_eq!(
            err::<MoveTo>("MoveTo", json!({"spped": 2})),
            "unknown parameter `spped` of leaf `MoveTo`, did you mean `speed`? \
             (its parameters: `speed`, `goal`, `targetName`)",
            "reported before serde's missing `speed`"
        );
        assert_eq!(
            err::<MoveTo>("MoveTo", json!({"speed": 2, "colour": "red"})),
            "unknown parameter `colour` of leaf `MoveTo` (its parameters: `speed`, `goal`, `targetName`)"
        );
        assert_eq!(
            err::<MoveTo>("MoveTo", json!({"speed": 2, "target_name": "a", "zz": 1})),
            "unknown parameters `target_name` (did you mean `targetName`?) and `zz` of leaf `MoveTo` \
             (its parameters: `speed`, `goal`, `targetName`)"
        );
        assert_eq!(
            err::<Nothing>("walk", json!({"speed": 1})),
            "unknown parameter `speed` of leaf `walk` (it takes none)"
        );
    }

    #[test]
    fn a_type_that_takes_the_rest_accepts_any_parameter() {
        let o: Open = leaf_params("open", json!({"speed": 1, "comment": "x"})).unwrap();
        assert_eq!(o.rest, BTreeMap::from([("comment".to_owned(), json!("x"))]));
        let any: Value = leaf_params("any", json!({"whatever": 1})).unwrap();
        assert_eq!(any, json!({"whatever": 1}));
        let map: BTreeMap<String, u32> = leaf_params("map", json!({"a": 1})).unwrap();
        assert_eq!(map["a"], 1);
    }

    #[test]
    fn other_errors_are_serdes() {
        assert_eq!(
            err::<MoveTo>("MoveTo", json!({"speed": "fast"})),
            "invalid type: string \"fast\", expected f64"
        );
        assert_eq!(err::<MoveTo>("MoveTo", json!({})), "missing field `speed`");
    }
}

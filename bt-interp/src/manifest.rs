//! The leaf manifest: what a [`Registry`](crate::Registry) accepts, as JSON, for tools that
//! write trees without the game's code (the studio's editor). Parameters are
//! read from each leaf's parameter type by tracing its `serde::Deserialize`
//! (serde-reflection), so every registered leaf is described with no code
//! of the user's; whether a field may be left out is asked of serde itself,
//! and what it then is, of the type's `Serialize` where the game offers it
//! ([`Registry::show_defaults`](crate::Registry::show_defaults)).
//!
//! This module only describes types; the registry calls it (the one
//! direction between the two).

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use serde_reflection::{ContainerFormat, Format, Samples, Tracer, TracerConfig, VariantFormat};

/// What a [`Registry`](crate::Registry) accepts: every registered condition, action,
/// `match` value, `forEach` list and `utility` consideration by name. Written by [`Registry::manifest`](crate::Registry::manifest); read by
/// `behaved-studio edit --leaves`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Always `"bt-leaves"`.
    pub format: String,
    /// `1`.
    pub version: u32,
    /// The condition types.
    pub conditions: BTreeMap<String, LeafDoc>,
    /// The action types.
    pub actions: BTreeMap<String, LeafDoc>,
    /// The `match` value types.
    pub values: BTreeMap<String, LeafDoc>,
    /// The lists `forEach` nodes read their items from (absent in
    /// manifests written before lists existed: none).
    #[serde(default)]
    pub lists: BTreeMap<String, ListDoc>,
    /// The blackboard entries ([`Registry::entry`](crate::Registry::entry))
    /// by key: the Rust type of the value each holds
    /// (`std::any::type_name`, as a port's type mismatch names it), for
    /// tools that write `{key}` ports. Absent when none are registered.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub entries: BTreeMap<String, String>,
    /// The considerations `utility` scores read (`{"consider": name, ..}`,
    /// [`Registry::consideration`](crate::Registry::consideration)), each with
    /// the parameters it is built from. Left out when there are none, so
    /// that manifests of registries without any read as before.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub considerations: BTreeMap<String, LeafDoc>,
}

impl Manifest {
    /// The `format` field of every manifest.
    pub const FORMAT: &'static str = "bt-leaves";
    /// The version this crate writes and reads.
    pub const VERSION: u32 = 1;

    /// A manifest with no leaves.
    pub fn new() -> Manifest {
        Manifest {
            format: Manifest::FORMAT.into(),
            version: Manifest::VERSION,
            conditions: BTreeMap::new(),
            actions: BTreeMap::new(),
            values: BTreeMap::new(),
            lists: BTreeMap::new(),
            entries: BTreeMap::new(),
            considerations: BTreeMap::new(),
        }
    }

    /// Reads a manifest, checking its format and version.
    pub fn from_json(json: &str) -> Result<Manifest, String> {
        let m: Manifest = serde_json::from_str(json).map_err(|e| format!("not a leaf manifest: {e}"))?;
        if m.format != Manifest::FORMAT {
            return Err(format!(
                "not a leaf manifest: format is {}, not \"bt-leaves\"",
                behaved_format::shown(&m.format)
            ));
        }
        if m.version != Manifest::VERSION {
            return Err(format!("leaf manifest version {} is not supported (only 1)", m.version));
        }
        Ok(m)
    }

    /// The manifest as indented JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).expect("a manifest is plain data")
    }
}

impl Default for Manifest {
    fn default() -> Self {
        Manifest::new()
    }
}

/// One registered leaf type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeafDoc {
    /// Its parameters in declaration order; `None` when they could not be
    /// traced (a parameter type with its own `Deserialize` that takes any
    /// JSON, such as `serde_json::Value`).
    pub params: Option<Vec<Param>>,
}

/// One registered list ([`Registry::list`](crate::Registry::list)): its
/// parameters, as a leaf's, and what its items are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListDoc {
    /// Its parameters, as [`LeafDoc::params`].
    pub params: Option<Vec<Param>>,
    /// The JSON form of one item (its `ItemList::Item`); `None` when it
    /// could not be traced.
    pub item: Option<ParamType>,
}

/// One parameter of a leaf: a field of its JSON object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// The field's JSON name.
    pub name: String,
    /// What values it takes.
    #[serde(flatten)]
    pub ty: ParamType,
    /// Whether a leaf must give it (a field with a serde default or an
    /// `Option` may be left out).
    pub required: bool,
    /// The value a leaf that leaves it out gets, where the game shows its
    /// parameter type's defaults ([`Registry::show_defaults`](crate::Registry::show_defaults));
    /// absent when unknown or `null`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// Whether it is an output port ([`OutPort`](behaved_format::port::OutPort),
    /// which names a blackboard entry the leaf writes): a `<TreeNodesModel>`
    /// writes it `output_port`. Absent (false) for every other parameter.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub output: bool,
}

/// The JSON values a parameter takes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum ParamType {
    /// A string.
    String,
    /// `true` or `false`.
    Boolean,
    /// An integer, at least `minimum` when there is one.
    Integer {
        /// The least value (`0` for unsigned types).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        minimum: Option<i64>,
    },
    /// Any number.
    Number,
    /// One of a few strings (an enum of unit variants).
    Choice {
        /// The strings allowed.
        values: Vec<String>,
    },
    /// An array.
    List {
        /// What each element takes.
        items: Box<ParamType>,
    },
    /// A JSON object.
    Object,
    /// Anything (a type this manifest cannot describe further).
    Any,
}

impl ParamType {
    /// A value of this type, for asking serde whether a field may be left out.
    fn sample(&self) -> Value {
        match self {
            ParamType::String => Value::String(String::new()),
            ParamType::Boolean => Value::Bool(false),
            ParamType::Integer { minimum } => Value::from(minimum.unwrap_or(0)),
            ParamType::Number => Value::from(0.0),
            ParamType::Choice { values } => values.first().map_or(Value::Null, |v| Value::String(v.clone())),
            ParamType::List { .. } => Value::Array(Vec::new()),
            ParamType::Object => Value::Object(Map::new()),
            ParamType::Any => Value::Null,
        }
    }
}

/// The parameters of leaves whose parameter type is `P`.
pub(crate) fn describe<P: DeserializeOwned>() -> Option<Vec<Param>> {
    let (format, registry) = trace::<P>()?;
    let Format::TypeName(name) = format else {
        return None;
    };
    let ContainerFormat::Struct(fields) = registry.get(&name)? else {
        return match registry.get(&name)? {
            ContainerFormat::UnitStruct => Some(Vec::new()),
            _ => None,
        };
    };
    let mut params: Vec<Param> = fields
        .iter()
        .map(|f| {
            let (ty, optional) = param_type(&f.value, &registry);
            Param {
                name: f.name.clone(),
                ty,
                required: !optional,
                default: None,
                output: is_output(&f.value),
            }
        })
        .collect();
    ask_serde_what_is_required::<P>(&mut params);
    Some(params)
}

/// The traced format of `P` and of the types in it, every variant of its
/// enums included: a first pass finds the enums' names, a second traces `P`
/// again until none of them has a variant left (serde-reflection's own loop
/// for a top-level enum, applied to the nested ones).
fn trace<P: DeserializeOwned>() -> Option<(Format, serde_reflection::Registry)> {
    let samples = Samples::new();
    let config = || TracerConfig::default().is_human_readable(true);
    let mut first = Tracer::new(config());
    first.trace_type_once::<P>(&samples).ok()?;
    let enums: Vec<String> = first
        .registry_unchecked()
        .into_iter()
        .filter(|(_, c)| matches!(c, ContainerFormat::Enum(_)))
        .map(|(name, _)| name)
        .collect();
    let mut tracer = Tracer::new(config());
    let mut format = None;
    for _ in 0..MAX_TRACES {
        format = Some(tracer.trace_type_once::<P>(&samples).ok()?.0);
        let mut incomplete = false;
        for name in &enums {
            incomplete |= tracer.check_incomplete_enum(name).is_some();
        }
        if !incomplete {
            break;
        }
    }
    Some((format?, tracer.registry().ok()?))
}

/// The most times `P` is traced to see every variant of its enums.
const MAX_TRACES: usize = 256;

/// Marks as not required every field without which `P` still deserializes
/// (serde defaults); keeps the `Option` rule when no sample deserializes.
fn ask_serde_what_is_required<P: DeserializeOwned>(params: &mut [Param]) {
    let full: Map<String, Value> = params.iter().map(|p| (p.name.clone(), p.ty.sample())).collect();
    if serde_json::from_value::<P>(Value::Object(full.clone())).is_err() {
        return;
    }
    for p in params.iter_mut() {
        let mut without = full.clone();
        without.remove(&p.name);
        p.required = serde_json::from_value::<P>(Value::Object(without)).is_err();
    }
}

/// Whether a traced field is an [`OutPort`](behaved_format::port::OutPort)
/// (its tracer names it so), or an `Option` of one.
fn is_output(format: &Format) -> bool {
    match format {
        Format::Option(inner) => is_output(inner),
        Format::TypeName(name) => behaved_format::port::is_out_port_name(name),
        _ => false,
    }
}

/// The manifest type of a traced format, and whether it is an `Option`.
fn param_type(format: &Format, registry: &serde_reflection::Registry) -> (ParamType, bool) {
    let ty = match format {
        Format::Option(inner) => return (param_type(inner, registry).0, true),
        Format::Bool => ParamType::Boolean,
        Format::I8 | Format::I16 | Format::I32 | Format::I64 | Format::I128 => ParamType::Integer { minimum: None },
        Format::U8 | Format::U16 | Format::U32 | Format::U64 | Format::U128 => ParamType::Integer { minimum: Some(0) },
        Format::F32 | Format::F64 => ParamType::Number,
        Format::Char | Format::Str => ParamType::String,
        Format::Seq(items) => ParamType::List {
            items: Box::new(param_type(items, registry).0),
        },
        Format::Map { .. } => ParamType::Object,
        Format::TypeName(name) => match registry.get(name) {
            Some(ContainerFormat::NewTypeStruct(inner)) => return param_type(inner, registry),
            Some(ContainerFormat::Struct(_)) => ParamType::Object,
            Some(ContainerFormat::Enum(variants)) if variants.values().all(|v| v.value == VariantFormat::Unit) => {
                ParamType::Choice {
                    values: variants.values().map(|v| v.name.clone()).collect(),
                }
            }
            _ => ParamType::Any,
        },
        _ => ParamType::Any,
    };
    (ty, false)
}

/// The JSON form of one value of type `T` (a list's item), as a parameter's type.
pub(crate) fn describe_item<T: DeserializeOwned>() -> Option<ParamType> {
    let (format, registry) = trace::<T>()?;
    Some(param_type(&format, &registry).0)
}

/// A registered list's item describer: run when the manifest is asked for.
pub(crate) type DescribeItem = fn() -> Option<ParamType>;

/// A registered leaf's describer: run when the manifest is asked for.
pub(crate) type Describe = fn() -> Option<Vec<Param>>;

/// Fills in the defaults of a parameter type's optional fields.
pub(crate) type FillDefaults = fn(&mut [Param]);

/// Sets the `default` of each optional parameter to the value `P` gets
/// without it: `P` is read from its required parameters alone (sample
/// values) and written back with its `Serialize`. Leaves them unknown when
/// that fails or the field is not written back.
pub(crate) fn fill_defaults<P: DeserializeOwned + Serialize>(params: &mut [Param]) {
    let least: Map<String, Value> = params
        .iter()
        .filter(|p| p.required)
        .map(|p| (p.name.clone(), p.ty.sample()))
        .collect();
    let Some(Value::Object(back)) = serde_json::from_value::<P>(Value::Object(least))
        .ok()
        .and_then(|p| serde_json::to_value(p).ok())
    else {
        return;
    };
    for p in params.iter_mut().filter(|p| !p.required) {
        p.default = back.get(&p.name).filter(|v| !v.is_null()).cloned();
    }
}

//! The strict JSON reading of tree files: text to a compact document
//! ([`Json`]), on top of serde_json's parser. The lowest layer of the crate:
//! the model, the library and [`Reader`](crate::Reader) build on it.
//!
//! Stricter and leaner than `serde_json::Value`:
//! - a key repeated in an object is a problem at its path (serde_json keeps
//!   the last one silently); every such key is reported, and reading goes on;
//! - nesting is limited by one number, the loader's `max_depth` (see
//!   [`json_depth_limit`]), with one message that names it, instead of
//!   serde_json's fixed 128;
//! - a syntax error, a number out of range (`1e400`) or a byte-order mark
//!   is a problem at the path being read, with its line and column;
//! - strings borrow from the text where they can, and objects are arrays of
//!   entries, so the document takes a few times the text's size, not tens.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::error::{LoadError, Problem, Problems, path};

/// The default nesting limit of a tree: 64 levels below the root
/// ([`Reader::DEFAULT_MAX_DEPTH`](crate::Reader::DEFAULT_MAX_DEPTH)).
pub(crate) const DEFAULT_MAX_DEPTH: usize = 64;

/// A JSON value read from a tree file. Strings borrow from the text when
/// they have no escapes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number (an integer, or a finite float).
    Number(Number),
    /// A string.
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<Json<'a>>),
    /// An object, its entries in document order, each key once.
    Object(Object<'a>),
}

/// A JSON object: its entries in document order, each key once.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Object<'a> {
    entries: Vec<(Cow<'a, str>, Json<'a>)>,
}

impl<'a> Object<'a> {
    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Whether `key` is present.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The keys, in document order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| k.as_ref())
    }

    /// The entries, in document order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Json<'a>)> {
        self.entries.iter().map(|(k, v)| (k.as_ref(), v))
    }

    /// The object as a `serde_json` map, leaving out `skip`.
    pub fn to_map(&self, skip: &str) -> Map<String, Value> {
        self.iter()
            .filter(|(k, _)| *k != skip)
            .map(|(k, v)| (k.to_string(), v.to_value()))
            .collect()
    }
}

impl<'a> Json<'a> {
    /// The object, if this is one.
    pub fn as_object(&self) -> Option<&Object<'a>> {
        match self {
            Json::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The number as a `u64`, if it is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    /// The number as an `f64`, if it is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    /// The value as a `serde_json::Value` (for leaf parameters).
    pub fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::String(s) => Value::String(s.to_string()),
            Json::Array(a) => Value::Array(a.iter().map(Json::to_value).collect()),
            Json::Object(o) => Value::Object(o.to_map("")),
        }
    }

    /// A document borrowing from `value`.
    pub fn from_value(value: &'a Value) -> Json<'a> {
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => Json::Number(n.clone()),
            Value::String(s) => Json::String(Cow::Borrowed(s)),
            Value::Array(a) => Json::Array(a.iter().map(Json::from_value).collect()),
            Value::Object(o) => Json::Object(Object {
                entries: o
                    .iter()
                    .map(|(k, v)| (Cow::Borrowed(k.as_str()), Json::from_value(v)))
                    .collect(),
            }),
        }
    }
}

/// The deepest JSON nesting read for a tree of `max_depth` node levels: a
/// node level takes at most three JSON levels (`if`: the node, its
/// `"branches"` array, a branch object), and leaf parameters a few more.
pub fn json_depth_limit(max_depth: usize) -> usize {
    max_depth.saturating_mul(3).saturating_add(16)
}

/// The message of a tree nested deeper than `max_depth`, the same from the
/// reader and from the checks of the model and of the loader.
pub fn too_deep(max_depth: usize) -> String {
    format!("the tree is nested deeper than {max_depth} levels, subtrees included (the loader's `max_depth`)")
}

/// Reads `text` into a document. `max_depth` is the loader's node depth
/// limit; `library` makes the keys of the top-level `"subtrees"` object
/// read as `subtrees["id"]` in paths, as the library's problems name them.
/// Repeated keys go to `problems` (reading goes on); a text that cannot be
/// read at all is an error at the path where reading stopped.
pub(crate) fn read<'a>(
    text: &'a str,
    max_depth: usize,
    library: bool,
    problems: &mut Problems,
) -> Result<Json<'a>, LoadError> {
    if text.starts_with('\u{feff}') {
        return Err(LoadError::one(
            "",
            "the text starts with a byte-order mark (U+FEFF) at line 1 column 1: \
             save the file as UTF-8 without one",
        ));
    }
    let mut st = State {
        path: String::new(),
        depth: 0,
        limit: json_depth_limit(max_depth),
        max_depth,
        library,
        problems,
        failure: None,
    };
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let result = Seed { st: &mut st }.deserialize(&mut de).and_then(|doc| {
        de.end()?;
        Ok(doc)
    });
    result.map_err(|e| {
        let (at, message) = match st.failure.take() {
            Some(own) => own,
            None => (st.path.clone(), syntax(&e)),
        };
        LoadError::new(vec![Problem::new(at, message)])
    })
}

/// A serde_json error as a message with its line and column, said once
/// (serde_json's own text ends with them again).
fn syntax(e: &serde_json::Error) -> String {
    let (line, column) = (e.line(), e.column());
    let text = e.to_string();
    let where_ = format!(" at line {line} column {column}");
    let text = text.strip_suffix(&where_).unwrap_or(&text);
    if e.classify() == serde_json::error::Category::Eof {
        format!("unexpected end of the JSON text at line {line} column {column}: {text}")
    } else if text.starts_with("number out of range") {
        format!("a number too large for a 64-bit float at line {line} column {column}")
    } else {
        format!("malformed JSON at line {line} column {column}: {text}")
    }
}

struct State<'p> {
    /// The path of the value being read (left where reading stopped on an error).
    path: String,
    depth: usize,
    limit: usize,
    max_depth: usize,
    library: bool,
    problems: &'p mut Problems,
    /// The reader's own reason to stop, with its path.
    failure: Option<(String, String)>,
}

impl State<'_> {
    fn enter<E: de::Error>(&mut self) -> Result<(), E> {
        self.depth += 1;
        if self.depth > self.limit {
            let msg = too_deep(self.max_depth);
            self.failure = Some((self.path.clone(), msg.clone()));
            return Err(E::custom(msg));
        }
        Ok(())
    }

    /// Appends the path segment of `key`; returns the length to cut back to.
    fn push_key(&mut self, key: &str) -> usize {
        let len = self.path.len();
        if self.library && self.depth == 2 && self.path == "subtrees" {
            self.path = path::subtree(key);
        } else {
            path::push_field(&mut self.path, key);
        }
        len
    }
}

struct Seed<'s, 'p> {
    st: &'s mut State<'p>,
}

impl<'de> DeserializeSeed<'de> for Seed<'_, '_> {
    type Value = Json<'de>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Json<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_, '_> {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Json<'de>, E> {
        Ok(Json::Bool(b))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Json<'de>, E> {
        Ok(Json::Number(n.into()))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Json<'de>, E> {
        Ok(Json::Number(n.into()))
    }
    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Json<'de>, E> {
        // serde_json never reads a non-finite float; `1e400` is an error before this.
        Number::from_f64(x)
            .map(Json::Number)
            .ok_or_else(|| E::custom("a number that is not finite"))
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Borrowed(s)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(s.to_string())))
    }
    fn visit_string<E>(self, s: String) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(s)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
        let st = self.st;
        st.enter()?;
        let mut items = Vec::new();
        loop {
            let len = st.path.len();
            path::push_index(&mut st.path, items.len());
            let Some(item) = deep(|| seq.next_element_seed(Seed { st: &mut *st }))? else {
                st.path.truncate(len);
                break;
            };
            st.path.truncate(len);
            items.push(item);
        }
        st.depth -= 1;
        items.shrink_to_fit();
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'de>, A::Error> {
        let st = self.st;
        st.enter()?;
        let mut entries: Vec<(Cow<'de, str>, Json<'de>)> = Vec::new();
        // Large objects (a library's subtrees) look keys up by hash.
        let mut seen: Option<HashSet<String>> = None;
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let len = st.push_key(&key);
            let value = deep(|| map.next_value_seed(Seed { st: &mut *st }))?;
            let repeated = match &mut seen {
                Some(set) => !set.insert(key.to_string()),
                None => entries.iter().any(|(k, _)| *k == key),
            };
            if repeated {
                st.problems.push(
                    &st.path,
                    format!("the key {} appears twice in this object; keep one", shown(&key)),
                );
            } else {
                entries.push((key, value));
                if seen.is_none() && entries.len() > 32 {
                    seen = Some(entries.iter().map(|(k, _)| k.to_string()).collect());
                }
            }
            st.path.truncate(len);
        }
        st.depth -= 1;
        entries.shrink_to_fit();
        Ok(Json::Object(Object { entries }))
    }
}

/// Runs `f`, on a new stack segment when little of the current one is left:
/// reading, checking and building recurse once per level of a tree, and a
/// tree within the depth limit must not overflow a thread's stack.
pub fn deep<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(64 * 1024, 1024 * 1024, f)
}

/// Text for messages that is not quoted (a node's label): cut after 64
/// characters, as [`shown`] cuts a name.
pub fn clipped(text: &str) -> String {
    const MAX: usize = 64;
    match text.char_indices().nth(MAX) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}.. ({} bytes)", &text[..cut], text.len()),
    }
}

/// A name for messages: quoted, and cut after 64 characters.
pub fn shown(name: &str) -> String {
    const MAX: usize = 64;
    match name.char_indices().nth(MAX) {
        None => format!("{name:?}"),
        Some((cut, _)) => format!("{:?}.. ({} bytes)", &name[..cut], name.len()),
    }
}

/// Reads an object key, borrowing it from the text when it has no escapes.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(s))
    }
    fn visit_str<E>(self, s: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(s))
    }
}

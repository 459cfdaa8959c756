//! Blackboard ports (BehaviorTree.CPP's `{key}`): a leaf's parameter that
//! names an entry of the blackboard instead of holding a value. The
//! blackboard is the context: the game registers each key as an [`Entry`],
//! where that part of the context is, typed by the value it holds. A leaf
//! takes such a parameter as a [`Port`] (read at tick time; a literal value
//! is accepted too) or an [`OutPort`] (read and written at tick time; only
//! an entry is accepted).
//!
//! In the JSON form a reference is the object `{"$entry": "key"}`
//! ([`ENTRY_FIELD`]); in BT.CPP XML it is the port text `{key}`. Leaves are
//! built from their parameters with serde, and serde has no way to hand the
//! table to a `Deserialize`: whoever builds the leaves (the interpreter's
//! registry, a tree `behave!` compiled) names the table for the time of the
//! build with [`resolving`], and a `Port`'s `Deserialize` looks its key up
//! there. Resolving happens once, when the tree is built; a tick calls a
//! function pointer and never allocates.
//!
//! ```
//! use std::sync::Arc;
//! use behaved_format::port::{Entry, EntryTable, Port, resolving};
//!
//! struct World { goal: (i32, i32) }
//!
//! #[derive(serde::Deserialize)]
//! struct MoveTo { goal: Port<World, (i32, i32)> }
//!
//! let mut table = EntryTable::new();
//! table.insert("target", Entry::new(|w: &World| &w.goal, |w: &mut World| &mut w.goal));
//! let table = Arc::new(table);
//! let params = serde_json::json!({"goal": {"$entry": "target"}});
//! let (leaf, used) = resolving(&table, || behaved_format::leaf_params::<MoveTo>("MoveTo", params));
//! let leaf = leaf.unwrap();
//! assert_eq!(used, ["target"]);
//! assert_eq!(*leaf.goal.get(&World { goal: (3, 4) }), (3, 4));
//! ```

use std::any::{Any, type_name};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde::de::{Deserialize, DeserializeOwned, Deserializer, Error as _};
use serde_json::{Map, Value};

use crate::document::{clipped, shown};
use crate::error::path;
use crate::messages::SOME_OF;

/// The field of a blackboard reference in the JSON form: `{"$entry": "goal"}`.
pub const ENTRY_FIELD: &str = "$entry";

/// The key `value` refers to, if it is a blackboard reference
/// (`{"$entry": "key"}`, that field alone, with a non-empty string).
pub fn entry_key(value: &Value) -> Option<&str> {
    match value {
        Value::Object(o) if o.len() == 1 => o.get(ENTRY_FIELD)?.as_str().filter(|k| !k.is_empty()),
        _ => None,
    }
}

/// The JSON form of a reference to the entry `key`.
pub fn entry_value(key: &str) -> Value {
    let mut o = Map::new();
    o.insert(ENTRY_FIELD.into(), key.into());
    Value::Object(o)
}

/// The references in a leaf's parameters `params`, each with the path of
/// its parameter below the leaf (`goal`, `route[1]`), in order.
pub fn references(params: &Map<String, Value>) -> Vec<(String, &str)> {
    let mut out = Vec::new();
    each_value(params, |v, at| match entry_key(v) {
        Some(key) => {
            out.push((at.to_owned(), key));
            false
        }
        None => true,
    });
    out
}

/// Renames the references of `params` whose key `renames` lists to the
/// key it gives (a `subtree`'s remap applied to the leaves inlined through it).
pub fn rename_references(params: &mut Map<String, Value>, renames: &BTreeMap<String, String>) {
    fn walk(v: &mut Value, renames: &BTreeMap<String, String>) {
        if let Some(to) = entry_key(v).and_then(|k| renames.get(k)) {
            *v = entry_value(to);
            return;
        }
        match v {
            Value::Object(o) => o.values_mut().for_each(|v| walk(v, renames)),
            Value::Array(a) => a.iter_mut().for_each(|v| walk(v, renames)),
            _ => {}
        }
    }
    params.values_mut().for_each(|v| walk(v, renames));
}

/// What is wrong with the `"$entry"` objects of `params` that are not
/// references (another field beside it, a key that is not a non-empty
/// string), each with the path of its parameter.
pub fn malformed(params: &Map<String, Value>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    each_value(params, |v, at| {
        if let Value::Object(o) = v
            && o.contains_key(ENTRY_FIELD)
            && entry_key(v).is_none()
        {
            out.push((
                at.to_owned(),
                format!(
                    "a blackboard reference is {{\"{ENTRY_FIELD}\": \"key\"}}: that field alone, with the entry's name"
                ),
            ));
            return false;
        }
        true
    });
    out
}

/// Calls `f` on every value of `params`, depth first, with its path; `f`
/// says whether to look inside the value.
fn each_value<'v>(params: &'v Map<String, Value>, mut f: impl FnMut(&'v Value, &str) -> bool) {
    fn walk<'v, F: FnMut(&'v Value, &str) -> bool>(v: &'v Value, at: String, f: &mut F) {
        if !f(v, &at) {
            return;
        }
        match v {
            Value::Object(o) => o.iter().for_each(|(k, v)| walk(v, path::field(&at, k), f)),
            Value::Array(a) => a.iter().enumerate().for_each(|(i, v)| walk(v, path::index(&at, i), f)),
            _ => {}
        }
    }
    params.iter().for_each(|(k, v)| walk(v, k.clone(), &mut f));
}

/// Where a part of the context `C` is: a blackboard entry holding a `T`,
/// read through `read` and written through `write` (two function pointers:
/// an entry costs one call, and never allocates).
///
/// [`entry!`](crate::entry) makes both from one closure: `entry!(|c: &mut World| &mut c.goal)`.
pub struct Entry<C: ?Sized, T: ?Sized> {
    read: fn(&C) -> &T,
    write: fn(&mut C) -> &mut T,
}

impl<C: ?Sized, T: ?Sized> Clone for Entry<C, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C: ?Sized, T: ?Sized> Copy for Entry<C, T> {}

impl<C: ?Sized, T: ?Sized> core::fmt::Debug for Entry<C, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Entry<{}>", type_name::<T>())
    }
}

impl<C: ?Sized, T: ?Sized> Entry<C, T> {
    /// The entry read by `read` and written by `write` (the same part of the context).
    pub const fn new(read: fn(&C) -> &T, write: fn(&mut C) -> &mut T) -> Entry<C, T> {
        Entry { read, write }
    }

    /// The entry's value in `ctx`.
    pub fn read<'c>(&self, ctx: &'c C) -> &'c T {
        (self.read)(ctx)
    }

    /// The entry's value in `ctx`, to change.
    pub fn write<'c>(&self, ctx: &'c mut C) -> &'c mut T {
        (self.write)(ctx)
    }
}

/// `Entry::new(|c| &c.x, |c| &mut c.x)` from the one closure `|c| &mut c.x`
/// (its parameter may be typed: `|c: &mut World| &mut c.goal`).
///
/// ```
/// use behaved_format::{entry, port::Entry};
/// struct World { hp: u32 }
/// let hp: Entry<World, u32> = entry!(|w| &mut w.hp);
/// let mut world = World { hp: 3 };
/// *hp.write(&mut world) += 1;
/// assert_eq!(*hp.read(&world), 4);
/// ```
#[macro_export]
macro_rules! entry {
    (|$c:ident $(: &mut $ctx:ty)?| &mut $($place:tt)+) => {
        $crate::port::Entry::new(|$c $(: &$ctx)?| &$($place)+, |$c $(: &mut $ctx)?| &mut $($place)+)
    };
}

/// An [`Entry`] of some context and value type, as a table holds it.
pub trait AnyEntry: Any + Send + Sync {
    /// The name of the value's type, for messages.
    fn value_type(&self) -> &'static str;
    /// The entry itself, to be downcast to its `Entry<C, T>`.
    fn as_any(&self) -> &dyn Any;
}

impl<C: 'static, T: 'static> AnyEntry for Entry<C, T> {
    fn value_type(&self) -> &'static str {
        type_name::<T>()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The blackboard's entries by key: what the game registers (the
/// interpreter's `Registry::entry`, the `ports { .. }` of a `behave!` tree).
#[derive(Clone, Default)]
pub struct EntryTable {
    entries: BTreeMap<String, Arc<dyn AnyEntry>>,
}

impl core::fmt::Debug for EntryTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, e)| (k, e.value_type())))
            .finish()
    }
}

impl EntryTable {
    /// An empty table.
    pub fn new() -> EntryTable {
        EntryTable::default()
    }

    /// Adds (or replaces) the entry `key`.
    pub fn insert<C: 'static, T: 'static>(&mut self, key: &str, entry: Entry<C, T>) -> &mut Self {
        self.entries.insert(key.to_string(), Arc::new(entry));
        self
    }

    /// The entry `key`.
    pub fn get(&self, key: &str) -> Option<&dyn AnyEntry> {
        self.entries.get(key).map(|e| &**e)
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }

    /// Whether the table has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry `key` as an `Entry<C, T>`, or why not (an unknown key, with
    /// the known ones; another value type, with both).
    pub fn resolve<C: 'static, T: 'static>(&self, key: &str) -> Result<Entry<C, T>, String> {
        let Some(entry) = self.get(key) else {
            return Err(self.unknown(key));
        };
        match entry.as_any().downcast_ref::<Entry<C, T>>() {
            Some(e) => Ok(*e),
            None if entry.value_type() == type_name::<T>() => Err(format!(
                "the blackboard entry {} is an entry of another context than this leaf's `{}`",
                shown(key),
                type_name::<C>()
            )),
            None => Err(format!(
                "the blackboard entry {} holds a `{}`, and this port is a `{}`",
                shown(key),
                entry.value_type(),
                type_name::<T>()
            )),
        }
    }

    /// The message for the unknown key `key`.
    fn unknown(&self, key: &str) -> String {
        if self.entries.is_empty() {
            return format!(
                "unknown blackboard entry {}: no entries are registered (the interpreter's `Registry::entry`, a `behave!` tree's `ports {{ .. }}`)",
                shown(key)
            );
        }
        let hint = behaved_runtime::catalog::closest(key, self.keys())
            .map(|c| format!("; did you mean {}?", shown(c)))
            .unwrap_or_default();
        let mut known: Vec<String> = self.keys().take(SOME_OF).map(|k| format!("`{}`", clipped(k))).collect();
        if self.entries.len() > SOME_OF {
            known.push(format!("and {} more", self.entries.len() - SOME_OF));
        }
        format!(
            "unknown blackboard entry {}{hint} (the entries: {})",
            shown(key),
            known.join(", ")
        )
    }
}

/// The table the leaves being built resolve their ports in, and the keys
/// they resolved.
struct Scope {
    table: Arc<EntryTable>,
    used: Vec<String>,
    /// The keys of `used` that an [`OutPort`] resolved (written at tick time).
    written: Vec<String>,
}

thread_local! {
    static SCOPE: RefCell<Option<Scope>> = const { RefCell::new(None) };
    /// The remapped entries of the compiled subtree being built
    /// ([`with_remap`]): its keys stand for these entries of its user.
    static REMAP: RefCell<Option<Arc<EntryTable>>> = const { RefCell::new(None) };
}

/// Puts the previous remap back when a subtree's build ends, even by a panic.
struct RestoreRemap(Option<Arc<EntryTable>>);

impl Drop for RestoreRemap {
    fn drop(&mut self) {
        let previous = self.0.take();
        REMAP.with(|r| *r.borrow_mut() = previous);
    }
}

/// Builds a compiled subtree (`build`, its `new()`) whose blackboard keys
/// are remapped (BT.CPP's `<SubTree ID="Approach" goal="{target}"/>`):
/// each `(key, to, entry)` makes the subtree's `key` the using tree's entry
/// `to`, which is `entry` there unless the using tree is itself remapped
/// (then what `to` stands for). Every other key keeps what it stands for
/// in the using tree. The subtree's leaves resolve their ports in its own
/// `ports { .. }` with these in place ([`leaf_params_in`]); a remapped
/// entry's type is checked then, when the tree is built.
pub fn with_remap<R>(remap: &[(&str, &str, Arc<dyn AnyEntry>)], build: impl FnOnce() -> R) -> R {
    let outer = REMAP.with(|r| r.borrow().clone());
    let mut inner = outer.as_deref().cloned().unwrap_or_default();
    for (key, to, entry) in remap {
        let entry = match outer.as_deref().and_then(|o| o.entries.get(*to)) {
            Some(e) => Arc::clone(e),
            None => Arc::clone(entry),
        };
        inner.entries.insert(key.to_string(), entry);
    }
    let previous = REMAP.with(|r| r.borrow_mut().replace(Arc::new(inner)));
    let restore = RestoreRemap(previous);
    let out = build();
    drop(restore);
    out
}

/// A compiled tree's `ports { .. }` entry as a remapped subtree's entry
/// ([`with_remap`]): its type is checked against the subtree's ports when
/// the subtree is built.
pub fn remap_entry<C: 'static, T: 'static>(entry: Entry<C, T>) -> Arc<dyn AnyEntry> {
    Arc::new(entry)
}

/// `table` (a compiled tree's `ports { .. }`) with the keys the subtree
/// being built is remapped on ([`with_remap`]) replaced by its user's entries.
fn remapped(mut table: EntryTable) -> EntryTable {
    REMAP.with(|r| {
        if let Some(remap) = &*r.borrow() {
            for (key, entry) in table.entries.iter_mut() {
                if let Some(e) = remap.entries.get(key) {
                    *entry = Arc::clone(e);
                }
            }
        }
    });
    table
}

/// Puts the previous scope back when the build ends, even by a panic.
struct Restore(Option<Scope>);

impl Drop for Restore {
    fn drop(&mut self) {
        let previous = self.0.take();
        SCOPE.with(|s| *s.borrow_mut() = previous);
    }
}

/// Runs `build` (which builds leaves from their parameters) with the ports
/// it deserializes resolved in `table`; returns its result and the keys
/// they resolved, in order, so that the caller can tell a reference no
/// port read ([`unread`]).
pub fn resolving<R>(table: &Arc<EntryTable>, build: impl FnOnce() -> R) -> (R, Vec<String>) {
    let (out, used, _) = resolving_ports(table, build);
    (out, used)
}

/// [`resolving`], with the keys that [`OutPort`]s resolved besides (a
/// subset of the first list, in order): what the leaves built read and
/// what they write, for the studio's data-flow view.
pub fn resolving_ports<R>(table: &Arc<EntryTable>, build: impl FnOnce() -> R) -> (R, Vec<String>, Vec<String>) {
    let scope = Scope {
        table: Arc::clone(table),
        used: Vec::new(),
        written: Vec::new(),
    };
    let previous = SCOPE.with(|s| s.borrow_mut().replace(scope));
    let restore = Restore(previous);
    let out = build();
    let (used, written) = SCOPE.with(|s| s.borrow_mut().take().map(|s| (s.used, s.written)).unwrap_or_default());
    drop(restore);
    (out, used, written)
}

/// Resolves `key` for an [`OutPort`], noting it as written.
fn resolve_written<C: 'static, T: 'static>(key: &str) -> Result<Entry<C, T>, String> {
    let entry = resolve(key)?;
    SCOPE.with(|s| {
        if let Some(scope) = &mut *s.borrow_mut() {
            scope.written.push(key.to_string());
        }
    });
    Ok(entry)
}

/// Resolves `key` in the table of the build in progress.
fn resolve<C: 'static, T: 'static>(key: &str) -> Result<Entry<C, T>, String> {
    SCOPE.with(|s| match &mut *s.borrow_mut() {
        Some(scope) => {
            scope.used.push(key.to_string());
            scope.table.resolve(key)
        }
        None => Err(format!(
            "the blackboard entry {} is read outside a tree's build: leaves with blackboard ports are built by the interpreter's registry or by `behave!`",
            shown(key)
        )),
    })
}

/// The references of `params` that no port read (a parameter whose type
/// is not a [`Port`] or [`OutPort`]), given the keys the build `used`:
/// each parameter's path and a message.
pub fn unread(leaf: &str, params: &Map<String, Value>, used: &[String]) -> Vec<(String, String)> {
    let mut left: Vec<&str> = used.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    for (at, key) in references(params) {
        match left.iter().position(|k| *k == key) {
            Some(i) => drop(left.swap_remove(i)),
            None => out.push((
                at.clone(),
                format!(
                    "the parameter `{}` of leaf `{}` is the blackboard entry {}, but its type does not read blackboard entries: make its field a `Port` (read) or an `OutPort` (read and written)",
                    clipped(&at),
                    clipped(leaf),
                    shown(key)
                ),
            )),
        }
    }
    out
}

/// What `behave!` checks a tree's `ports { .. }` with: a leaf's parameter
/// that names a blackboard entry must be a [`Port`] or an [`OutPort`] of
/// the entry's context and value type (rustc then points at the entry
/// whose type differs).
#[diagnostic::on_unimplemented(
    message = "the parameter is a blackboard entry, but `{Self}` is not a `Port` or an `OutPort`",
    label = "this parameter names a blackboard entry in the file",
    note = "make the leaf's field a `behaved::port::Port<Ctx, T>` (read) or `OutPort<Ctx, T>` (read and written)"
)]
pub trait PortOf {
    /// The context the port reads.
    type Ctx;
    /// The type of its value.
    type Value;
    /// Nothing: called only in code that rustc checks and never runs.
    fn fits(&self, entry: Entry<Self::Ctx, Self::Value>) {
        let _ = entry;
    }
}

impl<C, T> PortOf for Port<C, T> {
    type Ctx = C;
    type Value = T;
}

impl<C, T> PortOf for OutPort<C, T> {
    type Ctx = C;
    type Value = T;
}

/// [`leaf_params`](crate::leaf_params) with the ports resolved in
/// `entries` (with a compiled subtree's remapped keys in place:
/// [`with_remap`]); a reference that no port read is an error too (its
/// parameter is not a [`Port`] or [`OutPort`]).
pub fn leaf_params_in<T: DeserializeOwned>(leaf: &str, params: Value, entries: EntryTable) -> Result<T, String> {
    let entries = remapped(entries);
    let (made, used) = resolving(&Arc::new(entries), || crate::leaf_params(leaf, params.clone()));
    if let Value::Object(map) = &params
        && let Some((_, message)) = unread(leaf, map, &used).into_iter().next()
    {
        return Err(message);
    }
    made
}

/// A leaf's input port: a value written in the tree, or a blackboard entry
/// read from the context at tick time ([`Port::get`]). BT.CPP's
/// `getInput<T>("goal")`.
pub struct Port<C: ?Sized, T> {
    source: Source<C, T>,
}

enum Source<C: ?Sized, T> {
    Value(T),
    Entry(Entry<C, T>),
}

/// Written by hand: a derived `Clone` would ask the context `C` to be `Clone` too.
impl<C: ?Sized, T: Clone> Clone for Source<C, T> {
    fn clone(&self) -> Self {
        match self {
            Source::Value(v) => Source::Value(v.clone()),
            Source::Entry(e) => Source::Entry(*e),
        }
    }
}

impl<C: ?Sized, T: Clone> Clone for Port<C, T> {
    fn clone(&self) -> Self {
        Port {
            source: self.source.clone(),
        }
    }
}

impl<C: ?Sized, T: core::fmt::Debug> core::fmt::Debug for Port<C, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match &self.source {
            Source::Value(v) => f.debug_tuple("Port::Value").field(v).finish(),
            Source::Entry(e) => f.debug_tuple("Port::Entry").field(e).finish(),
        }
    }
}

impl<C: ?Sized, T> Port<C, T> {
    /// A port holding `value`.
    pub fn value(value: T) -> Port<C, T> {
        Port {
            source: Source::Value(value),
        }
    }

    /// A port reading `entry`.
    pub fn entry(entry: Entry<C, T>) -> Port<C, T> {
        Port {
            source: Source::Entry(entry),
        }
    }

    /// The port's value now: its literal, or its entry in `ctx`.
    pub fn get<'a>(&'a self, ctx: &'a C) -> &'a T {
        match &self.source {
            Source::Value(v) => v,
            Source::Entry(e) => e.read(ctx),
        }
    }

    /// Whether the port reads a blackboard entry (rather than holding a value).
    pub fn is_entry(&self) -> bool {
        matches!(self.source, Source::Entry(_))
    }
}

/// Whether `D` reads the JSON form (serde_json's deserializers, which the
/// leaves' builds use), where a port may be a reference. Any other (the
/// manifest's tracer) reads the port's value type, so that a `Port<C, T>`
/// is described as a `T`.
fn reads_json<'de, D: Deserializer<'de>>() -> bool {
    type_name::<D>().starts_with("serde_json::")
}

impl<'de, C: 'static, T: DeserializeOwned + 'static> Deserialize<'de> for Port<C, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if !reads_json::<D>() {
            return T::deserialize(d).map(Port::value);
        }
        let v = Value::deserialize(d)?;
        match entry_key(&v) {
            Some(key) => resolve(key).map(Port::entry).map_err(D::Error::custom),
            None => T::deserialize(v).map(Port::value).map_err(D::Error::custom),
        }
    }
}

/// A leaf's output (and input) port: a blackboard entry the leaf reads and
/// writes at tick time. BT.CPP's `setOutput("goal", ..)`; in a tree file
/// only an entry is accepted (a value is an error when the tree loads).
/// Another format than JSON (the manifest's tracer, which describes it as a
/// `T`) gives it a value of its own, which it then reads and writes.
pub struct OutPort<C: ?Sized, T> {
    source: Source<C, T>,
}

impl<C: ?Sized, T: Clone> Clone for OutPort<C, T> {
    fn clone(&self) -> Self {
        OutPort {
            source: self.source.clone(),
        }
    }
}

impl<C: ?Sized, T> core::fmt::Debug for OutPort<C, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match &self.source {
            Source::Value(_) => f.write_str("OutPort::Value"),
            Source::Entry(e) => f.debug_tuple("OutPort").field(e).finish(),
        }
    }
}

impl<C: ?Sized, T> OutPort<C, T> {
    /// The port writing `entry`.
    pub fn new(entry: Entry<C, T>) -> OutPort<C, T> {
        OutPort {
            source: Source::Entry(entry),
        }
    }

    /// The entry's value in `ctx`.
    pub fn get<'a>(&'a self, ctx: &'a C) -> &'a T {
        match &self.source {
            Source::Value(v) => v,
            Source::Entry(e) => e.read(ctx),
        }
    }

    /// The entry's value in `ctx`, to change.
    pub fn get_mut<'a>(&'a mut self, ctx: &'a mut C) -> &'a mut T {
        match &mut self.source {
            Source::Value(v) => v,
            Source::Entry(e) => e.write(ctx),
        }
    }

    /// Writes `value` to the entry in `ctx`.
    pub fn set(&mut self, ctx: &mut C, value: T) {
        *self.get_mut(ctx) = value;
    }
}

/// Whether `name`, a newtype struct's name as a non-JSON deserializer
/// (the manifest's tracer) is told it, is an [`OutPort`]'s: the manifest
/// then describes the parameter as an output (BT.CPP's `output_port`).
pub fn is_out_port_name(name: &str) -> bool {
    let ours = type_name::<OutPort<(), ()>>();
    let prefix = ours.split('<').next().unwrap_or(ours);
    name.strip_prefix(prefix).is_some_and(|rest| rest.starts_with('<'))
}

/// Reads an [`OutPort`]'s value for a non-JSON deserializer, told as a
/// newtype struct named after the port's type (one name per `T`, as the
/// tracer keeps one format per name).
struct OutPortValue<T>(core::marker::PhantomData<T>);

impl<'de, T: DeserializeOwned> serde::de::Visitor<'de> for OutPortValue<T> {
    type Value = T;
    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "an output port's `{}`", type_name::<T>())
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::deserialize(d)
    }
}

impl<'de, C: 'static, T: DeserializeOwned + 'static> Deserialize<'de> for OutPort<C, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if !reads_json::<D>() {
            let name = type_name::<OutPort<C, T>>();
            return d
                .deserialize_newtype_struct(name, OutPortValue(core::marker::PhantomData))
                .map(|v| OutPort {
                    source: Source::Value(v),
                });
        }
        let v = Value::deserialize(d)?;
        match entry_key(&v) {
            Some(key) => resolve_written(key).map(OutPort::new).map_err(D::Error::custom),
            None => Err(D::Error::custom(format!(
                "an output port must name a blackboard entry (`{{\"{ENTRY_FIELD}\": \"key\"}}`, in XML `{{key}}`), found a value: `{}`",
                clipped(&v.to_string())
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct World {
        hp: u32,
        name: String,
    }

    fn table() -> Arc<EntryTable> {
        let mut t = EntryTable::new();
        t.insert("hp", crate::entry!(|w: &mut World| &mut w.hp));
        t.insert("name", crate::entry!(|w: &mut World| &mut w.name));
        Arc::new(t)
    }

    #[derive(serde::Deserialize)]
    struct Heal {
        amount: Port<World, u32>,
        hp: OutPort<World, u32>,
    }

    #[test]
    fn ports_read_and_write_the_context() {
        let params = serde_json::json!({"amount": {"$entry": "hp"}, "hp": {"$entry": "hp"}});
        let (heal, used) = resolving(&table(), || crate::leaf_params::<Heal>("heal", params));
        let mut heal = heal.unwrap();
        assert_eq!(used, ["hp", "hp"]);
        let mut w = World {
            hp: 2,
            name: String::new(),
        };
        let add = *heal.amount.get(&w);
        *heal.hp.get_mut(&mut w) += add;
        assert_eq!(w.hp, 4);
        heal.hp.set(&mut w, 9);
        assert_eq!(*heal.amount.get(&w), 9);
    }

    #[test]
    fn a_literal_is_a_value_and_an_output_needs_an_entry() {
        let params = serde_json::json!({"amount": 3, "hp": {"$entry": "hp"}});
        let (heal, _) = resolving(&table(), || crate::leaf_params::<Heal>("heal", params));
        let heal = heal.unwrap();
        assert!(!heal.amount.is_entry());
        assert_eq!(
            *heal.amount.get(&World {
                hp: 0,
                name: String::new()
            }),
            3
        );
        let params = serde_json::json!({"amount": 3, "hp": 4});
        let (err, _) = resolving(&table(), || crate::leaf_params::<Heal>("heal", params));
        assert_eq!(
            err.err().unwrap(),
            "an output port must name a blackboard entry (`{\"$entry\": \"key\"}`, in XML `{key}`), found a value: `4`"
        );
    }

    #[test]
    fn unknown_keys_and_other_types_are_named() {
        let t = table();
        assert_eq!(
            t.resolve::<World, u32>("hpp").unwrap_err(),
            "unknown blackboard entry \"hpp\"; did you mean \"hp\"? (the entries: `hp`, `name`)"
        );
        assert_eq!(
            t.resolve::<World, u32>("name").unwrap_err(),
            "the blackboard entry \"name\" holds a `alloc::string::String`, and this port is a `u32`"
        );
        assert_eq!(
            t.resolve::<u8, u32>("hp").unwrap_err(),
            "the blackboard entry \"hp\" is an entry of another context than this leaf's `u8`"
        );
    }

    #[test]
    fn references_no_port_read_are_named() {
        let params = serde_json::json!({"amount": {"$entry": "hp"}, "note": [{"$entry": "name"}]});
        let Value::Object(params) = params else { unreachable!() };
        assert_eq!(references(&params).len(), 2);
        let unread = unread("heal", &params, &["hp".to_string()]);
        assert_eq!(unread.len(), 1);
        assert_eq!(unread[0].0, "note[0]");
        assert!(
            unread[0]
                .1
                .starts_with("the parameter `note[0]` of leaf `heal` is the blackboard entry \"name\"")
        );
    }

    #[test]
    fn malformed_references_are_found() {
        let params = serde_json::json!({"a": {"$entry": "k", "x": 1}, "b": {"$entry": 3}, "c": {"$entry": "k"}});
        let Value::Object(params) = params else { unreachable!() };
        let bad: Vec<String> = malformed(&params).into_iter().map(|(at, _)| at).collect();
        assert_eq!(bad, ["a", "b"]);
    }

    #[test]
    fn out_ports_are_told_by_their_name() {
        assert!(is_out_port_name(type_name::<OutPort<World, u32>>()));
        assert!(!is_out_port_name(type_name::<Port<World, u32>>()));
        assert!(!is_out_port_name("OutPort"));
    }

    #[test]
    fn outside_a_build_a_reference_is_an_error() {
        let params = serde_json::json!({"amount": {"$entry": "hp"}, "hp": {"$entry": "hp"}});
        let err = crate::leaf_params::<Heal>("heal", params).err().unwrap();
        assert!(err.contains("read outside a tree's build"), "{err}");
    }
}

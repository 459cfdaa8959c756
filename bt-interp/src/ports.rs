//! Blackboard ports through the registry: the game registers where each
//! entry is in its context ([`Registry::entry`]), and loading builds every
//! leaf with its [`Port`](behaved_format::port::Port)s resolved there, so
//! that an unknown key, an entry of another type, or a reference that no
//! port reads is a load error at the parameter's path (and, from XML, its
//! line and column). A tick reads an entry through one function pointer.

use std::sync::Arc;

use behaved_format::port::{Entry, EntryTable, resolving_ports, unread};
use behaved_format::{Problems, path};
use serde_json::{Map, Value};

use crate::registry::Registry;

impl<C: 'static> Registry<C> {
    /// Registers the blackboard entry `key`: the part of the context that
    /// a leaf's `{key}` port (`{"$entry": "key"}` in JSON) reads and writes,
    /// typed by the value it holds. A leaf's
    /// [`Port<C, T>`](behaved_format::port::Port) or
    /// [`OutPort<C, T>`](behaved_format::port::OutPort) parameter may name
    /// it only with the same `T`.
    ///
    /// ```
    /// use behaved_interp::{Agent, Registry, entry, port::Port};
    /// use behaved_runtime::{Condition, Status};
    ///
    /// struct World { hp: u32 }
    ///
    /// #[derive(serde::Deserialize)]
    /// struct Above { limit: Port<World, u32> }
    /// struct HpAbove(Above);
    /// impl Condition<World> for HpAbove {
    ///     fn check(&self, w: &World) -> bool { w.hp > *self.0.limit.get(w) }
    /// }
    ///
    /// let mut leaves = Registry::new();
    /// leaves.condition("hpAbove", HpAbove).entry("ten", entry!(|w: &mut World| &mut w.hp));
    /// let tree = leaves.load(r#"{"type": "condition", "condition": {"type": "hpAbove", "limit": 3}}"#)?;
    /// assert_eq!(Agent::new(tree).tick_at(&mut World { hp: 5 }, 0.0), Status::Success);
    ///
    /// let err = leaves.load(r#"{"type": "condition", "condition": {"type": "hpAbove", "limit": {"$entry": "tne"}}}"#).unwrap_err();
    /// assert_eq!(
    ///     err.messages(),
    ///     [r#"at `condition`: bad parameters for condition "hpAbove": unknown blackboard entry "tne"; did you mean "ten"? (the entries: `ten`)"#]
    /// );
    /// # Ok::<(), behaved_interp::LoadError>(())
    /// ```
    pub fn entry<T: 'static>(&mut self, key: &str, entry: Entry<C, T>) -> &mut Self {
        Arc::make_mut(&mut self.entries).insert(key, entry);
        self
    }

    /// The registered blackboard entries.
    pub fn entries(&self) -> &EntryTable {
        &self.entries
    }
}

/// Runs `build` (a leaf's constructor from `params`) with its ports
/// resolved in the registry's entries; a reference no port read is a
/// problem at its parameter, below the leaf's path `at`, and replaces the
/// constructor's own error (serde's "invalid type: map" for a field that is
/// not a port). The entries its ports read, and those they write, go to
/// `entries`.
pub(crate) fn built<C: 'static, T>(
    reg: &Registry<C>,
    params: &Map<String, Value>,
    leaf: &str,
    at: &str,
    problems: &mut Problems,
    entries: &mut (Vec<String>, Vec<String>),
    build: impl FnOnce() -> Result<T, String>,
) -> Result<T, Option<String>> {
    let (made, used, written) = resolving_ports(&reg.entries, build);
    *entries = (used.clone(), written);
    let left = unread(leaf, params, &used);
    if left.is_empty() {
        return made.map_err(Some);
    }
    for (param, message) in left {
        problems.push(&path::field(at, &param), message);
    }
    Err(None)
}

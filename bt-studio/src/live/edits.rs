//! Editing the game's values from the live view (issue 27): the values a
//! game shows through [`ObservedAgent::record_context`] can be edited where
//! the game provides a setter.
//!
//! The game names its setters once, in a [`Setters`] over its own state,
//! and passes them to [`ObservedAgent::apply_edits`] each frame (before it
//! ticks the agent). A page that may control the game sends `{"set":
//! {"key", "value"}}`; the server checks the key against the setters the
//! game declared and the value against its JSON type, answers what is wrong
//! (never panics), and queues a good edit. The game thread applies the
//! queued edits at its next `apply_edits`: it never waits on a page, and
//! costs one atomic load a frame while nothing was edited.
//!
//! [`ObservedAgent::record_context`]: crate::ObservedAgent::record_context
//! [`ObservedAgent::apply_edits`]: crate::ObservedAgent::apply_edits

use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};

/// The most edits queued for the game at once: a page sending faster than
/// the game applies them is told so.
const EDITS_QUEUED: usize = 64;

/// The JSON type a setter takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueType {
    /// A JSON number, given to the setter as `f64`.
    Number,
    /// A JSON number without a fraction, given as `i64`.
    Integer,
    /// `true` or `false`.
    Boolean,
    /// A JSON string.
    Text,
}

impl ValueType {
    /// The name the page shows and the server's errors use.
    pub fn name(self) -> &'static str {
        match self {
            ValueType::Number => "number",
            ValueType::Integer => "integer",
            ValueType::Boolean => "boolean",
            ValueType::Text => "string",
        }
    }

    /// Whether `value` is of this type.
    fn holds(self, value: &Value) -> bool {
        match self {
            ValueType::Number => value.as_f64().is_some(),
            ValueType::Integer => value.as_i64().is_some(),
            ValueType::Boolean => value.is_boolean(),
            ValueType::Text => value.is_string(),
        }
    }
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A setter of the game's state `S`, given a value already checked to be of its type.
type Setter<S> = Box<dyn FnMut(&mut S, &Value) + Send>;

/// The values of a game's state `S` that the live view may edit: each
/// named as the page shows it in the context table (the key of
/// `record_context`'s values, nested keys joined by `.`), with its type and
/// the function that sets it.
///
/// ```
/// use behaved_studio::Setters;
/// struct Dog { speed: f64, hungry: bool }
/// let setters = Setters::<Dog>::new()
///     .number("speed", |dog, v| dog.speed = v)
///     .boolean("hungry", |dog, v| dog.hungry = v);
/// assert_eq!(setters.names(), ["speed", "hungry"]);
/// ```
pub struct Setters<S> {
    setters: Vec<(String, ValueType, Setter<S>)>,
}

impl<S> Default for Setters<S> {
    fn default() -> Self {
        Setters { setters: Vec::new() }
    }
}

impl<S> fmt::Debug for Setters<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.setters.iter().map(|(name, ty, _)| (name, ty)))
            .finish()
    }
}

impl<S> Setters<S> {
    /// No setters.
    pub fn new() -> Self {
        Self::default()
    }

    /// The names of the values with a setter, in order.
    pub fn names(&self) -> Vec<&str> {
        self.setters.iter().map(|(name, ..)| name.as_str()).collect()
    }

    /// Adds (or replaces) the setter of `name`.
    fn with(mut self, name: &str, ty: ValueType, set: Setter<S>) -> Self {
        self.setters.retain(|(n, ..)| n != name);
        self.setters.push((name.to_owned(), ty, set));
        self
    }

    /// A setter of the number `name`.
    pub fn number(self, name: &str, mut set: impl FnMut(&mut S, f64) + Send + 'static) -> Self {
        self.with(
            name,
            ValueType::Number,
            Box::new(move |s, v| set(s, v.as_f64().unwrap_or_default())),
        )
    }

    /// A setter of the whole number `name`.
    pub fn integer(self, name: &str, mut set: impl FnMut(&mut S, i64) + Send + 'static) -> Self {
        self.with(
            name,
            ValueType::Integer,
            Box::new(move |s, v| set(s, v.as_i64().unwrap_or_default())),
        )
    }

    /// A setter of the boolean `name`.
    pub fn boolean(self, name: &str, mut set: impl FnMut(&mut S, bool) + Send + 'static) -> Self {
        self.with(
            name,
            ValueType::Boolean,
            Box::new(move |s, v| set(s, v.as_bool().unwrap_or_default())),
        )
    }

    /// A setter of the string `name`.
    pub fn text(self, name: &str, mut set: impl FnMut(&mut S, &str) + Send + 'static) -> Self {
        self.with(
            name,
            ValueType::Text,
            Box::new(move |s, v| set(s, v.as_str().unwrap_or_default())),
        )
    }

    /// The names and types, as the server checks edits against them.
    pub(crate) fn declared(&self) -> Vec<(String, ValueType)> {
        self.setters.iter().map(|(n, t, _)| (n.clone(), *t)).collect()
    }

    /// Sets `name` to `value` (checked by the server); `false` if there is
    /// no such setter or the value is not of its type.
    pub(crate) fn set(&mut self, state: &mut S, name: &str, value: &Value) -> bool {
        match self.setters.iter_mut().find(|(n, ..)| n == name) {
            Some((_, ty, set)) if ty.holds(value) => {
                set(state, value);
                true
            }
            _ => false,
        }
    }
}

/// What the game thread and the server share about one agent's edits.
#[derive(Debug, Default)]
pub(crate) struct Edits {
    /// The setters the game declared (names and types).
    declared: Mutex<Vec<(String, ValueType)>>,
    /// Edits checked and waiting for the game.
    queued: Mutex<Vec<(String, Value)>>,
    /// Whether `queued` may hold any: the game looks at this alone while nothing was edited.
    pending: AtomicBool,
}

impl Edits {
    /// The game declares its setters.
    pub fn declare(&self, declared: Vec<(String, ValueType)>) {
        *self.declared.lock().unwrap_or_else(|e| e.into_inner()) = declared;
    }

    /// The declared setters for the page: `[{"key", "type"}]`.
    pub fn to_json(&self) -> Value {
        let declared = self.declared.lock().unwrap_or_else(|e| e.into_inner());
        declared
            .iter()
            .map(|(key, ty)| json!({ "key": key, "type": ty.name() }))
            .collect()
    }

    /// Checks a page's edit, `{"key", "value"}`, and queues it for the game;
    /// what is wrong with it, if anything.
    pub fn queue(&self, edit: &Value) -> Result<(), String> {
        let Some(key) = edit.get("key").and_then(Value::as_str) else {
            return Err(format!(
                "an edit names the value to set: {{\"key\", \"value\"}}, not {edit}"
            ));
        };
        let Some(value) = edit.get("value") else {
            return Err(format!("an edit of {key:?} needs a \"value\": {edit}"));
        };
        let ty = {
            let declared = self.declared.lock().unwrap_or_else(|e| e.into_inner());
            match declared.iter().find(|(n, _)| n == key) {
                Some(&(_, ty)) => ty,
                None if declared.is_empty() => {
                    return Err(format!("the game provides no setters: {key:?} cannot be edited"));
                }
                None => {
                    let names: Vec<&str> = declared.iter().map(|(n, _)| n.as_str()).collect();
                    return Err(format!(
                        "the game provides no setter for {key:?}; it does for {}",
                        names.join(", ")
                    ));
                }
            }
        };
        if !ty.holds(value) {
            return Err(format!("{key:?} takes a {ty}, not {value}"));
        }
        let mut queued = self.queued.lock().unwrap_or_else(|e| e.into_inner());
        if queued.len() >= EDITS_QUEUED {
            return Err(format!(
                "{EDITS_QUEUED} edits wait for the game already (is it running?)"
            ));
        }
        queued.push((key.to_owned(), value.clone()));
        self.pending.store(true, Ordering::Release);
        Ok(())
    }

    /// Takes the queued edits (the game thread); none without a lock while nothing was edited.
    pub fn take(&self) -> Vec<(String, Value)> {
        if !self.pending.load(Ordering::Acquire) {
            return Vec::new();
        }
        let mut queued = self.queued.lock().unwrap_or_else(|e| e.into_inner());
        self.pending.store(false, Ordering::Release);
        std::mem::take(&mut *queued)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Dog {
        speed: f64,
        name: String,
    }

    #[test]
    fn edits_are_checked_against_the_declared_setters_and_applied_in_order() {
        let edits = Edits::default();
        assert_eq!(
            edits.queue(&json!({ "key": "speed", "value": 2 })),
            Err("the game provides no setters: \"speed\" cannot be edited".to_owned())
        );
        let mut setters = Setters::<Dog>::new()
            .number("speed", |d, v| d.speed = v)
            .text("name", |d, v| d.name = v.to_owned());
        edits.declare(setters.declared());
        assert_eq!(
            edits.to_json(),
            json!([{ "key": "speed", "type": "number" }, { "key": "name", "type": "string" }])
        );
        for (edit, error) in [
            (
                json!({ "key": "speed", "value": "fast" }),
                "\"speed\" takes a number, not \"fast\"",
            ),
            (
                json!({ "key": "hp", "value": 3 }),
                "the game provides no setter for \"hp\"; it does for speed, name",
            ),
            (
                json!({ "key": "speed" }),
                "an edit of \"speed\" needs a \"value\": {\"key\":\"speed\"}",
            ),
            (
                json!({ "value": 3 }),
                "an edit names the value to set: {\"key\", \"value\"}, not {\"value\":3}",
            ),
        ] {
            assert_eq!(edits.queue(&edit), Err(error.to_owned()), "{edit}");
        }
        assert!(edits.take().is_empty(), "bad edits queue nothing");
        edits.queue(&json!({ "key": "speed", "value": 2.5 })).unwrap();
        edits.queue(&json!({ "key": "name", "value": "Rex" })).unwrap();
        edits.queue(&json!({ "key": "speed", "value": 4 })).unwrap();
        let mut dog = Dog {
            speed: 1.0,
            name: String::new(),
        };
        for (key, value) in edits.take() {
            assert!(setters.set(&mut dog, &key, &value));
        }
        assert_eq!((dog.speed, dog.name.as_str()), (4.0, "Rex"), "the last edit wins");
        assert!(edits.take().is_empty());
        for _ in 0..EDITS_QUEUED {
            edits.queue(&json!({ "key": "speed", "value": 1 })).unwrap();
        }
        assert!(
            edits
                .queue(&json!({ "key": "speed", "value": 1 }))
                .unwrap_err()
                .contains("wait for the game"),
            "the queue is bounded"
        );
    }
}

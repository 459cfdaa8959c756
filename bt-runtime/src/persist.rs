//! Saving and loading a generated tree's running state, one call per saved
//! field (`behave!`'s `Serialize` and `Deserialize` impls). A field is one
//! plain call that keeps the first error, not a `?` and a closure
//! (`next_element()?.ok_or_else(|| ..)?`): rustc's type check of one body
//! with thousands of those grew faster than the tree (benches/NOTES.md, "Where
//! rustc spends a big tree's time").

use core::marker::PhantomData;

use serde::de::{Deserialize, Error as _, Expected, SeqAccess};
use serde::ser::{Serialize, SerializeTuple};

/// A tree's state being written as a serde tuple: the first error, if any,
/// is kept, and the elements after it are skipped.
pub struct Save<T: SerializeTuple> {
    tuple: T,
    error: Option<T::Error>,
}

impl<T: SerializeTuple> Save<T> {
    /// Writes into `tuple`.
    pub fn new(tuple: T) -> Self {
        Save { tuple, error: None }
    }

    /// Ends the tuple, or gives the first error.
    pub fn finish(self) -> Result<T::Ok, T::Error> {
        match self.error {
            Some(error) => Err(error),
            None => self.tuple.end(),
        }
    }
}

/// Writes `value` as the next element (nothing after an error).
#[inline]
pub fn save<T: SerializeTuple, V: Serialize + ?Sized>(save: &mut Save<T>, value: &V) {
    if save.error.is_none()
        && let Err(error) = save.tuple.serialize_element(value)
    {
        save.error = Some(error);
    }
}

/// A tree's state being read from a serde sequence: the first error (a
/// missing element is `invalid_length` at its index) is kept, and the
/// elements after it are not read.
pub struct Load<'e, 'de, A: SeqAccess<'de>> {
    seq: A,
    index: usize,
    expected: &'e dyn Expected,
    error: Option<A::Error>,
    de: PhantomData<&'de ()>,
}

impl<'e, 'de, A: SeqAccess<'de>> Load<'e, 'de, A> {
    /// Reads from `seq`, whose next element has index `index`; `expected`
    /// says what the whole sequence is, for the error of a missing element.
    pub fn new(seq: A, index: usize, expected: &'e dyn Expected) -> Self {
        Load {
            seq,
            index,
            expected,
            error: None,
            de: PhantomData,
        }
    }

    /// The first error, if there was one.
    pub fn finish(self) -> Result<(), A::Error> {
        match self.error {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

/// Reads the next element into `into` (nothing after an error).
#[inline]
pub fn load<'de, A: SeqAccess<'de>, V: Deserialize<'de>>(load: &mut Load<'_, 'de, A>, into: &mut V) {
    if load.error.is_some() {
        return;
    }
    match load.seq.next_element() {
        Ok(Some(value)) => *into = value,
        Ok(None) => load.error = Some(A::Error::invalid_length(load.index, load.expected)),
        Err(error) => load.error = Some(error),
    }
    load.index += 1;
}

/// Reads the state's `savedAt` (the time of the tree's last tick), its last
/// element, into `into`; a state saved before it was recorded ends before
/// it, and leaves `into` as it is.
pub fn load_saved_at<'de, A: SeqAccess<'de>>(load: &mut Load<'_, 'de, A>, into: &mut Option<f64>) {
    if load.error.is_some() {
        return;
    }
    match load.seq.next_element::<f64>() {
        Ok(Some(t)) if !t.is_finite() => {
            load.error = Some(A::Error::custom(format_args!(
                "impossible state: it was saved at {t:?}, not a finite time"
            )));
        }
        Ok(t) => *into = t,
        Err(error) => load.error = Some(error),
    }
    load.index += 1;
}

/// Checks a saved time `t` of node `id` (`label`) against the state's
/// `saved_at` (SEMANTICS.md, "Saved state and the clock"): finite, and not
/// after the save, unless it is `initial`, the time of a timer never started.
pub fn check_time<'de, A: SeqAccess<'de>>(
    load: &mut Load<'_, 'de, A>,
    saved_at: Option<f64>,
    t: f64,
    initial: f64,
    id: u32,
    label: &str,
) {
    if load.error.is_some() || t.to_bits() == initial.to_bits() {
        return;
    }
    if !t.is_finite() {
        load.error = Some(A::Error::custom(format_args!(
            "impossible state: the timer of node {id} ({label}) started at {t:?}, not a finite time"
        )));
    } else if let Some(saved) = saved_at
        && t > saved
    {
        load.error = Some(A::Error::custom(format_args!(
            "impossible state: the timer of node {id} ({label}) started at {t:?}, after the state was saved \
             (at {saved:?}); a game whose clock restarted shifts the saved times (`resume_at`)"
        )));
    }
}

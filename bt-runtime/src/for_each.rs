//! The state of a `for` loop (`for x: T in |c| .. max N { .. }`): a copy of at
//! most `N` items, read from the context when the loop enters, and the
//! position of the current one. The copy lives inline in the tree (an
//! [`ArrayVec`]), so neither entering nor ticking allocates; the loop's rules
//! are in `SEMANTICS.md#for`.

use arrayvec::ArrayVec;

/// The items of one `for` loop and the position of the current one.
///
/// Idle (and after completing or being halted) it holds no items.
#[derive(Debug, Clone)]
pub struct ForEachItems<T, const N: usize> {
    items: ArrayVec<T, N>,
    at: usize,
}

impl<T, const N: usize> Default for ForEachItems<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T, const N: usize> ForEachItems<T, N> {
    /// No items.
    pub const fn new() -> Self {
        ForEachItems {
            items: ArrayVec::new_const(),
            at: 0,
        }
    }

    /// Replaces the items with the first `N` that `items` yields (the rest are
    /// not pulled, so an endless iterator is fine) and makes the first current.
    #[inline]
    pub fn fill<I>(&mut self, items: I)
    where
        I: IntoIterator,
        I::Item: ItemOf<T>,
    {
        self.items.clear();
        self.at = 0;
        for item in items.into_iter().take(N) {
            self.items.push(item.item());
        }
    }

    /// Whether an item is current (false once every item has had its turn).
    #[inline]
    pub fn has_current(&self) -> bool {
        self.at < self.items.len()
    }

    /// The current item. Only called while one is (the body runs only then).
    #[inline]
    pub fn current(&self) -> &T {
        &self.items[self.at]
    }

    /// Item `i` (below [`len`](Self::len)): a `pick` scores each in turn.
    #[inline]
    pub fn get(&self, i: usize) -> &T {
        &self.items[i]
    }

    /// Makes item `i` (below [`len`](Self::len)) the current one: the
    /// candidate a `pick` chose.
    #[inline]
    pub fn choose(&mut self, i: usize) {
        debug_assert!(i < self.items.len());
        self.at = i;
    }

    /// Moves on to the next item.
    #[inline]
    pub fn advance(&mut self) {
        self.at += 1;
    }

    /// Drops the items: the loop is idle again.
    #[inline]
    pub fn clear(&mut self) {
        self.items.clear();
        self.at = 0;
    }

    /// How many items the loop holds.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the loop holds no items.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The position of the current item.
    pub fn position(&self) -> usize {
        self.at
    }
}

/// The items a JSON tree's `forEach` node runs its child for, read from the
/// context, and how the child's leaves see the current one: registered with
/// `behaved_interp::Registry::list` for the interpreter, or mapped to its type
/// (`"targets" => Targets`) in a tree `behave!` compiles from JSON.
///
/// The loop reads the items once when it enters (at most its `"max"`) into
/// a copy it holds, and calls [`ItemList::select`] with the current item
/// before each tick of its child: registered leaves read it from the
/// context, as they read everything else (the DSL's `for x: T in ..` binds
/// it to a name instead). A saved agent or tree keeps the copy, so the
/// interpreter wants items that are serde types.
pub trait ItemList<C: ?Sized> {
    /// One item; the loop keeps a copy of each.
    type Item;
    /// The items now, in order; the loop takes at most its `"max"` of them.
    fn items<'c>(&'c self, ctx: &'c C) -> impl Iterator<Item = Self::Item> + 'c;
    /// Makes `item` the current one where the child's leaves read it.
    fn select(&self, ctx: &mut C, item: &Self::Item);
}

/// What a `for` loop's source may yield for items of type `T`: `T` itself, or
/// `&T` (cloned), so that `|c| c.targets.iter()` works as well as
/// `|c| c.targets.iter().copied()`.
#[diagnostic::on_unimplemented(
    message = "a `for` loop over items of type `{T}` cannot keep a `{Self}`",
    label = "these items are not `{T}` (or `&{T}`)",
    note = "the type after the item's name (`for x: Type in ..`) is the type of the items the loop keeps"
)]
pub trait ItemOf<T> {
    /// The item to keep.
    fn item(self) -> T;
}

impl<T> ItemOf<T> for T {
    #[inline]
    fn item(self) -> T {
        self
    }
}

impl<T: Clone> ItemOf<T> for &T {
    #[inline]
    fn item(self) -> T {
        self.clone()
    }
}

#[cfg(feature = "serde")]
impl<T: serde::Serialize, const N: usize> serde::Serialize for ForEachItems<T, N> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&(&self.items, self.at), s)
    }
}

#[cfg(feature = "serde")]
impl<'de, T: serde::Deserialize<'de>, const N: usize> serde::Deserialize<'de> for ForEachItems<T, N> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (items, at): (ArrayVec<T, N>, usize) = serde::Deserialize::deserialize(d)?;
        // A running loop is at one of its items; an idle one holds none.
        if at > items.len() || (at == items.len() && !items.is_empty()) {
            return Err(serde::de::Error::custom(format_args!(
                "a `for` loop at item {at} of {}",
                items.len()
            )));
        }
        Ok(ForEachItems { items, at })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_keeps_at_most_the_capacity_and_pulls_no_further() {
        let mut items = ForEachItems::<u32, 3>::new();
        items.fill(0..);
        assert_eq!((items.len(), *items.current()), (3, 0));
        items.advance();
        items.advance();
        assert_eq!(*items.current(), 2);
        items.advance();
        assert!(!items.has_current());
        let words = ["a".to_string(), "b".to_string()];
        let mut by_ref = ForEachItems::<String, 4>::new();
        by_ref.fill(words.iter());
        assert_eq!((by_ref.len(), by_ref.current().as_str()), (2, "a"));
        by_ref.clear();
        assert!(by_ref.is_empty() && !by_ref.has_current());
    }
}

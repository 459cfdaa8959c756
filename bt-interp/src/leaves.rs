//! Action leaves stored by kind: every leaf of one registered action name
//! lives in one `Vec` of its concrete type (a *column*). A definition holds
//! the columns as built at load time; each agent clones them once. An agent's
//! leaves are then a few contiguous arrays instead of one heap box per leaf,
//! and a leaf is called through its column (one dynamic call, the leaf's own
//! code inlined in it). With the `serde` feature, a column registered with
//! [`Registry::persistent_action`](crate::Registry::persistent_action) saves
//! and loads its leaves. Conditions and `match` values keep no state: a
//! definition holds one box of each, shared by its agents.

use std::any::Any;

use behaved_runtime::{Action, Condition, ItemList, Status, Wake};

/// A shared condition leaf.
pub(crate) type CondBox<C> = Box<dyn Condition<C> + Send + Sync>;
/// A shared `match` value leaf.
pub(crate) type ValueBox<C> = Box<dyn MatchValue<C> + Send + Sync>;

/// The key a `match` node compares with its cases' `"when"` keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyRef<'a> {
    /// Matches integer keys.
    Int(i64),
    /// Matches string keys.
    Str(&'a str),
    /// Matches boolean keys.
    Bool(bool),
}

/// A value read from the context for a `match` node (e.g. the time of day as
/// `"night"`). Registered with [`Registry::value`](crate::Registry::value).
pub trait MatchValue<C: ?Sized> {
    /// The value now.
    fn get<'c>(&self, ctx: &'c C) -> KeyRef<'c>;

    /// The context's fields the value is a function of (`SEMANTICS.md`,
    /// "Sleeping on inputs"), as [`Condition::reads`](behaved_runtime::Condition::reads)
    /// says a condition's: a `reactiveMatch` on a value that declares them
    /// sleeps until one changes. `None` (the default): unknown, and the
    /// `reactiveMatch` is ticked on every frame.
    fn reads(&self) -> Option<behaved_runtime::Reads> {
        None
    }
}

/// The leaves of one action kind in a definition: the values the constructor
/// built at load time, cloned for every agent.
pub(crate) trait Prototypes<C>: Send + Sync {
    /// This kind's leaves for a new agent.
    fn spawn(&self) -> Box<dyn Leaves<C>>;
    /// The column itself, for the registry to append leaves of its own type.
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// The bytes of an agent's copy of the column: the column itself and its
    /// leaves (without the leaves' own heap data).
    fn leaf_bytes(&self) -> usize;
}

/// One agent's leaves of one action kind (`Sync` too, so that an agent is:
/// an ECS component must be).
pub(crate) trait Leaves<C>: Send + Sync {
    /// Ticks leaf `i`, entering it first when `entering` (one dynamic call
    /// for both, so that an empty `enter` costs nothing).
    fn tick(&mut self, i: u32, entering: bool, ctx: &mut C) -> Status;
    fn halt(&mut self, i: u32, ctx: &mut C);
    /// Leaf `i`'s [`Action::reset`], when its agent is reset.
    fn reset(&mut self, i: u32, ctx: &mut C);
    /// Running leaf `i`'s [`Action::next_wake`].
    fn wake(&self, i: u32, now: f64) -> Wake;
    /// The leaves' state as serde data (`None`: this kind does not persist).
    #[cfg(feature = "serde")]
    fn save(&self) -> Option<&dyn erased_serde::Serialize>;
    /// Replaces the leaves with saved ones (only called when `save` is `Some`).
    #[cfg(feature = "serde")]
    fn load(&mut self, d: &mut dyn erased_serde::Deserializer<'_>) -> Result<(), erased_serde::Error>;
}

/// A column of leaves of type `L`; `P` says whether they persist.
pub(crate) struct Column<L, P> {
    pub(crate) leaves: Vec<L>,
    persist: core::marker::PhantomData<fn() -> P>,
}

impl<L, P> Column<L, P> {
    pub(crate) fn new() -> Self {
        Column {
            leaves: Vec::new(),
            persist: core::marker::PhantomData,
        }
    }
}

/// Leaves that are not saved: a loaded agent gets them as their constructor made them.
pub(crate) struct Transient;
/// Leaves saved with the agent (`serde` feature).
#[cfg(feature = "serde")]
pub(crate) struct Persistent;

/// How a column saves its leaves (the `Vec` itself is serialised: a slice
/// is unsized and cannot be a `dyn Serialize`).
#[allow(clippy::ptr_arg)]
pub(crate) trait Persistence<L>: 'static {
    #[cfg(feature = "serde")]
    fn save(leaves: &Vec<L>) -> Option<&dyn erased_serde::Serialize>;
    #[cfg(feature = "serde")]
    fn load(leaves: &mut Vec<L>, d: &mut dyn erased_serde::Deserializer<'_>) -> Result<(), erased_serde::Error>;
}

#[allow(clippy::ptr_arg)]
impl<L> Persistence<L> for Transient {
    #[cfg(feature = "serde")]
    fn save(_: &Vec<L>) -> Option<&dyn erased_serde::Serialize> {
        None
    }
    #[cfg(feature = "serde")]
    fn load(_: &mut Vec<L>, _: &mut dyn erased_serde::Deserializer<'_>) -> Result<(), erased_serde::Error> {
        Ok(())
    }
}

#[cfg(feature = "serde")]
#[allow(clippy::ptr_arg)]
impl<L: serde::Serialize + serde::de::DeserializeOwned + 'static> Persistence<L> for Persistent {
    fn save(leaves: &Vec<L>) -> Option<&dyn erased_serde::Serialize> {
        Some(leaves)
    }
    fn load(leaves: &mut Vec<L>, d: &mut dyn erased_serde::Deserializer<'_>) -> Result<(), erased_serde::Error> {
        use serde::de::Error;
        let loaded: Vec<L> = erased_serde::deserialize(d)?;
        if loaded.len() != leaves.len() {
            return Err(erased_serde::Error::invalid_length(
                loaded.len(),
                &format!("{} leaves", leaves.len()).as_str(),
            ));
        }
        *leaves = loaded;
        Ok(())
    }
}

impl<C, L, P> Prototypes<C> for Column<L, P>
where
    L: Action<C> + Clone + Send + Sync + 'static,
    P: Persistence<L>,
{
    fn spawn(&self) -> Box<dyn Leaves<C>> {
        Box::new(Column::<L, P> {
            leaves: self.leaves.clone(),
            persist: core::marker::PhantomData,
        })
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn leaf_bytes(&self) -> usize {
        size_of::<Self>() + self.leaves.len() * size_of::<L>()
    }
}

impl<C, L, P> Leaves<C> for Column<L, P>
where
    L: Action<C> + Send + Sync + 'static,
    P: Persistence<L>,
{
    #[inline]
    fn tick(&mut self, i: u32, entering: bool, ctx: &mut C) -> Status {
        let leaf = &mut self.leaves[i as usize];
        if entering {
            leaf.enter(ctx);
        }
        leaf.tick(ctx)
    }
    #[inline]
    fn halt(&mut self, i: u32, ctx: &mut C) {
        self.leaves[i as usize].halt(ctx)
    }
    #[inline]
    fn reset(&mut self, i: u32, ctx: &mut C) {
        self.leaves[i as usize].reset(ctx)
    }
    #[inline]
    fn wake(&self, i: u32, now: f64) -> Wake {
        self.leaves[i as usize].next_wake(now)
    }
    #[cfg(feature = "serde")]
    fn save(&self) -> Option<&dyn erased_serde::Serialize> {
        P::save(&self.leaves)
    }
    #[cfg(feature = "serde")]
    fn load(&mut self, d: &mut dyn erased_serde::Deserializer<'_>) -> Result<(), erased_serde::Error> {
        P::load(&mut self.leaves, d)
    }
}

/// What the interpreter needs of a list's items: an agent holds them (`Send`
/// and `Sync`, as the agent is) and saves them (serde).
pub trait ListItem: Send + Sync + serde::Serialize + serde::de::DeserializeOwned + 'static {}

impl<T: Send + Sync + serde::Serialize + serde::de::DeserializeOwned + 'static> ListItem for T {}

/// A registered list as a definition holds it: makes each agent's buffer.
pub(crate) trait ListKind<C>: Send + Sync {
    /// An empty buffer for up to `max` items (allocated once, here).
    fn buffer(self: std::sync::Arc<Self>, max: usize) -> Box<dyn ItemBuffer<C>>;
}

impl<C: 'static, L> ListKind<C> for L
where
    L: ItemList<C> + Send + Sync + 'static,
    L::Item: ListItem,
{
    fn buffer(self: std::sync::Arc<Self>, max: usize) -> Box<dyn ItemBuffer<C>> {
        Box::new(Buffer {
            list: self,
            items: Vec::with_capacity(max),
            max,
        })
    }
}

/// One agent's copy of a `forEach` node's items.
pub(crate) trait ItemBuffer<C>: Send + Sync {
    /// Replaces the items with the first `max` of the list's items now.
    fn fill(&mut self, ctx: &C);
    /// How many items the buffer holds.
    fn len(&self) -> usize;
    /// Calls the list's `select` with item `at`.
    fn select(&self, at: usize, ctx: &mut C);
    /// Drops the items.
    fn clear(&mut self);
    /// The items as serde data.
    #[cfg(feature = "serde")]
    fn save(&self) -> &dyn erased_serde::Serialize;
    /// Replaces the items with saved ones (at most the buffer's `max`).
    #[cfg(feature = "serde")]
    fn load(&mut self, d: &mut dyn erased_serde::Deserializer<'_>) -> Result<(), erased_serde::Error>;
    /// The bytes the buffer reserved: room for `max` items (their own heap data not counted).
    fn bytes(&self) -> usize;
}

struct Buffer<L: ItemList<C>, C: ?Sized> {
    list: std::sync::Arc<L>,
    items: Vec<L::Item>,
    max: usize,
}

impl<C, L> ItemBuffer<C> for Buffer<L, C>
where
    L: ItemList<C> + Send + Sync,
    L::Item: ListItem,
{
    fn fill(&mut self, ctx: &C) {
        self.items.clear();
        // At most `max` items into a buffer of that capacity: no allocation.
        self.items.extend(self.list.items(ctx).take(self.max));
    }
    fn len(&self) -> usize {
        self.items.len()
    }
    fn select(&self, at: usize, ctx: &mut C) {
        self.list.select(ctx, &self.items[at]);
    }
    fn clear(&mut self) {
        self.items.clear();
    }
    #[cfg(feature = "serde")]
    fn save(&self) -> &dyn erased_serde::Serialize {
        &self.items
    }
    #[cfg(feature = "serde")]
    fn load(&mut self, d: &mut dyn erased_serde::Deserializer<'_>) -> Result<(), erased_serde::Error> {
        self.items.clear();
        let loaded = serde::de::DeserializeSeed::deserialize(
            SavedItems {
                items: &mut self.items,
                max: self.max,
            },
            d,
        );
        if loaded.is_err() {
            self.items.clear();
        }
        loaded
    }
    fn bytes(&self) -> usize {
        size_of::<Self>() + self.max * size_of::<L::Item>()
    }
}

/// Loads saved items into a buffer's room, one by one: a saved state with
/// more than `max` is rejected at the first one too many, before it is read
/// on (a state file cannot make the loader hold more than the buffer).
#[cfg(feature = "serde")]
struct SavedItems<'a, T> {
    items: &'a mut Vec<T>,
    max: usize,
}

#[cfg(feature = "serde")]
impl<'de, T: serde::de::DeserializeOwned> serde::de::DeserializeSeed<'de> for SavedItems<'_, T> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

#[cfg(feature = "serde")]
impl<'de, T: serde::de::DeserializeOwned> serde::de::Visitor<'de> for SavedItems<'_, T> {
    type Value = ();

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "a list of at most {} items", self.max)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(item) = seq.next_element::<T>()? {
            if self.items.len() == self.max {
                return Err(serde::de::Error::custom(format!(
                    "more items than this forEach holds: at most {} items",
                    self.max
                )));
            }
            self.items.push(item);
        }
        Ok(())
    }
}

//! The user's leaves, by the names JSON files use for them: conditions, actions
//! and the values `match` nodes look at. Each is registered with a constructor
//! from its JSON parameters (any `serde::Deserialize` type), which runs at load
//! time, so a bad parameter is a load error, never a surprise at tick time.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::marker::PhantomData;

use behaved_runtime::{Action, Async, AsyncAction, Condition, ItemList};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::leaves::{Column, CondBox, ListItem, ListKind, MatchValue, Persistence, Prototypes, Transient, ValueBox};

pub(crate) type Ctor<T> = Box<dyn Fn(&Map<String, Value>) -> Result<T, String> + Send + Sync>;

/// Leaf parameters for leaves that take none: accepts only `{}` (or the
/// shorthand `"name"`), and names any unexpected field.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

/// A registered action name: builds its leaves into a column of their type.
pub(crate) trait ActionKind<C>: Send + Sync {
    /// An empty column for this kind's leaves.
    fn column(&self) -> Box<dyn Prototypes<C>>;
    /// Builds a leaf from its parameters into `column` (made by
    /// [`ActionKind::column`]); returns its index there.
    fn build(&self, params: &Map<String, Value>, column: &mut dyn Prototypes<C>) -> Result<u32, String>;
}

struct Kind<L, P> {
    make: Ctor<L>,
    persist: PhantomData<fn() -> P>,
}

impl<C, L, P> ActionKind<C> for Kind<L, P>
where
    L: Action<C> + Clone + Send + Sync + 'static,
    P: Persistence<L>,
{
    fn column(&self) -> Box<dyn Prototypes<C>> {
        Box::new(Column::<L, P>::new())
    }
    fn build(&self, params: &Map<String, Value>, column: &mut dyn Prototypes<C>) -> Result<u32, String> {
        let leaf = (self.make)(params)?;
        let column = column
            .as_any_mut()
            .downcast_mut::<Column<L, P>>()
            .expect("each action name has its own column");
        column.leaves.push(leaf);
        Ok(column.leaves.len() as u32 - 1)
    }
}

/// The leaf types a tree file may name, with how to build each from its JSON
/// parameters; also the limits a loaded tree must respect.
///
/// ```
/// use behaved_interp::{Registry, NoParams};
/// use behaved_runtime::{Action, Condition, Status};
///
/// struct World { night: bool, said: Option<String> }
///
/// #[derive(serde::Deserialize)]
/// #[serde(rename_all = "camelCase", deny_unknown_fields)]
/// struct DialogueParams { dialogue_id: String }
///
/// #[derive(Clone)]
/// struct Say(String);
/// impl Action<World> for Say {
///     fn tick(&mut self, w: &mut World) -> Status { w.said = Some(self.0.clone()); Status::Success }
/// }
/// struct IsNight;
/// impl Condition<World> for IsNight {
///     fn check(&self, w: &World) -> bool { w.night }
/// }
///
/// let mut leaves = Registry::<World>::new();
/// leaves
///     .condition("isNight", |_: NoParams| IsNight)
///     .action("dialogue", |p: DialogueParams| Say(p.dialogue_id));
/// let tree = leaves
///     .load(r#"{"type": "sequence", "children": [
///         {"type": "condition", "condition": "isNight"},
///         {"type": "action", "action": {"type": "dialogue", "dialogueId": "night-greeting"}}
///     ]}"#)
///     .unwrap();
/// let mut guard = behaved_interp::Agent::new(tree);
/// let mut world = World { night: true, said: None };
/// assert_eq!(guard.tick_at(&mut world, 0.0), Status::Success);
/// assert_eq!(world.said.as_deref(), Some("night-greeting"));
/// ```
pub struct Registry<C: 'static> {
    pub(crate) conditions: BTreeMap<String, Ctor<CondBox<C>>>,
    pub(crate) actions: BTreeMap<String, Box<dyn ActionKind<C>>>,
    pub(crate) values: BTreeMap<String, Ctor<ValueBox<C>>>,
    pub(crate) lists: BTreeMap<String, Ctor<std::sync::Arc<dyn ListKind<C>>>>,
    pub(crate) considerations: BTreeMap<String, Ctor<crate::utility::ConsBox<C>>>,
    pub(crate) max_depth: usize,
    /// The most bytes a BT.CPP XML document and its includes may have (`Registry::max_xml_bytes`).
    #[cfg(feature = "xml")]
    pub(crate) max_xml_bytes: usize,
    pub(crate) max_nodes: usize,
    pub(crate) max_tick_work: u64,
    pub(crate) max_items: u64,
    /// How to describe each leaf's parameters, by (family, name), for
    /// [`Registry::manifest`]: the parameter type and its describer.
    #[cfg(feature = "manifest")]
    described: BTreeMap<(String, String), (std::any::TypeId, crate::manifest::Describe)>,
    /// Parameter types whose defaults the manifest shows ([`Registry::show_defaults`]).
    #[cfg(feature = "manifest")]
    defaults: BTreeMap<std::any::TypeId, crate::manifest::FillDefaults>,
    /// How to describe each registered list's items, by name.
    #[cfg(feature = "manifest")]
    list_items: BTreeMap<String, crate::manifest::DescribeItem>,
    pub(crate) max_recursion: usize,
    /// The blackboard entries leaves' ports name ([`Registry::entry`], `ports.rs`).
    pub(crate) entries: std::sync::Arc<behaved_format::port::EntryTable>,
}

impl<C: 'static> Default for Registry<C> {
    fn default() -> Self {
        Registry::new()
    }
}

impl<C: 'static> Registry<C> {
    /// Default for [`Registry::max_depth`].
    pub const DEFAULT_MAX_DEPTH: usize = behaved_format::Reader::DEFAULT_MAX_DEPTH;
    /// The highest [`Registry::max_depth`]; a higher one is this.
    pub const MAX_DEPTH_CAP: usize = 1000;
    /// Default for [`Registry::max_nodes`].
    pub const DEFAULT_MAX_NODES: usize = 1 << 20;
    /// Default for [`Registry::max_tick_work`]: 2^24 leaf ticks, sixteen
    /// times what a tree of [`Registry::DEFAULT_MAX_NODES`] leaves makes
    /// without loops; a few milliseconds of trivial leaves. It is
    /// [`behaved_format::MAX_TICK_WORK`], the limit `behave!` enforces too.
    pub const DEFAULT_MAX_TICK_WORK: u64 = behaved_format::MAX_TICK_WORK;
    /// Default for [`Registry::max_items`]: 2^16 items, far more than a
    /// real tree's loops go through, and a few MiB per agent at most for
    /// items of a few dozen bytes. It is [`behaved_format::MAX_ITEMS`], the
    /// limit `behave!` enforces too.
    pub const DEFAULT_MAX_ITEMS: u64 = behaved_format::MAX_ITEMS;

    /// An empty registry.
    pub fn new() -> Registry<C> {
        Registry {
            conditions: BTreeMap::new(),
            actions: BTreeMap::new(),
            values: BTreeMap::new(),
            lists: BTreeMap::new(),
            considerations: BTreeMap::new(),
            max_depth: Self::DEFAULT_MAX_DEPTH,
            #[cfg(feature = "xml")]
            max_xml_bytes: behaved_format::xml::DEFAULT_MAX_BYTES,
            max_nodes: Self::DEFAULT_MAX_NODES,
            max_tick_work: Self::DEFAULT_MAX_TICK_WORK,
            max_items: Self::DEFAULT_MAX_ITEMS,
            #[cfg(feature = "manifest")]
            described: BTreeMap::new(),
            #[cfg(feature = "manifest")]
            defaults: BTreeMap::new(),
            #[cfg(feature = "manifest")]
            list_items: BTreeMap::new(),
            max_recursion: 0,
            entries: Default::default(),
        }
    }

    /// Registers a condition type: `make` builds it from its JSON parameters.
    pub fn condition<P, L, F>(&mut self, name: &str, make: F) -> &mut Self
    where
        P: DeserializeOwned,
        L: Condition<C> + Send + Sync + 'static,
        F: Fn(P) -> L + Send + Sync + 'static,
    {
        self.try_condition(name, move |p: P| Ok::<L, String>(make(p)))
    }

    /// Registers a condition type whose constructor can reject its parameters.
    pub fn try_condition<P, L, E, F>(&mut self, name: &str, make: F) -> &mut Self
    where
        P: DeserializeOwned,
        L: Condition<C> + Send + Sync + 'static,
        E: Display,
        F: Fn(P) -> Result<L, E> + Send + Sync + 'static,
    {
        let leaf = name.to_owned();
        let ctor: Ctor<CondBox<C>> = Box::new(move |m| construct(&leaf, m, &make).map(|l| Box::new(l) as CondBox<C>));
        self.conditions.insert(name.to_string(), ctor);
        self.describe::<P>("condition", name)
    }

    /// Registers a consideration type for `utility` scores
    /// (`{"consider": "name", ..}`): `make` builds it from its JSON parameters.
    /// Closures `Fn(&C) -> f32` are considerations.
    pub fn consideration<P, L, F>(&mut self, name: &str, make: F) -> &mut Self
    where
        P: DeserializeOwned,
        L: behaved_runtime::utility::Consideration<C> + Send + Sync + 'static,
        F: Fn(P) -> L + Send + Sync + 'static,
    {
        let leaf = name.to_owned();
        let make = move |p: P| Ok::<L, String>(make(p));
        let ctor: Ctor<crate::utility::ConsBox<C>> =
            Box::new(move |m| construct(&leaf, m, &make).map(|l| Box::new(l) as crate::utility::ConsBox<C>));
        self.considerations.insert(name.to_string(), ctor);
        self.describe::<P>("consideration", name)
    }

    /// Registers an action type: `make` builds it from its JSON parameters once
    /// at load time; each agent gets its own clone. A saved agent does not
    /// keep these leaves' state: a loaded agent has them as `make` built them
    /// (see [`Registry::persistent_action`]).
    pub fn action<P, L, F>(&mut self, name: &str, make: F) -> &mut Self
    where
        P: DeserializeOwned,
        L: Action<C> + Clone + Send + Sync + 'static,
        F: Fn(P) -> L + Send + Sync + 'static,
    {
        self.try_action(name, move |p: P| Ok::<L, String>(make(p)))
    }

    /// Registers an async action type (`behaved_runtime::AsyncAction`): each leaf
    /// is `make`'s value wrapped in [`Async`], which starts its future on
    /// entry, polls it on each tick and drops (cancels) it when halted. In
    /// the JSON file it is an action like any other. Its future lives inline
    /// in the leaf, or boxed once per start where its type is a `BoxFuture`.
    pub fn async_action<P, L, F>(&mut self, name: &str, make: F) -> &mut Self
    where
        P: DeserializeOwned,
        L: AsyncAction<C> + Clone + Send + Sync + 'static,
        L::Future: Send + Sync,
        F: Fn(P) -> L + Send + Sync + 'static,
    {
        self.action(name, move |p: P| Async::new(make(p)))
    }

    /// Registers an action type whose constructor can reject its parameters.
    pub fn try_action<P, L, E, F>(&mut self, name: &str, make: F) -> &mut Self
    where
        P: DeserializeOwned,
        L: Action<C> + Clone + Send + Sync + 'static,
        E: Display,
        F: Fn(P) -> Result<L, E> + Send + Sync + 'static,
    {
        let leaf = name.to_owned();
        self.insert_action::<L, Transient>(name, Box::new(move |m| construct(&leaf, m, &make)))
            .describe::<P>("action", name)
    }

    /// Registers an action type whose leaves are saved with an agent (the
    /// `serde` feature; the DSL's `#[persist]`): a running action resumes
    /// where it was after [`Agent::load`](crate::Agent::load), instead of
    /// coming back as `make` built it.
    #[cfg(feature = "serde")]
    pub fn persistent_action<P, L, F>(&mut self, name: &str, make: F) -> &mut Self
    where
        P: DeserializeOwned,
        L: Action<C> + Clone + Send + Sync + serde::Serialize + DeserializeOwned + 'static,
        F: Fn(P) -> L + Send + Sync + 'static,
    {
        self.try_persistent_action(name, move |p: P| Ok::<L, String>(make(p)))
    }

    /// [`Registry::persistent_action`] with a constructor that can reject its parameters.
    #[cfg(feature = "serde")]
    pub fn try_persistent_action<P, L, E, F>(&mut self, name: &str, make: F) -> &mut Self
    where
        P: DeserializeOwned,
        L: Action<C> + Clone + Send + Sync + serde::Serialize + DeserializeOwned + 'static,
        E: Display,
        F: Fn(P) -> Result<L, E> + Send + Sync + 'static,
    {
        let leaf = name.to_owned();
        self.insert_action::<L, crate::leaves::Persistent>(name, Box::new(move |m| construct(&leaf, m, &make)))
            .describe::<P>("action", name)
    }

    fn insert_action<L, P>(&mut self, name: &str, make: Ctor<L>) -> &mut Self
    where
        L: Action<C> + Clone + Send + Sync + 'static,
        P: Persistence<L>,
    {
        let kind: Box<dyn ActionKind<C>> = Box::new(Kind::<L, P> {
            make,
            persist: PhantomData,
        });
        self.actions.insert(name.to_string(), kind);
        self
    }

    /// Registers a value that `match` nodes can look at.
    pub fn value<P, V, F>(&mut self, name: &str, make: F) -> &mut Self
    where
        P: DeserializeOwned,
        V: MatchValue<C> + Send + Sync + 'static,
        F: Fn(P) -> V + Send + Sync + 'static,
    {
        let leaf = name.to_owned();
        let ctor: Ctor<ValueBox<C>> =
            Box::new(move |m| construct(&leaf, m, &|p| Ok::<V, String>(make(p))).map(|v| Box::new(v) as ValueBox<C>));
        self.values.insert(name.to_string(), ctor);
        self.describe::<P>("value", name)
    }

    /// Registers a list of items that `forEach` nodes run their child for
    /// ([`ItemList`]): `make` builds it from its JSON parameters.
    ///
    /// A `forEach` reads the items once when it enters (at most its `"max"`)
    /// into a buffer its agent allocated when it was created, so neither
    /// entering nor ticking allocates; before each tick of its child it calls
    /// the list's `select` with the current item, where the child's leaves
    /// read it. A saved agent keeps the items of a running loop: they are
    /// serde types ([`ListItem`](crate::ListItem)).
    ///
    /// ```
    /// use behaved_interp::{Agent, ItemList, NoParams, Registry};
    /// use behaved_runtime::{Action, Status};
    ///
    /// struct Camp { targets: Vec<u32>, target: u32, hits: Vec<u32> }
    ///
    /// struct Targets;
    /// impl ItemList<Camp> for Targets {
    ///     type Item = u32;
    ///     fn items<'c>(&'c self, camp: &'c Camp) -> impl Iterator<Item = u32> + 'c {
    ///         camp.targets.iter().copied()
    ///     }
    ///     fn select(&self, camp: &mut Camp, target: &u32) {
    ///         camp.target = *target;
    ///     }
    /// }
    ///
    /// #[derive(Clone)]
    /// struct Hit;
    /// impl Action<Camp> for Hit {
    ///     fn tick(&mut self, camp: &mut Camp) -> Status {
    ///         camp.hits.push(camp.target);
    ///         Status::Success
    ///     }
    /// }
    ///
    /// let mut leaves = Registry::new();
    /// leaves.list("targets", |_: NoParams| Targets).action("hit", |_: NoParams| Hit);
    /// let tree = leaves.load(r#"{"type": "forEach", "items": "targets", "max": 8,
    ///                            "child": {"type": "action", "action": "hit"}}"#)?;
    /// let mut camp = Camp { targets: vec![4, 2], target: 0, hits: Vec::new() };
    /// assert_eq!(Agent::new(tree).tick_at(&mut camp, 0.0), Status::Success);
    /// assert_eq!(camp.hits, [4, 2]);
    /// # Ok::<(), behaved_interp::LoadError>(())
    /// ```
    pub fn list<P, L, F>(&mut self, name: &str, make: F) -> &mut Self
    where
        P: DeserializeOwned,
        L: ItemList<C> + Send + Sync + 'static,
        L::Item: ListItem,
        F: Fn(P) -> L + Send + Sync + 'static,
    {
        self.try_list(name, move |p: P| Ok::<L, String>(make(p)))
    }

    /// Registers a list whose constructor can reject its parameters (see [`Registry::list`]).
    pub fn try_list<P, L, E, F>(&mut self, name: &str, make: F) -> &mut Self
    where
        P: DeserializeOwned,
        L: ItemList<C> + Send + Sync + 'static,
        L::Item: ListItem,
        E: Display,
        F: Fn(P) -> Result<L, E> + Send + Sync + 'static,
    {
        let leaf = name.to_owned();
        let ctor: Ctor<std::sync::Arc<dyn ListKind<C>>> = Box::new(move |m| {
            construct(&leaf, m, &make).map(|l| std::sync::Arc::new(l) as std::sync::Arc<dyn ListKind<C>>)
        });
        self.lists.insert(name.to_string(), ctor);
        #[cfg(feature = "manifest")]
        self.list_items
            .insert(name.to_string(), crate::manifest::describe_item::<L::Item>);
        self.describe::<P>("list", name)
    }

    /// The deepest nesting a loaded tree may have, subtrees included (default 64).
    ///
    /// It is the one nesting limit: the JSON reader stops a text nested so
    /// deeply that it cannot be a tree within it ([`behaved_format::json_depth_limit`])
    /// with the same message, which names this limit. It is capped at
    /// [`Registry::MAX_DEPTH_CAP`]. Loading grows its own stack as it needs;
    /// ticking recurses once per level on the caller's stack: a tree at the
    /// cap needs about 14 MiB of it in a debug build, under 256 KiB optimised.
    pub fn max_depth(&mut self, depth: usize) -> &mut Self {
        self.max_depth = depth.min(Self::MAX_DEPTH_CAP);
        self
    }

    /// The most nodes a loaded tree may have once its subtrees are inlined
    /// (default 2^20), so that a small file cannot expand without bound.
    pub fn max_nodes(&mut self, nodes: usize) -> &mut Self {
        self.max_nodes = nodes;
        self
    }

    /// The most leaf ticks one tick of a loaded tree may make (default
    /// 2^24), so that a tree file cannot hang the thread that ticks it: a
    /// tree whose [`Definition::tick_work`](crate::Definition::tick_work) is above it does not load, with
    /// an error at each node where the work first grows too large.
    pub fn max_tick_work(&mut self, work: u64) -> &mut Self {
        self.max_tick_work = work;
        self
    }

    /// The most items the `forEach` nodes of a loaded tree may hold in all
    /// (the sum of their `"max"`, default 2^16). Each agent reserves room
    /// for them when it is created, so that ticking never allocates; the
    /// limit keeps a tree file from making every agent reserve gigabytes
    /// (`"max"` is otherwise bounded only by [`Registry::max_tick_work`]).
    /// A tree above it does not load, with an error at the `"max"` of the
    /// `forEach` that goes over it.
    pub fn max_items(&mut self, items: u64) -> &mut Self {
        self.max_items = items;
        self
    }

    /// How many times a subtree may nest inside itself (default 0: a
    /// subtree that refers to itself, directly or through others, is a load
    /// error, "subtree cycle" with the chain of ids, for every cycle of the
    /// library, whether the tree loaded uses it or not).
    ///
    /// With `n > 0`, a recursive subtree (the crafting planner's "acquire an
    /// item, crafting it from items acquired the same way") is inlined up to
    /// `n` levels inside itself at load time, each level its own instance;
    /// the reference one level deeper becomes a leaf that fails when reached
    /// (its label in the node table says "recursion limit"). The tree stays a
    /// fixed table, so [`Registry::max_nodes`], [`Registry::max_depth`] and
    /// [`Registry::max_tick_work`] bound it as any other (a subtree that
    /// refers to itself twice doubles per level: keep `n` small).
    pub fn max_recursion(&mut self, n: usize) -> &mut Self {
        self.max_recursion = n;
        self
    }

    /// Remembers how to describe the parameters `P` of leaf `name` (the `manifest` feature).
    #[cfg_attr(
        not(feature = "manifest"),
        allow(unused_variables, clippy::extra_unused_type_parameters)
    )]
    fn describe<P: DeserializeOwned>(&mut self, family: &str, name: &str) -> &mut Self {
        #[cfg(feature = "manifest")]
        self.described.insert(
            (family.to_string(), name.to_string()),
            (typeid::of::<P>(), crate::manifest::describe::<P>),
        );
        self
    }

    // The link only where the method exists: the docs build clean with and without the feature.
    #[cfg_attr(
        feature = "manifest",
        doc = "Shows in the [`manifest`](Registry::manifest) (the `manifest`"
    )]
    #[cfg_attr(not(feature = "manifest"), doc = "Shows in the `manifest` (the `manifest`")]
    /// feature; without it this does nothing) the default of each optional
    /// field of the parameter type `P`, for every leaf registered with `P`:
    /// the value `P` gets when a tree leaves the field out, read back
    /// through `P`'s `Serialize`. The editor prefills its inputs with them.
    ///
    /// ```
    /// # #[derive(Clone)] struct Patrol;
    /// # impl behaved_runtime::Action<()> for Patrol { fn tick(&mut self, _: &mut ()) -> behaved_runtime::Status { behaved_runtime::Status::Success } }
    /// #[derive(serde::Deserialize, serde::Serialize)]
    /// struct PatrolParams {
    ///     route: String,
    ///     #[serde(default = "walk")]
    ///     gait: String,
    /// }
    /// fn walk() -> String {
    ///     "walk".into()
    /// }
    /// let mut r = behaved_interp::Registry::<()>::new();
    /// r.action("patrol", |_: PatrolParams| Patrol).show_defaults::<PatrolParams>();
    /// # #[cfg(feature = "manifest")]
    /// # assert_eq!(r.manifest().actions["patrol"].params.as_ref().unwrap()[1].default, Some("walk".into()));
    /// ```
    #[cfg_attr(not(feature = "manifest"), allow(clippy::extra_unused_type_parameters))]
    pub fn show_defaults<P: DeserializeOwned + serde::Serialize>(&mut self) -> &mut Self {
        #[cfg(feature = "manifest")]
        self.defaults
            .insert(typeid::of::<P>(), crate::manifest::fill_defaults::<P>);
        self
    }

    /// Every registered leaf type with its parameters, every list with its
    /// parameters and item type, and every consideration with its parameters
    /// (the `manifest` feature), for the studio's editor (`behaved-studio edit --leaves`).
    #[cfg(feature = "manifest")]
    pub fn manifest(&self) -> crate::Manifest {
        let family = |names: Vec<&str>, family: &str| -> BTreeMap<String, crate::LeafDoc> {
            names
                .into_iter()
                .map(|name| {
                    let described = self.described.get(&(family.to_string(), name.to_string()));
                    let params = described.and_then(|(ty, describe)| {
                        let mut params = describe()?;
                        if let Some(fill) = self.defaults.get(ty) {
                            fill(&mut params);
                        }
                        Some(params)
                    });
                    (name.to_string(), crate::LeafDoc { params })
                })
                .collect()
        };
        let lists = family(Registry::<C>::names(&self.lists), "list")
            .into_iter()
            .map(|(name, doc)| {
                let item = self.list_items.get(&name).and_then(|describe| describe());
                (
                    name,
                    crate::ListDoc {
                        params: doc.params,
                        item,
                    },
                )
            })
            .collect();
        crate::Manifest {
            conditions: family(Registry::<C>::names(&self.conditions), "condition"),
            actions: family(Registry::<C>::names(&self.actions), "action"),
            values: family(Registry::<C>::names(&self.values), "value"),
            lists,
            entries: self
                .entries
                .keys()
                .filter_map(|k| Some((k.to_string(), self.entries.get(k)?.value_type().to_string())))
                .collect(),
            considerations: family(Registry::<C>::names(&self.considerations), "consideration"),
            ..crate::Manifest::new()
        }
    }

    /// Registered names of one leaf family, for "did you mean" hints.
    pub(crate) fn names<T>(map: &BTreeMap<String, T>) -> Vec<&str> {
        map.keys().map(String::as_str).collect()
    }
}

/// Deserializes the parameters of leaf type `leaf` (a parameter its type
/// does not take is an error: [`behaved_format::leaf_params`]) and runs the
/// user's constructor.
fn construct<P: DeserializeOwned, L, E: Display>(
    leaf: &str,
    params: &Map<String, Value>,
    make: &impl Fn(P) -> Result<L, E>,
) -> Result<L, String> {
    let p: P = behaved_format::leaf_params(leaf, Value::Object(params.clone()))?;
    make(p).map_err(|e| e.to_string())
}

//! Support for the code `behave!` generates. Not a public API: reached only
//! through `::behaved::__private`, and free to change between versions.

use core::marker::PhantomData;

use crate::{
    Action, Async, AsyncAction, Condition, IntoStatus, LeafCall, NodeId, NoopObserver, Observer, Rng, Status, Task,
    Tree, Wake,
};

pub use crate::changes::{both as both_reads, watching};
pub use crate::node::{OwnRow, node_table};
#[cfg(feature = "serde")]
pub use crate::persist::{Load, Save, check_time, load, load_saved_at, save};

/// What one tick carries down the tree besides the context: the time, the
/// tree's RNG, the observer, and the id offset of the (sub)tree being ticked.
pub struct Env<'o, O: ?Sized> {
    /// The time of this tick, in seconds.
    pub now: f64,
    /// The tree instance's random number generator (copied in and out per tick).
    pub rng: Rng,
    /// Added to a node's local id to give its id in the outermost tree.
    pub base: u32,
    /// Receives the tick's events.
    pub observer: &'o mut O,
    /// A `break`/`continue` on its way up to its loop (0: none). The code
    /// names the loop and the kind of jump; the macro assigns the codes.
    pub jump: u32,
}

impl<'o, O: Observer + ?Sized> Env<'o, O> {
    /// The environment of one tick of an outermost tree.
    #[inline(always)]
    pub fn new(now: f64, rng: Rng, observer: &'o mut O) -> Self {
        Env {
            now,
            rng,
            base: 0,
            observer,
            jump: 0,
        }
    }

    /// Reports that the node with local id `id` entered.
    #[inline(always)]
    pub fn entered(&mut self, id: u32) {
        self.observer.entered(NodeId(self.base + id));
    }
    /// Reports the status the node with local id `id` returned.
    #[inline(always)]
    pub fn ticked(&mut self, id: u32, status: Status) -> Status {
        self.observer.ticked(NodeId(self.base + id), status);
        status
    }
    /// Asks the observer for a stand-in's status before the leaf with local
    /// id `id` is ticked (observed path only).
    #[inline(always)]
    pub fn stand_in(&mut self, id: u32, entering: bool) -> Option<Status> {
        self.observer
            .stand_in(NodeId(self.base + id), LeafCall::Tick { entering })
    }
    /// `true` when the observer stands in for the halt of the action with
    /// local id `id`, so the action's own `halt` is skipped.
    #[inline(always)]
    pub fn stands_in_halt(&mut self, id: u32) -> bool {
        self.observer.stand_in(NodeId(self.base + id), LeafCall::Halt).is_some()
    }
    /// Reports that the node with local id `id` was halted.
    #[inline(always)]
    pub fn halted(&mut self, id: u32) {
        self.observer.halted(NodeId(self.base + id));
    }
    /// Reports the score of child `child` of the `utility` node with local id `id`.
    #[inline(always)]
    pub fn scored(&mut self, id: u32, child: u32, score: f32) {
        self.observer.scored(NodeId(self.base + id), child, score);
    }
    /// Whether the observer wants the parts of each score ([`Observer::considers`]).
    #[inline(always)]
    pub fn considers(&self) -> bool {
        self.observer.considers()
    }
    /// Reports part `part` (labelled `labels[part]`, `""` past them) of child
    /// `child`'s score of the node with local id `id`.
    #[inline(always)]
    pub fn considered(&mut self, id: u32, child: u32, part: u32, labels: &[&str], value: f32) {
        let label = labels.get(part as usize).copied().unwrap_or("");
        self.observer
            .considered(NodeId(self.base + id), child, part, label, value);
    }
}

/// What a tree made by `behave!` has besides its [`Tree`] impl: its root as
/// a node of an enclosing tree (what `subtree(..)` ticks, halts, wakes and
/// resets), and its running flag and RNG, from which [`tick_at`],
/// [`tick_observed`], [`reset_observed`] and [`next_wake`] make the `Tree`
/// methods. Private (reached only through `::behaved::__private`), so
/// [`Tree`] has only public, documented methods and a hand-written tree
/// implements that alone.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tree over the context `{C}`",
    label = "this subtree does not run on `{C}`",
    note = "a subtree runs on its parent's context; give it its part with `subtree({Self}, |c| &mut c.part)`"
)]
pub trait Generated<C: ?Sized>: Tree<C> {
    /// Ticks the root as a node of an enclosing tree. `entering` is `true` when
    /// the enclosing tree starts a new activation of this node.
    fn __tick<O: Observer + ?Sized>(&mut self, ctx: &mut C, env: &mut Env<'_, O>, entering: bool) -> Status;

    /// As [`__tick`](Generated::__tick), without reporting to the observer: the
    /// path `tick_at` takes, which the generated code keeps free of observer calls.
    fn __tick_fast<O: Observer + ?Sized>(&mut self, ctx: &mut C, env: &mut Env<'_, O>, entering: bool) -> Status;

    /// The wake of the running root as a node of an enclosing tree (it
    /// assumes the root is running).
    fn __wake(&self, now: f64) -> Wake;

    /// Halts the running root as a node of an enclosing tree.
    fn __halt<O: Observer + ?Sized>(&mut self, ctx: &mut C, env: &mut Env<'_, O>);

    /// Runs the reset-only callbacks (`#[on_reset]` hooks, [`Action::reset`])
    /// of every node, in node-table order, as a node of an enclosing tree's `reset`.
    #[inline(always)]
    fn __reset_callbacks(&mut self, ctx: &mut C) {
        let _ = ctx;
    }

    /// The RNG a tick starts with: a fixed one for a tree without random
    /// nodes (which never draws from it).
    #[inline(always)]
    fn __rng(&self) -> Rng {
        Rng::new(0)
    }

    /// Records the end of an outermost tick or halt: whether the root is
    /// still running, and the RNG the tick left.
    fn __done(&mut self, running: bool, rng: Rng);
}

/// `Tree::tick_at` of a generated tree: its fast path, free of observer calls.
#[inline(always)]
pub fn tick_at<C: ?Sized, T: Generated<C>>(tree: &mut T, ctx: &mut C, now: f64) -> Status {
    let mut observer = NoopObserver;
    let mut env = Env::new(now, tree.__rng(), &mut observer);
    let entering = !tree.is_running();
    let status = tree.__tick_fast(ctx, &mut env, entering);
    tree.__done(matches!(status, Status::Running), env.rng);
    status
}

/// `Tree::tick_observed` of a generated tree.
#[inline(always)]
pub fn tick_observed<C: ?Sized, T: Generated<C>, O: Observer + ?Sized>(
    tree: &mut T,
    ctx: &mut C,
    now: f64,
    observer: &mut O,
) -> Status {
    observer.tick_started(now);
    let mut env = Env::new(now, tree.__rng(), observer);
    let entering = !tree.is_running();
    let status = tree.__tick(ctx, &mut env, entering);
    tree.__done(matches!(status, Status::Running), env.rng);
    env.observer.tick_finished(status);
    status
}

/// `Tree::reset_observed` of a generated tree: halts a running root, then
/// runs the reset-only callbacks.
#[inline(always)]
pub fn reset_observed<C: ?Sized, T: Generated<C>, O: Observer + ?Sized>(tree: &mut T, ctx: &mut C, observer: &mut O) {
    if tree.is_running() {
        let rng = tree.__rng();
        tree.__done(false, rng);
        tree.__halt(ctx, &mut Env::new(0.0, rng, observer));
    }
    tree.__reset_callbacks(ctx);
}

/// `Tree::next_wake` of a generated tree: its root's wake while it runs.
#[inline(always)]
pub fn next_wake<C: ?Sized, T: Generated<C>>(tree: &T, now: f64) -> Wake {
    if tree.is_running() {
        tree.__wake(now)
    } else {
        Wake::NextTick
    }
}

/// Evaluates an inline condition; the bound gives the closure its argument type.
#[inline(always)]
pub fn cond<C: ?Sized, F: FnOnce(&C) -> bool>(ctx: &C, f: F) -> Status {
    Status::from(f(ctx))
}

/// Runs an inline action; the bound gives the closure its argument type.
#[inline(always)]
pub fn act<C: ?Sized, R: IntoStatus, F: FnOnce(&mut C) -> R>(ctx: &mut C, f: F) -> Status {
    f(ctx).into_status()
}

/// An inline action's value as a status, for an action closure written in
/// place (its body, not a closure: fewer items for rustc to compile).
#[inline(always)]
pub fn into_status<R: IntoStatus>(value: R) -> Status {
    value.into_status()
}

/// Runs a lifecycle hook; the bound gives the closure its argument type.
#[inline(always)]
pub fn hook<C: ?Sized, R: HookOutput, F: FnOnce(&mut C) -> R>(ctx: &mut C, f: F) {
    f(ctx);
}

/// What a hook closure may return: nothing. The bound is a trait (not `-> ()`)
/// so that a hook returning a `Status` gets a message that says why not.
#[diagnostic::on_unimplemented(
    message = "a hook returns nothing, not `{Self}`",
    label = "this hook returns `{Self}`",
    note = "hooks see a node start and end; they cannot change its status. To change a status, use `invert`, `force_success` or `force_failure`, or make the work an action: `act(|c| ..)`"
)]
pub trait HookOutput {}

impl HookOutput for () {}

/// What a tree reads of a tree it uses as `subtree(..)`, implemented by
/// every tree `behave!` declares. Generated code names a subtree's type
/// only through it, spanned at the name: a type that is no such tree (an
/// action, a condition) is one error at its name, every use giving the same
/// diagnostic, which rustc reports once.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tree declared with `behave!`",
    label = "`subtree(..)` takes a tree declared with `behave!`",
    note = "an action or a condition is a leaf, written without `subtree(..)`: `sequence {{ {Self}, .. }}`"
)]
pub trait Subtree: Sized {
    /// The tree itself: its field's type in the parent tree. Not required
    /// to be sized, so that a tree whose own fields have errors is checked
    /// for them at their leaves, not again here.
    type Tree: ?Sized;
    /// The tree's `NODES`.
    const NODES: &'static [crate::NodeInfo];
    /// The tree's `NODE_COUNT`.
    const NODE_COUNT: u32;
    /// The tree's `FINGERPRINT`.
    const FINGERPRINT: u64;
    /// The tree's `TICK_WORK`.
    const TICK_WORK: u64;
    /// The tree's `new()`.
    fn new() -> Self;
    /// The tree itself, as [`Subtree::Tree`]: a parent ticks its field
    /// through it, so that a type that is no tree fails here only.
    fn as_tree(&mut self) -> &mut Self::Tree;
    /// [`Subtree::as_tree`], shared: how a parent saves its field.
    fn tree_ref(&self) -> &Self::Tree;
    /// The tree's `shift_times`: a parent's moves its subtrees' times too.
    fn shift_times(&mut self, by: f64);
    /// The tree's `read_fields`: a parent's answers for its subtrees' nodes too.
    fn read_fields(&self, id: u32) -> Option<&'static [&'static str]>;
}

/// `impl Subtree for $name` for a tree `behave!` generates (one line of
/// generated code): its public constants, `new()` (after `$checks`, the
/// tree's async leaves' type checks, which every function returning the tree
/// has) and `shift_times`.
#[doc(hidden)]
#[macro_export]
macro_rules! __subtree_impl {
    ($name:ident, { $($checks:tt)* }) => {
        impl $crate::private::Subtree for $name {
            type Tree = Self;
            const NODES: &'static [$crate::NodeInfo] = Self::NODES;
            const NODE_COUNT: u32 = Self::NODE_COUNT;
            const FINGERPRINT: u64 = Self::FINGERPRINT;
            const TICK_WORK: u64 = Self::TICK_WORK;
            #[inline]
            fn new() -> Self {
                $($checks)*
                Self::new()
            }
            #[inline(always)]
            fn as_tree(&mut self) -> &mut Self {
                self
            }
            #[inline(always)]
            fn tree_ref(&self) -> &Self {
                self
            }
            #[inline]
            fn shift_times(&mut self, by: f64) {
                Self::shift_times(self, by)
            }
            #[inline]
            fn read_fields(&self, id: u32) -> ::core::option::Option<&'static [&'static str]> {
                Self::read_fields(self, id)
            }
        }
    };
}
pub use crate::__subtree_impl as subtree_impl;

/// `shift_times` and `resume_at` of a generated tree that keeps no times
/// (no timers, no subtrees): they do nothing.
#[doc(hidden)]
#[macro_export]
macro_rules! __no_saved_times {
    () => {
        /// Moves every saved time of this tree (SEMANTICS.md, "Saved state
        /// and the clock"): this tree keeps none.
        pub fn shift_times(&mut self, by: f64) {
            let _ = by;
        }
        /// Shifts the saved times of a loaded tree to a clock that reads
        /// `now`: this tree keeps none.
        pub fn resume_at(&mut self, now: f64) {
            let _ = now;
        }
    };
}
pub use crate::__no_saved_times as no_saved_times;

/// Applies a subtree's context mapping (`|c| &mut c.part`); the bound gives the
/// closure its signature.
#[inline(always)]
pub fn map_ctx<P: ?Sized, S: ?Sized, F: FnOnce(&mut P) -> &mut S>(ctx: &mut P, f: F) -> &mut S {
    f(ctx)
}

/// An idle async action for `act(async X)`: its field's type names the
/// future, so no bound is needed here (a type that is not an async action is
/// reported once, where its future is named).
#[inline(always)]
pub const fn async_leaf<A, F>(action: A) -> Async<A, F> {
    Async::idle(action)
}

/// Checks a condition value (the bound names the trait in errors).
#[inline(always)]
pub fn check<C: ?Sized, T: Condition<C>>(leaf: &T, ctx: &C) -> Status {
    Status::from(leaf.check(ctx))
}

/// What a generated tree asks of a stateful node: a tick (entering a new
/// activation or not) or a halt. One entry point per leaf and subtree means one
/// trait-bound error per wrong leaf, not one per call site.
#[derive(Clone, Copy)]
pub enum Step {
    /// Tick; `true` when the node starts a new activation.
    Tick(bool),
    /// Tick without reporting to the observer (the unobserved fast path).
    Fast(bool),
    /// Halt the running node.
    Halt,
}

/// Ticks or halts an action value (a halt's status is ignored).
#[inline(always)]
pub fn action<C: ?Sized, T: Action<C>>(leaf: &mut T, ctx: &mut C, step: Step) -> Status {
    match step {
        Step::Tick(entering) | Step::Fast(entering) => {
            if entering {
                leaf.enter(ctx);
            }
            leaf.tick(ctx)
        }
        Step::Halt => {
            leaf.halt(ctx);
            Status::Failure
        }
    }
}

/// Ticks or halts a subtree whose nodes are numbered from `base` (a halt's status is ignored).
#[inline(always)]
pub fn subtree<C: ?Sized, T: Generated<C>, O: Observer + ?Sized>(
    tree: &mut T,
    ctx: &mut C,
    env: &mut Env<'_, O>,
    base: u32,
    step: Step,
) -> Status {
    let outer = env.base;
    env.base = outer + base;
    let status = match step {
        Step::Tick(entering) => tree.__tick(ctx, env, entering),
        Step::Fast(entering) => tree.__tick_fast(ctx, env, entering),
        Step::Halt => {
            tree.__halt(ctx, env);
            Status::Failure
        }
    };
    env.base = outer;
    status
}

/// Ticks or halts an async action value (`act(async X)`):
/// `AsyncStep::<_, Ctx>(&mut leaf, PhantomData).step(ctx, step)` with
/// [`AsyncNothing`] in scope. The inherent `step` applies when `X` names a
/// future ([`Task`]) and then asks for `AsyncAction<Ctx>`; when `X` names
/// none, `AsyncNothing`'s applies, so a type that is not an async action is
/// reported once, where the leaf's field names its future, and not again at
/// each tick and halt.
pub struct AsyncStep<'a, T, C: ?Sized>(pub &'a mut T, pub PhantomData<fn(&mut C)>);

impl<A: Task, C: ?Sized> AsyncStep<'_, Async<A, A::Future>, C> {
    /// Ticks or halts the async action.
    #[inline(always)]
    pub fn step(self, ctx: &mut C, step: Step) -> Status
    where
        A: AsyncAction<C>,
    {
        action(self.0, ctx, step)
    }
}

/// The step of an async action whose type names no future (already an error).
pub trait AsyncNothing<C: ?Sized> {
    /// Nothing: the tree does not compile.
    fn step(self, ctx: &mut C, step: Step) -> Status;
}

impl<T, C: ?Sized> AsyncNothing<C> for AsyncStep<'_, T, C> {
    #[inline(always)]
    fn step(self, _: &mut C, _: Step) -> Status {
        Status::Failure
    }
}

/// The wake of a running action value: `(&ActionWake::<_, Ctx>(&leaf, PhantomData)).wake(now)`
/// with [`ViaAction`] and [`ViaNothing`] in scope. Method resolution picks
/// `ViaAction` when the leaf is an action and `ViaNothing` (the next tick)
/// when it is not, so a wrong leaf is reported once, by the tick path, not
/// again by its wake (autoref specialization).
pub struct ActionWake<'a, T, C: ?Sized>(pub &'a T, pub PhantomData<fn(&C)>);

/// The wake of a running subtree, chosen like [`ActionWake`]'s.
pub struct TreeWake<'a, T, C: ?Sized>(pub &'a T, pub PhantomData<fn(&C)>);

/// The wake of a leaf or subtree of the right type.
pub trait ViaAction {
    /// The leaf's or subtree's own wake.
    fn wake(&self, now: f64) -> Wake;
}

impl<T: Action<C>, C: ?Sized> ViaAction for ActionWake<'_, T, C> {
    #[inline(always)]
    fn wake(&self, now: f64) -> Wake {
        self.0.next_wake(now)
    }
}

impl<T: Generated<C>, C: ?Sized> ViaAction for TreeWake<'_, T, C> {
    #[inline(always)]
    fn wake(&self, now: f64) -> Wake {
        self.0.__wake(now)
    }
}

/// The wake of a leaf or subtree whose type is wrong (already an error of the tick path).
pub trait ViaNothing {
    /// The next tick.
    #[inline(always)]
    fn wake(&self, now: f64) -> Wake {
        let _ = now;
        Wake::NextTick
    }
}

impl<T, C: ?Sized> ViaNothing for &ActionWake<'_, T, C> {}
impl<T, C: ?Sized> ViaNothing for &TreeWake<'_, T, C> {}

/// The fields a condition value names (`Condition::read_fields`), for a
/// tree's `read_fields`: `(&FieldsOf::<_, Ctx>(&leaf, PhantomData)).read_fields()`
/// with [`ViaCondition`] and [`ViaNoCondition`] in scope, chosen like
/// [`ActionWake`]'s, so that a leaf that is no condition is reported once,
/// by the tick path.
pub struct FieldsOf<'a, T, C: ?Sized>(pub &'a T, pub PhantomData<fn(&C)>);

/// The fields of a condition value of the right type.
pub trait ViaCondition {
    /// Its own `Condition::read_fields`.
    fn read_fields(&self) -> Option<&'static [&'static str]>;
}

impl<T: Condition<C>, C: ?Sized> ViaCondition for FieldsOf<'_, T, C> {
    #[inline(always)]
    fn read_fields(&self) -> Option<&'static [&'static str]> {
        self.0.read_fields()
    }
}

/// The fields of a leaf whose type is wrong (already an error of the tick path).
pub trait ViaNoCondition {
    /// Unknown.
    #[inline(always)]
    fn read_fields(&self) -> Option<&'static [&'static str]> {
        None
    }
}

impl<T, C: ?Sized> ViaNoCondition for &FieldsOf<'_, T, C> {}

/// `reset`'s callback of an action value or a subtree:
/// `ResetOf::<_, Ctx>(&mut leaf, PhantomData).reset(ctx)` with [`ResetVia`]
/// and [`ResetNothing`] in scope. As for [`ActionWake`], method resolution
/// picks `ResetVia` when the value is an action (or the subtree a tree on
/// `Ctx`) and `ResetNothing` otherwise, so a wrong leaf is reported once.
pub struct ResetOf<'a, T, C: ?Sized>(pub &'a mut T, pub PhantomData<fn(&C)>);

/// The reset callback of an action value ([`Action::reset`]).
pub trait ResetVia<C: ?Sized> {
    /// Runs it.
    fn reset(self, ctx: &mut C);
}

impl<T: Action<C>, C: ?Sized> ResetVia<C> for ResetOf<'_, T, C> {
    #[inline(always)]
    fn reset(self, ctx: &mut C) {
        self.0.reset(ctx);
    }
}

/// The reset callbacks of a subtree, as a node of its parent's `reset`.
pub struct SubtreeResetOf<'a, T, C: ?Sized>(pub &'a mut T, pub PhantomData<fn(&C)>);

impl<T: Generated<C>, C: ?Sized> ResetVia<C> for SubtreeResetOf<'_, T, C> {
    #[inline(always)]
    fn reset(self, ctx: &mut C) {
        self.0.__reset_callbacks(ctx);
    }
}

/// The reset callback of a leaf or subtree whose type is wrong (already an error of the tick path).
pub trait ResetNothing<C: ?Sized> {
    /// Nothing.
    #[inline(always)]
    fn reset(self, ctx: &mut C)
    where
        Self: Sized,
    {
        let _ = ctx;
    }
}

impl<T, C: ?Sized> ResetNothing<C> for &ResetOf<'_, T, C> {}
impl<T, C: ?Sized> ResetNothing<C> for &SubtreeResetOf<'_, T, C> {}

/// The part of the context a subtree mapping (`|c| &mut c.part`) gives, as a
/// type marker: the closure is not called.
#[inline(always)]
pub fn part_of<P: ?Sized, S: ?Sized, F: FnOnce(&mut P) -> &mut S>(map: F) -> PhantomData<fn(&S)> {
    let _ = map;
    PhantomData
}

/// `wait(d)`: Running on entry, then Success on the first tick at which `d` has passed.
#[inline(always)]
pub fn wait(start: &mut f64, entering: bool, now: f64, d: f64) -> Status {
    if entering {
        *start = now;
        Status::Running
    } else if now - *start >= d {
        Status::Success
    } else {
        Status::Running
    }
}

/// Combines a tree's own shape fingerprint with a subtree's (FNV-1a over the
/// subtree's eight bytes), at compile time.
pub const fn mix_fingerprint(mut hash: u64, sub: u64) -> u64 {
    let mut i = 0;
    while i < 8 {
        hash ^= (sub >> (i * 8)) & 0xFF;
        hash = hash.wrapping_mul(0x0000_0100_0000_01B3);
        i += 1;
    }
    hash
}

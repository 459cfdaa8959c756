//! The two kinds of leaves a user writes: conditions and actions.

use crate::{Reads, Status, Wake};

/// A question about the context: `Success` when it holds, `Failure` otherwise,
/// never `Running`. Used in a tree as `cond(MyCondition)`.
///
/// ```
/// use behaved_runtime::Condition;
/// struct Ctx { hp: u32 }
/// struct LowHealth(u32);
/// impl Condition<Ctx> for LowHealth {
///     fn check(&self, ctx: &Ctx) -> bool { ctx.hp < self.0 }
/// }
/// assert!(LowHealth(10).check(&Ctx { hp: 3 }));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a condition on `{C}`",
    label = "used as `cond(..)` here",
    note = "implement `behaved::Condition<{C}>` for `{Self}` (fn check(&self, ctx: &{C}) -> bool), or write an inline condition `cond(|c| ..)`"
)]
pub trait Condition<C: ?Sized> {
    /// `true` when the condition holds for `ctx`.
    fn check(&self, ctx: &C) -> bool;

    /// The context fields `check` reads, when they are known: a reactive
    /// node that re-checks this condition then sleeps until one of them is
    /// marked changed (`SEMANTICS.md`, "Sleeping on inputs"). The default
    /// is the bits of [`read_fields`](Condition::read_fields) when it names
    /// them, else `None` (unknown): re-checked on every tick. A condition
    /// that declares its reads promises that its result depends on nothing
    /// else.
    ///
    /// ```
    /// use behaved_runtime::{Condition, Reads};
    /// struct Ctx { hp: u32 }
    /// struct LowHealth(u32);
    /// impl Condition<Ctx> for LowHealth {
    ///     fn check(&self, ctx: &Ctx) -> bool { ctx.hp < self.0 }
    ///     fn reads(&self) -> Option<Reads> { Some(Reads::field("hp")) }
    /// }
    /// ```
    #[inline]
    fn reads(&self) -> Option<Reads> {
        self.read_fields().map(Reads::fields)
    }

    /// The names of the context fields `check` reads, when they are known:
    /// what the studio's data-flow view shows for this condition (a
    /// condition that declares only [`reads`](Condition::reads) is shown
    /// reading unknown fields). Declaring the names declares the reads too.
    ///
    /// ```
    /// use behaved_runtime::{Condition, Reads};
    /// struct Ctx { hp: u32 }
    /// struct LowHealth(u32);
    /// impl Condition<Ctx> for LowHealth {
    ///     fn check(&self, ctx: &Ctx) -> bool { ctx.hp < self.0 }
    ///     fn read_fields(&self) -> Option<&'static [&'static str]> { Some(&["hp"]) }
    /// }
    /// assert_eq!(LowHealth(3).reads(), Some(Reads::field("hp")));
    /// ```
    #[inline]
    fn read_fields(&self) -> Option<&'static [&'static str]> {
        None
    }
}

/// A possibly long-running piece of work on the context, stored in the tree
/// as a field so it can keep state between ticks.
///
/// The tree calls [`enter`](Action::enter) before the first tick of each
/// activation, [`tick`](Action::tick) on every tick, and [`halt`](Action::halt)
/// exactly once when the action is interrupted while `Running`. A completed
/// action is not halted.
///
/// ```
/// use behaved_runtime::{Action, Status};
/// struct Ctx { pos: i32, goal: i32 }
/// struct MoveToGoal;
/// impl Action<Ctx> for MoveToGoal {
///     fn tick(&mut self, ctx: &mut Ctx) -> Status {
///         if ctx.pos == ctx.goal { return Status::Success; }
///         ctx.pos += (ctx.goal - ctx.pos).signum();
///         Status::Running
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an action on `{C}`",
    label = "used as an action leaf here",
    note = "a leaf value in a tree must implement `behaved::Action<{C}>` (fn tick(&mut self, ctx: &mut {C}) -> Status)",
    note = "if `{Self}` is a `behaved::Condition`, write `cond({Self})`; if it is another tree, write `subtree({Self})`"
)]
pub trait Action<C: ?Sized> {
    /// Does one step of work. Returning `Running` asks for another tick.
    fn tick(&mut self, ctx: &mut C) -> Status;

    /// Called when the action starts a new activation, before its first tick.
    #[inline(always)]
    fn enter(&mut self, ctx: &mut C) {
        let _ = ctx;
    }

    /// Called once when the action is interrupted while `Running`
    /// (a reactive parent switched branch, a parallel finished, a reset).
    #[inline(always)]
    fn halt(&mut self, ctx: &mut C) {
        let _ = ctx;
    }

    /// Called when the tree is reset (`reset`), after the halts, whatever this
    /// action's state: the reset-only callback (ClosureBT's `OnDisabled`), for
    /// what outlives activations. Never called in the normal flow of ticks,
    /// and distinct from [`Action::halt`], which ends one running activation.
    #[inline(always)]
    fn reset(&mut self, ctx: &mut C) {
        let _ = ctx;
    }

    /// When this action, while `Running`, next needs a tick, asked after a
    /// tick at time `now` by schedulers that let idle agents sleep. The default
    /// is the next tick; an action that only waits (an animation that ends at a
    /// known time, a cast bar) may return [`Wake::At`] its end, or
    /// [`Wake::Never`] when only an outside event (which wakes the agent)
    /// can finish it. Every tick before the reported time must then return
    /// `Running` and change nothing.
    #[inline(always)]
    fn next_wake(&self, now: f64) -> Wake {
        let _ = now;
        Wake::NextTick
    }
}

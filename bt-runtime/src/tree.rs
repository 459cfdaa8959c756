//! What every tree made by `behave!` can do, so code can be generic over trees.

use crate::{NodeInfo, NoopObserver, Observer, Status, Wake, private::Env};

/// The outcome of running a tree to completion within one call
/// (ADR-017's on-interaction mode).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Run {
    /// The root completed with this status.
    Completed(Status),
    /// The tick limit was reached with the root still `Running`. Nothing was
    /// halted: the next call goes on where this one stopped.
    TickLimit,
}

impl Run {
    /// The root's final status, or `Running` if the tick limit was hit.
    pub const fn status(self) -> Status {
        match self {
            Run::Completed(s) => s,
            Run::TickLimit => Status::Running,
        }
    }
}

/// A behavior tree over the context type `C`. Implemented by every tree that
/// `behave!` generates (and by hand-written trees that want to be used as
/// subtrees or by generic code).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tree over the context `{C}`",
    label = "this subtree does not run on `{C}`",
    note = "a subtree runs on its parent's context; give it its part with `subtree({Self}, |c| &mut c.part)`"
)]
pub trait Tree<C: ?Sized> {
    /// The tree's node table in depth-first pre-order, subtrees inlined.
    const NODES: &'static [NodeInfo];

    /// Ticks the tree once at time `now`, reporting every event to `observer`.
    fn tick_observed<O: Observer + ?Sized>(&mut self, ctx: &mut C, now: f64, observer: &mut O) -> Status;

    /// Halts whatever is running (each running action gets `halt` once,
    /// in post-order), reporting the halts to `observer`. Afterwards the tree is idle.
    fn reset_observed<O: Observer + ?Sized>(&mut self, ctx: &mut C, observer: &mut O);

    /// `true` while the root is `Running` (the last tick returned `Running`).
    fn is_running(&self) -> bool;

    /// When the tree next needs a tick, asked after a tick at time `now`:
    /// a tree that is not running needs the next one (it starts again); a
    /// running tree needs none before its running path can change (see
    /// [`Wake`]). Ticking it anyway is always allowed.
    #[inline]
    fn next_wake(&self, now: f64) -> Wake {
        if self.is_running() {
            self.__wake(now)
        } else {
            Wake::NextTick
        }
    }

    /// Ticks the tree once at time `now`.
    #[inline]
    fn tick_at(&mut self, ctx: &mut C, now: f64) -> Status {
        self.tick_observed(ctx, now, &mut NoopObserver)
    }

    /// Halts whatever is running; the next tick starts the tree from the beginning.
    #[inline]
    fn reset(&mut self, ctx: &mut C) {
        self.reset_observed(ctx, &mut NoopObserver)
    }

    /// Ticks at time `now` until the root completes or `max_ticks` ticks have run
    /// (ADR-017's on-interaction mode). Hitting the limit halts nothing.
    fn run_at(&mut self, ctx: &mut C, now: f64, max_ticks: u32) -> Run {
        for _ in 0..max_ticks {
            let status = self.tick_at(ctx, now);
            if status.is_done() {
                return Run::Completed(status);
            }
        }
        Run::TickLimit
    }

    /// Ticks the root as a node of an enclosing tree. `entering` is `true` when
    /// the enclosing tree starts a new activation of this node.
    #[doc(hidden)]
    fn __tick<O: Observer + ?Sized>(&mut self, ctx: &mut C, env: &mut Env<'_, O>, entering: bool) -> Status;

    /// As [`__tick`](Tree::__tick), without reporting to the observer: the
    /// path `tick_at` takes, which the generated code keeps free of observer calls.
    #[doc(hidden)]
    #[inline(always)]
    fn __tick_fast<O: Observer + ?Sized>(&mut self, ctx: &mut C, env: &mut Env<'_, O>, entering: bool) -> Status {
        self.__tick(ctx, env, entering)
    }

    /// The wake of the running root as a node of an enclosing tree (it
    /// assumes the root is running). Hand-written trees need the next tick.
    #[doc(hidden)]
    #[inline]
    fn __wake(&self, now: f64) -> Wake {
        let _ = now;
        Wake::NextTick
    }

    /// Halts the running root as a node of an enclosing tree.
    #[doc(hidden)]
    fn __halt<O: Observer + ?Sized>(&mut self, ctx: &mut C, env: &mut Env<'_, O>);

    /// Runs the reset-only callbacks (`#[on_reset]` hooks, [`Action::reset`](crate::Action::reset))
    /// of every node, in node-table order, as a node of an enclosing tree's `reset`.
    #[doc(hidden)]
    #[inline]
    fn __reset_callbacks(&mut self, ctx: &mut C) {
        let _ = ctx;
    }
}

//! What every tree made by `behave!` can do, so code can be generic over trees.

use crate::{NodeRow, NoopObserver, Observer, Status, Ticked, Wake};

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

/// A running behavior tree over the context type `C`: one instance with its
/// running state, whichever form it has. Implemented by every tree that
/// `behave!` generates, by the interpreter's agents (`behaved_interp::Agent`,
/// trees loaded from JSON) and by hand: code that ticks, observes, resets,
/// schedules (`behaved-sched`, `behaved-bevy`) or tests (`behaved-testing`)
/// trees is written once against this trait and takes every form.
///
/// A hand-written tree implements `Row`, `nodes`, `tick_observed`,
/// `reset_observed` and `is_running`; the other methods have defaults that
/// follow from them. Only trees made by `behave!` can be used as
/// a `subtree(..)` of another `behave!` tree (the generated code reaches into
/// them through a private interface).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tree over the context `{C}`",
    label = "not a tree over `{C}`",
    note = "trees over `{C}` are those `behave!` makes for it (`tree Name for {C}`), interpreted agents (`Agent<{C}>`) and types that implement `Tree<{C}>` by hand"
)]
pub trait Tree<C: ?Sized> {
    /// A row of the node table: [`NodeInfo`](crate::NodeInfo) for compiled trees.
    type Row: NodeRow;

    /// The tree's node table in depth-first pre-order, subtrees inlined: the
    /// ids an [`Observer`] is told about.
    fn nodes(&self) -> &[Self::Row];

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
    /// [`Wake`]). Ticking it anyway is always allowed, so the default, the
    /// next tick, is always right.
    #[inline]
    fn next_wake(&self, now: f64) -> Wake {
        let _ = now;
        Wake::NextTick
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

    /// Ticks once at time `now` and says when the next tick is needed: what
    /// a scheduler calls.
    #[inline]
    fn step(&mut self, ctx: &mut C, now: f64) -> Ticked {
        let status = self.tick_at(ctx, now);
        Ticked {
            status,
            wake: self.next_wake(now),
        }
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
}

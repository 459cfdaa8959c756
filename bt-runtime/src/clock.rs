//! How time enters a tick: the caller supplies it, the library never reads a clock.

/// A context that knows the current time, in seconds (game time, simulation
/// time, whatever the caller counts in). Trees with timing nodes (`wait`, ...)
/// read it once per tick from the root context in `tree.tick(&mut ctx)`;
/// `tick_at(&mut ctx, now)` passes the time explicitly instead.
#[diagnostic::on_unimplemented(
    message = "the context `{Self}` does not tell the time",
    label = "this tree has timing nodes or subtrees, so `tick`/`run` read the time from `{Self}`",
    note = "implement `behaved::Clock for {Self}` (fn now(&self) -> f64), or call `tick_at(ctx, now)` / `run_at(ctx, now, max_ticks)`"
)]
pub trait Clock {
    /// The current time in seconds.
    fn now(&self) -> f64;
}

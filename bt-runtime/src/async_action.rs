//! Actions whose work is a Rust [`Future`]: a path search on a worker
//! thread, a reply from a server, anything the tree awaits without blocking
//! a tick.
//!
//! An [`AsyncAction`] says how to start its future and how to turn its output
//! into a status; [`Async`] makes it an [`Action`] that a tree stores like
//! any other (`act(async FindPath { .. })` in `behave!`,
//! `Registry::async_action` in the interpreter).
//!
//! # Where the future lives
//!
//! - A future whose type can be named ([`AsyncAction::Future`], `Unpin`) is
//!   stored **inline** in the [`Async`] value, so in the tree: nothing is
//!   allocated, neither per start nor per tick.
//! - A future whose type cannot be named (an `async` block) is returned as a
//!   `BoxFuture` (with the `std` feature): **one allocation per start**, none
//!   per tick.
//!
//! Polling never allocates by itself (a waker is cloned by reference count).

use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll, Waker};

use crate::{Action, Status, Wake};

/// Names the future of an [`AsyncAction`], independently of the context, so
/// that [`Async`] can store it inline.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an async action: it names no future",
    label = "used as `act(async ..)` here",
    note = "implement `behaved::Task` (type Future) and `behaved::AsyncAction<Ctx>` (fn start, fn finish) for `{Self}`; \
            if it is an ordinary `behaved::Action`, write `act({Self})`, without `async`"
)]
pub trait Task {
    /// The future that does the work: stored inline in [`Async`] and polled in
    /// place, so it must be `Unpin` (the tree may move between ticks). A future
    /// whose type cannot be named is boxed: a `BoxFuture` (feature `std`).
    type Future: Future + Unpin;
}

/// An action backed by a [`Future`]: started on entry, polled on each tick
/// (or only when woken), dropped (cancelled) when halted. Wrap it in [`Async`]
/// to use it as an [`Action`].
///
/// ```
/// use core::future::{Ready, ready};
/// use behaved_runtime::{Action, Async, AsyncAction, Status, Task};
///
/// struct Ctx { asked: u32, answer: Option<u32> }
/// /// Asks a question whose answer is ready at once.
/// struct Ask;
/// impl Task for Ask { type Future = Ready<u32>; }
/// impl AsyncAction<Ctx> for Ask {
///     fn start(&mut self, ctx: &mut Ctx) -> Ready<u32> { ctx.asked += 1; ready(42) }
///     fn finish(&mut self, ctx: &mut Ctx, answer: u32) -> Status {
///         ctx.answer = Some(answer);
///         Status::Success
///     }
/// }
///
/// let mut ask = Async::new(Ask);
/// let mut ctx = Ctx { asked: 0, answer: None };
/// ask.enter(&mut ctx);
/// assert_eq!(ask.tick(&mut ctx), Status::Success);
/// assert_eq!((ctx.asked, ctx.answer), (1, Some(42)));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an async action on `{C}`",
    label = "used as `act(async ..)` here",
    note = "implement `behaved::Task` (type Future) and `behaved::AsyncAction<{C}>` (fn start, fn finish) for `{Self}`"
)]
pub trait AsyncAction<C: ?Sized>: Task {
    /// Starts the work on entry: returns the future that will complete it.
    fn start(&mut self, ctx: &mut C) -> Self::Future;

    /// Turns the future's output into the action's status, on the tick at
    /// which the future completes.
    fn finish(&mut self, ctx: &mut C, output: <Self::Future as Future>::Output) -> Status;

    /// The waker that wakes this agent (a scheduler's `wake(id)`, through
    /// `behaved_sched::WakeQueue`), if the context has one. With a waker, a
    /// pending action lets its agent sleep ([`Action::next_wake`] is
    /// [`Wake::Never`]) until the future wakes it; without one (the default)
    /// the future is polled on every tick.
    #[inline(always)]
    fn waker<'c>(&self, ctx: &'c C) -> Option<&'c Waker> {
        let _ = ctx;
        None
    }

    /// Called when the action is halted, after its future was dropped (the
    /// drop is what cancels the work).
    #[inline(always)]
    fn cancelled(&mut self, ctx: &mut C) {
        let _ = ctx;
    }
}

/// An [`AsyncAction`] as an [`Action`]: holds the action and, while it runs,
/// its future, inline.
///
/// - `enter` starts the future ([`AsyncAction::start`]);
/// - `tick` polls it once: pending is `Running`, ready is
///   [`AsyncAction::finish`]'s status (and the future is dropped);
/// - `halt` drops the future, which cancels it, then calls
///   [`AsyncAction::cancelled`];
/// - `next_wake` is `Never` while the future is pending and was polled with
///   the context's waker, `NextTick` otherwise.
///
/// A clone is idle: it clones the action, not a running future.
///
/// `F` is always `A`'s future; it is a parameter of its own (with that
/// default) so that the struct needs no bound: a type that is not an async
/// action is then reported once, where its future is named, instead of at
/// every use of the wrapper.
#[derive(Debug, Default)]
pub struct Async<A, F = <A as Task>::Future> {
    action: A,
    future: Option<F>,
    /// The last poll was pending with a real waker: no tick is needed until it wakes.
    asleep: bool,
}

impl<A: Task> Async<A> {
    /// Wraps an async action; nothing starts before the tree enters it.
    pub const fn new(action: A) -> Async<A> {
        Async::idle(action)
    }
}

impl<A, F> Async<A, F> {
    /// [`Async::new`] without the bound, for generated code (where the
    /// field's type names the future).
    pub(crate) const fn idle(action: A) -> Async<A, F> {
        Async {
            action,
            future: None,
            asleep: false,
        }
    }

    /// The wrapped action.
    pub const fn action(&self) -> &A {
        &self.action
    }

    /// `true` while a started future has not completed or been dropped.
    pub const fn is_pending(&self) -> bool {
        self.future.is_some()
    }
}

impl<A: Clone, F> Clone for Async<A, F> {
    /// An idle copy: the action is cloned, a running future is not.
    fn clone(&self) -> Async<A, F> {
        Async::idle(self.action.clone())
    }
}

impl<C: ?Sized, A: AsyncAction<C>> Action<C> for Async<A, A::Future> {
    #[inline]
    fn enter(&mut self, ctx: &mut C) {
        self.future = Some(self.action.start(ctx));
        self.asleep = false;
    }

    #[inline]
    fn tick(&mut self, ctx: &mut C) -> Status {
        let Some(future) = self.future.as_mut() else {
            // Ticked without `enter` (a hand-written caller): start now.
            self.enter(ctx);
            return self.tick(ctx);
        };
        let waker = self.action.waker(ctx);
        self.asleep = waker.is_some();
        let mut cx = Context::from_waker(waker.unwrap_or(Waker::noop()));
        match Pin::new(future).poll(&mut cx) {
            Poll::Pending => Status::Running,
            Poll::Ready(output) => {
                self.future = None;
                self.asleep = false;
                self.action.finish(ctx, output)
            }
        }
    }

    #[inline]
    fn halt(&mut self, ctx: &mut C) {
        self.future = None;
        self.asleep = false;
        self.action.cancelled(ctx);
    }

    #[inline]
    fn next_wake(&self, now: f64) -> Wake {
        let _ = now;
        if self.asleep && self.future.is_some() {
            Wake::Never
        } else {
            Wake::NextTick
        }
    }
}

#[cfg(feature = "std")]
pub use boxed::BoxFuture;

#[cfg(feature = "std")]
mod boxed {
    use core::fmt;
    use core::future::Future;
    use core::pin::Pin;
    use core::task::{Context, Poll};
    use std::boxed::Box;
    use std::sync::{Mutex, PoisonError};

    /// A future whose type cannot be named (an `async` block), boxed once per
    /// start: the [`Task::Future`](super::Task::Future) of an async action
    /// written with `async`. It is `Send` and `Sync` (the box sits in a
    /// `Mutex` that is never locked, only reached through `&mut`), so an
    /// interpreter registry can hold it.
    pub struct BoxFuture<T>(Mutex<Pin<Box<dyn Future<Output = T> + Send>>>);

    impl<T> BoxFuture<T> {
        /// Boxes `future` (one allocation).
        pub fn new(future: impl Future<Output = T> + Send + 'static) -> BoxFuture<T> {
            BoxFuture(Mutex::new(Box::pin(future)))
        }
    }

    impl<T> Future for BoxFuture<T> {
        type Output = T;
        fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
            let inner = self.get_mut().0.get_mut().unwrap_or_else(PoisonError::into_inner);
            inner.as_mut().poll(cx)
        }
    }

    impl<T> fmt::Debug for BoxFuture<T> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("BoxFuture")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::cell::Cell;

    /// A future that completes after `polls` polls and counts its drops.
    struct Countdown<'a> {
        polls: u32,
        dropped: &'a Cell<u32>,
    }
    impl Future for Countdown<'_> {
        type Output = u32;
        fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<u32> {
            if self.polls == 0 {
                Poll::Ready(7)
            } else {
                self.polls -= 1;
                Poll::Pending
            }
        }
    }
    impl Drop for Countdown<'_> {
        fn drop(&mut self) {
            self.dropped.set(self.dropped.get() + 1);
        }
    }

    struct Work<'a> {
        dropped: &'a Cell<u32>,
        cancelled: u32,
    }
    impl<'a> Task for Work<'a> {
        type Future = Countdown<'a>;
    }
    impl<'a> AsyncAction<u32> for Work<'a> {
        fn start(&mut self, ctx: &mut u32) -> Countdown<'a> {
            *ctx += 100;
            Countdown {
                polls: 2,
                dropped: self.dropped,
            }
        }
        fn finish(&mut self, ctx: &mut u32, out: u32) -> Status {
            *ctx += out;
            Status::Failure
        }
        fn cancelled(&mut self, _: &mut u32) {
            self.cancelled += 1;
        }
    }

    /// The action around `Work` (its futures' drops counted in `dropped`),
    /// entered, with the context it was entered with (0 before).
    fn entered(dropped: &Cell<u32>) -> (Async<Work<'_>>, u32) {
        let mut a = Async::new(Work { dropped, cancelled: 0 });
        let mut ctx = 0;
        a.enter(&mut ctx);
        (a, ctx)
    }

    #[test]
    fn runs_until_the_future_completes_then_finishes() {
        let dropped = Cell::new(0);
        let (mut a, mut ctx) = entered(&dropped);
        assert_eq!(ctx, 100);
        assert_eq!(a.tick(&mut ctx), Status::Running);
        assert_eq!(a.next_wake(0.0), Wake::NextTick, "no waker: polled every tick");
        assert_eq!(a.tick(&mut ctx), Status::Running);
        assert_eq!(a.tick(&mut ctx), Status::Failure);
        assert_eq!(ctx, 107);
        assert_eq!(dropped.get(), 1, "the completed future is dropped");
        assert!(!a.is_pending());
    }

    #[test]
    fn halting_drops_the_future() {
        let dropped = Cell::new(0);
        let (mut a, mut ctx) = entered(&dropped);
        assert_eq!(a.tick(&mut ctx), Status::Running);
        a.halt(&mut ctx);
        assert_eq!(dropped.get(), 1);
        assert_eq!(a.action().cancelled, 1);
        assert!(!a.is_pending());
    }
}

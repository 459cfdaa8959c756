//! A future that is pending for a number of polls, then ready: the job of
//! the async-action tests and benches (`bt-interp/tests/async_alloc.rs`,
//! `benches/async_action.rs`), which need a named future that holds no
//! allocation and finishes when they say.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Pending for as many polls as it holds, then ready with `()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Countdown(pub u32);

impl Future for Countdown {
    type Output = ();
    // Inline across the crate boundary, as the benches' own copy was.
    #[inline]
    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        if self.0 == 0 {
            return Poll::Ready(());
        }
        self.0 -= 1;
        Poll::Pending
    }
}

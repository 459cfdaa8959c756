//! The decorators of one child (`invert`, `forceSuccess`, `forceFailure`,
//! `limit`, `runOnce`; `scope` and `subtree` tick their child as it is) and the guards of two
//! (`abortIf`, `latch`: a condition, then the body): tick, halt and wake.

use behaved_runtime::{Observer, Wake};

use crate::agent::exec::*;
use crate::agent::wake::Waking;
use crate::definition::Flat;

impl<C: 'static, O: Observer + ?Sized> Exec<'_, C, O> {
    /// `invert`: the child's success and failure swapped.
    #[inline]
    pub(in crate::agent) fn invert(&mut self, id: u32, entering: bool) -> Out {
        match self.tick(id + 1, entering) {
            Out::Success => Out::Failure,
            Out::Failure => Out::Success,
            o => o,
        }
    }

    /// `forceSuccess`: the child's failure turned into success.
    #[inline]
    pub(in crate::agent) fn force_success(&mut self, id: u32, entering: bool) -> Out {
        match self.tick(id + 1, entering) {
            Out::Failure => Out::Success,
            o => o,
        }
    }

    /// `forceFailure`: the child's success turned into failure.
    #[inline]
    pub(in crate::agent) fn force_failure(&mut self, id: u32, entering: bool) -> Out {
        match self.tick(id + 1, entering) {
            Out::Success => Out::Failure,
            o => o,
        }
    }

    /// `limit(n)`: fails without ticking the child once it has completed n
    /// times (lifetime memory: the state word counts completions).
    #[inline]
    pub(in crate::agent) fn limit(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
        let s = node.slot as usize;
        if self.ints[s] >= node.a {
            Out::Failure
        } else {
            let o = self.tick(id + 1, entering);
            if o.done() {
                self.ints[s] += 1;
            }
            o
        }
    }

    /// `runOnce`: runs the child to its first completion, then returns that
    /// status for good (the state word: 1 succeeded, 2 failed).
    #[inline]
    pub(in crate::agent) fn run_once(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
        let s = node.slot as usize;
        match self.ints[s] {
            1 => Out::Success,
            2 => Out::Failure,
            _ => {
                let o = self.tick(id + 1, entering);
                match o {
                    Out::Success => self.ints[s] = 1,
                    Out::Failure => self.ints[s] = 2,
                    _ => {}
                }
                o
            }
        }
    }

    /// `abortIf`: the condition every tick; its success halts a running body
    /// and fails.
    #[inline]
    pub(in crate::agent) fn abort_if(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
        let body = self.kid(node, 1);
        if self.tick(id + 1, true) == Out::Success {
            if !entering {
                self.halt(body);
            }
            Out::Failure
        } else {
            self.tick(body, entering)
        }
    }

    /// `latch`: the condition is checked only while the child is idle.
    #[inline]
    pub(in crate::agent) fn latch(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
        if entering && self.tick(id + 1, true) != Out::Success {
            Out::Failure
        } else {
            self.tick(self.kid(node, 1), entering)
        }
    }

    /// Halting a decorator or guard: its body. Lifetime memory (`limit`'s
    /// count, `runOnce`'s result) is kept.
    pub(in crate::agent) fn decorator_halted(&mut self, node: &Flat) -> Option<u32> {
        Some(self.kid(node, body(node)))
    }
}

impl<C: 'static> Waking<'_, C> {
    /// The wake of a running decorator: its body's. (A reactive one, `abortIf`,
    /// also watches its condition: `watch.rs`, by its shape.)
    pub(in crate::agent) fn decorator_wake(&self, node: &Flat) -> Wake {
        self.wake(self.def.kids[(node.kids + body(node)) as usize])
    }
}

/// Where a decorator's body sits among its children, by its shape
/// ([`Slots::body`](behaved_runtime::catalog::Slots::body)): a guard's after its condition, a decorator's its one
/// child; a subtree's (no child in the JSON form) its inlined body, child 0.
fn body(node: &Flat) -> u32 {
    node.op.slots().body().unwrap_or(0)
}

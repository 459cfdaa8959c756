//! Sending one tree's events to two observers.

use behaved_runtime::{LeafCall, NodeId, Observer, Status};

/// An [`Observer`] that passes every event to `.0`, then to `.1`: record a
/// trace and log to the console from the same tick. Nest it for more
/// (`Tee(a, Tee(b, c))`). A [stand-in](Observer::stand_in) question goes to
/// `.0` first, then to `.1` if `.0` has none.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tee<A, B>(pub A, pub B);

impl<A: Observer, B: Observer> Observer for Tee<A, B> {
    #[inline]
    fn stand_in(&mut self, node: NodeId, call: LeafCall) -> Option<Status> {
        match self.0.stand_in(node, call) {
            None => self.1.stand_in(node, call),
            answer => answer,
        }
    }
    #[inline]
    fn tick_started(&mut self, now: f64) {
        self.0.tick_started(now);
        self.1.tick_started(now);
    }
    #[inline]
    fn entered(&mut self, node: NodeId) {
        self.0.entered(node);
        self.1.entered(node);
    }
    #[inline]
    fn ticked(&mut self, node: NodeId, status: Status) {
        self.0.ticked(node, status);
        self.1.ticked(node, status);
    }
    #[inline]
    fn halted(&mut self, node: NodeId) {
        self.0.halted(node);
        self.1.halted(node);
    }
    #[inline]
    fn scored(&mut self, node: NodeId, child: u32, score: f32) {
        self.0.scored(node, child, score);
        self.1.scored(node, child, score);
    }
    fn considers(&self) -> bool {
        self.0.considers() || self.1.considers()
    }
    fn considered(&mut self, node: NodeId, child: u32, part: u32, label: &str, value: f32) {
        self.0.considered(node, child, part, label, value);
        self.1.considered(node, child, part, label, value);
    }
    #[inline]
    fn tick_finished(&mut self, status: Status) {
        self.0.tick_finished(status);
        self.1.tick_finished(status);
    }
}

//! Watching a tree run: which node entered, returned what, or was halted.

use crate::Status;

/// A node's position in its tree's depth-first pre-order (the root is 0).
/// Subtrees are numbered in place: a subtree node is followed by its own nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NodeId(pub u32);

impl NodeId {
    /// The id as an index into the tree's node table.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl core::fmt::Display for NodeId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A call a tree is about to make on a leaf, offered to [`Observer::stand_in`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LeafCall {
    /// The leaf is ticked; `entering` when this starts a new activation
    /// (an action's `enter` would run first).
    Tick {
        /// `true` when the leaf was idle.
        entering: bool,
    },
    /// The running leaf is halted (an action's `halt` would run).
    Halt,
}

/// Receives the events of a tick, in the order they happen. Every method has
/// an empty default, so an observer implements only what it needs; the
/// [`NoopObserver`] implements none and compiles away.
pub trait Observer {
    /// A test hook: asked before a condition, action, `wait` or `wait_until`
    /// leaf is ticked or halted on the observed path (`tick_observed`,
    /// `reset_observed`). `Some(status)` replaces the leaf's own code for this
    /// call (a tick returns `status`, the leaf's `enter`/`tick` are not run;
    /// for a halt, the leaf's `halt` is not run and `status` is ignored); the
    /// events are reported as usual. For a `wait_until` the answer stands for
    /// its condition: `Success` ends the wait, any other answer keeps it `Running`. `behaved-testing` uses it to substitute
    /// scripted stand-ins for leaves.
    ///
    /// The default answers `None`, and `tick`/`tick_at` never ask (they tick
    /// with the [`NoopObserver`]), so production ticks pay nothing for it.
    /// Observers that wrap others must forward it.
    #[inline(always)]
    fn stand_in(&mut self, node: NodeId, call: LeafCall) -> Option<Status> {
        let _ = (node, call);
        None
    }
    /// A tick begins at time `now`.
    #[inline(always)]
    fn tick_started(&mut self, now: f64) {
        let _ = now;
    }
    /// `node` is ticked while idle: it starts a new activation.
    #[inline(always)]
    fn entered(&mut self, node: NodeId) {
        let _ = node;
    }
    /// `node` returned `status` from its tick (after its children's events).
    #[inline(always)]
    fn ticked(&mut self, node: NodeId, status: Status) {
        let _ = (node, status);
    }
    /// `node` was interrupted while `Running` (after its descendants' halts).
    #[inline(always)]
    fn halted(&mut self, node: NodeId) {
        let _ = node;
    }
    /// The score of child `child` (its index among the node's children) of
    /// the `utility` node `node`, each time the node scores its children: on
    /// entry, on every tick of the reactive form and on the due ticks of the
    /// interval form; in child order, after the node's `entered` and before
    /// any child is halted or ticked (SEMANTICS.md "utility"). For a `pick`
    /// node, `child` is the candidate's position among those it read, scored
    /// on entry in candidate order (SEMANTICS.md "pick"). An observer that
    /// [`considers`](Observer::considers) gets each score's parts
    /// ([`considered`](Observer::considered)) just before it.
    #[inline(always)]
    fn scored(&mut self, node: NodeId, child: u32, score: f32) {
        let _ = (node, child, score);
    }
    /// Whether this observer wants [`considered`](Observer::considered)
    /// events. Both engines ask it before scoring and compute the parts of a
    /// score only when it answers `true`; the default `false` is a constant,
    /// so a tree ticked with the [`NoopObserver`] (or any observer that does
    /// not override it) computes nothing extra. Observers that wrap others
    /// must forward it.
    #[inline(always)]
    fn considers(&self) -> bool {
        false
    }
    /// The value of part `part` of child `child`'s score of the `utility`
    /// (or `pick`) node `node`: one consideration of the product the score
    /// is, after its own curve and weight (the factor that went into the
    /// compensated product, before its clamp to `0..=1`; a score that is no
    /// product is one part, its value the score). `label` names the part as
    /// its JSON score writes it: a registered consideration's name and its
    /// curve for a tree from a file (compiled or loaded alike), a DSL
    /// tree's consideration by its code or type name.
    /// Reported only when [`considers`](Observer::considers) is `true`, each
    /// part in order, just before that child's [`scored`](Observer::scored)
    /// (SEMANTICS.md "utility").
    #[inline(always)]
    fn considered(&mut self, node: NodeId, child: u32, part: u32, label: &str, value: f32) {
        let _ = (node, child, part, label, value);
    }
    /// The tick ended with the root returning `status`.
    #[inline(always)]
    fn tick_finished(&mut self, status: Status) {
        let _ = status;
    }
}

/// The observer that observes nothing; ticking with it costs nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct NoopObserver;

impl Observer for NoopObserver {}

impl<O: Observer + ?Sized> Observer for &mut O {
    #[inline(always)]
    fn stand_in(&mut self, node: NodeId, call: LeafCall) -> Option<Status> {
        (**self).stand_in(node, call)
    }
    #[inline(always)]
    fn tick_started(&mut self, now: f64) {
        (**self).tick_started(now)
    }
    #[inline(always)]
    fn entered(&mut self, node: NodeId) {
        (**self).entered(node)
    }
    #[inline(always)]
    fn ticked(&mut self, node: NodeId, status: Status) {
        (**self).ticked(node, status)
    }
    #[inline(always)]
    fn halted(&mut self, node: NodeId) {
        (**self).halted(node)
    }
    #[inline(always)]
    fn scored(&mut self, node: NodeId, child: u32, score: f32) {
        (**self).scored(node, child, score)
    }
    #[inline(always)]
    fn considers(&self) -> bool {
        (**self).considers()
    }
    #[inline(always)]
    fn considered(&mut self, node: NodeId, child: u32, part: u32, label: &str, value: f32) {
        (**self).considered(node, child, part, label, value)
    }
    #[inline(always)]
    fn tick_finished(&mut self, status: Status) {
        (**self).tick_finished(status)
    }
}

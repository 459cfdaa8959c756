//! The interpreter's engine: one tick (or halt) of an agent in progress
//! ([`Exec`]), and the hot path's dispatch ([`Exec::tick_node`]), which ticks
//! leaves, sequences, selectors and unbounded loops by code of their own
//! (in their kinds' modules, `kinds/`, inlined here); every other node goes
//! through [`Exec::general`] (`kinds/mod.rs`). Hooks and halts are in
//! `halt.rs`. A part of the agent, kept in files of its own.

use behaved_runtime::{LeafCall, NodeId, Observer, Status};

use super::Side;
use crate::definition::{Definition, Fast, Flat, Node};
use crate::leaves::{ItemBuffer, Leaves};

/// A child of a parallel that has not run in this activation.
pub(super) const IDLE: u32 = 0;
/// A child of a parallel that returned Running.
pub(super) const RUNNING: u32 = 1;
/// A child of a parallel that completed in this activation.
pub(super) const DONE: u32 = 2;

/// Positions of the lifecycle hooks in `Definition::hooks`.
pub(super) const ON_ENTER: usize = 0;
pub(super) const ON_SUCCESS: usize = 1;
pub(super) const ON_FAILURE: usize = 2;
pub(super) const ON_EXIT: usize = 3;
pub(super) const ON_PRE_TICK: usize = 4;
pub(super) const ON_TICK: usize = 5;
pub(super) const ON_RESET: usize = 6;

/// What a node's tick gives its parent: a status, or a `break`/`continue` on
/// its way to its loop (target in `Exec::jump`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Out {
    Success,
    Failure,
    Running,
    Jump,
}

impl Out {
    #[inline(always)]
    pub(super) fn status(self) -> Status {
        match self {
            Out::Failure => Status::Failure,
            Out::Running => Status::Running,
            // A jump never reaches the root (checked at load time).
            Out::Success | Out::Jump => Status::Success,
        }
    }

    #[inline(always)]
    pub(super) fn done(self) -> bool {
        matches!(self, Out::Success | Out::Failure)
    }
}

impl From<Status> for Out {
    #[inline(always)]
    fn from(s: Status) -> Out {
        match s {
            Status::Success => Out::Success,
            Status::Failure => Out::Failure,
            Status::Running => Out::Running,
        }
    }
}

impl From<bool> for Out {
    #[inline(always)]
    fn from(ok: bool) -> Out {
        if ok { Out::Success } else { Out::Failure }
    }
}

/// How many more levels of sequences, selectors and loops the tick loop
/// inlines before it calls a function for the next one, and whether
/// sequences and selectors of leaves are inlined at the last level.
pub(super) trait Depth {
    type Next: Depth;
    /// Sequences, selectors and loops are inlined at this level (most
    /// levels; the last ones call).
    const INLINE: bool = true;
    /// Sequences and selectors of leaves are inlined at this level (all
    /// but the root function's last).
    const INLINE_LEAF_CHAINS: bool = true;
}
/// Calls composites; inlines sequences and selectors of leaves.
pub(super) struct D0;
/// Inlines one level.
pub(super) struct D1;
/// The root function's levels: two inlined, then calls only (so that the
/// root function stays small).
pub(super) struct Root2;
pub(super) struct Root1;
pub(super) struct Root0;
impl Depth for D0 {
    type Next = D0;
    const INLINE: bool = false;
}
impl Depth for D1 {
    type Next = D0;
}
impl Depth for Root2 {
    type Next = Root1;
}
impl Depth for Root1 {
    type Next = Root0;
}
impl Depth for Root0 {
    type Next = Root0;
    const INLINE: bool = false;
    const INLINE_LEAF_CHAINS: bool = false;
}

/// One tick (or halt) in progress: the shared definition, the agent's state,
/// the context and the observer.
pub(super) struct Exec<'a, C: 'static, O: ?Sized> {
    pub(super) def: &'a Definition<C>,
    pub(super) ints: &'a mut [u32],
    pub(super) leaves: &'a mut [Box<dyn Leaves<C>>],
    pub(super) items: &'a mut [Box<dyn ItemBuffer<C>>],
    pub(super) st: &'a mut Side,
    pub(super) ctx: &'a mut C,
    pub(super) obs: &'a mut O,
}

/// The hot path: a node without hooks whose kind is a leaf, a sequence, a
/// selector (plain or reactive) or an unbounded loop is ticked by code of its
/// own, leaves in place inside their parent's loop; every other node (and any
/// node with hooks) goes through [`Exec::general`].
impl<C: 'static, O: Observer + ?Sized> Exec<'_, C, O> {
    #[inline(always)]
    pub(super) fn node(&self, id: u32) -> Node {
        self.def.nodes[id as usize]
    }

    #[inline(always)]
    pub(super) fn kid(&self, node: &Flat, i: u32) -> u32 {
        self.def.kids[(node.kids + i) as usize]
    }

    /// Ticks node `id` (whose record is `n`); `entering` when it was idle.
    /// The code of a sequence, selector or loop is inlined here `D` levels
    /// deep, below that it is a call: each call of the interpreter runs two
    /// levels of the tree, the root's three.
    #[inline(always)]
    pub(super) fn tick_node<D: Depth>(&mut self, id: u32, n: Node, entering: bool) -> Out {
        match n.fast {
            Fast::Condition => self.condition_in_place(id, n),
            Fast::Action => self.action_in_place(id, n, entering),
            Fast::Wait => self.wait_in_place(id, n, entering),
            Fast::Sequence if D::INLINE => {
                self.chain_inline::<true, false, false, D::Next>(id, n.slot, n.end, entering)
            }
            Fast::Selector if D::INLINE => {
                self.chain_inline::<false, false, false, D::Next>(id, n.slot, n.end, entering)
            }
            Fast::ReactiveSequence if D::INLINE => {
                self.chain_inline::<true, true, false, D::Next>(id, n.slot, n.end, entering)
            }
            Fast::ReactiveSelector if D::INLINE => {
                self.chain_inline::<false, true, false, D::Next>(id, n.slot, n.end, entering)
            }
            Fast::Loop | Fast::UntilFail | Fast::UntilSuccess if D::INLINE => {
                self.unbounded_inline::<D::Next>(id, n.slot, n.fast, entering)
            }
            Fast::Sequence => self.chain::<true, false, false>(id, n.slot, n.end, entering),
            Fast::Selector => self.chain::<false, false, false>(id, n.slot, n.end, entering),
            Fast::ReactiveSequence => self.chain::<true, true, false>(id, n.slot, n.end, entering),
            Fast::ReactiveSelector => self.chain::<false, true, false>(id, n.slot, n.end, entering),
            Fast::Loop | Fast::UntilFail | Fast::UntilSuccess => self.unbounded(id, n.slot, n.fast, entering),
            Fast::LeafSequence if D::INLINE_LEAF_CHAINS => {
                self.chain_inline::<true, false, true, D>(id, n.slot, n.end, entering)
            }
            Fast::LeafSelector if D::INLINE_LEAF_CHAINS => {
                self.chain_inline::<false, false, true, D>(id, n.slot, n.end, entering)
            }
            Fast::LeafReactiveSequence if D::INLINE_LEAF_CHAINS => {
                self.chain_inline::<true, true, true, D>(id, n.slot, n.end, entering)
            }
            Fast::LeafReactiveSelector if D::INLINE_LEAF_CHAINS => {
                self.chain_inline::<false, true, true, D>(id, n.slot, n.end, entering)
            }
            Fast::LeafSequence => self.chain::<true, false, true>(id, n.slot, n.end, entering),
            Fast::LeafSelector => self.chain::<false, false, true>(id, n.slot, n.end, entering),
            Fast::LeafReactiveSequence => self.chain::<true, true, true>(id, n.slot, n.end, entering),
            Fast::LeafReactiveSelector => self.chain::<false, true, true>(id, n.slot, n.end, entering),
            Fast::Other => self.general(id, entering),
        }
    }

    /// The stand-in hook (behaved-testing): an observer's answer for leaf `id`
    /// instead of running it. Always `None` for the production path's
    /// `NoopObserver`, so it compiles away there.
    #[inline(always)]
    pub(super) fn stood_in(&mut self, id: u32, entering: bool) -> Option<Out> {
        self.obs
            .stand_in(NodeId(id), LeafCall::Tick { entering })
            .map(Out::from)
    }

    /// Ticks node `id` from the colder code.
    #[inline(never)]
    pub(super) fn tick(&mut self, id: u32, entering: bool) -> Out {
        let n = self.node(id);
        self.tick_node::<D0>(id, n, entering)
    }

    /// The end of a hot node's tick without hooks: a jump passing through
    /// ends it as if halted; anything else is reported.
    #[inline(always)]
    pub(super) fn finish(&mut self, id: u32, o: Out) -> Out {
        if o == Out::Jump {
            self.pass_jump(id);
        } else {
            self.obs.ticked(NodeId(id), o.status());
        }
        o
    }

    /// Between a `break`/`continue` and its loop: node `id` ends as if halted.
    #[cold]
    #[inline(never)]
    pub(super) fn pass_jump(&mut self, id: u32) {
        let from = self.st.from;
        self.halt_kids(id, from);
        self.hook(id, ON_EXIT);
        self.obs.halted(NodeId(id));
        self.st.from = id;
    }

    /// Ticks leaf `id` (a condition, action or wait without hooks) in place.
    #[inline(always)]
    pub(super) fn leaf(&mut self, id: u32, n: Node, entering: bool) -> Out {
        match n.fast {
            Fast::Condition => self.condition_in_place(id, n),
            Fast::Action => self.action_in_place(id, n, entering),
            _ => self.wait_in_place(id, n, entering),
        }
    }

    /// A condition without hooks ticked in place: entered on every tick.
    #[inline(always)]
    fn condition_in_place(&mut self, id: u32, n: Node) -> Out {
        self.in_place(id, true, |e| Out::from(e.def.conds[n.arg as usize].check(e.ctx)))
    }

    /// An action without hooks ticked in place.
    #[inline(always)]
    fn action_in_place(&mut self, id: u32, n: Node, entering: bool) -> Out {
        self.in_place(id, entering, |e| {
            Out::from(e.leaves[n.slot as usize].tick(n.arg, entering, e.ctx))
        })
    }

    /// A wait without hooks ticked in place.
    #[inline(always)]
    fn wait_in_place(&mut self, id: u32, n: Node, entering: bool) -> Out {
        self.in_place(id, entering, |e| e.wait(n.arg, entering))
    }

    /// Leaf `id` ticked in place, as every kind of leaf is: entered when
    /// `entering`, answered by its stand-in or else by `run`, reported.
    /// Inlined where it is optimised; a call in a debug build, whose frames
    /// would otherwise grow by its locals at every level a tree nests.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline(never))]
    fn in_place(&mut self, id: u32, entering: bool, run: impl FnOnce(&mut Self) -> Out) -> Out {
        if entering {
            self.obs.entered(NodeId(id));
        }
        let o = self.stood_in(id, entering).unwrap_or_else(|| run(self));
        self.obs.ticked(NodeId(id), o.status());
        o
    }
}

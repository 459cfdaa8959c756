//! One running instance of a loaded tree. An agent owns only its running
//! state (resume points, counters, timestamps, its action leaves, its RNG),
//! allocated once when it is created; ticking allocates nothing.
//!
//! The semantics are those of `SEMANTICS.md` at the repository root, and for the nodes that
//! `behave!` compiles they follow the generated code event for event: a node
//! reports `entered` when ticked while idle, `ticked` after its children, and
//! `halted` after its running descendants (post-order).

use std::sync::Arc;

use behaved_runtime::{Clock, LeafCall, NodeId, NodeKind, NoopObserver, Observer, Rng, Run, Status, Tree, Wake};

mod wake;

use crate::definition::{Definition, Fast, Flat, NO_HOOK, Node, NodeRow, UNKNOWN_KIND};
use crate::leaves::{ItemBuffer, Leaves};

/// A child of a parallel that has not run in this activation.
const IDLE: u32 = 0;
/// A child of a parallel that returned Running.
const RUNNING: u32 = 1;
/// A child of a parallel that completed in this activation.
const DONE: u32 = 2;

/// Positions of the lifecycle hooks in `Definition::hooks`.
const ON_ENTER: usize = 0;
const ON_SUCCESS: usize = 1;
const ON_FAILURE: usize = 2;
const ON_EXIT: usize = 3;
const ON_PRE_TICK: usize = 4;
const ON_TICK: usize = 5;
const ON_RESET: usize = 6;

/// A tree loaded from JSON, running for one agent: the interpreted twin of a
/// tree struct made by `behave!`, with the same methods.
///
/// # Saving and loading
///
/// With the `serde` feature (on by default) an agent implements `Serialize`,
/// and [`Agent::load`] (or [`AgentSeed`](crate::AgentSeed), inside larger
/// save files) brings it back over the same [`Definition`]. The state is a
/// struct of seven fields (eight when the tree has `forEach` nodes), in this order:
///
/// | field | |
/// |---|---|
/// | `fingerprint` | [`Definition::fingerprint`] of the tree it runs |
/// | `running` | whether the root is running |
/// | `rng` | the state of its random number generator |
/// | `ints` | resume points (the running child's node id), counters and parallel children's states, in node order |
/// | `times` | the timestamps of its timing nodes, in seconds |
/// | `leaves` | for each action name registered with [`Registry::persistent_action`](crate::Registry::persistent_action), the list of its leaves in node order, as the leaf type serialises itself |
/// | `items` | only in trees with `forEach` nodes: for each, in node order, the items it holds (empty when idle), as [`ItemList::Item`](crate::ItemList::Item) serialises itself |
/// | `savedAt` | the time of its last tick, on the game's clock (states saved before it existed load without it) |
///
/// Other leaves are not saved: a loaded agent has them as their constructor
/// made them (the DSL's leaves without `#[persist]` behave the same way).
/// Loading checks the fingerprint first, then that the state is one the
/// tree can be in (every running node's parent says so, counters within
/// their limits, every persistent leaf present, every timestamp finite and
/// not after `savedAt`): anything else is an error that names the node,
/// never a panic or a silent misreading. Saved times are the game's clock's:
/// a game whose clock does not go on from the save's time loads with
/// [`AgentSeed::resume_at`](crate::AgentSeed::resume_at) or calls
/// [`Agent::shift_times`] (SEMANTICS.md, "Saved state and the clock").
pub struct Agent<C: 'static> {
    pub(crate) def: Arc<Definition<C>>,
    pub(crate) st: State<C>,
}

/// An agent's running state, and the scratch of the tick in progress.
pub(crate) struct State<C: 'static> {
    /// Resume points, counters and parallel children's states.
    pub(crate) ints: Box<[u32]>,
    /// The action leaves, one column per registered action name.
    pub(crate) leaves: Box<[Box<dyn Leaves<C>>]>,
    /// The items of each `forEach` node (by its `leaf` index), allocated here for its `max`.
    pub(crate) items: Box<[Box<dyn ItemBuffer<C>>]>,
    pub(crate) side: Side,
}

/// The rest of an agent's state (what the tick loop reads less often), and
/// the scratch of the tick in progress.
pub(crate) struct Side {
    /// Timestamps of timing nodes.
    pub(crate) times: Box<[f64]>,
    pub(crate) rng: Rng,
    /// The root is running.
    pub(crate) running: bool,
    /// The time of the tick in progress (after it, of the last tick).
    pub(crate) now: f64,
    /// The loop a pending `break`/`continue` is for.
    jump: u32,
    /// Whether the pending jump is a `break`.
    brk: bool,
    /// The node that last returned a jump to its parent.
    from: u32,
}

impl<C: 'static> State<C> {
    /// The state of a new agent of `def`: everything idle, leaves as built at load time.
    pub(crate) fn fresh(def: &Definition<C>, rng: Rng) -> State<C> {
        State {
            ints: vec![0; def.ints].into_boxed_slice(),
            leaves: def.columns.iter().map(|(_, c)| c.spawn()).collect(),
            items: def
                .lists
                .iter()
                .map(|(list, max)| Arc::clone(list).buffer(*max as usize))
                .collect(),
            side: Side {
                times: def.times.clone().into_boxed_slice(),
                rng,
                running: false,
                now: 0.0,
                jump: 0,
                brk: false,
                from: 0,
            },
        }
    }
}

impl<C: 'static> Agent<C> {
    /// A new, idle agent running `def`, whose random nodes use the default seed.
    pub fn new(def: Arc<Definition<C>>) -> Agent<C> {
        Agent::with_seed(def, Rng::DEFAULT_SEED)
    }

    /// A new, idle agent whose random nodes draw from `seed`: the same seed
    /// and the same inputs give the same run.
    pub fn with_seed(def: Arc<Definition<C>>, seed: u64) -> Agent<C> {
        let st = State::fresh(&def, Rng::new(seed));
        Agent { def, st }
    }

    /// The definition this agent runs.
    pub fn definition(&self) -> &Arc<Definition<C>> {
        &self.def
    }

    /// The node table: ids in depth-first pre-order, subtrees inlined.
    pub fn nodes(&self) -> &[NodeRow] {
        self.def.nodes()
    }

    /// `true` while the root is `Running` (the last tick returned `Running`).
    pub fn is_running(&self) -> bool {
        self.st.side.running
    }

    /// When the agent next needs a tick, asked after a tick at time `now`
    /// (the rule is [`Wake`]'s): `NextTick` when it is not running.
    pub fn next_wake(&self, now: f64) -> Wake {
        if self.st.side.running {
            wake::wake(&self.def, &self.st, 0, now)
        } else {
            Wake::NextTick
        }
    }

    /// Ticks the tree once, at the time the context's [`Clock`] tells.
    pub fn tick(&mut self, ctx: &mut C) -> Status
    where
        C: Clock,
    {
        let now = ctx.now();
        self.tick_at(ctx, now)
    }

    /// Ticks the tree once at time `now`.
    #[inline]
    pub fn tick_at(&mut self, ctx: &mut C, now: f64) -> Status {
        self.tick_observed(ctx, now, &mut NoopObserver)
    }

    /// Ticks the tree once at time `now`, reporting every event to `observer`.
    pub fn tick_observed<O: Observer + ?Sized>(&mut self, ctx: &mut C, now: f64, observer: &mut O) -> Status {
        observer.tick_started(now);
        let entering = !self.st.side.running;
        let mut x = self.exec(ctx, now, observer);
        let root = x.node(0);
        let status = x.tick_node::<Root2>(0, root, entering).status();
        self.st.side.running = status == Status::Running;
        observer.tick_finished(status);
        status
    }

    /// Halts whatever is running (each running action gets `halt` once, in
    /// post-order); the next tick starts from the beginning. Lifetime memory
    /// (`limit`, `runOnce`, `cooldown`) is kept. Then the reset-only
    /// callbacks run: each node's `onReset` hook and each action's
    /// `Action::reset`, in node-table order, whatever the node's state.
    pub fn reset(&mut self, ctx: &mut C) {
        self.reset_observed(ctx, &mut NoopObserver)
    }

    /// [`reset`](Agent::reset), reporting the halts to `observer`.
    pub fn reset_observed<O: Observer + ?Sized>(&mut self, ctx: &mut C, observer: &mut O) {
        if self.st.side.running {
            self.st.side.running = false;
            self.exec(ctx, 0.0, observer).halt(0);
        }
        self.exec(ctx, 0.0, observer).reset_callbacks();
    }

    /// Ticks at time `now` until the root completes or `max_ticks` ticks have
    /// run (ADR-017's on-interaction mode). Hitting the limit halts nothing.
    pub fn run_at(&mut self, ctx: &mut C, now: f64, max_ticks: u32) -> Run {
        Tree::run_at(self, ctx, now, max_ticks)
    }

    /// As [`run_at`](Agent::run_at), reading the time from the context before each tick.
    pub fn run(&mut self, ctx: &mut C, max_ticks: u32) -> Run
    where
        C: Clock,
    {
        for _ in 0..max_ticks {
            let status = self.tick(ctx);
            if status.is_done() {
                return Run::Completed(status);
            }
        }
        Run::TickLimit
    }

    /// Hot reload: halts what is running (halt hooks fire), then runs `def`
    /// from its beginning on the next tick. The agent keeps its RNG; its
    /// running state, leaves and lifetime memory are those of a new instance.
    pub fn replace_definition(&mut self, ctx: &mut C, def: Arc<Definition<C>>) {
        self.replace_definition_observed(ctx, def, &mut NoopObserver)
    }

    /// [`replace_definition`](Agent::replace_definition), reporting the halts
    /// (with the old tree's node ids) to `observer`.
    pub fn replace_definition_observed<O: Observer + ?Sized>(
        &mut self,
        ctx: &mut C,
        def: Arc<Definition<C>>,
        observer: &mut O,
    ) {
        self.reset_observed(ctx, observer);
        self.st = State::fresh(&def, self.st.side.rng);
        self.def = def;
    }

    /// Bytes of running state this agent owns besides its action leaves' own
    /// data (see [`Definition::state_bytes`]).
    pub fn state_bytes(&self) -> usize {
        self.def.state_bytes()
    }

    /// Checks that the running state is one the tree can be in (every
    /// running node's parent says so, counters within their limits): what
    /// loading a saved agent checks. For tests of the interpreter itself.
    #[doc(hidden)]
    pub fn check_state(&self) -> Result<(), String> {
        crate::check::check_state(&self.def, &self.st.ints, self.st.side.running)
    }

    /// Bytes this agent owns in all: the struct itself, its running state,
    /// its action leaves (one boxed array per action kind) and the room its
    /// `forEach` nodes reserved for their items. The leaves' and items' own
    /// heap data, if any, is not counted.
    pub fn bytes(&self) -> usize {
        let leaves: usize = self.def.columns.iter().map(|(_, c)| c.leaf_bytes()).sum();
        let items: usize = self
            .st
            .items
            .iter()
            .map(|b| size_of::<Box<dyn ItemBuffer<C>>>() + b.bytes())
            .sum();
        size_of::<Self>()
            + self.st.ints.len() * 4
            + self.st.side.times.len() * 8
            + self.st.leaves.len() * size_of::<Box<dyn Leaves<C>>>()
            + leaves
            + items
    }

    fn exec<'a, O: Observer + ?Sized>(&'a mut self, ctx: &'a mut C, now: f64, obs: &'a mut O) -> Exec<'a, C, O> {
        self.st.side.now = now;
        Exec {
            def: &self.def,
            ints: &mut self.st.ints,
            leaves: &mut self.st.leaves,
            items: &mut self.st.items,
            st: &mut self.st.side,
            ctx,
            obs,
        }
    }
}

/// The interpreted form of [`Tree`]: the same methods as the inherent ones,
/// so generic code (schedulers, the test kit) takes agents and compiled trees alike.
impl<C: 'static> Tree<C> for Agent<C> {
    type Row = NodeRow;

    #[inline]
    fn nodes(&self) -> &[NodeRow] {
        Agent::nodes(self)
    }
    #[inline]
    fn tick_at(&mut self, ctx: &mut C, now: f64) -> Status {
        Agent::tick_at(self, ctx, now)
    }
    #[inline]
    fn tick_observed<O: Observer + ?Sized>(&mut self, ctx: &mut C, now: f64, observer: &mut O) -> Status {
        Agent::tick_observed(self, ctx, now, observer)
    }
    #[inline]
    fn reset_observed<O: Observer + ?Sized>(&mut self, ctx: &mut C, observer: &mut O) {
        Agent::reset_observed(self, ctx, observer)
    }
    #[inline]
    fn is_running(&self) -> bool {
        Agent::is_running(self)
    }
    #[inline]
    fn next_wake(&self, now: f64) -> Wake {
        Agent::next_wake(self, now)
    }
}

impl<C: 'static> core::fmt::Debug for Agent<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Agent")
            .field("nodes", &self.def.len())
            .field("running", &self.st.side.running)
            .finish_non_exhaustive()
    }
}

/// What a node's tick gives its parent: a status, or a `break`/`continue` on
/// its way to its loop (target in `Exec::jump`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Out {
    Success,
    Failure,
    Running,
    Jump,
}

impl Out {
    #[inline(always)]
    fn status(self) -> Status {
        match self {
            Out::Failure => Status::Failure,
            Out::Running => Status::Running,
            // A jump never reaches the root (checked at load time).
            Out::Success | Out::Jump => Status::Success,
        }
    }

    #[inline(always)]
    fn done(self) -> bool {
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
trait Depth {
    type Next: Depth;
    const INLINE: bool;
    const INLINE_LEAF_CHAINS: bool;
}
/// Calls composites; inlines sequences and selectors of leaves.
struct D0;
/// Inlines one level.
struct D1;
/// The root function's levels: two inlined, then calls only (so that the
/// root function stays small).
struct Root2;
struct Root1;
struct Root0;
impl Depth for D0 {
    type Next = D0;
    const INLINE: bool = false;
    const INLINE_LEAF_CHAINS: bool = true;
}
impl Depth for D1 {
    type Next = D0;
    const INLINE: bool = true;
    const INLINE_LEAF_CHAINS: bool = true;
}
impl Depth for Root2 {
    type Next = Root1;
    const INLINE: bool = true;
    const INLINE_LEAF_CHAINS: bool = true;
}
impl Depth for Root1 {
    type Next = Root0;
    const INLINE: bool = true;
    const INLINE_LEAF_CHAINS: bool = true;
}
impl Depth for Root0 {
    type Next = Root0;
    const INLINE: bool = false;
    const INLINE_LEAF_CHAINS: bool = false;
}

/// One tick (or halt) in progress: the shared definition, the agent's state,
/// the context and the observer.
struct Exec<'a, C: 'static, O: ?Sized> {
    def: &'a Definition<C>,
    ints: &'a mut [u32],
    leaves: &'a mut [Box<dyn Leaves<C>>],
    items: &'a mut [Box<dyn ItemBuffer<C>>],
    st: &'a mut Side,
    ctx: &'a mut C,
    obs: &'a mut O,
}

/// The hot path: a node without hooks whose kind is a leaf, a sequence, a
/// selector (plain or reactive) or an unbounded loop is ticked by code of its
/// own, leaves in place inside their parent's loop; every other node (and any
/// node with hooks) goes through [`Exec::general`].
impl<C: 'static, O: Observer + ?Sized> Exec<'_, C, O> {
    #[inline(always)]
    fn node(&self, id: u32) -> Node {
        self.def.nodes[id as usize]
    }

    #[inline(always)]
    fn kid(&self, node: &Flat, i: u32) -> u32 {
        self.def.kids[(node.kids + i) as usize]
    }

    /// Ticks node `id` (whose record is `n`); `entering` when it was idle.
    /// The code of a sequence, selector or loop is inlined here `D` levels
    /// deep, below that it is a call: each call of the interpreter runs two
    /// levels of the tree, the root's three.
    #[inline(always)]
    fn tick_node<D: Depth>(&mut self, id: u32, n: Node, entering: bool) -> Out {
        match n.fast {
            Fast::Condition => {
                self.obs.entered(NodeId(id));
                let o = self
                    .stood_in(id, true)
                    .unwrap_or_else(|| Out::from(self.def.conds[n.arg as usize].check(self.ctx)));
                self.obs.ticked(NodeId(id), o.status());
                o
            }
            Fast::Action => {
                if entering {
                    self.obs.entered(NodeId(id));
                }
                let o = self
                    .stood_in(id, entering)
                    .unwrap_or_else(|| Out::from(self.leaves[n.slot as usize].tick(n.arg, entering, self.ctx)));
                self.obs.ticked(NodeId(id), o.status());
                o
            }
            Fast::Wait => {
                if entering {
                    self.obs.entered(NodeId(id));
                }
                let o = self
                    .stood_in(id, entering)
                    .unwrap_or_else(|| self.wait(n.arg, entering));
                self.obs.ticked(NodeId(id), o.status());
                o
            }
            Fast::Sequence if D::INLINE => self.chain_inline::<true, D::Next>(id, n.slot, n.end, entering),
            Fast::Selector if D::INLINE => self.chain_inline::<false, D::Next>(id, n.slot, n.end, entering),
            Fast::ReactiveSequence if D::INLINE => self.reactive_inline::<true, D::Next>(id, n.slot, n.end, entering),
            Fast::ReactiveSelector if D::INLINE => self.reactive_inline::<false, D::Next>(id, n.slot, n.end, entering),
            Fast::Loop | Fast::UntilFail | Fast::UntilSuccess if D::INLINE => {
                self.unbounded_inline::<D::Next>(id, n.slot, n.fast, entering)
            }
            Fast::Sequence => self.chain::<true>(id, n.slot, n.end, entering),
            Fast::Selector => self.chain::<false>(id, n.slot, n.end, entering),
            Fast::ReactiveSequence => self.reactive::<true>(id, n.slot, n.end, entering),
            Fast::ReactiveSelector => self.reactive::<false>(id, n.slot, n.end, entering),
            Fast::Loop | Fast::UntilFail | Fast::UntilSuccess => self.unbounded(id, n.slot, n.fast, entering),
            Fast::LeafSequence if D::INLINE_LEAF_CHAINS => self.leaf_chain::<true>(id, n.slot, n.end, entering),
            Fast::LeafSelector if D::INLINE_LEAF_CHAINS => self.leaf_chain::<false>(id, n.slot, n.end, entering),
            Fast::LeafReactiveSequence if D::INLINE_LEAF_CHAINS => {
                self.leaf_reactive::<true>(id, n.slot, n.end, entering)
            }
            Fast::LeafReactiveSelector if D::INLINE_LEAF_CHAINS => {
                self.leaf_reactive::<false>(id, n.slot, n.end, entering)
            }
            Fast::LeafSequence => self.leaf_chain_call::<true>(id, n.slot, n.end, entering),
            Fast::LeafSelector => self.leaf_chain_call::<false>(id, n.slot, n.end, entering),
            Fast::LeafReactiveSequence => self.leaf_reactive_call::<true>(id, n.slot, n.end, entering),
            Fast::LeafReactiveSelector => self.leaf_reactive_call::<false>(id, n.slot, n.end, entering),
            Fast::Other => self.general(id, entering),
        }
    }

    /// The stand-in hook (behaved-testing): an observer's answer for leaf `id`
    /// instead of running it. Always `None` for the production path's
    /// `NoopObserver`, so it compiles away there.
    #[inline(always)]
    fn stood_in(&mut self, id: u32, entering: bool) -> Option<Out> {
        self.obs
            .stand_in(NodeId(id), LeafCall::Tick { entering })
            .map(Out::from)
    }

    /// Ticks node `id` from the colder code.
    #[inline(never)]
    fn tick(&mut self, id: u32, entering: bool) -> Out {
        let n = self.node(id);
        self.tick_node::<D0>(id, n, entering)
    }

    /// The end of a hot node's tick without hooks: a jump passing through
    /// ends it as if halted; anything else is reported.
    #[inline(always)]
    fn finish(&mut self, id: u32, o: Out) -> Out {
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
    fn pass_jump(&mut self, id: u32) {
        let from = self.st.from;
        self.halt_kids(id, from);
        self.hook(id, ON_EXIT);
        self.obs.halted(NodeId(id));
        self.st.from = id;
    }

    /// [`Exec::chain_inline`] as a call.
    #[inline(never)]
    fn chain<const SEQ: bool>(&mut self, id: u32, slot: u32, end: u32, entering: bool) -> Out {
        self.chain_inline::<SEQ, D1>(id, slot, end, entering)
    }

    /// `sequence` (`SEQ`) or `selector` without hooks, inlined in its parent.
    #[inline(always)]
    fn chain_inline<const SEQ: bool, D: Depth>(&mut self, id: u32, slot: u32, end: u32, entering: bool) -> Out {
        if entering {
            self.obs.entered(NodeId(id));
        }
        let o = self.chain_body::<SEQ, D>(id, slot, end);
        self.finish(id, o)
    }

    /// A sequence goes on while its children succeed, a selector while they
    /// fail; both resume at the running child, whose id is the state word.
    #[inline(always)]
    fn chain_body<const SEQ: bool, D: Depth>(&mut self, id: u32, slot: u32, end: u32) -> Out {
        let cont = if SEQ { Out::Success } else { Out::Failure };
        let s = slot as usize;
        let r = self.ints[s];
        let mut c = if r == 0 { id + 1 } else { r };
        loop {
            let cn = self.node(c);
            let o = self.tick_node::<D>(c, cn, r != c);
            if o != cont {
                self.ints[s] = if o == Out::Running { c } else { 0 };
                return o;
            }
            c = cn.end;
            if c >= end {
                self.ints[s] = 0;
                return cont;
            }
        }
    }

    /// [`Exec::reactive_inline`] as a call.
    #[inline(never)]
    fn reactive<const SEQ: bool>(&mut self, id: u32, slot: u32, end: u32, entering: bool) -> Out {
        self.reactive_inline::<SEQ, D1>(id, slot, end, entering)
    }

    /// `reactiveSequence` (`SEQ`) or `reactiveSelector` without hooks, inlined in its parent.
    #[inline(always)]
    fn reactive_inline<const SEQ: bool, D: Depth>(&mut self, id: u32, slot: u32, end: u32, entering: bool) -> Out {
        if entering {
            self.obs.entered(NodeId(id));
        }
        let o = self.reactive_body::<SEQ, D>(id, slot, end);
        self.finish(id, o)
    }

    /// The reactive forms: from the first child every tick; a later running
    /// child is halted when an earlier one stops the pass.
    #[inline(always)]
    fn reactive_body<const SEQ: bool, D: Depth>(&mut self, id: u32, slot: u32, end: u32) -> Out {
        let cont = if SEQ { Out::Success } else { Out::Failure };
        let s = slot as usize;
        let r = self.ints[s];
        let mut c = id + 1;
        loop {
            let cn = self.node(c);
            let o = self.tick_node::<D>(c, cn, r != c);
            if o != cont {
                if o == Out::Jump {
                    // A later running child is left for the jump's clean-up to halt.
                    if r <= c {
                        self.ints[s] = 0;
                    }
                    return o;
                }
                if r > c {
                    self.halt(r);
                }
                self.ints[s] = if o == Out::Running { c } else { 0 };
                return o;
            }
            c = cn.end;
            if c >= end {
                self.ints[s] = 0;
                return cont;
            }
        }
    }

    /// [`Exec::unbounded_inline`] as a call.
    #[inline(never)]
    fn unbounded(&mut self, id: u32, slot: u32, kind: Fast, entering: bool) -> Out {
        self.unbounded_inline::<D1>(id, slot, kind, entering)
    }

    /// Ticks leaf `id` (a condition, action or wait without hooks) in place.
    #[inline(always)]
    fn leaf(&mut self, id: u32, n: Node, entering: bool) -> Out {
        let o = match n.fast {
            Fast::Condition => {
                self.obs.entered(NodeId(id));
                self.stood_in(id, true)
                    .unwrap_or_else(|| Out::from(self.def.conds[n.arg as usize].check(self.ctx)))
            }
            Fast::Action => {
                if entering {
                    self.obs.entered(NodeId(id));
                }
                self.stood_in(id, entering)
                    .unwrap_or_else(|| Out::from(self.leaves[n.slot as usize].tick(n.arg, entering, self.ctx)))
            }
            _ => {
                if entering {
                    self.obs.entered(NodeId(id));
                }
                self.stood_in(id, entering)
                    .unwrap_or_else(|| self.wait(n.arg, entering))
            }
        };
        self.obs.ticked(NodeId(id), o.status());
        o
    }

    /// [`Exec::leaf_chain`] as a call.
    #[inline(never)]
    fn leaf_chain_call<const SEQ: bool>(&mut self, id: u32, slot: u32, end: u32, entering: bool) -> Out {
        self.leaf_chain::<SEQ>(id, slot, end, entering)
    }

    /// [`Exec::leaf_reactive`] as a call.
    #[inline(never)]
    fn leaf_reactive_call<const SEQ: bool>(&mut self, id: u32, slot: u32, end: u32, entering: bool) -> Out {
        self.leaf_reactive::<SEQ>(id, slot, end, entering)
    }

    /// A sequence or selector (`SEQ`) whose children are all leaves
    /// ([`Fast::LeafSequence`]): one loop over the consecutive children.
    #[inline(always)]
    fn leaf_chain<const SEQ: bool>(&mut self, id: u32, slot: u32, end: u32, entering: bool) -> Out {
        if entering {
            self.obs.entered(NodeId(id));
        }
        let cont = if SEQ { Out::Success } else { Out::Failure };
        let s = slot as usize;
        let r = self.ints[s];
        let mut c = if r == 0 { id + 1 } else { r };
        let def = self.def;
        // A counter beside the slice: the `zip` clippy suggests measured 10%
        // slower on T2 (a loop of two children, three times a tick).
        #[allow(clippy::explicit_counter_loop)]
        for &n in &def.nodes[c as usize..end as usize] {
            let o = self.leaf(c, n, r != c);
            if o != cont {
                self.ints[s] = if o == Out::Running { c } else { 0 };
                self.obs.ticked(NodeId(id), o.status());
                return o;
            }
            c += 1;
        }
        self.ints[s] = 0;
        self.obs.ticked(NodeId(id), cont.status());
        cont
    }

    /// A reactive sequence or selector (`SEQ`) whose children are all leaves.
    #[inline(always)]
    fn leaf_reactive<const SEQ: bool>(&mut self, id: u32, slot: u32, end: u32, entering: bool) -> Out {
        if entering {
            self.obs.entered(NodeId(id));
        }
        let cont = if SEQ { Out::Success } else { Out::Failure };
        let s = slot as usize;
        let r = self.ints[s];
        let mut c = id + 1;
        let def = self.def;
        // As in `leaf_chain`.
        #[allow(clippy::explicit_counter_loop)]
        for &n in &def.nodes[c as usize..end as usize] {
            let o = self.leaf(c, n, r != c);
            if o != cont {
                if r > c {
                    self.halt(r);
                }
                self.ints[s] = if o == Out::Running { c } else { 0 };
                self.obs.ticked(NodeId(id), o.status());
                return o;
            }
            c += 1;
        }
        self.ints[s] = 0;
        self.obs.ticked(NodeId(id), cont.status());
        cont
    }

    /// `loop`, `untilFail`, `untilSuccess` without hooks, inlined in its parent.
    #[inline(always)]
    fn unbounded_inline<D: Depth>(&mut self, id: u32, slot: u32, kind: Fast, entering: bool) -> Out {
        if entering {
            self.obs.entered(NodeId(id));
        }
        let o = self.unbounded_body::<D>(id, slot, kind);
        self.finish(id, o)
    }

    /// `loop`, `untilFail`, `untilSuccess`: at most one iteration starts per
    /// tick. The state word is 1 while the body is running.
    #[inline(always)]
    fn unbounded_body<D: Depth>(&mut self, id: u32, slot: u32, kind: Fast) -> Out {
        let s = slot as usize;
        let mut started_now = self.ints[s] == 0;
        let body = id + 1;
        let bn = self.node(body);
        loop {
            let mut o = self.tick_node::<D>(body, bn, started_now);
            match self.own_jump(id, o) {
                Some(true) => {
                    self.ints[s] = 0;
                    return Out::Success;
                }
                Some(false) => o = Out::Success,
                None => {}
            }
            match (kind, o) {
                (_, Out::Running) => {
                    self.ints[s] = 1;
                    return Out::Running;
                }
                (_, Out::Jump) => return Out::Jump,
                (Fast::UntilFail, Out::Failure) | (Fast::UntilSuccess, Out::Success) => {
                    self.ints[s] = 0;
                    return Out::Success;
                }
                _ => {
                    self.ints[s] = 0;
                    if started_now {
                        return Out::Running;
                    }
                    started_now = true;
                }
            }
        }
    }

    /// `wait(d)`: Running on entry, then Success on the first tick at which d has passed.
    #[inline(always)]
    fn wait(&mut self, t: u32, entering: bool) -> Out {
        let t = t as usize;
        if entering {
            self.st.times[t] = self.st.now;
            Out::Running
        } else if self.st.now - self.st.times[t] >= self.def.secs[t] {
            Out::Success
        } else {
            Out::Running
        }
    }

    /// Any node, hooks included: the kinds without code of their own, and
    /// every node with hooks.
    #[inline(never)]
    fn general(&mut self, id: u32, entering: bool) -> Out {
        let n = self.node(id);
        let def = self.def;
        let node = &def.cold[id as usize];
        if entering {
            self.obs.entered(NodeId(id));
            self.hook(id, ON_ENTER);
        }
        // `n` is this node's record: test its hook flag without indexing again.
        if n.hooked {
            self.run_hook(id, ON_PRE_TICK);
        }
        let out = match node.op {
            NodeKind::Sequence => self.chain_body::<true, D0>(id, n.slot, n.end),
            NodeKind::Selector => self.chain_body::<false, D0>(id, n.slot, n.end),
            NodeKind::ReactiveSequence => self.reactive_body::<true, D0>(id, n.slot, n.end),
            NodeKind::ReactiveSelector => self.reactive_body::<false, D0>(id, n.slot, n.end),
            NodeKind::SequenceAlways => self.sequence_always(id, node, n.end),
            NodeKind::Parallel => self.parallel(id, node),
            NodeKind::ParallelMain => self.parallel_main(id, node),
            NodeKind::Random | NodeKind::Weighted => self.random(node, entering),
            NodeKind::Shuffle => self.shuffle(node, entering),
            NodeKind::If | NodeKind::Match => self.choose(node, entering),
            NodeKind::ReactiveIf | NodeKind::ReactiveMatch => self.reactive_choose(node),
            NodeKind::Loop => self.unbounded_body::<D0>(id, node.slot, Fast::Loop),
            NodeKind::UntilFail => self.unbounded_body::<D0>(id, node.slot, Fast::UntilFail),
            NodeKind::UntilSuccess => self.unbounded_body::<D0>(id, node.slot, Fast::UntilSuccess),
            NodeKind::Repeat | NodeKind::Retry => self.bounded(id, node, entering),
            NodeKind::ForEach => self.for_each(id, node, entering),
            NodeKind::While => self.while_loop(id, node),
            NodeKind::Break | NodeKind::Continue => {
                self.st.jump = node.leaf;
                self.st.brk = node.op == NodeKind::Break;
                Out::Jump
            }
            NodeKind::Invert => match self.tick(id + 1, entering) {
                Out::Success => Out::Failure,
                Out::Failure => Out::Success,
                o => o,
            },
            NodeKind::ForceSuccess => match self.tick(id + 1, entering) {
                Out::Failure => Out::Success,
                o => o,
            },
            NodeKind::ForceFailure => match self.tick(id + 1, entering) {
                Out::Success => Out::Failure,
                o => o,
            },
            NodeKind::Timeout => self.timeout(id, node, entering),
            NodeKind::Delay => self.delay(id, node, entering),
            NodeKind::Cooldown => self.cooldown(id, node, entering),
            NodeKind::Limit => {
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
            NodeKind::RunOnce => {
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
            NodeKind::AbortIf => {
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
            NodeKind::Latch => {
                // The condition is checked only while the child is idle.
                if entering && self.tick(id + 1, true) != Out::Success {
                    Out::Failure
                } else {
                    self.tick(self.kid(node, 1), entering)
                }
            }
            NodeKind::Scope | NodeKind::Subtree => self.tick(id + 1, entering),
            NodeKind::Success => Out::Success,
            NodeKind::Failure => Out::Failure,
            NodeKind::Running => Out::Running,
            NodeKind::Wait => self
                .stood_in(id, entering)
                .unwrap_or_else(|| self.wait(n.arg, entering)),
            NodeKind::Condition => self
                .stood_in(id, entering)
                .unwrap_or_else(|| Out::from(self.def.conds[n.arg as usize].check(self.ctx))),
            // A stand-in answers for the condition: only `Success` ends the wait.
            NodeKind::WaitUntil => match self.stood_in(id, entering) {
                Some(Out::Success) => Out::Success,
                Some(_) => Out::Running,
                None if self.def.conds[n.arg as usize].check(self.ctx) => Out::Success,
                None => Out::Running,
            },
            NodeKind::Action => self
                .stood_in(id, entering)
                .unwrap_or_else(|| Out::from(self.leaves[n.slot as usize].tick(n.arg, entering, self.ctx))),
            _ => unreachable!("{UNKNOWN_KIND}"),
        };
        match out {
            Out::Jump if !matches!(node.op, NodeKind::Break | NodeKind::Continue) => self.pass_jump(id),
            o => {
                // A `break`/`continue` itself completes with Success.
                let status = o.status();
                if n.hooked {
                    self.run_hook(id, ON_TICK);
                }
                match status {
                    Status::Success => {
                        self.hook(id, ON_SUCCESS);
                        self.hook(id, ON_EXIT);
                    }
                    Status::Failure => {
                        self.hook(id, ON_FAILURE);
                        self.hook(id, ON_EXIT);
                    }
                    Status::Running => {}
                }
                if o == Out::Jump {
                    self.st.from = id;
                }
                self.obs.ticked(NodeId(id), status);
            }
        }
        out
    }

    /// `sequence_always`: like a sequence, but a child's failure moves on as
    /// its success does. State: the running child's id, then 1 once a child
    /// has failed in this activation.
    fn sequence_always(&mut self, id: u32, node: &Flat, end: u32) -> Out {
        let s = node.slot as usize;
        let r = self.ints[s];
        let mut c = if r == 0 { id + 1 } else { r };
        loop {
            match self.tick(c, r != c) {
                Out::Running => {
                    self.ints[s] = c;
                    return Out::Running;
                }
                Out::Jump => {
                    self.ints[s..s + 2].fill(0);
                    return Out::Jump;
                }
                Out::Failure => self.ints[s + 1] = 1,
                Out::Success => {}
            }
            c = self.node(c).end;
            if c >= end {
                let failed = self.ints[s + 1] != 0;
                self.ints[s..s + 2].fill(0);
                return if failed { Out::Failure } else { Out::Success };
            }
        }
    }

    /// `parallel`: ticks the children not completed in this activation and
    /// decides the moment a threshold is reached.
    fn parallel(&mut self, id: u32, node: &Flat) -> Out {
        let s = node.slot as usize;
        let (mut ok, mut failed) = (self.ints[s], self.ints[s + 1]);
        for i in 0..node.n {
            let c = s + 2 + i as usize;
            let state = self.ints[c];
            if state == DONE {
                continue;
            }
            let o = self.tick(self.kid(node, i), state == IDLE);
            self.ints[c] = match o {
                Out::Running => RUNNING,
                Out::Jump => return Out::Jump,
                _ => DONE,
            };
            let decided = match o {
                Out::Success => {
                    ok += 1;
                    ok >= node.a
                }
                Out::Failure => {
                    failed += 1;
                    failed >= node.b
                }
                _ => false,
            };
            if decided {
                self.halt_kids(id, u32::MAX);
                return o;
            }
        }
        self.ints[s] = ok;
        self.ints[s + 1] = failed;
        Out::Running
    }

    /// `parallelMain`: the first child decides; the others run beside it and
    /// are halted when it completes.
    fn parallel_main(&mut self, id: u32, node: &Flat) -> Out {
        let s = node.slot as usize;
        let main = self.tick(self.kid(node, 0), self.ints[s] == IDLE);
        match main {
            Out::Running => {
                self.ints[s] = RUNNING;
                for i in 1..node.n {
                    let c = s + i as usize;
                    let state = self.ints[c];
                    if state == DONE {
                        continue;
                    }
                    self.ints[c] = match self.tick(self.kid(node, i), state == IDLE) {
                        Out::Running => RUNNING,
                        Out::Jump => return Out::Jump,
                        _ => DONE,
                    };
                }
                Out::Running
            }
            Out::Jump => Out::Jump,
            done => {
                self.ints[s] = IDLE;
                self.halt_kids(id, u32::MAX);
                done
            }
        }
    }

    /// `random` / `weighted`: one child picked on entry, run to completion.
    fn random(&mut self, node: &Flat, entering: bool) -> Out {
        let s = node.slot as usize;
        if entering {
            let pick = if node.op == NodeKind::Random {
                self.st.rng.below(node.n)
            } else {
                let r = self.st.rng.below(node.b);
                let cumulative = &self.def.weights[node.a as usize..(node.a + node.n) as usize];
                cumulative.iter().position(|&w| w > r).unwrap_or(0) as u32
            };
            self.ints[s] = pick + 1;
        }
        let o = self.tick(self.kid(node, self.ints[s] - 1), entering);
        if o != Out::Running {
            self.ints[s] = 0;
        }
        o
    }

    /// `shuffle`: an order drawn on entry (Fisher-Yates from the identity),
    /// then a selector in that order. State: resume point, then the order.
    fn shuffle(&mut self, node: &Flat, entering: bool) -> Out {
        let s = node.slot as usize;
        let n = node.n as usize;
        if entering {
            let order = &mut self.ints[s + 1..s + 1 + n];
            for (i, o) in order.iter_mut().enumerate() {
                *o = i as u32;
            }
            for i in (1..n).rev() {
                let j = self.st.rng.below(i as u32 + 1) as usize;
                order.swap(i, j);
            }
        }
        let r = self.ints[s];
        for p in r.saturating_sub(1)..node.n {
            let child = self.kid(node, self.ints[s + 1 + p as usize]);
            let o = self.tick(child, r != p + 1);
            if o != Out::Failure {
                self.ints[s] = if o == Out::Running { p + 1 } else { 0 };
                return o;
            }
        }
        self.ints[s] = 0;
        Out::Failure
    }

    /// The child (index + 1) an `if` or `match` chooses now; 0 for none.
    fn pick(&mut self, node: &Flat) -> u32 {
        if matches!(node.op, NodeKind::If | NodeKind::ReactiveIf) {
            for k in 0..node.a {
                if self.tick(self.kid(node, 2 * k), true) == Out::Success {
                    return 2 * k + 2;
                }
            }
            if node.b == 1 { node.n } else { 0 }
        } else {
            let def = self.def;
            let value = def.values[node.leaf as usize].get(self.ctx);
            let keys = &def.keys[node.a as usize..(node.a + node.b) as usize];
            match keys.iter().find(|(k, _)| k.matches(value)) {
                Some(&(_, case)) => case + 1,
                None => node.n,
            }
        }
    }

    /// `if` / `match`: the branch is chosen on entry and run to completion.
    fn choose(&mut self, node: &Flat, entering: bool) -> Out {
        let s = node.slot as usize;
        if entering {
            let chosen = self.pick(node);
            if chosen == 0 {
                return Out::Success;
            }
            self.ints[s] = chosen;
        }
        let o = self.tick(self.kid(node, self.ints[s] - 1), entering);
        if o != Out::Running {
            self.ints[s] = 0;
        }
        o
    }

    /// `reactiveIf` / `reactiveMatch`: chosen every tick; a change of branch
    /// halts the running one and enters the new one.
    fn reactive_choose(&mut self, node: &Flat) -> Out {
        let s = node.slot as usize;
        let prev = self.ints[s];
        let chosen = self.pick(node);
        if prev != 0 && prev != chosen {
            self.ints[s] = 0;
            self.halt(self.kid(node, prev - 1));
        }
        if chosen == 0 {
            return Out::Success;
        }
        let o = self.tick(self.kid(node, chosen - 1), prev != chosen);
        self.ints[s] = if o == Out::Running { chosen } else { 0 };
        o
    }

    /// A `break` (`Some(true)`) or `continue` (`Some(false)`) for loop `id`.
    #[inline(always)]
    fn own_jump(&self, id: u32, o: Out) -> Option<bool> {
        (o == Out::Jump && self.st.jump == id).then_some(self.st.brk)
    }

    /// `repeater(n)` / `retry(n)`: bounded, so the next iteration starts in the same tick.
    fn bounded(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
        let s = node.slot as usize;
        let counted = if node.op == NodeKind::Repeat {
            Out::Success
        } else {
            Out::Failure
        };
        let mut e = entering;
        loop {
            let mut o = self.tick(id + 1, e);
            match self.own_jump(id, o) {
                Some(true) => {
                    self.ints[s] = 0;
                    return Out::Success;
                }
                Some(false) => o = Out::Success,
                None => {}
            }
            match o {
                Out::Running | Out::Jump => return o,
                _ if o == counted => {
                    self.ints[s] += 1;
                    if self.ints[s] >= node.a {
                        self.ints[s] = 0;
                        return o;
                    }
                    e = true;
                }
                _ => {
                    self.ints[s] = 0;
                    return o;
                }
            }
        }
    }

    /// `forEach`: reads its items on entry, then ticks its child once per
    /// item (selecting it in the context before each tick); bounded, so the
    /// next iteration starts in the same tick. The state word is 1 + the
    /// current item's position while running.
    fn for_each(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
        let (s, k) = (node.slot as usize, node.leaf as usize);
        if entering {
            self.items[k].fill(self.ctx);
            self.ints[s] = 1;
        }
        let mut e = entering;
        loop {
            let at = self.ints[s] as usize - 1;
            if at >= self.items[k].len() {
                self.ints[s] = 0;
                self.items[k].clear();
                return Out::Success;
            }
            self.items[k].select(at, self.ctx);
            let mut o = self.tick(id + 1, e);
            match self.own_jump(id, o) {
                Some(true) => {
                    self.ints[s] = 0;
                    self.items[k].clear();
                    return Out::Success;
                }
                Some(false) => o = Out::Success,
                None => {}
            }
            match o {
                Out::Running | Out::Jump => return o,
                Out::Success => {
                    self.ints[s] += 1;
                    e = true;
                }
                Out::Failure => {
                    self.ints[s] = 0;
                    self.items[k].clear();
                    return o;
                }
            }
        }
    }

    /// `while`: the condition is checked at the start of each iteration; one
    /// iteration starts per tick at most.
    fn while_loop(&mut self, id: u32, node: &Flat) -> Out {
        let s = node.slot as usize;
        let body = self.kid(node, 1);
        let mut started_now = self.ints[s] == 0;
        loop {
            if started_now && self.tick(id + 1, true) != Out::Success {
                self.ints[s] = 0;
                return Out::Success;
            }
            let mut o = self.tick(body, started_now);
            match self.own_jump(id, o) {
                Some(true) => {
                    self.ints[s] = 0;
                    return Out::Success;
                }
                Some(false) => o = Out::Success,
                None => {}
            }
            match o {
                Out::Running => {
                    self.ints[s] = 1;
                    return Out::Running;
                }
                Out::Failure | Out::Jump => {
                    self.ints[s] = 0;
                    return o;
                }
                _ => {
                    self.ints[s] = 0;
                    if started_now {
                        return Out::Running;
                    }
                    started_now = true;
                }
            }
        }
    }

    /// `timeout(d)`: ticks the child on entry; on a later tick at which d has
    /// passed, halts it and fails without ticking it.
    fn timeout(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
        let t = node.time as usize;
        if entering {
            self.st.times[t] = self.st.now;
        } else if self.st.now - self.st.times[t] >= node.secs {
            self.halt(id + 1);
            return Out::Failure;
        }
        self.tick(id + 1, entering)
    }

    /// `delay(d)`: Running without ticking the child until d has passed since
    /// entry. The state word is 1 once the child has started.
    fn delay(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
        let (s, t) = (node.slot as usize, node.time as usize);
        if entering {
            self.st.times[t] = self.st.now;
            self.ints[s] = 0;
        }
        let child_entering = self.ints[s] == 0;
        if child_entering && self.st.now - self.st.times[t] < node.secs {
            return Out::Running;
        }
        self.ints[s] = 1;
        let o = self.tick(id + 1, child_entering);
        if o != Out::Running {
            self.ints[s] = 0;
        }
        o
    }

    /// `cooldown(d)`: fails without ticking the child until d has passed since
    /// its last completion (lifetime memory; a halt is not a completion).
    fn cooldown(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
        let t = node.time as usize;
        if entering && self.st.now - self.st.times[t] < node.secs {
            return Out::Failure;
        }
        let o = self.tick(id + 1, entering);
        if o.done() {
            self.st.times[t] = self.st.now;
        }
        o
    }

    /// Runs lifecycle hook `which` of node `id`, if it has one.
    #[inline(always)]
    fn hook(&mut self, id: u32, which: usize) {
        if self.def.nodes[id as usize].hooked {
            self.run_hook(id, which);
        }
    }

    #[inline(never)]
    fn run_hook(&mut self, id: u32, which: usize) {
        let hooks = self.def.cold[id as usize].hooks;
        let (col, i) = self.def.hooks[hooks as usize][which];
        if col != NO_HOOK {
            let _ = self.leaves[col as usize].tick(i, false, self.ctx);
        }
    }

    /// `reset`'s callbacks: for each node in node-table order, its `onReset`
    /// hook, then (for an action) its `Action::reset`.
    fn reset_callbacks(&mut self) {
        for id in 0..self.def.cold.len() as u32 {
            self.hook(id, ON_RESET);
            if self.def.cold[id as usize].op == NodeKind::Action {
                let n = self.node(id);
                self.leaves[n.slot as usize].reset(n.arg, self.ctx);
            }
        }
    }

    /// Halts running node `id`: its running descendants first (post-order),
    /// then its own halt hook; its state returns to idle.
    #[inline(never)]
    fn halt(&mut self, id: u32) {
        self.halt_kids(id, u32::MAX);
        let n = self.node(id);
        // A stand-in (behaved-testing) takes the halt of the action it replaced.
        if self.def.cold[id as usize].op == NodeKind::Action && self.obs.stand_in(NodeId(id), LeafCall::Halt).is_none()
        {
            self.leaves[n.slot as usize].halt(n.arg, self.ctx);
        }
        self.hook(id, ON_EXIT);
        self.obs.halted(NodeId(id));
    }

    /// Halts node `id`'s running children (left to right) except `except`, and
    /// returns its activation state to idle (lifetime memory is kept).
    fn halt_kids(&mut self, id: u32, except: u32) {
        let def = self.def;
        let node = &def.cold[id as usize];
        let s = node.slot as usize;
        let child = match node.op {
            // The state word is the running child's id.
            NodeKind::Sequence | NodeKind::Selector | NodeKind::ReactiveSequence | NodeKind::ReactiveSelector => {
                match std::mem::take(&mut self.ints[s]) {
                    0 => None,
                    r => Some(r),
                }
            }
            NodeKind::SequenceAlways => {
                self.ints[s + 1] = 0;
                match std::mem::take(&mut self.ints[s]) {
                    0 => None,
                    r => Some(r),
                }
            }
            NodeKind::Random
            | NodeKind::Weighted
            | NodeKind::If
            | NodeKind::ReactiveIf
            | NodeKind::Match
            | NodeKind::ReactiveMatch => match std::mem::take(&mut self.ints[s]) {
                0 => None,
                r => Some(self.kid(node, r - 1)),
            },
            NodeKind::Shuffle => match std::mem::take(&mut self.ints[s]) {
                0 => None,
                r => Some(self.kid(node, self.ints[s + r as usize])),
            },
            NodeKind::Parallel | NodeKind::ParallelMain => {
                let first = if node.op == NodeKind::Parallel { s + 2 } else { s };
                self.ints[s..first].fill(0);
                for i in 0..node.n {
                    let kid = self.kid(node, i);
                    if std::mem::take(&mut self.ints[first + i as usize]) == RUNNING && kid != except {
                        self.halt(kid);
                    }
                }
                None
            }
            NodeKind::Loop | NodeKind::UntilFail | NodeKind::UntilSuccess | NodeKind::While | NodeKind::Delay => {
                match std::mem::take(&mut self.ints[s]) {
                    0 => None,
                    _ => Some(self.kid(node, node.n - 1)),
                }
            }
            NodeKind::Repeat | NodeKind::Retry => {
                self.ints[s] = 0;
                Some(self.kid(node, 0))
            }
            NodeKind::ForEach => {
                self.ints[s] = 0;
                self.items[node.leaf as usize].clear();
                Some(self.kid(node, 0))
            }
            NodeKind::AbortIf | NodeKind::Latch => Some(self.kid(node, 1)),
            NodeKind::Invert
            | NodeKind::ForceSuccess
            | NodeKind::ForceFailure
            | NodeKind::Timeout
            | NodeKind::Cooldown
            | NodeKind::Limit
            | NodeKind::RunOnce
            | NodeKind::Scope
            | NodeKind::Subtree => Some(self.kid(node, 0)),
            NodeKind::Break
            | NodeKind::Continue
            | NodeKind::Success
            | NodeKind::Failure
            | NodeKind::Running
            | NodeKind::Wait
            | NodeKind::WaitUntil
            | NodeKind::Condition
            | NodeKind::Action => None,
            _ => unreachable!("{UNKNOWN_KIND}"),
        };
        if let Some(kid) = child
            && kid != except
        {
            self.halt(kid);
        }
    }
}

//! One running instance of a loaded tree. An agent owns only its running
//! state (resume points, counters, timestamps, its action leaves, its RNG),
//! allocated once when it is created; ticking allocates nothing.
//!
//! The semantics are those of `SEMANTICS.md` at the repository root, and for the nodes that
//! `behave!` compiles they follow the generated code event for event: a node
//! reports `entered` when ticked while idle, `ticked` after its children, and
//! `halted` after its running descendants (post-order).
//!
//! This module is the agent's API; the engine that ticks and halts its nodes
//! is in `agent/` (`exec.rs`, `halt.rs`, `wake.rs`, and each kind's code in
//! `kinds/`).

use std::sync::Arc;

use behaved_runtime::{Clock, NoopObserver, Observer, Rng, Run, Status, Tree, Wake};

mod exec;
mod halt;
mod kinds;
mod wake;
mod watch;

use exec::{Exec, Root2};

use crate::definition::{Definition, LoadedNode};
use crate::leaves::{ItemBuffer, Leaves};

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
    /// Scratch for a `utility` node's scores in the tick in progress, room
    /// for the most children of one (`Scoring::most`).
    pub(crate) scores: Box<[f32]>,
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
                scores: vec![0.0; def.scoring.most].into_boxed_slice(),
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
    pub fn nodes(&self) -> &[LoadedNode] {
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
            wake::Waking {
                def: &self.def,
                st: &self.st,
                now,
            }
            .wake(0)
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
        crate::invariants::check_state(&self.def, &self.st.ints, self.st.side.running)
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
    type Row = LoadedNode;

    #[inline]
    fn nodes(&self) -> &[LoadedNode] {
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

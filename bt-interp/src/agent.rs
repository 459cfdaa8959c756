//! One running instance of a loaded tree. An agent owns only its running
//! state (resume points, counters, timestamps, its action leaves, its RNG),
//! allocated once when it is created; ticking allocates nothing.
//!
//! The semantics are those of DESIGN.md sections 3-4, and for the nodes that
//! `behave!` compiles they follow the generated code event for event: a node
//! reports `entered` when ticked while idle, `ticked` after its children, and
//! `halted` after its running descendants (post-order).

use std::sync::Arc;

use bt_runtime::{Clock, NodeId, NoopObserver, Observer, Rng, Run, Status};

use crate::compile::NO_HOOK;
use crate::definition::{Definition, Flat, NodeRow, Op};
use crate::registry::ActionBox;

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

/// A tree loaded from JSON, running for one agent: the interpreted twin of a
/// tree struct made by `behave!`, with the same methods.
pub struct Agent<C: 'static> {
    def: Arc<Definition<C>>,
    ints: Box<[u32]>,
    times: Box<[f64]>,
    actions: Box<[ActionBox<C>]>,
    rng: Rng,
    running: bool,
}

impl<C: 'static> Agent<C> {
    /// A new, idle agent running `def`, whose random nodes use the default seed.
    pub fn new(def: Arc<Definition<C>>) -> Agent<C> {
        Agent::with_seed(def, Rng::DEFAULT_SEED)
    }

    /// A new, idle agent whose random nodes draw from `seed`: the same seed
    /// and the same inputs give the same run.
    pub fn with_seed(def: Arc<Definition<C>>, seed: u64) -> Agent<C> {
        let (ints, times, actions) = fresh_state(&def);
        Agent {
            def,
            ints,
            times,
            actions,
            rng: Rng::new(seed),
            running: false,
        }
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
        self.running
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
        let entering = !self.running;
        let mut x = self.exec(ctx, now, observer);
        let status = x.tick(0, entering).status();
        self.running = status == Status::Running;
        observer.tick_finished(status);
        status
    }

    /// Halts whatever is running (each running action gets `halt` once, in
    /// post-order); the next tick starts from the beginning. Lifetime memory
    /// (`limit`, `runOnce`, `cooldown`) is kept.
    pub fn reset(&mut self, ctx: &mut C) {
        self.reset_observed(ctx, &mut NoopObserver)
    }

    /// [`reset`](Agent::reset), reporting the halts to `observer`.
    pub fn reset_observed<O: Observer + ?Sized>(&mut self, ctx: &mut C, observer: &mut O) {
        if self.running {
            self.running = false;
            self.exec(ctx, 0.0, observer).halt(0);
        }
    }

    /// Ticks at time `now` until the root completes or `max_ticks` ticks have
    /// run (ADR-017's on-interaction mode). Hitting the limit halts nothing.
    pub fn run_at(&mut self, ctx: &mut C, now: f64, max_ticks: u32) -> Run {
        for _ in 0..max_ticks {
            let status = self.tick_at(ctx, now);
            if status.is_done() {
                return Run::Completed(status);
            }
        }
        Run::TickLimit
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
        let (ints, times, actions) = fresh_state(&def);
        *self = Agent {
            def,
            ints,
            times,
            actions,
            rng: self.rng,
            running: false,
        };
    }

    /// Bytes of running state this agent owns besides its action leaves' own
    /// data (see [`Definition::state_bytes`]).
    pub fn state_bytes(&self) -> usize {
        self.def.state_bytes()
    }

    fn exec<'a, O: Observer + ?Sized>(&'a mut self, ctx: &'a mut C, now: f64, obs: &'a mut O) -> Exec<'a, C, O> {
        Exec {
            def: &self.def,
            ints: &mut self.ints,
            times: &mut self.times,
            actions: &mut self.actions,
            rng: &mut self.rng,
            ctx,
            obs,
            now,
            jump: 0,
            brk: false,
            from: 0,
        }
    }
}

impl<C: 'static> core::fmt::Debug for Agent<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Agent")
            .field("nodes", &self.def.len())
            .field("running", &self.running)
            .finish_non_exhaustive()
    }
}

type Fresh<C> = (Box<[u32]>, Box<[f64]>, Box<[ActionBox<C>]>);

fn fresh_state<C: 'static>(def: &Definition<C>) -> Fresh<C> {
    (
        vec![0; def.ints].into_boxed_slice(),
        def.times.clone().into_boxed_slice(),
        def.actions.iter().map(|a| a.spawn()).collect(),
    )
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

/// One tick (or halt) in progress: the shared definition, the agent's state,
/// the context and the observer.
struct Exec<'a, C: 'static, O: ?Sized> {
    def: &'a Definition<C>,
    ints: &'a mut [u32],
    times: &'a mut [f64],
    actions: &'a mut [ActionBox<C>],
    rng: &'a mut Rng,
    ctx: &'a mut C,
    obs: &'a mut O,
    now: f64,
    /// The loop a pending `break`/`continue` is for.
    jump: u32,
    /// Whether the pending jump is a `break`.
    brk: bool,
    /// The node that last returned a jump to its parent.
    from: u32,
}

impl<C: 'static, O: Observer + ?Sized> Exec<'_, C, O> {
    #[inline(always)]
    fn kid(&self, node: &Flat, i: u32) -> u32 {
        self.def.kids[(node.kids + i) as usize]
    }

    /// Ticks node `id`; `entering` when it was idle.
    fn tick(&mut self, id: u32, entering: bool) -> Out {
        let def = self.def;
        let node = &def.nodes[id as usize];
        if entering {
            self.obs.entered(NodeId(id));
            self.hook(node, ON_ENTER);
        }
        let out = match node.op {
            Op::Sequence => self.chain(node, Out::Success),
            Op::Selector => self.chain(node, Out::Failure),
            Op::ReactiveSequence => self.reactive_chain(node, Out::Success),
            Op::ReactiveSelector => self.reactive_chain(node, Out::Failure),
            Op::Parallel => self.parallel(node),
            Op::ParallelMain => self.parallel_main(node),
            Op::Random | Op::Weighted => self.random(node, entering),
            Op::Shuffle => self.shuffle(node, entering),
            Op::If | Op::Match => self.choose(node, entering),
            Op::ReactiveIf | Op::ReactiveMatch => self.reactive_choose(node),
            Op::Loop | Op::UntilFail | Op::UntilSuccess => self.unbounded(id, node),
            Op::Repeat | Op::Retry => self.bounded(id, node, entering),
            Op::While => self.while_loop(id, node),
            Op::Break | Op::Continue => {
                self.jump = node.leaf;
                self.brk = node.op == Op::Break;
                Out::Jump
            }
            Op::Invert => match self.tick(id + 1, entering) {
                Out::Success => Out::Failure,
                Out::Failure => Out::Success,
                o => o,
            },
            Op::ForceSuccess => match self.tick(id + 1, entering) {
                Out::Failure => Out::Success,
                o => o,
            },
            Op::ForceFailure => match self.tick(id + 1, entering) {
                Out::Success => Out::Failure,
                o => o,
            },
            Op::Timeout => self.timeout(id, node, entering),
            Op::Delay => self.delay(id, node, entering),
            Op::Cooldown => self.cooldown(id, node, entering),
            Op::Limit => {
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
            Op::RunOnce => {
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
            Op::AbortIf => {
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
            Op::Scope => self.tick(id + 1, entering),
            Op::Success => Out::Success,
            Op::Failure => Out::Failure,
            Op::Running => Out::Running,
            Op::Wait => {
                let t = &mut self.times[node.time as usize];
                if entering {
                    *t = self.now;
                    Out::Running
                } else if self.now - *t >= node.secs {
                    Out::Success
                } else {
                    Out::Running
                }
            }
            Op::Condition => Out::from(def.conds[node.leaf as usize].check(self.ctx)),
            Op::Action => {
                let leaf = &mut self.actions[node.leaf as usize];
                if entering {
                    leaf.enter(self.ctx);
                }
                Out::from(leaf.tick(self.ctx))
            }
            Op::Subtree => self.tick(id + 1, entering),
        };
        match out {
            Out::Jump if !matches!(node.op, Op::Break | Op::Continue) => {
                // Between the jump and its loop: end as if halted.
                let from = self.from;
                self.halt_kids(node, from);
                self.hook(node, ON_EXIT);
                self.obs.halted(NodeId(id));
                self.from = id;
            }
            o => {
                // A `break`/`continue` itself completes with Success.
                let status = o.status();
                match status {
                    Status::Success => {
                        self.hook(node, ON_SUCCESS);
                        self.hook(node, ON_EXIT);
                    }
                    Status::Failure => {
                        self.hook(node, ON_FAILURE);
                        self.hook(node, ON_EXIT);
                    }
                    Status::Running => {}
                }
                if o == Out::Jump {
                    self.from = id;
                }
                self.obs.ticked(NodeId(id), status);
            }
        }
        out
    }

    /// Ticks child `id`: a condition or action leaf without hooks in place
    /// (the same events as [`Exec::tick`], without its call), anything else
    /// through [`Exec::tick`].
    #[inline(always)]
    fn child(&mut self, id: u32, entering: bool) -> Out {
        let def = self.def;
        let node = &def.nodes[id as usize];
        if node.hooks != NO_HOOK {
            return self.tick(id, entering);
        }
        let out = match node.op {
            Op::Condition => {
                self.obs.entered(NodeId(id));
                Out::from(def.conds[node.leaf as usize].check(self.ctx))
            }
            Op::Action => {
                let leaf = &mut self.actions[node.leaf as usize];
                if entering {
                    self.obs.entered(NodeId(id));
                    leaf.enter(self.ctx);
                }
                Out::from(leaf.tick(self.ctx))
            }
            Op::Wait => {
                let t = &mut self.times[node.time as usize];
                if entering {
                    self.obs.entered(NodeId(id));
                    *t = self.now;
                    Out::Running
                } else if self.now - *t >= node.secs {
                    Out::Success
                } else {
                    Out::Running
                }
            }
            _ => return self.tick(id, entering),
        };
        self.obs.ticked(NodeId(id), out.status());
        out
    }

    /// `sequence` (`cont` = Success) and `selector` (`cont` = Failure).
    #[inline(always)]
    fn chain(&mut self, node: &Flat, cont: Out) -> Out {
        let s = node.slot as usize;
        let r = self.ints[s];
        for i in r.saturating_sub(1)..node.n {
            let o = self.child(self.kid(node, i), r != i + 1);
            if o != cont {
                self.ints[s] = if o == Out::Running { i + 1 } else { 0 };
                return o;
            }
        }
        self.ints[s] = 0;
        cont
    }

    /// The reactive forms: from child 0 every tick; a later running child is
    /// halted when an earlier one stops the pass.
    #[inline(always)]
    fn reactive_chain(&mut self, node: &Flat, cont: Out) -> Out {
        let s = node.slot as usize;
        let r = self.ints[s];
        for i in 0..node.n {
            let o = self.child(self.kid(node, i), r != i + 1);
            if o == Out::Jump {
                // A later running child is left for the jump's clean-up to halt.
                if r <= i + 1 {
                    self.ints[s] = 0;
                }
                return o;
            }
            if o != cont {
                if r > i + 1 {
                    self.halt(self.kid(node, r - 1));
                }
                self.ints[s] = if o == Out::Running { i + 1 } else { 0 };
                return o;
            }
        }
        self.ints[s] = 0;
        cont
    }

    /// `parallel`: ticks the children not completed in this activation and
    /// decides the moment a threshold is reached.
    fn parallel(&mut self, node: &Flat) -> Out {
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
                self.halt_kids(node, u32::MAX);
                return o;
            }
        }
        self.ints[s] = ok;
        self.ints[s + 1] = failed;
        Out::Running
    }

    /// `parallelMain`: the first child decides; the others run beside it and
    /// are halted when it completes.
    fn parallel_main(&mut self, node: &Flat) -> Out {
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
                self.halt_kids(node, u32::MAX);
                done
            }
        }
    }

    /// `random` / `weighted`: one child picked on entry, run to completion.
    fn random(&mut self, node: &Flat, entering: bool) -> Out {
        let s = node.slot as usize;
        if entering {
            let pick = if node.op == Op::Random {
                self.rng.below(node.n)
            } else {
                let r = self.rng.below(node.b);
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
                let j = self.rng.below(i as u32 + 1) as usize;
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
        if matches!(node.op, Op::If | Op::ReactiveIf) {
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
        (o == Out::Jump && self.jump == id).then_some(self.brk)
    }

    /// `loop`, `untilFail`, `untilSuccess`: at most one iteration starts per
    /// tick. The state word is 1 while the body is running.
    fn unbounded(&mut self, id: u32, node: &Flat) -> Out {
        let s = node.slot as usize;
        let mut started_now = self.ints[s] == 0;
        loop {
            let mut o = self.tick(id + 1, started_now);
            match self.own_jump(id, o) {
                Some(true) => {
                    self.ints[s] = 0;
                    return Out::Success;
                }
                Some(false) => o = Out::Success,
                None => {}
            }
            match (node.op, o) {
                (_, Out::Running) => {
                    self.ints[s] = 1;
                    return Out::Running;
                }
                (_, Out::Jump) => return Out::Jump,
                (Op::UntilFail, Out::Failure) | (Op::UntilSuccess, Out::Success) => {
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

    /// `repeater(n)` / `retry(n)`: bounded, so the next iteration starts in the same tick.
    fn bounded(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
        let s = node.slot as usize;
        let counted = if node.op == Op::Repeat {
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
            self.times[t] = self.now;
        } else if self.now - self.times[t] >= node.secs {
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
            self.times[t] = self.now;
            self.ints[s] = 0;
        }
        let child_entering = self.ints[s] == 0;
        if child_entering && self.now - self.times[t] < node.secs {
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
        if entering && self.now - self.times[t] < node.secs {
            return Out::Failure;
        }
        let o = self.tick(id + 1, entering);
        if o.done() {
            self.times[t] = self.now;
        }
        o
    }

    /// Runs lifecycle hook `which` of `node`, if it has one.
    #[inline(always)]
    fn hook(&mut self, node: &Flat, which: usize) {
        if node.hooks != NO_HOOK {
            self.run_hook(node.hooks, which);
        }
    }

    fn run_hook(&mut self, hooks: u32, which: usize) {
        let slot = self.def.hooks[hooks as usize][which];
        if slot != NO_HOOK {
            let _ = self.actions[slot as usize].tick(self.ctx);
        }
    }

    /// Halts running node `id`: its running descendants first (post-order),
    /// then its own halt hook; its state returns to idle.
    fn halt(&mut self, id: u32) {
        let def = self.def;
        let node = &def.nodes[id as usize];
        self.halt_kids(node, u32::MAX);
        if node.op == Op::Action {
            self.actions[node.leaf as usize].halt(self.ctx);
        }
        self.hook(node, ON_EXIT);
        self.obs.halted(NodeId(id));
    }

    /// Halts the node's running children (left to right) except `except`, and
    /// returns its activation state to idle (lifetime memory is kept).
    fn halt_kids(&mut self, node: &Flat, except: u32) {
        let s = node.slot as usize;
        let child = match node.op {
            Op::Sequence
            | Op::Selector
            | Op::ReactiveSequence
            | Op::ReactiveSelector
            | Op::Random
            | Op::Weighted
            | Op::If
            | Op::ReactiveIf
            | Op::Match
            | Op::ReactiveMatch => match std::mem::take(&mut self.ints[s]) {
                0 => None,
                r => Some(self.kid(node, r - 1)),
            },
            Op::Shuffle => match std::mem::take(&mut self.ints[s]) {
                0 => None,
                r => Some(self.kid(node, self.ints[s + r as usize])),
            },
            Op::Parallel | Op::ParallelMain => {
                let first = if node.op == Op::Parallel { s + 2 } else { s };
                self.ints[s..first].fill(0);
                for i in 0..node.n {
                    let kid = self.kid(node, i);
                    if std::mem::take(&mut self.ints[first + i as usize]) == RUNNING && kid != except {
                        self.halt(kid);
                    }
                }
                None
            }
            Op::Loop | Op::UntilFail | Op::UntilSuccess | Op::While | Op::Delay => {
                match std::mem::take(&mut self.ints[s]) {
                    0 => None,
                    _ => Some(self.kid(node, node.n - 1)),
                }
            }
            Op::Repeat | Op::Retry => {
                self.ints[s] = 0;
                Some(self.kid(node, 0))
            }
            Op::AbortIf => Some(self.kid(node, 1)),
            Op::Invert
            | Op::ForceSuccess
            | Op::ForceFailure
            | Op::Timeout
            | Op::Cooldown
            | Op::Limit
            | Op::RunOnce
            | Op::Scope
            | Op::Subtree => Some(self.kid(node, 0)),
            Op::Break
            | Op::Continue
            | Op::Success
            | Op::Failure
            | Op::Running
            | Op::Wait
            | Op::Condition
            | Op::Action => None,
        };
        if let Some(kid) = child
            && kid != except
        {
            self.halt(kid);
        }
    }
}

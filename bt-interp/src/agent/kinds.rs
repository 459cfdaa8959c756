//! The kinds of node without code of their own on the hot path, and every
//! node with hooks: [`Exec::general`] and the kinds it dispatches to
//! (parallels, random choices, bounded loops, `forEach`, `while`, timing
//! decorators). A part of the agent's engine (`exec.rs`).

use behaved_runtime::{NodeId, NodeKind, Observer, Status};

use crate::definition::{Fast, Flat, UNKNOWN_KIND};

use super::exec::*;

impl<C: 'static, O: Observer + ?Sized> Exec<'_, C, O> {
    /// Any node, hooks included: the kinds without code of their own, and
    /// every node with hooks.
    #[inline(never)]
    pub(super) fn general(&mut self, id: u32, entering: bool) -> Out {
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
    pub(super) fn sequence_always(&mut self, id: u32, node: &Flat, end: u32) -> Out {
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
    pub(super) fn parallel(&mut self, id: u32, node: &Flat) -> Out {
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
    pub(super) fn parallel_main(&mut self, id: u32, node: &Flat) -> Out {
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
    pub(super) fn random(&mut self, node: &Flat, entering: bool) -> Out {
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
    pub(super) fn shuffle(&mut self, node: &Flat, entering: bool) -> Out {
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
    pub(super) fn pick(&mut self, node: &Flat) -> u32 {
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
    pub(super) fn choose(&mut self, node: &Flat, entering: bool) -> Out {
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
    pub(super) fn reactive_choose(&mut self, node: &Flat) -> Out {
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
    pub(super) fn own_jump(&self, id: u32, o: Out) -> Option<bool> {
        (o == Out::Jump && self.st.jump == id).then_some(self.st.brk)
    }

    /// `repeater(n)` / `retry(n)`: bounded, so the next iteration starts in the same tick.
    pub(super) fn bounded(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
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
    pub(super) fn for_each(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
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
    pub(super) fn while_loop(&mut self, id: u32, node: &Flat) -> Out {
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
    pub(super) fn timeout(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
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
    pub(super) fn delay(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
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
    pub(super) fn cooldown(&mut self, id: u32, node: &Flat, entering: bool) -> Out {
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
}

//! A tree under test: stand-ins installed, every tick observed for the
//! scenario's assertions, the trace, coverage and property checks.

use std::marker::PhantomData;
use std::path::Path;

use behaved_observe::{Event, Trace, TraceNode, TraceRecorder};
use behaved_runtime::{LeafCall, NodeId, NodeRow, NoopObserver, Observer, Status, Tree};

use crate::checks::{Checks, Violation};
use crate::coverage::{COVERAGE_ENV, Coverage};
use crate::select::{self, describe};
use crate::stand_in::{StandIn, StandIns};
use crate::{Error, golden};

/// Events the trace keeps unless told otherwise (24 bytes each): enough for
/// golden traces of a few thousand ticks.
pub const DEFAULT_TRACE_CAPACITY: usize = 1 << 16;

/// A compiled tree or an interpreted agent under test, on context type `C`.
///
/// Every tick goes through the tree's observed path with the kit's
/// observer, which substitutes the installed stand-ins, records the trace,
/// counts coverage and checks the properties; `tick`/`tick_at` of the
/// production code are not involved and pay nothing.
pub struct TestTree<C: ?Sized, T> {
    tree: T,
    name: String,
    nodes: Vec<TraceNode>,
    /// Each node's JSON `"name"` (by id), for selectors.
    names: Vec<Option<String>>,
    stand_ins: StandIns,
    checks: Checks,
    coverage: Coverage,
    recorder: TraceRecorder,
    events: Vec<Event>,
    tick: u64,
    now: f64,
    _ctx: PhantomData<fn(&mut C)>,
}

#[cfg(feature = "interp")]
impl<C: 'static> TestTree<C, behaved_interp::Agent<C>> {
    /// Tests the interpreted agent `agent`, named after its root's JSON
    /// `"name"`, else `agent-<fingerprint>` (its definition's).
    pub fn agent(agent: behaved_interp::Agent<C>) -> Self {
        let name = match agent.nodes().first().and_then(|root| root.name.clone()) {
            Some(name) => name,
            None => format!("agent-{:016x}", agent.definition().fingerprint()),
        };
        TestTree::with_name(agent, name)
    }
}

impl<C: ?Sized, T: Tree<C>> TestTree<C, T> {
    /// Tests `tree`, of any form: a compiled tree (`Guard::new()` or
    /// `Dog::with_seed(7)`), an interpreted agent or a hand-written [`Tree`].
    /// Named after its root's JSON `"name"`, else its type.
    pub fn new(tree: T) -> Self {
        let name = match tree.nodes().first().and_then(NodeRow::name) {
            Some(name) => name.to_owned(),
            None => type_name::<T>(),
        };
        TestTree::with_name(tree, name)
    }

    /// Tests `tree` under the name `name` (coverage tables and files).
    fn with_name(tree: T, name: String) -> Self {
        let nodes: Vec<TraceNode> = tree.nodes().iter().map(TraceNode::from_row).collect();
        let names: Vec<Option<String>> = tree.nodes().iter().map(|n| n.name().map(str::to_owned)).collect();
        let mut coverage = Coverage::new(name.clone(), &nodes);
        coverage.names.clone_from(&names);
        TestTree {
            stand_ins: StandIns::new(nodes.len()),
            checks: Checks::new(nodes.len()),
            coverage,
            recorder: TraceRecorder::new(&nodes, DEFAULT_TRACE_CAPACITY).expect("a tree's own node table is valid"),
            name,
            nodes,
            names,
            tree,
            events: Vec::new(),
            tick: 0,
            now: 0.0,
            _ctx: PhantomData,
        }
    }

    /// Names the tree in coverage tables and files (by default its type's
    /// name; for an agent, its root's JSON `"name"`, or `agent-<fingerprint>`
    /// without one).
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self.coverage = Coverage::new(self.name.clone(), &self.nodes);
        self.coverage.names.clone_from(&self.names);
        self
    }

    /// Keeps up to `events` events in the trace (default [`DEFAULT_TRACE_CAPACITY`]);
    /// call before the first tick.
    pub fn with_trace_capacity(mut self, events: usize) -> Self {
        self.recorder = TraceRecorder::new(&self.nodes, events).expect("a tree's own node table is valid");
        self
    }

    /// The tree's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tree's node table.
    pub fn nodes(&self) -> &[TraceNode] {
        &self.nodes
    }

    /// The tree under test.
    pub fn tree(&self) -> &T {
        &self.tree
    }

    /// The node `selector` names: an exact label (`Chase`,
    /// `MoveTo::new(GUARDHOUSE)`) or JSON `"name"` (`"Night behavior"`), a
    /// path of them from a parent down (`sequence/wait(1.0)`), an id
    /// (`#7`), and any segment of a path with an index among the siblings it
    /// names, counting from 0 (`sequence/Chase[1]`: the second `Chase` of
    /// the `sequence`). Both forms of a tree label a node alike, so one
    /// selector serves both; the node as the DSL source writes it finds it
    /// too (`act(async Fetch)` finds `Fetch`, `Move { to_x: 1 }` finds
    /// `Move(toX: 1)`, `repeater(3)` finds `repeat(3)`, `wait(3s)` and
    /// `wait(500ms)` find `wait(3.0)` and `wait(0.5)`). No match, or several,
    /// is an error that says so (with the closest label, or for each match a
    /// selector that names it alone).
    pub fn find(&self, selector: &str) -> Result<NodeId, Error> {
        select::find(&self.nodes, &self.names, selector)
    }

    /// Replaces the leaf `selector` names (a condition, action, `wait` or
    /// `wait_until`) with `stand_in` for the rest of the test. On a
    /// `wait_until` the script stands for its condition: `Success` (or
    /// `true`) ends the wait, `Failure` (`false`) and `Running` wait on. A
    /// stood-in async action is never started, polled or cancelled. A stand-in
    /// replaces ticks and halts only: `reset` still runs the leaf's reset
    /// callbacks (`Action::reset`, `on_reset` hooks), as it does for every
    /// node whether it ran or not. Install stand-ins while the
    /// tree is idle (before the first tick or after a reset).
    pub fn stand_in(&mut self, selector: &str, stand_in: StandIn) -> Result<&mut Self, Error> {
        let node = self.find(selector)?;
        let kind = self.nodes[node.index()].kind;
        let bad = |reason: String| Error::BadStandIn {
            node: describe(&self.nodes, node),
            reason,
        };
        if let Some(reason) = stand_in.unfit_for(kind) {
            return Err(bad(reason));
        }
        if self.tree.is_running() {
            return Err(bad("the tree is running; install stand-ins while it is idle".into()));
        }
        self.stand_ins.install(node, stand_in, kind);
        Ok(self)
    }

    /// Checks that the node `selector` names is never Running for more
    /// than `ticks` ticks in a row (a property checked on every tick).
    pub fn limit_running(&mut self, selector: &str, ticks: u32) -> Result<&mut Self, Error> {
        let node = self.find(selector)?;
        self.checks.limit_running(node, ticks);
        Ok(self)
    }

    /// Ticks the tree once at time `now`.
    pub fn tick(&mut self, ctx: &mut C, now: f64) -> Status {
        self.tick_with(ctx, now, &mut NoopObserver)
    }

    /// Ticks the tree once at time `now`, also reporting every event to
    /// `extra` (a logger, say); stand-ins answer before `extra` is asked.
    pub fn tick_with<O: Observer + ?Sized>(&mut self, ctx: &mut C, now: f64, extra: &mut O) -> Status {
        self.tick += 1;
        self.now = now;
        self.events.clear();
        self.stand_ins.start_tick(self.tick, now);
        self.checks.tick_started(self.tick);
        let (tree, mut watch) = self.watch(extra);
        tree.tick_observed(ctx, now, &mut watch)
    }

    /// Halts whatever runs (the halts are the events of this step).
    pub fn reset(&mut self, ctx: &mut C) {
        self.events.clear();
        let mut extra = NoopObserver;
        let (tree, mut watch) = self.watch(&mut extra);
        tree.reset_observed(ctx, &mut watch);
    }

    /// The tree, and the kit's observer over the rest of `self`, passing events on to `extra`.
    fn watch<'a, O: Observer + ?Sized>(&'a mut self, extra: &'a mut O) -> (&'a mut T, Watch<'a, O>) {
        let watch = Watch {
            nodes: &self.nodes,
            stand_ins: &mut self.stand_ins,
            checks: &mut self.checks,
            coverage: &mut self.coverage,
            recorder: &mut self.recorder,
            events: &mut self.events,
            extra,
        };
        (&mut self.tree, watch)
    }

    /// The number of ticks so far.
    pub fn ticks(&self) -> u64 {
        self.tick
    }

    /// The time of the last tick.
    pub fn now(&self) -> f64 {
        self.now
    }

    /// The events of the last tick (or of the reset after it).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// `true` when `node` was ticked in the last tick.
    pub fn ran(&self, node: NodeId) -> bool {
        self.events
            .iter()
            .any(|e| matches!(*e, Event::Ticked { node: n, .. } if n == node))
    }

    /// What `node` returned in the last tick, if it was ticked (its last status).
    pub fn status_of(&self, node: NodeId) -> Option<Status> {
        self.events.iter().rev().find_map(|e| match *e {
            Event::Ticked { node: n, status } if n == node => Some(status),
            _ => None,
        })
    }

    /// `true` when `node` was halted in the last tick (or reset).
    pub fn was_halted(&self, node: NodeId) -> bool {
        self.events.contains(&Event::Halted { node })
    }

    /// The events of the last tick, one per line, indented
    /// (`    #3 \`Chase\` returned running`).
    pub fn describe_events(&self) -> String {
        let mut out = String::new();
        for e in self.events.iter().filter(|e| !matches!(e, Event::TickStarted { .. })) {
            out.push_str("    ");
            out.push_str(&golden::event_text(&self.nodes, e));
            out.push('\n');
        }
        out
    }

    /// The first broken property so far, if any: a halt without an enter, a
    /// tick without an enter, an enter while active, a Running limit exceeded,
    /// or a condition stand-in that answered Running.
    pub fn violation(&self) -> Option<Violation> {
        if let Some((tick, node)) = self.stand_ins.running_condition {
            return Some(Violation {
                tick,
                node,
                message: format!(
                    "property broken at tick {tick}: the stand-in for condition {} answered Running",
                    describe(&self.nodes, node)
                ),
            });
        }
        self.checks.violation.clone()
    }

    /// Fails with the first broken property, if any.
    pub fn check_properties(&self) -> Result<(), Error> {
        match self.violation() {
            Some(v) => Err(Error::Property(v.message)),
            None => Ok(()),
        }
    }

    /// What the trace recorded so far (allocates).
    pub fn trace(&self) -> Trace {
        self.recorder.trace()
    }

    /// The coverage of this tree's run so far.
    pub fn coverage(&self) -> &Coverage {
        &self.coverage
    }

    /// Compares the run so far with the golden trace at `path` (relative to
    /// the package root under `cargo test`); with `BEHAVED_GOLDEN=overwrite` in
    /// the environment, writes it instead. See [`golden::check`].
    pub fn golden(&self, path: impl AsRef<Path>) -> Result<(), Error> {
        self.golden_with(path, golden::Mode::from_env())
    }

    /// [`golden`](Self::golden) with the mode given.
    pub fn golden_with(&self, path: impl AsRef<Path>, mode: golden::Mode) -> Result<(), Error> {
        let path = path.as_ref();
        let dropped = self.recorder.dropped_events();
        if dropped > 0 {
            return Err(Error::Golden {
                path: path.to_owned(),
                message: format!(
                    "the run is longer than the trace keeps ({dropped} events dropped): raise `with_trace_capacity`"
                ),
            });
        }
        golden::check_with(path, &self.trace(), mode)
    }
}

impl<C: ?Sized, T> Drop for TestTree<C, T> {
    /// With `BEHAVED_COVERAGE=<dir>` set, saves this tree's coverage there.
    fn drop(&mut self) {
        if self.tick == 0 {
            return;
        }
        if let Some(dir) = std::env::var_os(COVERAGE_ENV)
            && let Err(e) = self.coverage.save_in(Path::new(&dir))
        {
            eprintln!("behaved-testing: could not save the coverage of `{}`: {e}", self.name);
        }
    }
}

/// The kit's observer for one tick: stand-ins first, then every event to
/// the log, checks, coverage, trace and the caller's observer.
struct Watch<'a, O: ?Sized> {
    nodes: &'a [TraceNode],
    stand_ins: &'a mut StandIns,
    checks: &'a mut Checks,
    coverage: &'a mut Coverage,
    recorder: &'a mut TraceRecorder,
    events: &'a mut Vec<Event>,
    extra: &'a mut O,
}

impl<O: Observer + ?Sized> Watch<'_, O> {
    fn record(&mut self, event: Event) {
        self.coverage.count(&event);
        self.events.push(event);
    }
}

impl<O: Observer + ?Sized> Observer for Watch<'_, O> {
    fn stand_in(&mut self, node: NodeId, call: LeafCall) -> Option<Status> {
        match self.stand_ins.answer(node, call) {
            None => self.extra.stand_in(node, call),
            answer => answer,
        }
    }
    fn tick_started(&mut self, now: f64) {
        self.recorder.tick_started(now);
        self.extra.tick_started(now);
        self.record(Event::TickStarted {
            tick: self.recorder.last_tick(),
            now,
        });
    }
    fn entered(&mut self, node: NodeId) {
        self.checks.entered(self.nodes, node);
        self.recorder.entered(node);
        self.extra.entered(node);
        self.record(Event::Entered { node });
    }
    fn ticked(&mut self, node: NodeId, status: Status) {
        self.checks.ticked(self.nodes, node, status);
        self.recorder.ticked(node, status);
        self.extra.ticked(node, status);
        self.record(Event::Ticked { node, status });
    }
    fn scored(&mut self, node: NodeId, child: u32, score: f32) {
        self.extra.scored(node, child, score);
    }
    fn considers(&self) -> bool {
        self.extra.considers()
    }
    fn considered(&mut self, node: NodeId, child: u32, part: u32, label: &str, value: f32) {
        self.extra.considered(node, child, part, label, value);
    }
    fn halted(&mut self, node: NodeId) {
        self.checks.halted(self.nodes, node);
        self.stand_ins.halted(node);
        self.recorder.halted(node);
        self.extra.halted(node);
        self.record(Event::Halted { node });
    }
    fn tick_finished(&mut self, status: Status) {
        self.recorder.tick_finished(status);
        self.extra.tick_finished(status);
        self.record(Event::TickFinished { status });
    }
}

/// A type's name without its path and generic arguments (`Guard`).
fn type_name<T: ?Sized>() -> String {
    let full = std::any::type_name::<T>();
    let base = full.split('<').next().unwrap_or(full);
    base.rsplit("::").next().unwrap_or(base).to_owned()
}

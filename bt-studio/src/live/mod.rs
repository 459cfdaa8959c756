//! The live view: a game serves its agents' trees while it runs.
//!
//! Each agent's [`ObservedAgent`] observer records nothing while no page follows it
//! (one branch per event). While a page follows it, the observer keeps the
//! events of the current tick in a buffer and, at the end of the
//! tick, sends them to the server over a bounded lock-free channel; when it is
//! full, it keeps them for the next tick. The game thread never waits. Should the
//! server fall so far behind that the buffer fills, the observer drops the
//! events, counts them, and the server restarts the agent's history (the page
//! shows the count). The server folds the queue into a bounded history per
//! agent (a [`TraceRecorder`]) and sends the window to the page.
//!
//! Context values ([`ObservedAgent::record_context`]) travel with their tick: once a
//! game records them, a finished tick waits for its values (or for the next
//! tick to start) before it is handed over.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};

pub(crate) mod control;
pub(crate) mod edits;
pub(crate) mod flow;
pub(crate) mod push;
pub(crate) mod routes;

use behaved_observe::{DataFlow, Error, Event, Labels, NodeRow, TraceNode, TraceRecorder, WOKE_KEY};
use behaved_runtime::{LeafCall, NodeId, Observer, Status};
use control::{Breaks, Control, ON_ENTER, ON_FAILURE, ON_HALT, ON_RUNNING, ON_SUCCESS, Reason, status_name};
use edits::Setters;
use serde::Serialize;
use serde_json::{Value, json};

/// The events an agent's observer keeps for the server before it drops them.
const BUFFER: usize = 1 << 16;
/// The events a tick's buffer starts with room for.
const TICK_EVENTS: usize = 64;
/// The ticks queued between an agent's observer and the server.
const TICKS_QUEUED: usize = 1024;
/// The events of history the server keeps per followed agent.
pub const HISTORY: usize = 20_000;

/// What the game thread and the server share about one agent.
#[derive(Debug)]
pub(crate) struct AgentShared {
    /// The agent's name, as the page lists it.
    pub name: String,
    /// Its tree: the node table, replaced on a hot reload ([`ObservedAgent::replace_nodes`]).
    pub tree: Mutex<Tree>,
    /// How many pages follow it.
    pub followers: AtomicUsize,
    /// Ticks handed over by the game thread, not yet read by the server.
    pub queue: Mutex<Receiver<Handover>>,
    /// Events were dropped: the server's history must start afresh.
    pub broken: AtomicBool,
    /// Events the observer dropped because the server did not keep up.
    pub dropped: AtomicU64,
    /// The labels of the score parts the agent's `considered` events name
    /// (by index), appended by the game thread the first time it sees one.
    pub labels: Mutex<Vec<String>>,
    /// Whether the observer was dropped (the agent is gone).
    pub gone: AtomicBool,
    /// The server's history of the agent, while a page follows it.
    pub history: Mutex<Option<History>>,
    /// The registry's change count at this agent's last change (registered,
    /// gone), `u64::MAX` while a change is being counted.
    pub changed: AtomicU64,
    /// The registry's change counter.
    changes: Arc<AtomicU64>,
    /// The agent's breakpoints, as its pages set them.
    pub breaks: Mutex<Breaks>,
    /// Counts changes of `breaks`: the observer copies them when it changed.
    pub breaks_version: AtomicU64,
    /// The game's control ([`Studio::debugger`](crate::Studio::debugger)).
    pub control: Arc<Control>,
    /// The game's setters of its values, and the pages' edits waiting for it.
    pub edits: edits::Edits,
}

/// An agent's node table, and how many times it was replaced.
#[derive(Debug)]
pub(crate) struct Tree {
    /// Which table this is: 0 first, one more on each replacement.
    pub generation: u64,
    /// The node table.
    pub nodes: Arc<[TraceNode]>,
    /// What its nodes read, if the game declared it ([`ObservedAgent::declare_data_flow`]).
    pub flow: Option<Arc<DataFlow>>,
}

impl AgentShared {
    /// Changes the agent's breakpoints; its observer takes them at its next tick.
    pub fn change_breaks(&self, f: impl FnOnce(&mut Breaks)) {
        let mut breaks = self.breaks.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut breaks);
        self.breaks_version.fetch_add(1, Ordering::SeqCst);
    }

    /// The agent's current tree.
    pub fn tree(&self) -> (u64, Arc<[TraceNode]>) {
        let tree = self.tree.lock().unwrap_or_else(|e| e.into_inner());
        (tree.generation, Arc::clone(&tree.nodes))
    }

    /// Counts a change of the agent (see [`Registry::changed_since`]).
    fn count_change(&self) {
        // Marked as changing before it is counted: a page whose count
        // includes this change either sees the mark or the count.
        self.changed.store(u64::MAX, Ordering::SeqCst);
        let changed = self.changes.fetch_add(1, Ordering::SeqCst) + 1;
        self.changed.store(changed, Ordering::SeqCst);
    }
}

/// What the game thread hands over at once: the events of one or more
/// ticks, and the context values recorded among them.
#[derive(Debug, Default)]
pub(crate) struct Handover {
    /// The tree they were recorded with ([`Tree::generation`]).
    generation: u64,
    /// The events, in order.
    events: Vec<Event>,
    /// Context values, each with the number of `events` recorded before it.
    context: Vec<(usize, Value)>,
    /// The events that stopped the game (their places in `events`), and why.
    stops: Vec<(usize, Reason)>,
    /// The results forced on leaves: the number of `events` before each, the leaf, its status.
    forced: Vec<(usize, NodeId, Status)>,
    /// The wakes recorded ([`ObservedAgent::record_wake`]): the number of `events` before each, its value.
    woke: Vec<(usize, Value)>,
}

/// Every agent a game registered, in order, and the trees its editor saved.
#[derive(Debug, Default)]
pub(crate) struct Registry {
    pub agents: Mutex<Vec<Arc<AgentShared>>>,
    pub reloads: Mutex<VecDeque<Reload>>,
    /// Counts the changes to the list (an agent registered or gone), so that
    /// a page is sent only the agents that changed since it last asked.
    pub changes: Arc<AtomicU64>,
    /// The game's control from the live view.
    pub control: Arc<Control>,
    /// The secret with which pages on other machines may control the game,
    /// if the game opted in.
    pub control_secret: Option<String>,
    /// The pages following agents now (at most [`MAX_FOLLOWERS`](crate::limits::MAX_FOLLOWERS)).
    pub followers: Arc<AtomicUsize>,
}

/// The most files whose saved trees wait for the game to take them: a game
/// that never takes them keeps only the newest.
const RELOADS_WAITING: usize = 16;

/// The most bytes of trees waiting besides the newest one: a game that
/// takes none holds at most two requests' worth of trees
/// ([`MAX_TREE_BYTES`](crate::limits::MAX_TREE_BYTES) each), not sixteen.
const RELOAD_BYTES_WAITING: usize = crate::limits::MAX_TREE_BYTES;

impl Registry {
    /// Queues a saved tree for [`Studio::take_reload`](crate::Studio::take_reload):
    /// it replaces a tree of the same file not yet taken (the game loads
    /// the newest save of each), and the oldest files' trees are dropped
    /// past [`RELOADS_WAITING`] files or [`RELOAD_BYTES_WAITING`] bytes.
    pub fn queue_reload(&self, reload: Reload) {
        let mut reloads = self.reloads.lock().unwrap_or_else(|e| e.into_inner());
        reloads.retain(|r| r.name != reload.name);
        let mut bytes: usize = reloads.iter().map(|r| r.tree.len()).sum();
        while reloads.len() >= RELOADS_WAITING
            || (bytes > RELOAD_BYTES_WAITING.saturating_sub(reload.tree.len()) && !reloads.is_empty())
        {
            let dropped = reloads.pop_front().expect("not empty");
            bytes -= dropped.tree.len();
        }
        reloads.push_back(reload);
    }

    /// Registers an agent whose tree has the node table `nodes` and returns its observer.
    pub fn register<R: NodeRow>(&self, name: &str, nodes: &[R]) -> Result<ObservedAgent, Error> {
        // Checks the table as a trace would.
        TraceRecorder::new(nodes, 1)?;
        let (handover, queue) = mpsc::sync_channel(TICKS_QUEUED);
        let mut agents = self.agents.lock().unwrap_or_else(|e| e.into_inner());
        // Counted under the list's lock: a reader sees the agent and the count together.
        let changed = self.changes.fetch_add(1, Ordering::SeqCst) + 1;
        let shared = Arc::new(AgentShared {
            name: name.to_owned(),
            tree: Mutex::new(Tree {
                generation: 0,
                nodes: nodes.iter().map(TraceNode::from_row).collect(),
                flow: None,
            }),
            followers: AtomicUsize::new(0),
            queue: Mutex::new(queue),
            broken: AtomicBool::new(false),
            dropped: AtomicU64::new(0),
            labels: Mutex::new(Vec::new()),
            gone: AtomicBool::new(false),
            history: Mutex::new(None),
            changed: AtomicU64::new(changed),
            changes: Arc::clone(&self.changes),
            breaks: Mutex::new(Breaks::default()),
            breaks_version: AtomicU64::new(0),
            control: Arc::clone(&self.control),
            edits: edits::Edits::default(),
        });
        agents.push(Arc::clone(&shared));
        Ok(ObservedAgent {
            shared,
            generation: 0,
            handover,
            tick: Vec::new(),
            context: Vec::new(),
            held: false,
            finished: false,
            records_context: false,
            breaks: Breaks::default(),
            breaks_seen: 0,
            armed: false,
            stopped_this_tick: false,
            stops: Vec::new(),
            forcing: false,
            forced: Vec::new(),
            woke: Vec::new(),
            flow: None,
            setters_declared: false,
            labels: Labels::default(),
        })
    }

    /// The registry's change count now, and the agents that changed after
    /// change `since` (all of them for 0), in order. A page that asks again
    /// with the count it got misses no change: an agent whose change is
    /// being counted while the list is read is listed now and again next time.
    pub fn changed_since(&self, since: u64) -> (u64, Vec<(usize, Arc<AgentShared>)>) {
        let agents = self.agents.lock().unwrap_or_else(|e| e.into_inner());
        let now = self.changes.load(Ordering::SeqCst);
        let changed = agents
            .iter()
            .enumerate()
            .filter(|(_, a)| a.changed.load(Ordering::SeqCst) > since)
            .map(|(id, a)| (id, Arc::clone(a)))
            .collect();
        (now, changed)
    }
}

/// A tree saved in the studio's editor, for the game to load
/// ([`Studio::take_reload`](crate::Studio::take_reload)). The game loads it
/// with its own registry, which may still refuse it: the editor checked it
/// against a manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reload {
    /// The file it was saved as (a name in the edited tree's folder).
    pub name: String,
    /// The tree's JSON text, as saved (a BehaviorTree.CPP `.xml` file's main
    /// tree as JSON: the game loads JSON); behaved-interp's loader accepted
    /// it with the editor's leaf manifest.
    pub tree: String,
}

/// A game's handle on one agent the live view shows: the observer its tree
/// ticks with (`tick_observed`), made by [`Studio::agent`](crate::Studio::agent).
/// Costs one branch per event while no page follows the agent. (Not
/// behaved-interp's `Agent`, the running tree it may observe.)
#[derive(Debug)]
pub struct ObservedAgent {
    shared: Arc<AgentShared>,
    /// The tree the events are recorded with ([`Tree::generation`]).
    generation: u64,
    /// Where finished ticks go to the server (a bounded, lock-free channel).
    handover: SyncSender<Handover>,
    /// The events not yet handed over (no buffer while nobody follows).
    tick: Vec<Event>,
    /// The context values not yet handed over, each after `tick[..n]`.
    context: Vec<(usize, Value)>,
    /// Whether the current tick is being recorded.
    held: bool,
    /// Whether the events end with a finished tick that was not handed over.
    finished: bool,
    /// Whether the game records context values: then a finished tick waits for them.
    records_context: bool,
    /// The agent's breakpoints, copied from the page's at the start of a tick.
    breaks: Breaks,
    /// The `breaks_version` copied.
    breaks_seen: u64,
    /// Whether any breakpoint is set: only then is an event looked at.
    armed: bool,
    /// Whether a breakpoint stopped the game in this tick already.
    stopped_this_tick: bool,
    /// The events not yet handed over that stopped the game (places in `tick`).
    stops: Vec<(usize, Reason)>,
    /// Whether the page forces a result on a leaf: only then is the stand-in hook answered.
    forcing: bool,
    /// The forced results not yet handed over (places in `tick`, leaf, status).
    forced: Vec<(usize, NodeId, Status)>,
    /// The wakes not yet handed over (places in `tick`, value).
    woke: Vec<(usize, Value)>,
    /// What the tree's nodes read, as declared: names a wake's inputs.
    flow: Option<Arc<DataFlow>>,
    /// Whether [`apply_edits`](Self::apply_edits) declared its setters.
    setters_declared: bool,
    /// The score parts' labels seen, with their indices in [`AgentShared::labels`].
    labels: Labels,
}

impl ObservedAgent {
    /// Events this observer dropped because the server did not keep up.
    pub fn dropped_events(&self) -> u64 {
        self.shared.dropped.load(Ordering::Relaxed)
    }

    /// The agent's tree was replaced (a hot reload: behaved-interp's
    /// `Agent::replace_definition`): from the next tick on, its events are
    /// of the node table `nodes`. The live view keeps listing the agent
    /// once, now with this tree, and a page that follows it starts its
    /// history afresh, with every tick of the new tree (each handover
    /// carries the number of its tree, so the server pairs events with
    /// their table even when the reload meets its read). Fails, changing
    /// nothing, on a table a trace could not hold.
    pub fn replace_nodes<R: NodeRow>(&mut self, nodes: &[R]) -> Result<(), Error> {
        TraceRecorder::new(nodes, 1)?;
        {
            let mut tree = self.shared.tree.lock().unwrap_or_else(|e| e.into_inner());
            tree.generation += 1;
            tree.nodes = nodes.iter().map(TraceNode::from_row).collect();
            tree.flow = None;
            self.generation = tree.generation;
            self.flow = None;
        }
        self.shared.count_change();
        // What was not handed over is of the old table.
        self.tick.clear();
        self.context.clear();
        self.stops.clear();
        self.forced.clear();
        self.woke.clear();
        self.finished = false;
        Ok(())
    }

    /// Applies to `state` the edits pages made to the values with a setter
    /// in `setters`, in the order they were made, and returns how many.
    /// Call it once a frame before the agent ticks (after
    /// [`Debugger::frame_gate`](crate::Debugger::frame_gate)): the tick
    /// then uses the new values, and the context it records shows them. The
    /// first call declares the setters to the live view (their names are
    /// the keys of the context table, nested keys joined by `.`); the page
    /// offers to edit only those values, and the server refuses an edit of
    /// another name or of the wrong JSON type, telling the page why. The
    /// game never waits on a page: while nothing was edited, this is one
    /// atomic load.
    ///
    /// ```
    /// # use behaved::prelude::*;
    /// # struct Ctx;
    /// # behave! { tree DogTree for Ctx { sequence { running } } }
    /// use behaved_studio::{Setters, Studio};
    /// struct Dog { speed: f64 }
    /// let studio = Studio::serve("127.0.0.1:0")?;
    /// let mut agent = studio.agent("dog", DogTree::NODES)?;
    /// let mut setters = Setters::<Dog>::new().number("speed", |dog, v| dog.speed = v);
    /// let mut dog = Dog { speed: 1.0 };
    /// // Each frame, before the tick:
    /// assert_eq!(agent.apply_edits(&mut setters, &mut dog), 0, "nothing edited yet");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn apply_edits<S>(&mut self, setters: &mut Setters<S>, state: &mut S) -> usize {
        if !self.setters_declared {
            self.setters_declared = true;
            self.shared.edits.declare(setters.declared());
        }
        let mut applied = 0;
        for (key, value) in self.shared.edits.take() {
            applied += usize::from(setters.set(state, &key, &value));
        }
        applied
    }

    /// Whether the observer is recording for a page (it holds a buffer only then).
    pub fn is_recording(&self) -> bool {
        self.held || self.tick.capacity() > 0
    }

    /// Attaches `values`, a serde view of the agent's context, to the tick
    /// just ticked (see [`TraceRecorder::record_context`]); the page shows
    /// them in its inspector. Call it after each `tick_observed`. While no
    /// page follows the agent it does nothing (not even serialize). Fails,
    /// recording nothing, if `values` cannot be serialized.
    ///
    /// Once a page follows, the first tick is sent when it finishes (the
    /// agent does not know yet that values will come) and its values right
    /// after it; from then on each tick waits for its values and is sent
    /// with them.
    pub fn record_context<T: Serialize + ?Sized>(&mut self, values: &T) -> Result<(), Error> {
        if !self.held {
            return Ok(());
        }
        let first = !self.records_context;
        self.records_context = true;
        self.context.push((self.tick.len(), serde_json::to_value(values)?));
        // The first values belong to a tick handed over without them: they go now, on their own.
        if self.finished || first {
            self.hand_over();
        }
        Ok(())
    }

    /// [`record_context`](Self::record_context) with values made by `values`,
    /// which is called only while a page follows the agent: a game with many
    /// agents builds no values for those nobody watches.
    pub fn record_context_with<T: Serialize>(&mut self, values: impl FnOnce() -> T) -> Result<(), Error> {
        if !self.held {
            return Ok(());
        }
        self.record_context(&values())
    }

    /// Hands the events and values over unless the queue is full; then keeps
    /// them for the next try.
    fn hand_over(&mut self) {
        let handover = Handover {
            generation: self.generation,
            events: std::mem::take(&mut self.tick),
            context: std::mem::take(&mut self.context),
            stops: std::mem::take(&mut self.stops),
            forced: std::mem::take(&mut self.forced),
            woke: std::mem::take(&mut self.woke),
        };
        match self.handover.try_send(handover) {
            Ok(()) => {
                self.tick = Vec::with_capacity(TICK_EVENTS);
                self.finished = false;
            }
            Err(TrySendError::Full(back) | TrySendError::Disconnected(back)) => {
                self.tick = back.events;
                self.context = back.context;
                self.stops = back.stops;
                self.forced = back.forced;
                self.woke = back.woke;
            }
        }
    }

    /// Copies the page's breakpoints when they changed, taking a step to
    /// the next event (it stops the game once).
    fn take_breaks(&mut self) {
        let version = self.shared.breaks_version.load(Ordering::Acquire);
        if version == self.breaks_seen {
            return;
        }
        let mut shared = self.shared.breaks.lock().unwrap_or_else(|e| e.into_inner());
        self.breaks.clone_from(&shared);
        shared.next_event = false;
        self.breaks_seen = self.shared.breaks_version.load(Ordering::Acquire);
        self.armed = self.breaks.any();
        self.forcing = self.breaks.forcing();
    }

    /// The result forced on `node` for `call`, if any; a forced result
    /// given once is used up by a tick (here and in the page's settings).
    #[cold]
    fn forced(&mut self, node: NodeId, call: LeafCall) -> Option<Status> {
        let force = (*self.breaks.forces.get(node.0 as usize)?)?;
        if let LeafCall::Tick { .. } = call {
            self.forced.push((self.tick.len(), node, force.status));
            if force.once {
                self.breaks.forces[node.0 as usize] = None;
                self.forcing = self.breaks.forcing();
                let mut shared = self.shared.breaks.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(f) = shared.forces.get_mut(node.0 as usize) {
                    *f = None;
                }
                drop(shared);
                self.shared.breaks_version.fetch_add(1, Ordering::SeqCst);
            }
        }
        Some(force.status)
    }

    /// Stops the game if `event`, just recorded, meets a breakpoint (once a tick).
    #[cold]
    fn check(&mut self, event: Event) {
        if self.stopped_this_tick {
            return;
        }
        let on = |node: NodeId, bit: u8| self.breaks.nodes.get(node.0 as usize).is_some_and(|b| b & bit != 0);
        let reason = if self.breaks.next_event {
            self.breaks.next_event = false;
            self.armed = self.breaks.any();
            Some(Reason::NextEvent)
        } else {
            match event {
                Event::Entered { node } if on(node, ON_ENTER) => Some(Reason::Breakpoint),
                Event::Ticked { node, status } => {
                    let bit = match status {
                        Status::Success => ON_SUCCESS,
                        Status::Failure => ON_FAILURE,
                        Status::Running => ON_RUNNING,
                    };
                    if on(node, bit) {
                        Some(Reason::Breakpoint)
                    } else if status == Status::Failure && self.breaks.any_failure {
                        Some(Reason::AnyFailure)
                    } else {
                        None
                    }
                }
                Event::Halted { node } if on(node, ON_HALT) => Some(Reason::Breakpoint),
                _ => None,
            }
        };
        if let Some(reason) = reason {
            self.stopped_this_tick = true;
            self.stops.push((self.tick.len() - 1, reason));
            self.shared.control.stop(reason);
        }
    }

    #[inline]
    fn record(&mut self, event: Event) {
        if self.held {
            if self.tick.len() == BUFFER {
                self.shared.dropped.fetch_add(self.tick.len() as u64, Ordering::Relaxed);
                self.tick.clear();
                self.context.clear();
                self.stops.clear();
                self.forced.clear();
                self.woke.clear();
                self.shared.broken.store(true, Ordering::Relaxed);
            }
            self.tick.push(event);
            if self.armed {
                self.check(event);
            }
        }
    }
}

impl Observer for ObservedAgent {
    #[inline]
    fn stand_in(&mut self, node: NodeId, call: LeafCall) -> Option<Status> {
        if self.held && self.forcing {
            self.forced(node, call)
        } else {
            None
        }
    }

    fn tick_started(&mut self, now: f64) {
        let followed = self.shared.followers.load(Ordering::Relaxed) > 0;
        if followed && self.tick.capacity() == 0 {
            self.tick.reserve(TICK_EVENTS);
        }
        if !followed && self.held {
            // Nobody follows any more: forget what was not handed over, free the buffer.
            self.tick = Vec::new();
            self.context = Vec::new();
            self.stops = Vec::new();
            self.forced = Vec::new();
            self.woke = Vec::new();
            self.finished = false;
            self.armed = false;
            self.forcing = false;
            self.breaks_seen = u64::MAX;
        }
        if self.finished {
            // The last tick's values did not come: hand it over without them.
            self.hand_over();
        }
        self.held = followed;
        if followed {
            self.take_breaks();
            self.stopped_this_tick = false;
        }
        self.record(Event::TickStarted { tick: 0, now });
    }

    #[inline]
    fn entered(&mut self, node: NodeId) {
        self.record(Event::Entered { node });
    }

    #[inline]
    fn ticked(&mut self, node: NodeId, status: Status) {
        self.record(Event::Ticked { node, status });
    }

    #[inline]
    fn halted(&mut self, node: NodeId) {
        self.record(Event::Halted { node });
    }

    #[inline]
    fn scored(&mut self, node: NodeId, child: u32, score: f32) {
        self.record(Event::Scored { node, child, score });
    }

    #[inline]
    fn considers(&self) -> bool {
        self.held
    }

    fn considered(&mut self, node: NodeId, child: u32, part: u32, label: &str, value: f32) {
        if !self.held {
            return;
        }
        // A new label is shared once, before any event naming it is handed over.
        let shared = &self.shared.labels;
        let label = self.labels.index_or_add(label, |new| {
            let mut all = shared.lock().unwrap_or_else(|e| e.into_inner());
            all.push(new.to_owned());
        });
        self.record(Event::Considered {
            node,
            child,
            part,
            label,
            value,
        });
    }

    fn tick_finished(&mut self, status: Status) {
        if !self.held {
            return;
        }
        self.record(Event::TickFinished { status });
        self.finished = true;
        if !self.records_context {
            self.hand_over();
        }
    }
}

impl Drop for ObservedAgent {
    fn drop(&mut self) {
        self.shared.gone.store(true, Ordering::SeqCst);
        self.shared.count_change();
    }
}

/// The server's side of one followed agent: its bounded history.
#[derive(Debug)]
pub(crate) struct History {
    recorder: TraceRecorder,
    /// The tree it records ([`Tree::generation`]).
    generation: u64,
    /// How many times the history restarted after dropped events.
    pub restarts: u64,
    /// Context entries recorded since the last restart.
    contexts: u64,
    /// Events recorded in the current tick after its `TickStarted`.
    tick_events: usize,
    /// The newest events that stopped the game (`{tick, event, reason}`:
    /// event `event` of tick `tick`, from 1, as the page seeks), at most [`STOPS_KEPT`].
    stops: VecDeque<Value>,
    /// How many events stopped the game since the history began.
    stop_count: u64,
    /// The results forced in the current tick (`{node, status}`), recorded
    /// in its context under [`FORCED_KEY`].
    tick_forced: Vec<Value>,
    /// The wake that started the current tick, recorded in its context under [`WOKE_KEY`].
    tick_woke: Option<Value>,
    /// The game's own context values of the current tick, if it recorded any.
    tick_values: Option<Value>,
}

/// The key of a tick's context values under which the live view records the
/// results the page forced in that tick (a list of `{"node", "status"}`):
/// a saved window says what was forced, and the page draws it.
pub const FORCED_KEY: &str = "behaved.forced";

/// The stops a history keeps for pages that have not been sent them.
const STOPS_KEPT: usize = 16;

/// What one page was last sent of a history, so that the next message
/// carries only what is new.
#[derive(Debug, Default)]
pub(crate) struct Sent {
    /// Whether the page has a window at all.
    window: bool,
    /// The history's restarts then.
    restarts: u64,
    /// The events recorded up to then, dropped ones included.
    recorded: u64,
    /// The events the window had dropped then.
    dropped: u64,
    /// The context entries recorded up to then.
    contexts: u64,
    /// The tick of the last context entry sent.
    context_tick: Option<u64>,
    /// The stops sent ([`History::stop_count`] then).
    stops: u64,
}

impl History {
    /// A history from now on: events handed over earlier are forgotten.
    fn new(agent: &AgentShared) -> History {
        let queue = agent.queue.lock().unwrap_or_else(|e| e.into_inner());
        while queue.try_recv().is_ok() {}
        agent.broken.store(false, Ordering::Relaxed);
        let (generation, nodes) = agent.tree();
        History {
            recorder: TraceRecorder::new(&nodes, HISTORY).expect("checked by Studio::agent"),
            generation,
            restarts: 0,
            contexts: 0,
            tick_events: 0,
            stops: VecDeque::new(),
            stop_count: 0,
            tick_forced: Vec::new(),
            tick_woke: None,
            tick_values: None,
        }
    }

    /// Whether a page that was sent `sent` stops has new ones to be sent.
    pub fn has_new_stops(&self, sent: &Sent) -> bool {
        self.stop_count > sent.stops
    }

    /// The stops not yet sent to a page that was sent `sent` stops, and notes them as sent.
    pub fn new_stops(&self, sent: &mut Sent) -> Vec<Value> {
        let new = (self.stop_count - sent.stops).min(self.stops.len() as u64) as usize;
        sent.stops = self.stop_count;
        self.stops.iter().skip(self.stops.len() - new).cloned().collect()
    }

    /// Takes what the game thread handed over into the history: it starts
    /// afresh after dropped events or with a replaced tree, whose events
    /// alone it then takes.
    pub fn drain(&mut self, agent: &AgentShared) {
        self.take(agent, agent.tree());
    }

    /// [`drain`](Self::drain) with the agent's tree as read, `tree`: the
    /// game may have replaced it since. Each handover says which tree it was
    /// recorded with, so none of the newest tree is lost: one of a tree
    /// newer than the history's reads the tree again and starts afresh.
    fn take(&mut self, agent: &AgentShared, tree: (u64, Arc<[TraceNode]>)) {
        if agent.broken.swap(false, Ordering::Relaxed) || tree.0 != self.generation {
            self.restart(tree);
        }
        let queue = agent.queue.lock().unwrap_or_else(|e| e.into_inner());
        for handover in queue.try_iter() {
            if handover.generation > self.generation {
                // Replaced after it was read: the tree now is this handover's or a newer one.
                self.restart(agent.tree());
            }
            // Older handovers are of a tree that was replaced.
            if handover.generation == self.generation {
                let labels = agent.labels.lock().unwrap_or_else(|e| e.into_inner());
                self.record(&handover, &labels);
            }
        }
    }

    /// Starts afresh with the tree `(generation, nodes)`.
    fn restart(&mut self, (generation, nodes): (u64, Arc<[TraceNode]>)) {
        self.recorder = TraceRecorder::new(&nodes, HISTORY).expect("checked by Studio::agent");
        self.generation = generation;
        self.restarts += 1;
        self.contexts = 0;
    }

    /// Replays what was handed over into the history; `labels` names the
    /// score parts of its `considered` events.
    fn record(&mut self, handover: &Handover, labels: &[String]) {
        let mut context = handover.context.iter().peekable();
        let mut stops = handover.stops.iter().peekable();
        let mut forced = handover.forced.iter().peekable();
        let mut woke = handover.woke.iter().peekable();
        for (i, &event) in handover.events.iter().enumerate() {
            while let Some((_, values)) = context.next_if(|(at, _)| *at == i) {
                self.tick_values = Some(values.clone());
                self.record_context();
            }
            while let Some((_, value)) = woke.next_if(|(at, _)| *at == i) {
                self.tick_woke = Some(value.clone());
                self.record_context();
            }
            if let Event::TickStarted { .. } = event {
                self.tick_forced.clear();
                self.tick_woke = None;
                self.tick_values = None;
            }
            while let Some(&(_, node, status)) = forced.next_if(|(at, ..)| *at == i) {
                self.tick_forced
                    .push(json!({ "node": node.0, "status": status_name(status) }));
                self.record_context();
            }
            self.tick_events += 1;
            match event {
                Event::TickStarted { now, .. } => {
                    self.recorder.tick_started(now);
                    self.tick_events = 0;
                }
                Event::Entered { node } => self.recorder.entered(node),
                Event::Ticked { node, status } => self.recorder.ticked(node, status),
                Event::Halted { node } => self.recorder.halted(node),
                Event::Scored { node, child, score } => self.recorder.scored(node, child, score),
                Event::Considered {
                    node,
                    child,
                    part,
                    label,
                    value,
                } => {
                    let label = labels.get(label as usize).map_or("", String::as_str);
                    self.recorder.considered(node, child, part, label, value)
                }
                Event::TickFinished { status } => self.recorder.tick_finished(status),
            }
            if let Some((_, reason)) = stops.next_if(|(at, _)| *at == i) {
                if self.stops.len() == STOPS_KEPT {
                    self.stops.pop_front();
                }
                let tick = self.recorder.last_tick();
                self.stops
                    .push_back(json!({ "tick": tick, "event": self.tick_events, "reason": reason }));
                self.stop_count += 1;
            }
        }
        for &(_, node, status) in forced {
            self.tick_forced
                .push(json!({ "node": node.0, "status": status_name(status) }));
            self.record_context();
        }
        for (_, values) in context {
            self.tick_values = Some(values.clone());
            self.record_context();
        }
        for (_, value) in woke {
            self.tick_woke = Some(value.clone());
            self.record_context();
        }
    }

    /// Records the current tick's context: the game's values, with the
    /// results forced in the tick under [`FORCED_KEY`] and its wake under [`WOKE_KEY`].
    fn record_context(&mut self) {
        let plain = self.tick_forced.is_empty() && self.tick_woke.is_none();
        let values = match (self.tick_values.clone(), plain) {
            (Some(values), true) => values,
            (values, false) => {
                let mut merged = match values {
                    Some(Value::Object(map)) => map,
                    None => serde_json::Map::new(),
                    Some(other) => [("values".to_owned(), other)].into_iter().collect(),
                };
                if !self.tick_forced.is_empty() {
                    merged.insert(FORCED_KEY.to_owned(), Value::Array(self.tick_forced.clone()));
                }
                if let Some(woke) = &self.tick_woke {
                    merged.insert(WOKE_KEY.to_owned(), woke.clone());
                }
                Value::Object(merged)
            }
            (None, true) => return,
        };
        self.recorder.record_context(&values).expect("a JSON value serializes");
        self.contexts += 1;
    }

    /// What a page that was sent `sent` needs next, and notes it as sent: the
    /// whole window (`"trace"`) the first time, after a restart, or when the
    /// window dropped events the page never got; otherwise only what is new
    /// (`"append"`: the new events, the context entries from the last one
    /// sent on, and the window's new `start` when it dropped old ticks).
    /// `None` when nothing is new.
    pub fn update(&self, sent: &mut Sent) -> Option<(&'static str, Value)> {
        let dropped = self.recorder.dropped_events();
        let recorded = dropped + self.recorder.events().len() as u64;
        let last_context = self.recorder.context().last().map(|c| c.tick);
        let fresh = !sent.window || sent.restarts != self.restarts || sent.recorded < dropped;
        if !fresh && recorded == sent.recorded && self.contexts == sent.contexts {
            return None;
        }
        let message = if fresh {
            ("trace", serde_json::to_value(self.recorder.trace()))
        } else {
            let skip = (sent.recorded - dropped) as usize;
            let events: Vec<&Event> = self.recorder.events().skip(skip).collect();
            let context: Vec<_> = match sent.context_tick {
                _ if self.contexts == sent.contexts => Vec::new(),
                Some(tick) => self.recorder.context().filter(|c| c.tick >= tick).collect(),
                None => self.recorder.context().collect(),
            };
            let start = (dropped != sent.dropped).then(|| self.recorder.start());
            (
                "append",
                serde_json::to_value(serde_json::json!({
                    "events": events,
                    "context": context,
                    "start": start,
                    // Every score part's label (the new events may name new ones).
                    "labels": self.recorder.labels(),
                })),
            )
        };
        *sent = Sent {
            window: true,
            restarts: self.restarts,
            recorded,
            dropped,
            contexts: self.contexts,
            context_tick: last_context,
            stops: sent.stops,
        };
        Some((message.0, message.1.expect("a trace serializes")))
    }
}

/// Counts a page following an agent for as long as it lives.
pub(crate) struct Following(pub Arc<AgentShared>);

impl Following {
    /// Starts the agent's history if nobody followed it, then counts the page.
    pub fn new(agent: Arc<AgentShared>) -> Following {
        {
            let mut history = agent.history.lock().unwrap_or_else(|e| e.into_inner());
            if history.is_none() {
                *history = Some(History::new(&agent));
            }
            agent.followers.fetch_add(1, Ordering::Relaxed);
        }
        Following(agent)
    }
}

impl Drop for Following {
    fn drop(&mut self) {
        let mut history = self.0.history.lock().unwrap_or_else(|e| e.into_inner());
        if self.0.followers.fetch_sub(1, Ordering::Relaxed) == 1 {
            *history = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use behaved_observe::Trace;
    use behaved_runtime::NodeKind;

    use super::*;

    /// The names of the trees waiting, oldest first.
    fn waiting(registry: &Registry) -> Vec<String> {
        registry
            .reloads
            .lock()
            .unwrap()
            .iter()
            .map(|r| format!("{}:{}", r.name, r.tree.len()))
            .collect()
    }

    #[test]
    fn a_newer_save_of_a_file_replaces_the_one_not_taken_and_the_trees_waiting_are_bounded() {
        let registry = Registry::default();
        let queue = |name: &str, bytes: usize| {
            registry.queue_reload(Reload {
                name: name.to_owned(),
                tree: " ".repeat(bytes),
            })
        };
        queue("a.json", 1);
        queue("b.json", 2);
        queue("a.json", 3);
        assert_eq!(
            waiting(&registry),
            ["b.json:2", "a.json:3"],
            "the game loads a.json once, as last saved"
        );
        // Past RELOAD_BYTES_WAITING besides the newest, the oldest go.
        let third = RELOAD_BYTES_WAITING / 3;
        queue("c.json", third);
        queue("d.json", third);
        assert_eq!(
            waiting(&registry),
            [
                "b.json:2",
                "a.json:3",
                &format!("c.json:{third}"),
                &format!("d.json:{third}")
            ]
        );
        queue("e.json", third);
        assert_eq!(
            waiting(&registry),
            [
                format!("c.json:{third}"),
                format!("d.json:{third}"),
                format!("e.json:{third}")
            ]
        );
        queue("f.json", RELOAD_BYTES_WAITING);
        assert_eq!(
            waiting(&registry),
            [format!("f.json:{RELOAD_BYTES_WAITING}")],
            "the newest always waits"
        );
        // And past RELOADS_WAITING files.
        for i in 0..=RELOADS_WAITING {
            queue(&format!("{i}.json"), 1);
        }
        let names = waiting(&registry);
        assert_eq!(names.len(), RELOADS_WAITING);
        assert_eq!(
            (names[0].as_str(), names[RELOADS_WAITING - 1].as_str()),
            ("1.json:1", "16.json:1")
        );
    }

    /// A node table: a sequence over `leaves` actions (just an action for none).
    fn table(leaves: u32) -> Vec<TraceNode> {
        let node = |id, parent, kind| TraceNode {
            id,
            parent,
            kind,
            label: format!("n{id}"),
            line: 0,
        };
        if leaves == 0 {
            return vec![node(0, None, NodeKind::Action)];
        }
        let mut nodes = vec![node(0, None, NodeKind::Sequence)];
        nodes.extend((1..=leaves).map(|id| node(id, Some(0), NodeKind::Action)));
        nodes
    }

    /// One tick of the game, in which `node` runs to success.
    fn tick(agent: &mut ObservedAgent, now: f64, node: u32) {
        agent.tick_started(now);
        agent.entered(NodeId(node));
        agent.ticked(NodeId(node), Status::Success);
        agent.tick_finished(Status::Success);
    }

    /// The server's history of the agent, as a trace.
    fn history(shared: &AgentShared) -> Trace {
        shared.history.lock().unwrap().as_ref().unwrap().recorder.trace()
    }

    #[test]
    fn a_tick_of_the_new_tree_handed_over_while_the_server_reads_the_old_one_is_kept() {
        let registry = Registry::default();
        let mut agent = registry.register("guard", &table(0)).unwrap();
        let shared = Arc::clone(&registry.agents.lock().unwrap()[0]);
        let _following = Following::new(Arc::clone(&shared));
        tick(&mut agent, 1.0, 0);
        shared.history.lock().unwrap().as_mut().unwrap().drain(&shared);
        assert_eq!(history(&shared).events.len(), 4);

        // The server reads the tree; then the game replaces it and ticks; then the server takes the queue.
        let read = shared.tree();
        agent.replace_nodes(&table(2)).unwrap();
        tick(&mut agent, 2.0, 2);
        shared.history.lock().unwrap().as_mut().unwrap().take(&shared, read);
        // And on the next period.
        tick(&mut agent, 3.0, 1);
        shared.history.lock().unwrap().as_mut().unwrap().drain(&shared);

        let trace = history(&shared);
        assert_eq!(trace.nodes, table(2), "the history is of the new tree");
        let nodes: Vec<Option<u32>> = trace
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Entered { node } => Some(Some(node.0)),
                Event::TickStarted { .. } => Some(None),
                _ => None,
            })
            .collect();
        assert_eq!(
            nodes,
            [None, Some(2), None, Some(1)],
            "both ticks of the new tree, in order"
        );
        assert_eq!(shared.history.lock().unwrap().as_ref().unwrap().restarts, 1);
    }
}

//! Recording the events of the last ticks in a bounded, preallocated buffer.

use std::collections::VecDeque;

use behaved_runtime::{NodeId, Observer, Status};

use serde::Serialize;

use crate::labels::Labels;
use crate::{Error, Event, NodeRow, StatusSnapshot, TickContext, Trace, TraceNode, TraceStart, trace};

/// An [`Observer`] that records the events of the most recent ticks in a ring
/// buffer of fixed capacity, for time travel ([`Cursor`](crate::Cursor)) and
/// trace files ([`Trace`]).
///
/// All memory is allocated by [`new`](Self::new): recording never allocates,
/// but for a score part's label (`Observer::considered`), copied once, the
/// first time it is seen.
/// When an event does not fit, the oldest whole tick is dropped (with any
/// halts that followed it) and folded into the recorder's starting state, so
/// the trace still reconstructs every remaining tick exactly. A single tick
/// with more events than the capacity is dropped from its oldest events on;
/// its end state stays exact.
///
/// Optionally it also keeps a serde view of the context after each tick
/// ([`record_context`](Self::record_context)); that allocates, for the
/// ticks it is used in. Context entries leave with their ticks.
///
/// Each event takes 24 bytes: a capacity of 10,000 keeps the last 500 ticks
/// of a tree that reports 20 events per tick in 240 KB.
#[derive(Debug, Clone)]
pub struct TraceRecorder {
    nodes: Vec<TraceNode>,
    start: StatusSnapshot,
    dropped: u64,
    events: VecDeque<Event>,
    capacity: usize,
    tick: u64,
    context: VecDeque<TickContext>,
    labels: Labels,
}

impl TraceRecorder {
    /// A recorder for the tree whose node table is `nodes`, keeping at most
    /// `capacity` events. Fails if the table is not a valid pre-order table.
    pub fn new<R: NodeRow>(nodes: &[R], capacity: usize) -> Result<TraceRecorder, Error> {
        Ok(TraceRecorder {
            start: StatusSnapshot::new(nodes)?,
            nodes: nodes.iter().map(TraceNode::from_row).collect(),
            dropped: 0,
            events: VecDeque::with_capacity(capacity),
            capacity,
            tick: 0,
            context: VecDeque::new(),
            labels: Labels::default(),
        })
    }

    /// The labels of the score parts recorded so far, by the index a
    /// `considered` event holds (the trace's [`labels`](Trace::labels)).
    pub fn labels(&self) -> &[String] {
        self.labels.all()
    }

    /// The most events the recorder keeps.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The recorded events, oldest first.
    pub fn events(&self) -> impl ExactSizeIterator<Item = &Event> {
        self.events.iter()
    }

    /// The first tick whose end state the recorded events can reconstruct.
    pub fn first_tick(&self) -> u64 {
        self.start.tick()
    }

    /// The number of the last tick started (ticks count from 1; 0 before the first).
    pub fn last_tick(&self) -> u64 {
        self.tick
    }

    /// How many events were dropped to make room (folded into the starting state).
    pub fn dropped_events(&self) -> u64 {
        self.dropped
    }

    /// Forgets every recorded event, keeping the current state as the new start.
    pub fn clear(&mut self) {
        while let Some(event) = self.events.pop_front() {
            self.fold(event);
        }
        self.forget_old_context();
    }

    /// Attaches `values`, a serde view of the context (a struct, a map of
    /// watched values, `serde_json::json!({..})`), to the last tick started:
    /// call it after the tick. A second call for the same tick replaces the
    /// first. Before the first tick it describes the starting state (tick 0).
    /// Fails, recording nothing, if `values` cannot be serialized.
    ///
    /// ```
    /// # use behaved::prelude::*;
    /// # use behaved_observe::{Cursor, TraceRecorder};
    /// # struct Ctx { hp: u32 }
    /// # behave! { tree Blink for Ctx { sequence { running } } }
    /// let mut recorder = TraceRecorder::new(Blink::NODES, 1000)?;
    /// let (mut tree, mut ctx) = (Blink::new(), Ctx { hp: 10 });
    /// for t in 0..3 {
    ///     ctx.hp -= 1;
    ///     tree.tick_observed(&mut ctx, t as f64, &mut recorder);
    ///     recorder.record_context(&serde_json::json!({ "hp": ctx.hp }))?;
    /// }
    /// let trace = recorder.trace();
    /// let mut cursor = Cursor::new(&trace)?;
    /// cursor.seek(2)?;
    /// assert_eq!(cursor.context().unwrap().values["hp"], 8);
    /// # Ok::<(), behaved_observe::Error>(())
    /// ```
    pub fn record_context<T: Serialize + ?Sized>(&mut self, values: &T) -> Result<(), Error> {
        let values = serde_json::to_value(values)?;
        match self.context.back_mut() {
            Some(last) if last.tick == self.tick => last.values = values,
            _ => self.context.push_back(TickContext {
                tick: self.tick,
                values,
            }),
        }
        self.forget_old_context();
        Ok(())
    }

    /// The context entries recorded, oldest first.
    pub fn context(&self) -> impl ExactSizeIterator<Item = &TickContext> {
        self.context.iter()
    }

    /// Drops the context of ticks the recorder no longer holds.
    fn forget_old_context(&mut self) {
        while self.context.front().is_some_and(|c| c.tick < self.start.tick()) {
            self.context.pop_front();
        }
    }

    /// Where the recorded events start: the state they apply to (allocates).
    pub fn start(&self) -> TraceStart {
        TraceStart {
            tick: self.start.tick(),
            now: self.start.now(),
            dropped_events: self.dropped,
            statuses: self.start.statuses().to_vec(),
        }
    }

    /// A copy of what is recorded, as a self-contained [`Trace`] (allocates).
    pub fn trace(&self) -> Trace {
        Trace {
            format: trace::TRACE_FORMAT.to_owned(),
            version: trace::TRACE_VERSION,
            nodes: self.nodes.clone(),
            start: self.start(),
            labels: self.labels.all().to_vec(),
            events: self.events.iter().copied().collect(),
            coverage: None,
            context: self.context.iter().cloned().collect(),
        }
    }

    fn record(&mut self, event: Event) {
        if self.capacity == 0 {
            self.fold(event);
            self.forget_old_context();
            return;
        }
        if self.events.len() >= self.capacity {
            self.drop_oldest_tick();
            self.forget_old_context();
        }
        self.events.push_back(event);
    }

    /// Drops the oldest event and every following one up to the next tick start.
    fn drop_oldest_tick(&mut self) {
        if let Some(event) = self.events.pop_front() {
            self.fold(event);
        }
        while let Some(&event) = self.events.front() {
            if matches!(event, Event::TickStarted { .. }) {
                break;
            }
            self.events.pop_front();
            self.fold(event);
        }
    }

    fn fold(&mut self, event: Event) {
        self.start.apply(&event, |_| {});
        self.dropped += 1;
    }
}

impl Observer for TraceRecorder {
    fn tick_started(&mut self, now: f64) {
        self.tick += 1;
        self.record(Event::TickStarted { tick: self.tick, now });
    }
    fn entered(&mut self, node: NodeId) {
        self.record(Event::Entered { node });
    }
    fn ticked(&mut self, node: NodeId, status: Status) {
        self.record(Event::Ticked { node, status });
    }
    fn halted(&mut self, node: NodeId) {
        self.record(Event::Halted { node });
    }
    fn scored(&mut self, node: NodeId, child: u32, score: f32) {
        self.record(Event::Scored { node, child, score });
    }
    fn considers(&self) -> bool {
        true
    }
    fn considered(&mut self, node: NodeId, child: u32, part: u32, label: &str, value: f32) {
        let label = self.labels.index(label);
        self.record(Event::Considered {
            node,
            child,
            part,
            label,
            value,
        });
    }
    fn tick_finished(&mut self, status: Status) {
        self.record(Event::TickFinished { status });
    }
}

//! Time travel: the state of every node at any tick of a recorded trace.

use behaved_runtime::{NodeId, Status};

use crate::{Error, Event, NodeState, StatusSnapshot, TickContext, Trace, TraceNode};

/// A full copy of the state is kept every this many ticks, so that a seek
/// replays at most this many ticks of events.
const CHECKPOINT_EVERY: u64 = 32;

/// A position in a [`Trace`]: the state of every node at the end of one tick,
/// with steps forward and back.
///
/// "The state at tick `t`" is what a live [`StatusSnapshot`] shows after all
/// events up to the start of tick `t + 1`: the end of tick `t`, plus any halts
/// reported between the ticks (a `reset`). Tick 0 is the state before the
/// first tick (all idle). A cursor can visit the ticks from
/// [`first_tick`](Self::first_tick) (the trace's [`start`](Trace::start)) to
/// [`last_tick`](Self::last_tick).
///
/// ```
/// # use behaved::prelude::*;
/// # use behaved_observe::{Cursor, NodeState, TraceRecorder};
/// # struct Ctx;
/// # behave! { tree Blink for Ctx { sequence { running } } }
/// let mut recorder = TraceRecorder::new(Blink::NODES, 1000)?;
/// let mut tree = Blink::new();
/// for t in 0..3 {
///     tree.tick_observed(&mut Ctx, t as f64, &mut recorder);
/// }
/// let trace = recorder.trace();
/// let mut cursor = Cursor::new(&trace)?;
/// assert_eq!(cursor.statuses(), [NodeState::Idle, NodeState::Idle]); // tick 0: before the first
/// cursor.seek(2)?;
/// assert_eq!(cursor.statuses(), [NodeState::Running, NodeState::Running]);
/// assert!(cursor.step_back() && cursor.tick() == 1);
/// # Ok::<(), behaved_observe::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Cursor<'t> {
    trace: &'t Trace,
    state: StatusSnapshot,
    tick: u64,
    /// `spans[k]` is the index of the first event of tick `first + k`; one
    /// more entry holds the number of events.
    spans: Vec<usize>,
    /// The state at ticks `first`, `first + CHECKPOINT_EVERY`, ...
    checkpoints: Vec<Vec<NodeState>>,
}

impl<'t> Cursor<'t> {
    /// A cursor at the first tick of `trace`, after [validating](Trace::validate) it.
    pub fn new(trace: &'t Trace) -> Result<Cursor<'t>, Error> {
        trace.validate()?;
        let mut spans = vec![0];
        spans.extend(
            trace
                .events
                .iter()
                .enumerate()
                .filter(|(_, e)| matches!(e, Event::TickStarted { .. }))
                .map(|(i, _)| i),
        );
        spans.push(trace.events.len());
        let mut state = StatusSnapshot::new(&trace.nodes)?;
        let first = trace.start.tick;
        state.load(&trace.start.statuses, first, trace.start.now);
        let mut cursor = Cursor {
            trace,
            state,
            tick: first,
            spans,
            checkpoints: Vec::new(),
        };
        for t in first..=cursor.last_tick() {
            cursor.apply_tick_events(t);
            if (t - first).is_multiple_of(CHECKPOINT_EVERY) {
                cursor.checkpoints.push(cursor.state.statuses().to_vec());
            }
        }
        cursor.restore(first);
        Ok(cursor)
    }

    /// The trace's node table.
    pub fn nodes(&self) -> &'t [TraceNode] {
        &self.trace.nodes
    }

    /// The first tick the cursor can show.
    pub fn first_tick(&self) -> u64 {
        self.trace.start.tick
    }

    /// The last tick the cursor can show.
    pub fn last_tick(&self) -> u64 {
        self.trace.start.tick + (self.spans.len() as u64 - 2)
    }

    /// The tick the cursor is at.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// The time of the current tick; `None` at tick 0 (or if not recorded).
    pub fn now(&self) -> Option<f64> {
        match self.events().first() {
            Some(&Event::TickStarted { now, .. }) => Some(now),
            _ if self.tick == self.first_tick() => self.trace.start.now,
            _ => None,
        }
    }

    /// What the root returned at the end of the current tick, if recorded.
    pub fn root_status(&self) -> Option<Status> {
        self.events().iter().rev().find_map(|e| match *e {
            Event::TickFinished { status } => Some(status),
            _ => None,
        })
    }

    /// The state of every node at the current tick, indexed by node id.
    pub fn statuses(&self) -> &[NodeState] {
        self.state.statuses()
    }

    /// The state of one node at the current tick; `None` if there is no such node.
    pub fn status(&self, node: NodeId) -> Option<NodeState> {
        self.state.status(node)
    }

    /// The context values at the current tick: the trace's entry for it, or
    /// else the last entry before it (the values did not change since, or
    /// were not recorded); `None` if there is none.
    pub fn context(&self) -> Option<&'t TickContext> {
        let after = self.trace.context.partition_point(|c| c.tick <= self.tick);
        after.checked_sub(1).map(|i| &self.trace.context[i])
    }

    /// The events of the current tick (see [`TickEvents::events`](crate::TickEvents::events)).
    pub fn events(&self) -> &'t [Event] {
        let k = (self.tick - self.first_tick()) as usize;
        &self.trace.events[self.spans[k]..self.spans[k + 1]]
    }

    /// Moves to `tick`. Fails, without moving, if the trace does not hold it.
    pub fn seek(&mut self, tick: u64) -> Result<(), Error> {
        let (first, last) = (self.first_tick(), self.last_tick());
        if tick < first || tick > last {
            return Err(Error::TickOutOfRange { tick, first, last });
        }
        let checkpoint = first + (tick - first) / CHECKPOINT_EVERY * CHECKPOINT_EVERY;
        if tick < self.tick || checkpoint > self.tick {
            self.restore(checkpoint);
        }
        for t in self.tick + 1..=tick {
            self.apply_tick_events(t);
        }
        Ok(())
    }

    /// Moves one tick forward; `false` (not moving) at the last tick.
    pub fn step_forward(&mut self) -> bool {
        self.tick < self.last_tick() && self.seek(self.tick + 1).is_ok()
    }

    /// Moves one tick back; `false` (not moving) at the first tick.
    pub fn step_back(&mut self) -> bool {
        self.tick > self.first_tick() && self.seek(self.tick - 1).is_ok()
    }

    /// Sets the state to the checkpoint at `tick` (a multiple of the spacing past `first`).
    fn restore(&mut self, tick: u64) {
        let k = ((tick - self.first_tick()) / CHECKPOINT_EVERY) as usize;
        self.state.load(&self.checkpoints[k], tick, None);
        self.tick = tick;
    }

    /// Applies the events of tick `t`, which must follow the current one (or
    /// be the first tick, applied over the starting state).
    fn apply_tick_events(&mut self, t: u64) {
        self.tick = t;
        let k = (t - self.first_tick()) as usize;
        for event in &self.trace.events[self.spans[k]..self.spans[k + 1]] {
            self.state.apply(event, |_| {});
        }
    }
}

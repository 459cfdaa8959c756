//! The trace file format: a node table, the state the trace starts from, and
//! the events of the ticks that follow (see `TRACE_FORMAT.md`).

use std::io;

use behaved_runtime::{NodeId, NodeKind, Status};
use serde::{Deserialize, Serialize};

use crate::{Error, NodeRow, NodeState, TickContext, table};

/// The `format` field of every trace.
pub const TRACE_FORMAT: &str = "bt-trace";
/// The `version` of the trace format this crate writes. It reads this one and
/// every earlier one ([`OLDEST_TRACE_VERSION`] on): version 2 added the
/// optional [`context`](Trace::context), version 3 the `scored` and
/// `considered` events ([`Event::Scored`], [`Event::Considered`]) and the
/// [`labels`](Trace::labels) of score parts. Version 3 was extended with
/// `considered` before any release wrote it, so it stays 3.
pub const TRACE_VERSION: u32 = 3;
/// The oldest `version` of the trace format this crate still reads.
pub const OLDEST_TRACE_VERSION: u32 = 1;

/// One observer event, as recorded. The order of events is the order the
/// tree reported them (see [`behaved_runtime::Observer`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// Tick number `tick` (counting from 1) began at time `now`.
    TickStarted {
        /// The tick's number.
        tick: u64,
        /// The time passed to the tick.
        now: f64,
    },
    /// `node` was ticked while idle: a new activation begins.
    Entered {
        /// The node.
        #[serde(with = "id")]
        node: NodeId,
    },
    /// `node` returned `status`.
    Ticked {
        /// The node.
        #[serde(with = "id")]
        node: NodeId,
        /// What it returned.
        #[serde(with = "status")]
        status: Status,
    },
    /// `node` was interrupted while running.
    Halted {
        /// The node.
        #[serde(with = "id")]
        node: NodeId,
    },
    /// The `utility` node `node` scored its child `child` (its index among
    /// the node's children): why a choice was made
    /// ([`Observer::scored`](behaved_runtime::Observer::scored)). A score that
    /// is not a finite number is written `null` and read as NaN.
    Scored {
        /// The `utility` node.
        #[serde(with = "id")]
        node: NodeId,
        /// The child's index among the node's children.
        child: u32,
        /// Its score.
        #[serde(with = "score")]
        score: f32,
    },
    /// Part `part` of child `child`'s score of the `utility` (or `pick`)
    /// node `node`: one consideration's value, after its own curve and
    /// weight ([`Observer::considered`](behaved_runtime::Observer::considered)),
    /// recorded just before that child's [`Scored`](Event::Scored). `label`
    /// is the part's label's index in the trace's [`labels`](Trace::labels).
    /// A value that is not a finite number is written `null` and read as NaN.
    Considered {
        /// The `utility` or `pick` node.
        #[serde(with = "id")]
        node: NodeId,
        /// The child's (or candidate's) index.
        child: u32,
        /// The part's position among the score's parts.
        part: u32,
        /// The part's label: its index in [`Trace::labels`].
        label: u32,
        /// Its value.
        #[serde(with = "score")]
        value: f32,
    },
    /// The tick ended with the root returning `status`.
    TickFinished {
        /// The root's status.
        #[serde(with = "status")]
        status: Status,
    },
}

impl Event {
    /// The node the event is about, if any.
    pub fn node(&self) -> Option<NodeId> {
        match *self {
            Event::Entered { node }
            | Event::Ticked { node, .. }
            | Event::Halted { node }
            | Event::Scored { node, .. }
            | Event::Considered { node, .. } => Some(node),
            Event::TickStarted { .. } | Event::TickFinished { .. } => None,
        }
    }
}

/// How often one node did each thing over a run, or over a whole test
/// suite: a trace's optional `coverage`, one entry per node, from which
/// coverage tables (`behaved-testing`) and heat maps are drawn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NodeCounts {
    /// Activations started (`entered` events).
    pub entered: u64,
    /// Ticks that returned `Success`.
    pub success: u64,
    /// Ticks that returned `Failure`.
    pub failure: u64,
    /// Ticks that returned `Running`.
    pub running: u64,
    /// Halts.
    pub halted: u64,
}

impl NodeCounts {
    /// Counts one event about this node (events about no node count nothing).
    pub fn count(&mut self, event: &Event) {
        match *event {
            Event::Entered { .. } => self.entered += 1,
            Event::Ticked { status, .. } => match status {
                Status::Success => self.success += 1,
                Status::Failure => self.failure += 1,
                Status::Running => self.running += 1,
            },
            Event::Halted { .. } => self.halted += 1,
            Event::TickStarted { .. }
            | Event::TickFinished { .. }
            | Event::Scored { .. }
            | Event::Considered { .. } => {}
        }
    }

    /// Adds another run's counts to these.
    pub fn add(&mut self, other: &NodeCounts) {
        self.entered += other.entered;
        self.success += other.success;
        self.failure += other.failure;
        self.running += other.running;
        self.halted += other.halted;
    }

    /// Ticks of any status.
    pub fn ticked(&self) -> u64 {
        self.success + self.failure + self.running
    }

    /// `true` when the node was ticked at least once.
    pub fn reached(&self) -> bool {
        self.ticked() > 0
    }
}

/// One row of a trace's node table: a [`behaved_runtime::NodeInfo`] with owned text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceNode {
    /// Position in depth-first pre-order; equal to the row's index.
    pub id: u32,
    /// The parent's id; `None` for the root.
    pub parent: Option<u32>,
    /// The kind of node, written as its JSON name (`"reactiveSelector"`).
    #[serde(with = "kind")]
    pub kind: NodeKind,
    /// The node as written in the source.
    pub label: String,
    /// The source line (0 if unknown).
    pub line: u32,
}

impl TraceNode {
    /// Copies any node table row.
    pub fn from_row<R: NodeRow>(row: &R) -> TraceNode {
        TraceNode {
            id: row.id(),
            parent: row.parent(),
            kind: row.kind(),
            label: row.label().to_owned(),
            line: row.line(),
        }
    }
}

impl NodeRow for TraceNode {
    fn id(&self) -> u32 {
        self.id
    }
    fn parent(&self) -> Option<u32> {
        self.parent
    }
    fn kind(&self) -> NodeKind {
        self.kind
    }
    fn label(&self) -> &str {
        &self.label
    }
    fn line(&self) -> u32 {
        self.line
    }
}

/// Where a trace starts: the state of every node just before its first event.
/// A bounded recorder folds the events it drops into this state, so a trace
/// always reconstructs exactly, however much it has forgotten.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceStart {
    /// The tick the first event belongs to (0: before the first tick). The
    /// state at the end of this tick can be shown; earlier ticks cannot.
    pub tick: u64,
    /// The time of that tick, if it had started.
    pub now: Option<f64>,
    /// How many earlier events were dropped and folded into `statuses`.
    pub dropped_events: u64,
    /// The state of every node, indexed by node id.
    pub statuses: Vec<NodeState>,
}

/// A recorded run: node table, starting state and events. Made by
/// [`TraceRecorder::trace`](crate::TraceRecorder::trace), written and read as
/// JSON, replayed with a [`Cursor`](crate::Cursor).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// Always [`TRACE_FORMAT`].
    pub format: String,
    /// Always [`TRACE_VERSION`] for traces this crate writes.
    pub version: u32,
    /// The tree's node table, in depth-first pre-order.
    pub nodes: Vec<TraceNode>,
    /// The state the events start from.
    pub start: TraceStart,
    /// The labels of the score parts the `considered` events name (by
    /// index), each once; empty when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
    /// The recorded events, oldest first.
    pub events: Vec<Event>,
    /// How often each node did what, indexed by node id, if the trace
    /// carries coverage (written by `behaved-testing`; absent from recordings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Vec<NodeCounts>>,
    /// The values the user attached to ticks (see
    /// [`TraceRecorder::record_context`](crate::TraceRecorder::record_context)),
    /// oldest first, at most one per tick; empty when none were (and in
    /// version 1 files).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub context: Vec<TickContext>,
}

/// The events of one tick of a trace, as returned by [`Trace::ticks`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TickEvents<'t> {
    /// The tick's number.
    pub tick: u64,
    /// The tick's time, if known.
    pub now: Option<f64>,
    /// The events from the tick's `tick_started` up to the next tick's (halts
    /// from a reset between ticks included). For the trace's first tick, the
    /// events before the first `tick_started`.
    pub events: &'t [Event],
}

impl Trace {
    /// Checks everything a reader relies on: format and version, a valid
    /// node table, one starting status per node, known node ids in every event,
    /// tick numbers that follow on from `start.tick` one by one, and context
    /// entries for ticks the trace holds, in order.
    pub fn validate(&self) -> Result<(), Error> {
        if self.format != TRACE_FORMAT || !(OLDEST_TRACE_VERSION..=TRACE_VERSION).contains(&self.version) {
            return Err(Error::Format {
                format: self.format.clone(),
                version: self.version,
            });
        }
        table::subtree_ends(&self.nodes)?;
        if self.start.statuses.len() != self.nodes.len() {
            return Err(Error::StatusCount {
                expected: self.nodes.len(),
                found: self.start.statuses.len(),
            });
        }
        if let Some(coverage) = &self.coverage
            && coverage.len() != self.nodes.len()
        {
            return Err(Error::CoverageCount {
                expected: self.nodes.len(),
                found: coverage.len(),
            });
        }
        let mut expected = self.start.tick + 1;
        for (i, event) in self.events.iter().enumerate() {
            if let Some(node) = event.node()
                && node.index() >= self.nodes.len()
            {
                return Err(Error::UnknownNode {
                    event: i,
                    node: node.0,
                    nodes: self.nodes.len(),
                });
            }
            if let Event::Considered { label, .. } = *event
                && label as usize >= self.labels.len()
            {
                return Err(Error::UnknownLabel {
                    event: i,
                    label,
                    labels: self.labels.len(),
                });
            }
            if let Event::TickStarted { tick, .. } = *event {
                if tick != expected {
                    return Err(Error::TickOrder {
                        event: i,
                        expected,
                        found: tick,
                    });
                }
                expected += 1;
            }
        }
        let mut after = None;
        for (entry, context) in self.context.iter().enumerate() {
            let min = after.map_or(self.start.tick, |t: u64| t + 1);
            let last = expected - 1;
            if context.tick < min || context.tick > last {
                return Err(Error::ContextTick {
                    entry,
                    tick: context.tick,
                    min,
                    last,
                });
            }
            after = Some(context.tick);
        }
        Ok(())
    }

    /// The first tick whose end state the trace can show ([`TraceStart::tick`]).
    pub fn first_tick(&self) -> u64 {
        self.start.tick
    }

    /// The last tick the trace holds.
    pub fn last_tick(&self) -> u64 {
        self.events
            .iter()
            .rev()
            .find_map(|e| match *e {
                Event::TickStarted { tick, .. } => Some(tick),
                _ => None,
            })
            .unwrap_or(self.start.tick)
    }

    /// The events tick by tick, from [`first_tick`](Self::first_tick) to
    /// [`last_tick`](Self::last_tick).
    pub fn ticks(&self) -> impl Iterator<Item = TickEvents<'_>> {
        let is_start = |e: &Event| matches!(e, Event::TickStarted { .. });
        let head_end = self.events.iter().position(is_start).unwrap_or(self.events.len());
        let head = TickEvents {
            tick: self.start.tick,
            now: self.start.now,
            events: &self.events[..head_end],
        };
        let mut rest = &self.events[head_end..];
        core::iter::once(head).chain(core::iter::from_fn(move || {
            let Some(&Event::TickStarted { tick, now }) = rest.first() else {
                return None;
            };
            let end = rest[1..].iter().position(is_start).map_or(rest.len(), |p| p + 1);
            let (events, tail) = rest.split_at(end);
            rest = tail;
            Some(TickEvents {
                tick,
                now: Some(now),
                events,
            })
        }))
    }

    /// The trace as JSON, one node, event, coverage and context entry per line (see `TRACE_FORMAT.md`).
    pub fn to_json(&self) -> Result<String, Error> {
        let mut out = Vec::new();
        self.write_json(&mut out)?;
        String::from_utf8(out).map_err(|e| Error::Json(serde::ser::Error::custom(e)))
    }

    /// Writes the trace as JSON, one node and one event per line.
    pub fn write_json<W: io::Write>(&self, mut out: W) -> Result<(), Error> {
        let io = |e: io::Error| Error::Json(serde_json::Error::io(e));
        write!(
            out,
            "{{\"format\":{},\"version\":{},\n\"nodes\":[",
            serde_json::to_string(&self.format)?,
            self.version
        )
        .map_err(io)?;
        write_lines(&mut out, &self.nodes)?;
        write!(out, "],\n\"start\":{},\n", serde_json::to_string(&self.start)?).map_err(io)?;
        if !self.labels.is_empty() {
            write!(
                out,
                "\"labels\":{},\n\"events\":[",
                serde_json::to_string(&self.labels)?
            )
            .map_err(io)?;
        } else {
            write!(out, "\"events\":[").map_err(io)?;
        }
        write_lines(&mut out, &self.events)?;
        if let Some(coverage) = &self.coverage {
            write!(out, "],\n\"coverage\":[").map_err(io)?;
            write_lines(&mut out, coverage)?;
        }
        if !self.context.is_empty() {
            write!(out, "],\n\"context\":[").map_err(io)?;
            write_lines(&mut out, &self.context)?;
        }
        writeln!(out, "]}}").map_err(io)
    }

    /// Reads and [validates](Self::validate) a trace from JSON text.
    pub fn from_json(text: &str) -> Result<Trace, Error> {
        let trace: Trace = serde_json::from_str(text)?;
        trace.validate()?;
        Ok(trace)
    }

    /// Reads and [validates](Self::validate) a trace from a JSON stream.
    pub fn read_json<R: io::Read>(reader: R) -> Result<Trace, Error> {
        let trace: Trace = serde_json::from_reader(reader)?;
        trace.validate()?;
        Ok(trace)
    }
}

/// Writes `items` as JSON values separated by `,`, each on its own line.
fn write_lines<W: io::Write, T: Serialize>(out: &mut W, items: &[T]) -> Result<(), Error> {
    for (i, item) in items.iter().enumerate() {
        out.write_all(if i == 0 { b"\n" } else { b",\n" })
            .map_err(serde_json::Error::io)?;
        serde_json::to_writer(&mut *out, item)?;
    }
    if !items.is_empty() {
        out.write_all(b"\n").map_err(serde_json::Error::io)?;
    }
    Ok(())
}

/// A [`NodeId`] as its number.
mod id {
    use super::*;

    pub fn serialize<S: serde::Serializer>(id: &NodeId, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(id.0)
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<NodeId, D::Error> {
        u32::deserialize(d).map(NodeId)
    }
}

/// A [`Status`] as its lower-case name.
mod status {
    use super::*;

    pub fn serialize<S: serde::Serializer>(status: &Status, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(status.name())
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Status, D::Error> {
        let name = String::deserialize(d)?;
        [Status::Success, Status::Failure, Status::Running]
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| {
                serde::de::Error::custom(format_args!(
                    "unknown status `{name}`, expected `success`, `failure` or `running`"
                ))
            })
    }
}

/// A score as a JSON number; one that is not finite (NaN, an infinity) as
/// `null`, which JSON has instead, read back as NaN.
mod score {
    use super::*;

    pub fn serialize<S: serde::Serializer>(score: &f32, s: S) -> Result<S::Ok, S::Error> {
        if score.is_finite() {
            s.serialize_f32(*score)
        } else {
            s.serialize_none()
        }
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        Option::<f32>::deserialize(d).map(|v| v.unwrap_or(f32::NAN))
    }
}

/// A [`NodeKind`] as its JSON name.
mod kind {
    use super::*;

    pub fn serialize<S: serde::Serializer>(kind: &NodeKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(kind.json_name())
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<NodeKind, D::Error> {
        let name = String::deserialize(d)?;
        NodeKind::from_json_name(&name).ok_or_else(|| {
            let hint = behaved_runtime::catalog::closest(&name, NodeKind::ALL.iter().map(|k| k.json_name()))
                .map(|k| format!(", did you mean `{k}`?"))
                .unwrap_or_default();
            serde::de::Error::custom(format_args!("unknown node kind `{name}`{hint}"))
        })
    }
}

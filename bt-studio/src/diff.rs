//! The first place where two traces of the same tree part ways.

use core::fmt;

use behaved_observe::{Cursor, Event, Trace, TraceNode};

/// Where two traces of one tree first differ.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    /// The tick.
    pub tick: u64,
    /// The event, counted from 1 within the tick; 0 when the traces already
    /// differ in the state they hold at the start of `tick` (the later of
    /// their first ticks).
    pub event: usize,
    /// The node the differing events (or states) are about, if any.
    pub node: Option<u32>,
    /// The first trace's event there (`None`: its tick has no more events).
    pub a: Option<Event>,
    /// The second trace's event there.
    pub b: Option<Event>,
}

/// What comparing two traces found.
#[derive(Debug, Clone, PartialEq)]
pub enum Comparison {
    /// Every tick both traces hold has the same events.
    Same {
        /// The first tick both hold.
        first: u64,
        /// The last tick both hold.
        last: u64,
    },
    /// The traces differ; here first.
    Diverge(Divergence),
}

/// Why two traces cannot be compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffError {
    /// The node tables differ: not the same tree.
    DifferentTrees(String),
    /// The traces hold no tick in common.
    NoCommonTicks {
        /// The ticks of the first trace.
        a: (u64, u64),
        /// The ticks of the second trace.
        b: (u64, u64),
    },
    /// A trace is not valid (see [`Trace::validate`]).
    Invalid(String),
}

impl fmt::Display for DiffError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiffError::DifferentTrees(why) => write!(f, "the traces are of different trees: {why}"),
            DiffError::NoCommonTicks { a, b } => write!(
                f,
                "the traces hold no tick in common: ticks {} to {} and {} to {}",
                a.0, a.1, b.0, b.1
            ),
            DiffError::Invalid(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for DiffError {}

/// Compares two traces of one tree tick by tick and event by event, over the
/// ticks both hold, and finds the first difference. Node tables must agree
/// in every node's parent, kind and label (source lines may move, so that a
/// run before and after an edit compares).
pub fn compare(a: &Trace, b: &Trace) -> Result<Comparison, DiffError> {
    same_tree(a, b)?;
    let invalid = |e: behaved_observe::Error| DiffError::Invalid(e.to_string());
    let (mut ca, mut cb) = (Cursor::new(a).map_err(invalid)?, Cursor::new(b).map_err(invalid)?);
    let first = ca.first_tick().max(cb.first_tick());
    let last = ca.last_tick().min(cb.last_tick());
    if first > last {
        return Err(DiffError::NoCommonTicks {
            a: (ca.first_tick(), ca.last_tick()),
            b: (cb.first_tick(), cb.last_tick()),
        });
    }
    ca.seek(first).map_err(invalid)?;
    cb.seek(first).map_err(invalid)?;
    if let Some(node) = (0..a.nodes.len()).find(|&n| ca.statuses()[n] != cb.statuses()[n]) {
        return Ok(Comparison::Diverge(Divergence {
            tick: first,
            event: 0,
            node: Some(node as u32),
            a: None,
            b: None,
        }));
    }
    for tick in first + 1..=last {
        ca.seek(tick).map_err(invalid)?;
        cb.seek(tick).map_err(invalid)?;
        let (ea, eb) = (ca.events(), cb.events());
        let Some(i) = (0..ea.len().max(eb.len())).find(|&i| ea.get(i) != eb.get(i)) else {
            continue;
        };
        let (a, b) = (ea.get(i).copied(), eb.get(i).copied());
        let node = a.and_then(|e| e.node()).or_else(|| b.and_then(|e| e.node()));
        return Ok(Comparison::Diverge(Divergence {
            tick,
            event: i + 1,
            node: node.map(|n| n.0),
            a,
            b,
        }));
    }
    Ok(Comparison::Same { first, last })
}

/// Checks that both traces have the same node table (lines aside).
fn same_tree(a: &Trace, b: &Trace) -> Result<(), DiffError> {
    if a.nodes.len() != b.nodes.len() {
        return Err(DiffError::DifferentTrees(format!(
            "the first has {} nodes, the second {}",
            a.nodes.len(),
            b.nodes.len()
        )));
    }
    for (x, y) in a.nodes.iter().zip(&b.nodes) {
        if (x.parent, x.kind, &x.label) != (y.parent, y.kind, &y.label) {
            let show = |n: &TraceNode| match n.parent {
                Some(p) => format!("`{}` ({}, child of #{p})", n.label, n.kind.json_name()),
                None => format!("`{}` ({}, the root)", n.label, n.kind.json_name()),
            };
            return Err(DiffError::DifferentTrees(format!(
                "node #{} is {} in the first and {} in the second",
                x.id,
                show(x),
                show(y)
            )));
        }
    }
    Ok(())
}

/// An event in words, naming its node: `ticked #3 Chase: running`.
pub fn describe(trace: &Trace, event: Option<&Event>) -> String {
    let node = |id: Event| {
        let n = id.node().map_or(0, |n| n.index());
        trace
            .nodes
            .get(n)
            .map_or_else(|| format!("#{n}"), |row| format!("#{n} {}", row.label))
    };
    match event {
        None => "no more events in the tick".to_owned(),
        Some(&e @ Event::Entered { .. }) => format!("entered {}", node(e)),
        Some(&e @ Event::Halted { .. }) => format!("halted {}", node(e)),
        Some(&e @ Event::Ticked { status, .. }) => format!("ticked {}: {}", node(e), status.name()),
        Some(&e @ Event::Scored { child, score, .. }) => format!("scored {}: child {child} {score}", node(e)),
        Some(&e @ Event::Considered { child, part, value, .. }) => {
            format!("considered {}: child {child} part {part} {value}", node(e))
        }
        Some(Event::TickStarted { tick, now }) => format!("tick {tick} started at {now} s"),
        Some(Event::TickFinished { status }) => format!("tick finished: {}", status.name()),
    }
}

impl Comparison {
    /// The comparison in words, as the page and the command line show it.
    pub fn describe(&self, a: &Trace, b: &Trace) -> String {
        match self {
            Comparison::Same { first, last } => {
                format!("the traces agree event for event over ticks {first} to {last}")
            }
            Comparison::Diverge(d) if d.event == 0 => format!(
                "the traces already differ in the state at tick {}, first at node #{}",
                d.tick,
                d.node.unwrap_or(0)
            ),
            Comparison::Diverge(d) => format!(
                "the traces part at tick {}, event {}: the first has {}, the second {}",
                d.tick,
                d.event,
                describe(a, d.a.as_ref()),
                describe(b, d.b.as_ref())
            ),
        }
    }
}

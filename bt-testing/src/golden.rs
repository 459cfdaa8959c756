//! Golden traces: a run recorded to a readable trace file once, and later
//! runs compared with it event by event.

use std::path::Path;

use behaved_observe::{Event, TickEvents, Trace, TraceNode};

use crate::Error;

/// The environment variable that rewrites golden files: `BEHAVED_GOLDEN=overwrite`.
pub const GOLDEN_ENV: &str = "BEHAVED_GOLDEN";

/// What [`check_with`] does with a golden file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Compare the run with the file.
    Compare,
    /// Write the run into the file.
    Overwrite,
}

impl Mode {
    /// `Overwrite` when `BEHAVED_GOLDEN=overwrite` is set, else `Compare`.
    pub fn from_env() -> Mode {
        match std::env::var(GOLDEN_ENV) {
            Ok(v) if v == "overwrite" => Mode::Overwrite,
            _ => Mode::Compare,
        }
    }
}

/// Compares `run` with the golden trace at `path`, or writes `run` there
/// when `BEHAVED_GOLDEN=overwrite` is set. A missing file is an error (CI must
/// not pass by recording); so is any difference, named by its first tick,
/// node and event. The trees are compared by id, parent, kind and label,
/// not by source line, so an edit above a tree does not fail its golden tests.
pub fn check(path: &Path, run: &Trace) -> Result<(), Error> {
    check_with(path, run, Mode::from_env())
}

/// [`check`] with the mode given rather than read from the environment.
pub fn check_with(path: &Path, run: &Trace, mode: Mode) -> Result<(), Error> {
    let io = |error| Error::Io {
        path: path.to_owned(),
        error,
    };
    if mode == Mode::Overwrite {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        return std::fs::write(path, run.to_json()?).map_err(io);
    }
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Error::Golden {
                path: path.to_owned(),
                message: "the file does not exist; record it with BEHAVED_GOLDEN=overwrite".into(),
            });
        }
        Err(e) => return Err(io(e)),
    };
    let golden = Trace::from_json(&text).map_err(|error| Error::Trace {
        path: Some(path.to_owned()),
        error,
    })?;
    match diff(&golden, run) {
        None => Ok(()),
        Some(message) => Err(Error::Golden {
            path: path.to_owned(),
            message,
        }),
    }
}

/// The first difference between an `expected` and an `actual` trace, in
/// words; `None` when they agree (source lines are not compared).
pub fn diff(expected: &Trace, actual: &Trace) -> Option<String> {
    if let Some(d) = diff_nodes(&expected.nodes, &actual.nodes) {
        return Some(d);
    }
    if expected.start != actual.start {
        return Some(format!(
            "the traces start differently: golden at tick {}, this run at tick {}",
            expected.start.tick, actual.start.tick
        ));
    }
    let nodes = &actual.nodes;
    let (mut e, mut a) = (expected.ticks(), actual.ticks());
    loop {
        match (e.next(), a.next()) {
            (None, None) => return None,
            (Some(t), None) => {
                return Some(format!(
                    "the run ended after tick {}; the golden trace goes on to tick {}",
                    t.tick - 1,
                    expected.last_tick()
                ));
            }
            (None, Some(t)) => {
                return Some(format!(
                    "the run goes on to tick {}; the golden trace ended after tick {}",
                    actual.last_tick(),
                    t.tick - 1
                ));
            }
            (Some(x), Some(y)) => {
                if let Some(d) = diff_tick(nodes, &x, &y) {
                    return Some(d);
                }
            }
        }
    }
}

fn diff_nodes(expected: &[TraceNode], actual: &[TraceNode]) -> Option<String> {
    let show = |n: &TraceNode| {
        format!(
            "#{} `{}` ({}{})",
            n.id,
            n.label,
            n.kind.json_name(),
            n.parent.map(|p| format!(" under #{p}")).unwrap_or_default()
        )
    };
    for (x, y) in expected.iter().zip(actual) {
        if x.id != y.id || x.parent != y.parent || x.kind != y.kind || x.label != y.label {
            return Some(format!(
                "the tree changed: node #{} was {} in the golden trace, is {} now",
                x.id,
                show(x),
                show(y)
            ));
        }
    }
    (expected.len() != actual.len()).then(|| {
        format!(
            "the tree changed: the golden trace has {} nodes, the tree now {}",
            expected.len(),
            actual.len()
        )
    })
}

fn diff_tick(nodes: &[TraceNode], expected: &TickEvents, actual: &TickEvents) -> Option<String> {
    let show = |e: Option<&Event>| match e {
        None => "nothing (the tick ends)".to_owned(),
        Some(e) => event_text(nodes, e),
    };
    let n = expected.events.len().max(actual.events.len());
    (0..n)
        .find(|&i| expected.events.get(i) != actual.events.get(i))
        .map(|i| {
            let node = expected.events.get(i).or(actual.events.get(i)).and_then(Event::node);
            let at_node = node
                .map(|id| format!(", node {}", crate::select::describe(nodes, id)))
                .unwrap_or_default();
            format!(
                "first difference at tick {}{at_node}, event {} of the tick:\n  golden:   {}\n  this run: {}",
                expected.tick,
                i + 1,
                show(expected.events.get(i)),
                show(actual.events.get(i))
            )
        })
}

/// An event in words: `#3 \`Chase\` returned running`.
pub(crate) fn event_text(nodes: &[TraceNode], e: &Event) -> String {
    let d = |id| crate::select::describe(nodes, id);
    match *e {
        Event::TickStarted { tick, now } => format!("tick {tick} starts at {now}"),
        Event::Entered { node } => format!("{} entered", d(node)),
        Event::Ticked { node, status } => format!("{} returned {}", d(node), status.name()),
        Event::Halted { node } => format!("{} halted", d(node)),
        Event::Scored { node, child, score } => format!("{} scored its child {child} {score}", d(node)),
        Event::Considered {
            node,
            child,
            part,
            value,
            ..
        } => format!(
            "{} considered part {part} of its child {child}'s score: {value}",
            d(node)
        ),
        Event::TickFinished { status } => format!("the root returned {}", status.name()),
    }
}

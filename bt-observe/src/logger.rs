//! A console logger in the spirit of BehaviorTree.CPP's `StdCoutLogger`.

use core::fmt;
use std::io;

use behaved_runtime::{NodeId, Observer, Status};

use crate::snapshot::{Cause, Change};
use crate::{Error, Event, NodeRow, NodeState, StatusSnapshot};

/// Where a [`ConsoleLogger`] writes: implemented by [`Io`] (files, stdout,
/// sockets) and [`Fmt`] (a `String`, a formatter).
pub trait LogSink {
    /// Writes formatted text.
    fn write_text(&mut self, text: fmt::Arguments<'_>) -> io::Result<()>;
}

/// A [`LogSink`] over any [`io::Write`], e.g. `Io(std::io::stdout())`.
#[derive(Debug, Clone, Default)]
pub struct Io<W>(pub W);

impl<W: io::Write> LogSink for Io<W> {
    fn write_text(&mut self, text: fmt::Arguments<'_>) -> io::Result<()> {
        self.0.write_fmt(text)
    }
}

/// A [`LogSink`] over any [`fmt::Write`], e.g. `Fmt(String::new())`.
#[derive(Debug, Clone, Default)]
pub struct Fmt<W>(pub W);

impl<W: fmt::Write> LogSink for Fmt<W> {
    fn write_text(&mut self, text: fmt::Arguments<'_>) -> io::Result<()> {
        self.0.write_fmt(text).map_err(io::Error::other)
    }
}

/// An [`Observer`] that writes one line per node state change, with the
/// tick number and time:
///
/// ```text
/// [tick 3 @ 1.000] #3 Chase     idle -> running
/// [tick 3 @ 1.000] #6 wait(1.0) running -> idle (halted)
/// ```
///
/// The states and their changes are those of a [`StatusSnapshot`] (so a
/// condition that succeeds on every tick is logged once, and the steps of a
/// finished sequence go back to idle). Writing allocates only if the sink
/// does. The first write error stops the logging and is kept for
/// [`error`](Self::error): the tree's tick is never disturbed.
#[derive(Debug)]
pub struct ConsoleLogger<S> {
    snapshot: StatusSnapshot,
    /// `#id label` of each node, on one line.
    columns: Vec<String>,
    width: usize,
    show_ended: bool,
    /// The state each node was last logged in.
    shown: Vec<NodeState>,
    sink: S,
    error: Option<io::Error>,
}

impl<W: io::Write> ConsoleLogger<Io<W>> {
    /// A logger writing to an [`io::Write`] such as `std::io::stdout()`.
    pub fn io<R: NodeRow>(nodes: &[R], out: W) -> Result<Self, Error> {
        ConsoleLogger::new(nodes, Io(out))
    }
}

impl<W: fmt::Write> ConsoleLogger<Fmt<W>> {
    /// A logger writing to a [`fmt::Write`] such as a `String`.
    pub fn fmt<R: NodeRow>(nodes: &[R], out: W) -> Result<Self, Error> {
        ConsoleLogger::new(nodes, Fmt(out))
    }
}

impl<S: LogSink> ConsoleLogger<S> {
    /// A logger for the tree whose node table is `nodes`, writing to `sink`.
    /// Fails if the table is not a valid pre-order table.
    pub fn new<R: NodeRow>(nodes: &[R], sink: S) -> Result<Self, Error> {
        let snapshot = StatusSnapshot::new(nodes)?;
        let columns: Vec<String> = nodes
            .iter()
            .map(|n| format!("#{} {}", n.id(), crate::view::one_line(n.label())))
            .collect();
        let width = columns.iter().map(|c| c.chars().count()).max().unwrap_or(0);
        Ok(ConsoleLogger {
            shown: snapshot.statuses().to_vec(),
            snapshot,
            columns,
            width,
            show_ended: true,
            sink,
            error: None,
        })
    }

    /// Whether to log nodes going idle because an ancestor completed or was
    /// halted (on by default). When off, the log is the story of what each
    /// node returned: a line when a node returns a status other than the one
    /// last logged for it, and one when it is halted (halts are always logged).
    /// A condition that fails on every tick is then logged once, not twice a tick.
    pub fn show_ended(mut self, show: bool) -> Self {
        self.show_ended = show;
        self
    }

    /// The states as the logger last saw them.
    pub fn snapshot(&self) -> &StatusSnapshot {
        &self.snapshot
    }

    /// The sink.
    pub fn get_ref(&self) -> &S {
        &self.sink
    }

    /// The sink, giving up the logger.
    pub fn into_inner(self) -> S {
        self.sink
    }

    /// The first write error, if any (logging stopped there).
    pub fn error(&self) -> Option<&io::Error> {
        self.error.as_ref()
    }

    fn log(&mut self, event: Event) {
        let ConsoleLogger {
            snapshot,
            columns,
            width,
            show_ended,
            shown,
            sink,
            error,
        } = self;
        let (tick, now) = (snapshot.tick(), snapshot.now().unwrap_or(0.0));
        snapshot.apply(&event, |c: Change| {
            let from = shown[c.node];
            if error.is_some() || from == c.to || (c.cause == Cause::Ended && !*show_ended) {
                return;
            }
            shown[c.node] = c.to;
            let halted = if c.cause == Cause::Halted { " (halted)" } else { "" };
            let column = &columns[c.node];
            let written = sink.write_text(format_args!(
                "[tick {tick} @ {now:.3}] {column:<width$} {from} -> {}{halted}\n",
                c.to
            ));
            if let Err(e) = written {
                *error = Some(e);
            }
        });
    }
}

impl<S: LogSink> Observer for ConsoleLogger<S> {
    fn tick_started(&mut self, now: f64) {
        let tick = self.snapshot.tick() + 1;
        self.log(Event::TickStarted { tick, now });
    }
    fn entered(&mut self, node: NodeId) {
        self.log(Event::Entered { node });
    }
    fn ticked(&mut self, node: NodeId, status: Status) {
        self.log(Event::Ticked { node, status });
    }
    fn halted(&mut self, node: NodeId) {
        self.log(Event::Halted { node });
    }
    fn tick_finished(&mut self, status: Status) {
        self.log(Event::TickFinished { status });
    }
}

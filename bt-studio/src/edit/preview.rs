//! The what-if replay: the edited tree run against a recorded trace, each
//! leaf returning what the same leaf (name and parameters, in order of
//! occurrence) returned in the recording, and the first tick where the two
//! runs part.

use std::collections::BTreeMap;
use std::sync::Arc;

use behaved_interp::{Agent, Definition};
use behaved_observe::{Cursor, Event, Trace, TraceRecorder};
use behaved_runtime::{NodeKind, Status};
use serde::Serialize;

use super::stand_in::Script;

/// The most events a preview records.
const MAX_EVENTS: usize = 1 << 20;

/// A preview: the new run as a trace, where it first differs from the
/// recording, and the leaves that ran without a recorded result.
#[derive(Debug, Serialize)]
pub struct Preview {
    /// The edited tree's run, tick for tick with the recording.
    pub trace: Trace,
    /// The first difference, if any.
    pub divergence: Option<Divergence>,
    /// Labels of leaves that returned the user's pick (or failure): the
    /// recording never reached them, or not that often.
    pub unknown: Vec<String>,
    /// The JSON path of each node of the new run, by id.
    pub paths: Vec<String>,
    /// What the preview could not replay, at the node it concerns.
    pub notes: Vec<Note>,
}

/// Something at a node of the edited tree that the preview could not replay
/// as the game would (a `forEach`: a recording does not keep its items).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Note {
    /// The node's JSON path in the edited document.
    pub path: String,
    /// What the preview did instead, in words.
    pub text: String,
}

/// Where the edited run first differs from the recorded one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Divergence {
    /// The tick number.
    pub tick: u64,
    /// The node of the edited tree where it shows (the first leaf that
    /// returned something else, or the root).
    pub node: u32,
    /// That node's JSON path in the edited document.
    pub path: String,
    /// What differs, in words.
    pub text: String,
}

/// The recording from where the recorded tree first starts a pass from the
/// top, and a note (at the root) when that is not where it starts.
///
/// The edited tree starts fresh, so it is compared from where the recorded
/// one did too: its root was entered, or its root is a loop that keeps
/// nothing between iterations (`loop`, `untilFail`, `untilSuccess`) and
/// entered its child again (which may happen after the previous pass ended,
/// in the same tick: those events are left out). A window of a running
/// game (the live view) starts mid-run: its first ticks continue what began
/// before the window. A recording with no such start is replayed whole.
pub fn from_a_fresh_start(recorded: Trace) -> (Trace, Option<Note>) {
    let Some((first, from, at)) = mid_run(&recorded) else {
        return (recorded, None);
    };
    let text = format!(
        "the recording starts in the middle of a run (tick {first}): the preview replays it from tick {from}, where the recorded tree started a new pass from the top"
    );
    // The state the tail starts from: the recording's at the end of the tick before.
    let statuses = Cursor::new(&recorded).ok().and_then(|mut c| {
        c.seek(from - 1).ok()?;
        Some(c.statuses().to_vec())
    });
    let started = recorded
        .events
        .iter()
        .position(|e| matches!(*e, Event::TickStarted { tick, .. } if tick == from))
        .unwrap_or(0);
    let mut tail = recorded;
    // The tick's start, then the new pass (what ended the old one in that tick left out).
    tail.events.drain(started + 1..at);
    tail.events.drain(..started);
    tail.context.retain(|c| c.tick >= from);
    tail.start.tick = from - 1;
    tail.start.now = None;
    tail.start.statuses = statuses.unwrap_or(tail.start.statuses);
    let note = Note {
        path: String::new(),
        text,
    };
    (tail, Some(note))
}

/// For a recording that starts mid-run: its first tick, the tick where the
/// tree first starts afresh (see [`from_a_fresh_start`]) and the index of
/// that `entered` event.
fn mid_run(recorded: &Trace) -> Option<(u64, u64, usize)> {
    let stateless_loop = recorded
        .nodes
        .first()
        .is_some_and(|root| matches!(root.kind, NodeKind::Loop | NodeKind::UntilFail | NodeKind::UntilSuccess));
    let mut first = None;
    let mut tick = None;
    for (i, event) in recorded.events.iter().enumerate() {
        match *event {
            Event::TickStarted { tick: t, .. } => {
                tick = Some(t);
                first = first.or(tick);
            }
            Event::Entered { node } if tick.is_some() && (node.0 == 0 || (stateless_loop && node.0 == 1)) => {
                let (first, tick) = (first?, tick?);
                let at_the_start = i > 0 && matches!(recorded.events[i - 1], Event::TickStarted { .. });
                return (tick != first || !at_the_start).then_some((first, tick, i));
            }
            _ => {}
        }
    }
    None
}

/// Runs `def` once for every tick of `recorded`, at the same times.
pub fn run(
    def: &Arc<Definition<Script>>,
    recorded: &Trace,
    picks: BTreeMap<String, Status>,
) -> Result<Preview, String> {
    run_within(def, recorded, picks, MAX_EVENTS)
}

/// [`run`], stopping before the tick that would start once the edited run
/// has made `max_events` events: a tree whose every tick does millions of
/// leaf ticks (within the loader's work bound) against a long recording
/// would keep the editor busy for hours, and the events past the
/// recorder's room would be dropped from the start of the run.
fn run_within(
    def: &Arc<Definition<Script>>,
    recorded: &Trace,
    picks: BTreeMap<String, Status>,
    max_events: usize,
) -> Result<Preview, String> {
    let mut script = Script::new(recorded, picks);
    let mut agent = Agent::new(Arc::clone(def));
    let mut recorder = TraceRecorder::new(def.nodes(), max_events).map_err(|e| e.to_string())?;
    let mut stopped = None;
    for tick in recorded.ticks().filter(|t| t.now.is_some()) {
        if recorder.events().len() as u64 + recorder.dropped_events() >= max_events as u64 {
            stopped = Some(tick.tick);
            break;
        }
        agent.tick_observed(&mut script, tick.now.unwrap_or(0.0), &mut recorder);
    }
    let trace = recorder.trace();
    let divergence = diverge(recorded, &trace).map(|(tick, node, text)| Divergence {
        tick,
        node,
        path: def.nodes()[node as usize].path.clone(),
        text,
    });
    let mut notes = loops_without_items(def, &trace);
    if let Some(tick) = stopped {
        notes.push(Note {
            path: String::new(),
            text: format!(
                "the preview stopped before tick {tick}: the edited tree had made {max_events} events, \
                 the most a preview records; the ticks after it are not compared"
            ),
        });
    }
    Ok(Preview {
        trace,
        divergence,
        unknown: script.unknown().into_iter().collect(),
        paths: def.nodes().iter().map(|n| n.path.clone()).collect(),
        notes,
    })
}

/// A note at every `forEach` the edited run entered: its stand-in list has
/// no items, so its child never ran.
fn loops_without_items(def: &Definition<Script>, trace: &Trace) -> Vec<Note> {
    let mut entered: Vec<u32> = trace
        .events
        .iter()
        .filter_map(|e| match *e {
            Event::Entered { node } if def.nodes()[node.0 as usize].kind == NodeKind::ForEach => Some(node.0),
            _ => None,
        })
        .collect();
    entered.sort_unstable();
    entered.dedup();
    entered
        .into_iter()
        .map(|node| {
            let row = &def.nodes()[node as usize];
            Note {
                path: row.path.clone(),
                text: format!(
                    "{}: the preview ran this loop with no items (a recording does not keep a list's items), so its child never ran",
                    row.label
                ),
            }
        })
        .collect()
}

/// One tick of a run as compared: what each leaf returned, in order
/// (label, status, node, whether it is an action), then the root.
struct TickOutcome {
    tick: u64,
    leaves: Vec<(String, Status, u32, bool)>,
    root: Option<Status>,
}

/// Whether two leaf results are the same step of behaviour: the same
/// status, and for actions the same action. A condition that was edited but
/// answers as before does not change what the tree does.
fn same_step(x: &(String, Status, u32, bool), y: &(String, Status, u32, bool)) -> bool {
    x.1 == y.1 && x.3 == y.3 && (!x.3 || x.0 == y.0)
}

/// The ticks of `trace` (those that start in it), as compared.
fn outcomes(trace: &Trace) -> Vec<TickOutcome> {
    trace
        .ticks()
        .filter(|t| t.now.is_some())
        .map(|t| {
            let mut o = TickOutcome {
                tick: t.tick,
                leaves: Vec::new(),
                root: None,
            };
            for e in t.events {
                match *e {
                    Event::Ticked { node, status } => {
                        let row = &trace.nodes[node.0 as usize];
                        if matches!(row.kind, NodeKind::Condition | NodeKind::Action) {
                            o.leaves
                                .push((row.label.clone(), status, node.0, row.kind == NodeKind::Action));
                        }
                    }
                    Event::TickFinished { status } => o.root = Some(status),
                    _ => {}
                }
            }
            o
        })
        .collect()
}

/// The first tick where the runs differ (a leaf returned otherwise, another
/// action ran, or the root returned otherwise): its number, the edited
/// tree's node and the words.
fn diverge(recorded: &Trace, edited: &Trace) -> Option<(u64, u32, String)> {
    let word = |s: Status| format!("{s:?}").to_lowercase();
    for (a, b) in outcomes(recorded).iter().zip(outcomes(edited).iter()) {
        let first = a.leaves.iter().zip(&b.leaves).position(|(x, y)| !same_step(x, y));
        let at = first.or_else(|| (a.leaves.len() != b.leaves.len()).then(|| a.leaves.len().min(b.leaves.len())));
        if let Some(i) = at {
            let text = match (a.leaves.get(i), b.leaves.get(i)) {
                (Some(x), Some(y)) if x.0 == y.0 && x.3 == y.3 => format!(
                    "tick {}: {} returned {} in the recording, {} in the edited tree",
                    a.tick,
                    y.0,
                    word(x.1),
                    word(y.1)
                ),
                (Some(x), Some(y)) => format!(
                    "tick {}: the edited tree ran {} ({}) where the recording ran {} ({})",
                    a.tick,
                    y.0,
                    word(y.1),
                    x.0,
                    word(x.1)
                ),
                (None, Some(y)) => format!("tick {}: the edited tree also ran {} ({})", a.tick, y.0, word(y.1)),
                (Some(x), None) => format!("tick {}: the edited tree did not run {}", a.tick, x.0),
                (None, None) => unreachable!("a position inside one of the lists"),
            };
            let node = b.leaves.get(i).map_or(0, |y| y.2);
            return Some((a.tick, node, text));
        }
        if a.root != b.root {
            let root = |s: Option<Status>| s.map_or("nothing".into(), word);
            let text = format!(
                "tick {}: the tree returned {} in the recording, {} in the edited tree",
                a.tick,
                root(a.root),
                root(b.root)
            );
            return Some((a.tick, 0, text));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use behaved_runtime::NodeId;
    use serde_json::json;

    /// A recording of `ticks` ticks of a tree that waits, one second apart.
    fn waiting(ticks: u32) -> Trace {
        let def = behaved_interp::Registry::<()>::new()
            .load(r#"{"type": "wait", "seconds": 1000}"#)
            .unwrap();
        let mut agent = Agent::new(def.clone());
        let mut recorder = TraceRecorder::new(def.nodes(), 1 << 10).unwrap();
        for t in 0..ticks {
            agent.tick_observed(&mut (), f64::from(t), &mut recorder);
        }
        recorder.trace()
    }

    #[test]
    fn a_preview_stops_once_the_edited_run_has_made_its_events() {
        let busy = json!({"type": "repeater", "count": 50, "child": {"type": "success"}});
        let def = super::super::stand_in::registry(None, &busy)
            .load(&busy.to_string())
            .unwrap();
        let recorded = waiting(10);
        let whole = run_within(&def, &recorded, BTreeMap::new(), 10_000).unwrap();
        let ticked = |t: &Trace| t.ticks().filter(|t| t.now.is_some()).count();
        assert_eq!(ticked(&whole.trace), 10);
        assert!(whole.notes.is_empty());
        // Each tick: the repeater and 50 successes entered and ticked, the tick's start and end.
        let per_tick = whole.trace.events.len() / 10;
        let cut = run_within(&def, &recorded, BTreeMap::new(), 3 * per_tick).unwrap();
        assert_eq!(
            ticked(&cut.trace),
            3,
            "three ticks fill the room: the fourth (tick 4) does not start"
        );
        assert_eq!(
            cut.notes,
            [Note {
                path: String::new(),
                text: format!(
                    "the preview stopped before tick 4: the edited tree had made {} events, \
                     the most a preview records; the ticks after it are not compared",
                    3 * per_tick
                ),
            }]
        );
    }

    /// Running on every other call, else success.
    #[derive(Clone)]
    struct Step(bool);

    impl behaved_runtime::Action<()> for Step {
        fn tick(&mut self, _: &mut ()) -> Status {
            self.0 = !self.0;
            if self.0 { Status::Running } else { Status::Success }
        }
    }

    /// `loop { sequence { first, second } }`, each leaf a [`Step`]: a pass
    /// takes three ticks, the next one starting in the tick the last ends
    /// (passes start in ticks 1, 3, 5, ..).
    const STEPS: &str = r#"{"type": "loop", "child": {"type": "sequence", "children": [
        {"type": "action", "action": "first"}, {"type": "action", "action": "second"}]}}"#;

    /// 12 ticks of STEPS, recorded from tick `from` (1: from the start).
    fn steps_from(from: u32) -> Trace {
        let mut leaves = behaved_interp::Registry::<()>::new();
        leaves
            .action("first", |_: behaved_interp::NoParams| Step(false))
            .action("second", |_: behaved_interp::NoParams| Step(false));
        let def = leaves.load(STEPS).unwrap();
        let mut agent = Agent::new(def.clone());
        let mut recorder = TraceRecorder::new(def.nodes(), 1 << 10).unwrap();
        for t in 1..=12 {
            if t < from {
                agent.tick_at(&mut (), f64::from(t));
            } else {
                agent.tick_observed(&mut (), f64::from(t), &mut recorder);
            }
        }
        recorder.trace()
    }

    #[test]
    fn a_recording_that_starts_mid_run_is_replayed_from_the_first_new_pass() {
        let doc: serde_json::Value = serde_json::from_str(STEPS).unwrap();
        let def = super::super::stand_in::registry(None, &doc).load(STEPS).unwrap();
        // From the start: kept whole, and the unedited tree does what it did.
        let whole = steps_from(1);
        let (same, note) = from_a_fresh_start(whole.clone());
        assert_eq!((&same, note), (&whole, None));
        assert_eq!(run(&def, &same, BTreeMap::new()).unwrap().divergence, None);
        // From tick 4 (the recorder's tick 1), in the middle of the second pass: the third
        // starts in the recorder's tick 2, after the second pass's last step in that tick.
        let window = steps_from(4);
        let (tail, note) = from_a_fresh_start(window.clone());
        assert_eq!(
            note.map(|n| n.text),
            Some(
                "the recording starts in the middle of a run (tick 1): the preview replays it from tick 2, \
                 where the recorded tree started a new pass from the top"
                    .to_owned()
            )
        );
        let second = window.ticks().find(|t| t.tick == 2).unwrap();
        let new_pass = second
            .events
            .iter()
            .position(|e| *e == Event::Entered { node: NodeId(1) })
            .unwrap();
        assert!(new_pass > 1, "the old pass ends in the same tick: {:?}", second.events);
        let mut expected = vec![second.events[0]];
        expected.extend(&second.events[new_pass..]);
        expected.extend(
            window
                .ticks()
                .filter(|t| t.tick > 2)
                .flat_map(|t| t.events.iter().copied()),
        );
        assert_eq!(tail.events, expected);
        assert_eq!(tail.start.tick, 1);
        tail.validate().unwrap();
        assert_eq!(run(&def, &tail, BTreeMap::new()).unwrap().divergence, None);
    }
}

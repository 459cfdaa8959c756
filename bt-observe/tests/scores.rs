//! A `utility` node's scores are events of the trace (`scored` and each
//! score's parts, `considered`, trace format version 3): recorded in the
//! order the tree reports them, between the node's entry and its child's,
//! and written and read back, a score that is not a number as `null`, each
//! part's label once in the trace's `labels`.
use behaved::prelude::*;
use behaved_observe::{Event, Trace, TraceRecorder};
// A job that runs until halted, labelled `Job` in the trace.
use behaved_testkit::endless::Endless as Job;

/// Two scores the test sets; each job ([`Endless`]) runs until halted.
struct Npc {
    score: [f32; 2],
}

behave! {
    tree Choose for Npc {
        utility(reactive, margin = 0.1) { |c| c.score[0] => Job, |c| c.score[1] => Job }
    }
}

/// Child `child`'s one part, labelled by label `child` (the closures' code, in order).
fn considered(child: u32, value: f32) -> Event {
    Event::Considered {
        node: NodeId(0),
        child,
        part: 0,
        label: child,
        value,
    }
}

fn scored(child: u32, score: f32) -> Event {
    Event::Scored {
        node: NodeId(0),
        child,
        score,
    }
}

#[test]
fn each_scoring_is_recorded_after_the_entry_and_before_the_child() {
    let mut recorder = TraceRecorder::new(Choose::NODES, 100).unwrap();
    let (mut tree, mut npc) = (Choose::new(), Npc { score: [0.25, 0.5] });
    tree.tick_observed(&mut npc, 0.0, &mut recorder);
    npc.score = [0.75, 0.5];
    tree.tick_observed(&mut npc, 1.0, &mut recorder);
    let trace = recorder.trace();
    let ticks: Vec<_> = trace.ticks().collect();
    assert_eq!(
        ticks[1].events,
        [
            Event::TickStarted { tick: 1, now: 0.0 },
            Event::Entered { node: NodeId(0) },
            considered(0, 0.25),
            scored(0, 0.25),
            considered(1, 0.5),
            scored(1, 0.5),
            Event::Entered { node: NodeId(2) },
            Event::Ticked {
                node: NodeId(2),
                status: Status::Running
            },
            Event::Ticked {
                node: NodeId(0),
                status: Status::Running
            },
            Event::TickFinished {
                status: Status::Running
            },
        ]
    );
    assert_eq!(trace.labels, ["|c| c.score[0]", "|c| c.score[1]"], "each label once");
    assert_eq!(
        ticks[2].events[1..6],
        [
            considered(0, 0.75),
            scored(0, 0.75),
            considered(1, 0.5),
            scored(1, 0.5),
            Event::Halted { node: NodeId(2) }
        ],
        "re-scored on the next tick, then the switch past the margin"
    );
}

#[test]
fn scores_are_written_and_read_back_and_one_that_is_not_a_number_is_null() {
    let mut recorder = TraceRecorder::new(Choose::NODES, 100).unwrap();
    let (mut tree, mut npc) = (Choose::new(), Npc { score: [f32::NAN, 0.5] });
    tree.tick_observed(&mut npc, 0.0, &mut recorder);
    let mut json = Vec::new();
    recorder.trace().write_json(&mut json).unwrap();
    let text = String::from_utf8(json).unwrap();
    assert!(text.contains(r#""version":3"#), "{text}");
    assert!(
        text.contains(r#"{"event":"scored","node":0,"child":0,"score":null}"#),
        "{text}"
    );
    assert!(
        text.contains(r#"{"event":"scored","node":0,"child":1,"score":0.5}"#),
        "{text}"
    );
    assert!(
        text.contains(r#""labels":["|c| c.score[0]","|c| c.score[1]"],"#),
        "{text}"
    );
    assert!(
        text.contains(r#"{"event":"considered","node":0,"child":0,"part":0,"label":0,"value":null}"#),
        "{text}"
    );
    assert!(
        text.contains(r#"{"event":"considered","node":0,"child":1,"part":0,"label":1,"value":0.5}"#),
        "{text}"
    );
    let read = Trace::from_json(&text).unwrap();
    let (Event::Considered { value, .. }, Event::Scored { score, .. }) = (read.events[2], read.events[3]) else {
        panic!("{:?}", &read.events[2..4])
    };
    assert!(value.is_nan() && score.is_nan(), "null is read as NaN");
    let written = recorder.trace();
    assert_eq!(read.labels, written.labels);
    assert_eq!(read.events[4..], written.events[4..], "the rest read back as written");
}

#[test]
fn a_part_naming_a_label_the_trace_has_not_is_refused() {
    let mut recorder = TraceRecorder::new(Choose::NODES, 100).unwrap();
    let (mut tree, mut npc) = (Choose::new(), Npc { score: [0.25, 0.5] });
    tree.tick_observed(&mut npc, 0.0, &mut recorder);
    let mut trace = recorder.trace();
    trace.labels.pop();
    let err = trace.validate().unwrap_err().to_string();
    assert_eq!(err, "trace event 4 names label 1, but the trace's `labels` has 1");
    let mut json = Vec::new();
    trace.write_json(&mut json).unwrap();
    assert!(Trace::from_json(std::str::from_utf8(&json).unwrap()).is_err());
}

//! A `utility` node's scores are events of the trace (`scored`, trace format
//! version 3): recorded in the order the tree reports them, between the
//! node's entry and its child's, and written and read back, a score that is
//! not a number as `null`.
use behaved::prelude::*;
use behaved_observe::{Event, Trace, TraceRecorder};

/// Two scores the test sets, and a job that runs until told.
struct Npc {
    score: [f32; 2],
}

struct Job;
impl Action<Npc> for Job {
    fn tick(&mut self, _: &mut Npc) -> Status {
        Status::Running
    }
}

behave! {
    tree Choose for Npc {
        utility(reactive, margin = 0.1) { |c| c.score[0] => Job, |c| c.score[1] => Job }
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
            scored(0, 0.25),
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
    assert_eq!(
        ticks[2].events[1..4],
        [scored(0, 0.75), scored(1, 0.5), Event::Halted { node: NodeId(2) }],
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
    let read = Trace::from_json(&text).unwrap();
    let Event::Scored { score, .. } = read.events[2] else {
        panic!("{:?}", read.events[2])
    };
    assert!(score.is_nan(), "null is read as NaN");
    assert_eq!(read.events[3], recorder.trace().events[3]);
}

//! The trace recorder keeps the exact events of the last ticks, folds what it
//! drops into its starting state, and writes and reads the JSON trace format.
mod support;

use behaved::LeafCall;
use behaved::prelude::*;
use behaved_observe::{Cursor, Event, NodeCounts, NodeState, StatusSnapshot, Tee, Trace, TraceRecorder};
use support::*;

fn entered(n: u32) -> Event {
    Event::Entered { node: NodeId(n) }
}
fn ticked(n: u32, status: Status) -> Event {
    Event::Ticked {
        node: NodeId(n),
        status,
    }
}
fn halted(n: u32) -> Event {
    Event::Halted { node: NodeId(n) }
}

#[test]
fn records_every_event_in_order() {
    let mut recorder = TraceRecorder::new(Patrol::NODES, 100).unwrap();
    patrol_three_ticks(&mut recorder);
    assert_eq!(
        (recorder.first_tick(), recorder.last_tick(), recorder.dropped_events()),
        (0, 3, 0)
    );
    let trace = recorder.trace();
    let ticks: Vec<_> = trace.ticks().collect();
    assert_eq!(ticks.len(), 4, "tick 0 (nothing) and ticks 1 to 3");
    assert_eq!((ticks[0].tick, ticks[0].events), (0, &[][..]));
    assert_eq!(
        ticks[1].events,
        [
            Event::TickStarted { tick: 1, now: 0.0 },
            entered(0),
            entered(1),
            entered(2),
            ticked(2, F),
            ticked(1, F),
            entered(4),
            entered(5),
            ticked(5, R),
            ticked(4, R),
            ticked(0, R),
            Event::TickFinished { status: R },
        ]
    );
    // Tick 3: the alarm branch enters again and runs the chase; then the
    // patrol is halted in post-order (the running wait, then its sequence).
    assert_eq!(
        (ticks[3].tick, ticks[3].now),
        (3, Some(1.0)),
        "the tick's number and time come from its tick_started"
    );
    assert_eq!(
        ticks[3].events,
        [
            Event::TickStarted { tick: 3, now: 1.0 },
            entered(1),
            entered(2),
            ticked(2, S),
            entered(3),
            ticked(3, R),
            ticked(1, R),
            halted(6),
            halted(4),
            ticked(0, R),
            Event::TickFinished { status: R },
        ]
    );
    assert_eq!(recorder.events().len(), 12 + 11 + 11);
}

#[test]
fn a_full_buffer_drops_whole_ticks_and_folds_them_into_the_start() {
    // Tick 1 has 12 events, ticks 2 and 3 have 11: 25 slots keep ticks 2-3 only.
    let mut recorder = TraceRecorder::new(Patrol::NODES, 25).unwrap();
    let mut tee = Tee(&mut recorder, StatusSnapshot::new(Patrol::NODES).unwrap());
    let mut tree = Patrol::new();
    let mut world = World::new(LEAVES);
    world.set("walk", R);
    tree.tick_observed(&mut world, 0.0, &mut tee);
    let after_tick_1 = tee.1.statuses().to_vec();
    world.set("walk", S);
    tree.tick_observed(&mut world, 0.5, &mut tee);
    world.alarm = true;
    world.set("chase", R);
    tree.tick_observed(&mut world, 1.0, &mut tee);

    assert_eq!(
        (recorder.first_tick(), recorder.last_tick(), recorder.dropped_events()),
        (1, 3, 12)
    );
    assert_eq!(recorder.events().len(), 22);
    assert_eq!(
        recorder.events().next(),
        Some(&Event::TickStarted { tick: 2, now: 0.5 })
    );
    let trace = recorder.trace();
    assert_eq!(trace.start.tick, 1);
    assert_eq!(trace.start.now, Some(0.0));
    assert_eq!(trace.start.dropped_events, 12);
    assert_eq!(trace.start.statuses, after_tick_1);
    assert_eq!(trace.start.statuses, states("R F I I R R I I"));
}

#[test]
fn a_tick_larger_than_the_buffer_still_reconstructs_its_end() {
    // 8 slots: smaller than any tick. Each tick pushes out everything before it.
    let mut recorder = TraceRecorder::new(Patrol::NODES, 8).unwrap();
    patrol_three_ticks(&mut recorder);
    assert_eq!(recorder.events().len(), 3, "the last 3 events of tick 3");
    assert_eq!(recorder.dropped_events(), 12 + 11 + 8);
    let trace = recorder.trace();
    assert_eq!(
        trace.events,
        [halted(4), ticked(0, R), Event::TickFinished { status: R }]
    );
    assert_eq!((trace.start.tick, trace.start.now), (3, Some(1.0)));
    let cursor = Cursor::new(&trace).unwrap();
    assert_eq!((cursor.first_tick(), cursor.last_tick()), (3, 3));
    assert_eq!(cursor.statuses(), states("R R S R I I I I"));
    assert_eq!(cursor.now(), Some(1.0));
    assert_eq!(cursor.root_status(), Some(R));
}

#[test]
fn capacity_zero_keeps_only_the_folded_state() {
    let mut recorder = TraceRecorder::new(Patrol::NODES, 0).unwrap();
    patrol_three_ticks(&mut recorder);
    let trace = recorder.trace();
    assert!(trace.events.is_empty());
    assert_eq!(trace.start.tick, 3);
    assert_eq!(trace.start.statuses, states("R R S R I I I I"));
}

#[test]
fn clear_forgets_events_but_keeps_the_state() {
    let mut recorder = TraceRecorder::new(Patrol::NODES, 100).unwrap();
    patrol_three_ticks(&mut recorder);
    recorder.clear();
    assert_eq!(recorder.events().len(), 0);
    assert_eq!((recorder.first_tick(), recorder.last_tick()), (3, 3));
    assert_eq!(recorder.trace().start.statuses, states("R R S R I I I I"));
}

#[test]
fn json_has_one_event_per_line_and_reads_back_equal() {
    behave! {
        /// The smallest tree with a halt-free two-tick run.
        tree Blink for World { sequence { cond(|w| w.alarm), wait(1.0) } }
    }
    let mut recorder = TraceRecorder::new(Blink::NODES, 100).unwrap();
    let mut tree = Blink::new();
    let mut world = World::new(LEAVES);
    world.alarm = true;
    tree.tick_observed(&mut world, 0.0, &mut recorder);
    tree.tick_observed(&mut world, 1.5, &mut recorder);
    let trace = recorder.trace();
    let json = trace.to_json().unwrap();
    let expected = r#"{"format":"bt-trace","version":3,
"nodes":[
{"id":0,"parent":null,"kind":"sequence","label":"sequence","line":LINE},
{"id":1,"parent":0,"kind":"condition","label":"cond(|w| w.alarm)","line":LINE},
{"id":2,"parent":0,"kind":"wait","label":"wait(1.0)","line":LINE}
],
"start":{"tick":0,"now":null,"dropped_events":0,"statuses":["idle","idle","idle"]},
"events":[
{"event":"tick_started","tick":1,"now":0.0},
{"event":"entered","node":0},
{"event":"entered","node":1},
{"event":"ticked","node":1,"status":"success"},
{"event":"entered","node":2},
{"event":"ticked","node":2,"status":"running"},
{"event":"ticked","node":0,"status":"running"},
{"event":"tick_finished","status":"running"},
{"event":"tick_started","tick":2,"now":1.5},
{"event":"ticked","node":2,"status":"success"},
{"event":"ticked","node":0,"status":"success"},
{"event":"tick_finished","status":"success"}
]}
"#;
    assert_ne!(Blink::NODES[0].line, 0);
    assert_eq!(json, expected.replace("LINE", &Blink::NODES[0].line.to_string()));
    assert_eq!(Trace::from_json(&json).unwrap(), trace);
    assert_eq!(Trace::read_json(json.as_bytes()).unwrap(), trace);
    // serde_json's own forms read back too.
    let compact = serde_json::to_string(&trace).unwrap();
    assert_eq!(Trace::from_json(&compact).unwrap(), trace);
}

/// A valid trace to break in the next test.
fn sample() -> Trace {
    let mut recorder = TraceRecorder::new(Patrol::NODES, 100).unwrap();
    patrol_three_ticks(&mut recorder);
    recorder.trace()
}

#[test]
fn broken_traces_are_rejected_with_a_clear_message() {
    let check = |trace: Trace, message: &str| {
        assert_eq!(trace.validate().unwrap_err().to_string(), message);
        assert_eq!(Cursor::new(&trace).unwrap_err().to_string(), message);
        assert_eq!(
            Trace::from_json(&trace.to_json().unwrap()).unwrap_err().to_string(),
            message
        );
    };
    let mut t = sample();
    t.version = 4;
    check(
        t,
        "unsupported trace format `bt-trace` version 4: this crate reads `bt-trace` versions 1 to 3",
    );
    let mut t = sample();
    t.version = 0;
    check(
        t,
        "unsupported trace format `bt-trace` version 0: this crate reads `bt-trace` versions 1 to 3",
    );
    let context = |tick| behaved_observe::TickContext {
        tick,
        values: serde_json::json!({ "hp": 3 }),
    };
    let mut t = sample();
    t.context = vec![context(4)];
    check(
        t,
        "trace context entry 0 is for tick 4, expected a tick from 0 to 3 \
         (one entry per tick at most, in order, within the trace's ticks)",
    );
    let mut t = sample();
    t.context = vec![context(2), context(2)];
    check(
        t,
        "trace context entry 1 is for tick 2, expected a tick from 3 to 3 \
         (one entry per tick at most, in order, within the trace's ticks)",
    );
    let mut t = sample();
    t.events[3] = entered(8);
    check(t, "trace event 3 names node #8, but the trace's table has 8 nodes");
    let mut t = sample();
    t.events.remove(0);
    check(t, "trace event 11 starts tick 2, expected tick 1");
    let mut t = sample();
    t.start.statuses.pop();
    check(t, "7 statuses given for 8 nodes: give one per node");
    let mut t = sample();
    t.coverage = Some(vec![NodeCounts::default(); 3]);
    check(t, "the trace's coverage has 3 entries for 8 nodes: give one per node");
    let mut t = sample();
    t.nodes[3].parent = Some(5);
    check(
        t,
        "node table row 3 has parent #5, which does not enclose it: the table is not in depth-first pre-order",
    );

    let json = sample().to_json().unwrap();
    let err = Trace::from_json(&json.replace("reactiveSelector", "reactiveSelektor")).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("trace JSON: unknown node kind `reactiveSelektor`, did you mean `reactiveSelector`?"),
        "{err}"
    );
    let err = Trace::from_json(&json.replace("\"running\"", "\"runing\"")).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("trace JSON: unknown status `runing`, expected `success`, `failure` or `running`"),
        "{err}"
    );
    let err = Trace::from_json(&json.replacen("\"idle\"", "\"asleep\"", 1)).unwrap_err();
    assert!(
        err.to_string().starts_with("trace JSON: unknown variant `asleep`"),
        "{err}"
    );
    let err = Trace::from_json(&json.replace("\"halted\"", "\"paused\"")).unwrap_err();
    assert!(
        err.to_string().starts_with("trace JSON: unknown variant `paused`"),
        "{err}"
    );
    assert!(
        Trace::from_json("{")
            .unwrap_err()
            .to_string()
            .starts_with("trace JSON: EOF")
    );
}

#[test]
fn readers_ignore_fields_they_do_not_know() {
    let trace = sample();
    let json = trace
        .to_json()
        .unwrap()
        .replace("\"version\":3,", "\"version\":3,\"recorded_by\":\"a newer writer\",")
        .replace("\"event\":\"halted\",", "\"event\":\"halted\",\"reason\":\"reactive\",");
    assert!(json.contains("recorded_by") && json.contains("reason"));
    assert_eq!(Trace::from_json(&json).unwrap(), trace);
}

#[test]
fn a_time_that_is_not_a_number_does_not_read_back() {
    let mut trace = sample();
    trace.events[0] = Event::TickStarted { tick: 1, now: f64::NAN };
    let json = trace.to_json().unwrap();
    assert!(json.contains("{\"event\":\"tick_started\",\"tick\":1,\"now\":null}"));
    let err = Trace::from_json(&json).unwrap_err().to_string();
    assert!(err.starts_with("trace JSON: invalid type: null, expected f64"), "{err}");
}

#[test]
fn events_are_small() {
    assert_eq!(size_of::<Event>(), 24);
    assert_eq!(size_of::<NodeState>(), 1);
}

#[test]
fn a_trace_carries_coverage_one_line_per_node_and_reads_it_back() {
    let mut trace = sample();
    let mut counts = vec![NodeCounts::default(); trace.nodes.len()];
    for event in &trace.events {
        if let Some(node) = event.node() {
            counts[node.index()].count(event);
        }
    }
    assert_eq!(
        counts[0],
        NodeCounts {
            entered: 1,
            success: 0,
            failure: 0,
            running: 3,
            halted: 0
        }
    );
    trace.coverage = Some(counts);
    let json = trace.to_json().unwrap();
    assert!(
        json.contains("\"coverage\":[\n{\"entered\":1,\"success\":0,\"failure\":0,\"running\":3,\"halted\":0},\n"),
        "{json}"
    );
    assert_eq!(Trace::from_json(&json).unwrap(), trace);
    assert!(
        !sample().to_json().unwrap().contains("coverage"),
        "absent unless carried"
    );
}

/// Records which stand-in questions reach it, and answers for node 2.
struct Answers(Vec<(NodeId, LeafCall)>);

impl Observer for Answers {
    fn stand_in(&mut self, node: NodeId, call: LeafCall) -> Option<Status> {
        self.0.push((node, call));
        (node == NodeId(2)).then_some(Status::Failure)
    }
}

#[test]
fn a_tee_forwards_stand_in_questions_to_both_sides_in_order() {
    let mut tee = Tee(Answers(Vec::new()), Answers(Vec::new()));
    let call = LeafCall::Tick { entering: true };
    assert_eq!(tee.stand_in(NodeId(1), call), None);
    assert_eq!(tee.stand_in(NodeId(2), LeafCall::Halt), Some(Status::Failure));
    assert_eq!(tee.0.0, [(NodeId(1), call), (NodeId(2), LeafCall::Halt)]);
    assert_eq!(tee.1.0, [(NodeId(1), call)], "the first answer wins");
}

#[test]
fn files_of_version_1_still_open() {
    // Written by the version-1 writer: no context, `"version":1`.
    let v1 = r#"{"format":"bt-trace","version":1,
"nodes":[
{"id":0,"parent":null,"kind":"sequence","label":"sequence","line":3},
{"id":1,"parent":0,"kind":"wait","label":"wait(1.0)","line":3}
],
"start":{"tick":0,"now":null,"dropped_events":0,"statuses":["idle","idle"]},
"events":[
{"event":"tick_started","tick":1,"now":0.0},
{"event":"entered","node":0},
{"event":"entered","node":1},
{"event":"ticked","node":1,"status":"running"},
{"event":"ticked","node":0,"status":"running"},
{"event":"tick_finished","status":"running"}
]}
"#;
    let trace = Trace::from_json(v1).unwrap();
    assert_eq!((trace.version, trace.context.len()), (1, 0));
    let mut cursor = Cursor::new(&trace).unwrap();
    cursor.seek(1).unwrap();
    assert_eq!(cursor.statuses(), states("R R"));
    assert_eq!(cursor.context(), None);
}

/// Patrol's three ticks with the alarm and the tick's time recorded as context after ticks 1 and 3.
fn patrol_with_context(capacity: usize) -> TraceRecorder {
    let mut recorder = TraceRecorder::new(Patrol::NODES, capacity).unwrap();
    let mut tree = Patrol::new();
    let mut world = World::new(LEAVES);
    recorder
        .record_context(&serde_json::json!({ "alarm": false, "t": null }))
        .unwrap();
    world.set("walk", R);
    tree.tick_observed(&mut world, 0.0, &mut recorder);
    recorder
        .record_context(&serde_json::json!({ "alarm": false, "t": 0.0 }))
        .unwrap();
    world.set("walk", S);
    tree.tick_observed(&mut world, 0.5, &mut recorder);
    world.alarm = true;
    world.set("chase", R);
    tree.tick_observed(&mut world, 1.0, &mut recorder);
    recorder
        .record_context(&serde_json::json!({ "alarm": "first try" }))
        .unwrap();
    // A second call for the same tick replaces the first.
    recorder
        .record_context(&serde_json::json!({ "alarm": true, "t": 1.0 }))
        .unwrap();
    recorder
}

#[test]
fn context_values_are_kept_per_tick_written_and_read_back() {
    let recorder = patrol_with_context(100);
    let trace = recorder.trace();
    let ticks: Vec<u64> = trace.context.iter().map(|c| c.tick).collect();
    assert_eq!(ticks, [0, 1, 3]);
    let json = trace.to_json().unwrap();
    assert!(json.starts_with("{\"format\":\"bt-trace\",\"version\":3,"));
    assert!(
        json.ends_with(
            "\"context\":[\n{\"tick\":0,\"values\":{\"alarm\":false,\"t\":null}},\n\
             {\"tick\":1,\"values\":{\"alarm\":false,\"t\":0.0}},\n\
             {\"tick\":3,\"values\":{\"alarm\":true,\"t\":1.0}}\n]}\n"
        ),
        "{json}"
    );
    assert_eq!(Trace::from_json(&json).unwrap(), trace);

    // The cursor shows each tick's entry, or the last one before it.
    let mut cursor = Cursor::new(&trace).unwrap();
    let alarm_at = |cursor: &mut Cursor, tick| {
        cursor.seek(tick).unwrap();
        let c = cursor.context().unwrap();
        (c.tick, c.values["alarm"].clone())
    };
    assert_eq!(alarm_at(&mut cursor, 0), (0, false.into()));
    assert_eq!(alarm_at(&mut cursor, 1), (1, false.into()));
    assert_eq!(alarm_at(&mut cursor, 2), (1, false.into()));
    assert_eq!(alarm_at(&mut cursor, 3), (3, true.into()));
}

#[test]
fn context_leaves_with_the_ticks_the_recorder_drops() {
    // Room for the last tick only: ticks 1 and 2 are folded away.
    let recorder = patrol_with_context(10);
    assert_eq!(recorder.first_tick(), 3);
    let trace = recorder.trace();
    let ticks: Vec<u64> = trace.context.iter().map(|c| c.tick).collect();
    assert_eq!(ticks, [3]);
    assert_eq!(Trace::from_json(&trace.to_json().unwrap()).unwrap(), trace);
    let mut recorder = patrol_with_context(100);
    recorder.clear();
    assert_eq!(recorder.context().map(|c| c.tick).collect::<Vec<_>>(), [3]);
    assert_eq!(recorder.trace().validate().map_err(|e| e.to_string()), Ok(()));
}

#[test]
fn context_that_cannot_be_serialized_is_an_error() {
    let mut recorder = TraceRecorder::new(Patrol::NODES, 100).unwrap();
    let mut bad = std::collections::HashMap::new();
    bad.insert((1, 2), "a map with tuple keys is not JSON");
    let err = recorder.record_context(&bad).unwrap_err().to_string();
    assert!(err.starts_with("trace JSON: key must be a string"), "{err}");
    assert_eq!(recorder.context().len(), 0);
}

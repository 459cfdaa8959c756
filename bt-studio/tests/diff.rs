//! Where two traces of one tree first differ: `behaved_studio::diff::compare`,
//! `GET /api/diff` and `behaved-studio diff`.

mod common;

use std::process::Command;

use behaved_observe::Trace;
use behaved_studio::diff::{Comparison, DiffError, Divergence, compare};
use common::{event_index, get, guard_run, guard_trace, guard_with_one_event_changed, temp_file, wild_dog_trace};
use serde_json::Value;

#[test]
fn a_trace_agrees_with_itself_over_all_its_ticks() {
    let a = guard_trace();
    assert_eq!(compare(&a, &a.clone()), Ok(Comparison::Same { first: 0, last: 24 }));
}

#[test]
fn one_changed_event_is_found_at_its_tick_and_place() {
    let (a, b, i) = guard_with_one_event_changed();
    assert_eq!(
        compare(&a, &b),
        Ok(Comparison::Diverge(Divergence {
            tick: 7,
            event: 5,
            node: a.events[i].node().map(|n| n.0),
            a: Some(a.events[i]),
            b: Some(b.events[i]),
        }))
    );
}

#[test]
fn a_missing_event_is_found_where_the_rest_shifts() {
    let a = guard_trace();
    let mut b = a.clone();
    let i = event_index(&a, 12, 3);
    b.events.remove(i);
    let Ok(Comparison::Diverge(d)) = compare(&a, &b) else {
        panic!("no divergence found");
    };
    assert_eq!(
        (d.tick, d.event, d.a, d.b),
        (12, 3, Some(a.events[i]), Some(a.events[i + 1]))
    );
    // The other way round: the first has the event the second lacks.
    let Ok(Comparison::Diverge(d)) = compare(&b, &a) else {
        panic!("no divergence found");
    };
    assert_eq!(
        (d.tick, d.event, d.a, d.b),
        (12, 3, Some(a.events[i + 1]), Some(a.events[i]))
    );
}

#[test]
fn traces_of_different_lengths_are_compared_over_the_ticks_both_hold() {
    let full = guard_trace();
    let mut short = full.clone();
    short.events.truncate(event_index(&full, 15, 1));
    short.context.retain(|c| c.tick <= 14);
    assert_eq!(compare(&full, &short), Ok(Comparison::Same { first: 0, last: 14 }));
    // A bounded recorder forgot the first ticks: its start state is compared first.
    let (bounded, _) = guard_run(7.5, 60);
    assert!(bounded.first_tick() > 10, "the recorder dropped ticks");
    assert_eq!(
        compare(&full, &bounded),
        Ok(Comparison::Same {
            first: bounded.first_tick(),
            last: 24
        })
    );
}

#[test]
fn two_seeds_of_the_wild_dog_part_where_their_events_first_differ() {
    let (a, b) = (wild_dog_trace(1, 300), wild_dog_trace(2, 300));
    let Ok(Comparison::Diverge(d)) = compare(&a, &b) else {
        panic!("two seeds ran alike");
    };
    let (ta, tb): (Vec<_>, Vec<_>) = (a.ticks().collect(), b.ticks().collect());
    for tick in 0..d.tick as usize {
        assert_eq!(ta[tick].events, tb[tick].events, "tick {tick} before the divergence");
    }
    let (ea, eb) = (ta[d.tick as usize].events, tb[d.tick as usize].events);
    assert_eq!(ea[..d.event - 1], eb[..d.event - 1]);
    assert_eq!((ea.get(d.event - 1).copied(), eb.get(d.event - 1).copied()), (d.a, d.b));
    assert_ne!(d.a, d.b);
}

#[test]
fn traces_of_different_trees_are_not_compared() {
    let (guard, dog) = (guard_trace(), wild_dog_trace(1, 10));
    assert_eq!(
        compare(&guard, &dog),
        Err(DiffError::DifferentTrees(format!(
            "the first has {} nodes, the second {}",
            guard.nodes.len(),
            dog.nodes.len()
        )))
    );
    let mut renamed = guard.clone();
    renamed.nodes[3].label = "Run".to_owned();
    assert_eq!(
        compare(&guard, &renamed).unwrap_err().to_string(),
        "the traces are of different trees: node #3 is `Chase` (action, child of #1) \
         in the first and `Run` (action, child of #1) in the second"
    );
    let mut moved = guard.clone();
    moved.nodes[3].line += 10;
    assert_eq!(
        compare(&guard, &moved),
        Ok(Comparison::Same { first: 0, last: 24 }),
        "lines may move"
    );
}

#[test]
fn the_server_answers_both_traces_and_where_they_part() {
    let (a, b, i) = guard_with_one_event_changed();
    let files = behaved_studio::Files::new(temp_file("a.json", &a.to_json().unwrap()))
        .with_diff(temp_file("b.json", &b.to_json().unwrap()));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || behaved_studio::serve_blocking(listener, files));
    let answer = get(addr, "/api/diff");
    assert_eq!(answer.status, 200);
    let diff: Value = serde_json::from_str(&answer.body).unwrap();
    assert_eq!(
        (diff["a"]["name"].as_str(), diff["b"]["name"].as_str()),
        (Some("a.json"), Some("b.json"))
    );
    assert_eq!(Trace::from_json(&diff["b"]["trace"].to_string()).unwrap(), b);
    let c = &diff["comparison"];
    assert_eq!((c["tick"].as_u64(), c["event"].as_u64()), (Some(7), Some(5)));
    assert_eq!(c["node"].as_u64(), a.events[i].node().map(|n| u64::from(n.0)));
    assert!(
        c["text"]
            .as_str()
            .unwrap()
            .starts_with("the traces part at tick 7, event 5: the first has ticked #")
    );

    // With one trace, there is nothing to compare.
    assert_eq!(get(common::serve(temp_file("a.json", "{}")), "/api/diff").status, 404);
}

#[test]
fn the_command_line_says_where_two_files_differ() {
    let (a, b, _) = guard_with_one_event_changed();
    let (pa, pb) = (
        temp_file("a.json", &a.to_json().unwrap()),
        temp_file("b.json", &b.to_json().unwrap()),
    );
    let run = |x: &std::path::Path, y: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_behaved-studio"))
            .arg("diff")
            .args([x, y])
            .output()
            .unwrap()
    };
    let same = run(&pa, &pa);
    assert_eq!(same.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&same.stdout),
        "the traces agree event for event over ticks 0 to 24\n"
    );
    let differ = run(&pa, &pb);
    assert_eq!(differ.status.code(), Some(1));
    let expected = compare(&a, &b).unwrap().describe(&a, &b);
    assert_eq!(String::from_utf8_lossy(&differ.stdout), format!("{expected}\n"));
    assert_eq!(
        expected,
        "the traces part at tick 7, event 5: the first has ticked #1 reactive sequence: failure, \
         the second ticked #1 reactive sequence: success"
    );
    let broken = temp_file("broken.json", "{");
    let trouble = run(&pa, &broken);
    assert_eq!(trouble.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&trouble.stderr)
            .starts_with(&format!("behaved-studio: {}: trace JSON: ", broken.display()))
    );
}

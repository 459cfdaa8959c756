//! A `utility` node's scores in the page (issue 25, "why a choice was made,
//! visible"): for every tick of a recorded trace, in headless Chromium, the
//! inspector's scores are the node's last scoring in the trace (`scored`
//! events), the running child is the one marked, and the lane has a line per
//! child with the cursor at the tick; under each score, its considerations'
//! labels and values are the trace's `considered` events of that scoring. A
//! `pick` node's candidates likewise, the chosen one marked.
//!
//! Needs `chromium` and `chromium-driver`; see `tests/browser.rs`.

mod common;

use behaved::prelude::*;
use behaved_observe::{Cursor, Event, Trace, TraceRecorder};
// A job that runs until halted, labelled `Job` in the page.
use behaved_testkit::endless::Endless as Job;
use common::browser::{eval, open, with_browser};
use common::{serve, temp_file};
use fantoccini::Locator;
use serde_json::Value;

/// Three jobs' scores, set by the script each tick.
struct Npc {
    score: [f32; 3],
}

behave! {
    tree Choose for Npc {
        utility(reactive, margin = 0.1) {
            |c| c.score[0] => Job,
            all((|c: &Npc| c.score[1], |c: &Npc| 1.0 - c.score[2] * 0.5)) => Job,
            |c| c.score[2] => Job,
        }
    }
}

/// Targets by index, each with an appeal the script sets.
struct Camp {
    targets: Vec<usize>,
    appeal: [f32; 4],
}

behave! {
    tree Hunt for Camp {
        loop {
            sequence {
                pick t: usize in |c| c.targets.iter() max 4 by |c, t| c.appeal[*t] {
                    act(|_| { let _ = t; Status::Success })
                },
                wait(0.25),
            }
        }
    }
}

/// 40 ticks of scores that rise and fall, so that the choice switches, with a
/// score that is not a number at tick 17 and none above zero at tick 30.
fn recorded() -> Trace {
    let mut recorder = TraceRecorder::new(Choose::NODES, 10_000).unwrap();
    let (mut tree, mut npc) = (Choose::new(), Npc { score: [0.0; 3] });
    for t in 1..=40u32 {
        let x = t as f32;
        npc.score = [
            0.5 + 0.4 * (x * 0.3).sin(),
            0.5 + 0.4 * (x * 0.2 + 2.0).sin(),
            0.3 + 0.01 * x,
        ];
        if t == 17 {
            npc.score[1] = f32::NAN;
        }
        if t == 30 {
            npc.score = [0.0, -1.0, 0.0];
        }
        tree.tick_observed(&mut npc, f64::from(t) * 0.1, &mut recorder);
    }
    recorder.trace()
}

/// 30 ticks of a camp whose targets come and go and whose appeal changes.
fn hunted() -> Trace {
    let mut recorder = TraceRecorder::new(Hunt::NODES, 10_000).unwrap();
    let (mut tree, mut camp) = (
        Hunt::new(),
        Camp {
            targets: vec![],
            appeal: [0.0; 4],
        },
    );
    for t in 1..=30u32 {
        let x = t as f32;
        camp.targets = (0..4).filter(|i| !(t as usize + i).is_multiple_of(5)).collect();
        camp.appeal = [
            0.3 + 0.2 * (x * 0.4).sin(),
            0.5,
            0.4 + 0.3 * (x * 0.3).cos(),
            if t.is_multiple_of(7) { 0.0 } else { 0.2 },
        ];
        tree.tick_observed(&mut camp, f64::from(t) * 0.1, &mut recorder);
    }
    recorder.trace()
}

/// Each child's parts in one scoring: its considerations' labels and values.
type Parts = Vec<Vec<(String, f32)>>;

/// The node's last scoring up to the end of each tick, from the trace: the
/// tick, the scores, the tick it scored in, and each child's parts.
fn scores_by_tick(trace: &Trace) -> Vec<(u64, Vec<f32>, u64, Parts)> {
    let mut last: Option<(Vec<f32>, u64, Parts)> = None;
    let mut out = Vec::new();
    for tick in trace.ticks().skip(1) {
        for e in tick.events {
            match *e {
                Event::Considered {
                    child,
                    part,
                    label,
                    value,
                    ..
                } => {
                    if child == 0 && part == 0 {
                        last = Some((Vec::new(), tick.tick, Vec::new()));
                    }
                    let parts = &mut last.as_mut().unwrap().2;
                    parts.resize(child as usize + 1, Vec::new());
                    parts[child as usize].push((trace.labels[label as usize].clone(), value));
                }
                Event::Scored { score, .. } => last.as_mut().unwrap().0.push(score),
                _ => {}
            }
        }
        if let Some((scores, at, parts)) = last.clone() {
            out.push((tick.tick, scores, at, parts));
        }
    }
    out
}

/// The parts the page shows under each score, as `[{child, label, value}]`
/// (`value` as written in `data-value`), grouped by child like [`Parts`].
const SHOWN_PARTS: &str = "[...document.querySelectorAll('#scores-table tr.part')].map((r) => \
     ({ child: Number(r.dataset.child), label: r.cells[0].textContent, value: r.dataset.value, text: r.cells[1].textContent }))";

/// Checks the page's parts (from [`SHOWN_PARTS`]) against the trace's `parts`.
fn same_parts(shown: &Value, parts: &Parts, tick: u64) {
    let shown = shown.as_array().unwrap();
    let expected: Vec<(usize, &String, f32)> = parts
        .iter()
        .enumerate()
        .flat_map(|(c, ps)| ps.iter().map(move |(l, v)| (c, l, *v)))
        .collect();
    assert_eq!(shown.len(), expected.len(), "tick {tick}: parts shown {shown:?}");
    for (row, (child, label, value)) in shown.iter().zip(expected) {
        assert_eq!(row["child"], child, "tick {tick}");
        assert_eq!(row["label"], label.as_str(), "tick {tick}");
        let page = row["value"].as_str().unwrap().parse::<f64>().unwrap();
        assert!(
            page == f64::from(value) || (page.is_nan() && value.is_nan()),
            "tick {tick}, child {child} `{label}`: the page shows {page}, the trace has {value}"
        );
        if value.is_nan() {
            assert_eq!(row["text"], "not a number", "tick {tick}");
        }
    }
}

#[test]
fn the_inspector_shows_the_scores_of_the_trace_at_every_tick() {
    let trace = recorded();
    let expected = scores_by_tick(&trace);
    assert!(
        trace
            .events
            .iter()
            .filter(|e| matches!(e, Event::Halted { .. }))
            .count()
            >= 3,
        "the choice switches several times"
    );
    let url = format!("http://{}/", serve(temp_file("scores.json", &trace.to_json().unwrap())));
    with_browser(
        "the_inspector_shows_the_scores_of_the_trace_at_every_tick",
        |client| async move {
            let mut cursor = Cursor::new(&trace).unwrap();
            open(&client, &format!("{url}#tick=1&node=0")).await;
            let next = client.find(Locator::Css("#next-tick")).await.unwrap();
            for (tick, scores, scored_at, parts) in &expected {
                cursor.seek(*tick).unwrap();
                let shown = eval(
                    &client,
                    &format!(
                        "const s = document.querySelector('#scores');
                 const rows = [...document.querySelectorAll('#scores-table tr.score')];
                 const lane = document.querySelector('#score-lane .lane-cursor');
                 return {{
                   position: document.querySelector('#position').dataset.tick,
                   tick: s.dataset.tick,
                   scores: rows.map((r) => r.dataset.score),
                   text: rows.map((r) => r.cells[1].textContent),
                   chosen: rows.map((r) => r.classList.contains('chosen')),
                   lines: document.querySelectorAll('#score-lane polyline').length,
                   lane: lane.dataset.tick,
                   parts: {SHOWN_PARTS},
                 }};"
                    ),
                )
                .await;
                let field = |name: &str| shown[name].clone();
                assert_eq!(
                    field("position"),
                    Value::from(tick.to_string()),
                    "the page is at tick {tick}"
                );
                assert_eq!(
                    field("tick"),
                    Value::from(scored_at.to_string()),
                    "scored in tick {scored_at}"
                );
                let page: Vec<f64> = field("scores")
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().parse::<f64>().unwrap())
                    .collect();
                assert_eq!(page.len(), scores.len(), "tick {tick}");
                for (i, (p, s)) in page.iter().zip(scores).enumerate() {
                    assert!(
                        *p == f64::from(*s) || (p.is_nan() && s.is_nan()),
                        "tick {tick}, child {i}: the page shows {p}, the trace has {s}"
                    );
                    if s.is_nan() {
                        assert_eq!(field("text")[i], "not a number");
                    }
                }
                let running: Vec<bool> = (1..=3).map(|n| cursor.statuses()[n].name() == "running").collect();
                assert_eq!(
                    field("chosen"),
                    Value::from(running),
                    "the running child is marked, tick {tick}"
                );
                assert_eq!(field("lines"), 3, "a line per child");
                assert_eq!(field("lane"), Value::from(tick.to_string()), "the lane's cursor");
                assert_eq!(parts.iter().map(Vec::len).collect::<Vec<_>>(), [1, 2, 1], "tick {tick}");
                same_parts(&field("parts"), parts, *tick);
                next.click().await.unwrap();
            }
        },
    );
}

#[test]
fn a_picks_candidates_are_shown_with_their_scores_and_the_chosen_one_marked() {
    let trace = hunted();
    let pick = trace
        .nodes
        .iter()
        .find(|n| n.kind == behaved::NodeKind::Pick)
        .unwrap()
        .id;
    let expected = scores_by_tick(&trace);
    assert!(expected.len() >= 8, "the pick scored in several ticks");
    let url = format!("http://{}/", serve(temp_file("pick.json", &trace.to_json().unwrap())));
    with_browser("a_picks_candidates_are_shown", |client| async move {
        for (tick, scores, scored_at, parts) in &expected {
            open(&client, &format!("{url}#tick={tick}&node={pick}")).await;
            let shown = eval(
                &client,
                &format!(
                    "const rows = [...document.querySelectorAll('#scores-table tr.score')];
                 return {{
                   tick: document.querySelector('#scores').dataset.tick,
                   scores: rows.map((r) => Number(r.dataset.score)),
                   labels: rows.map((r) => r.cells[0].textContent),
                   chosen: rows.map((r) => r.classList.contains('chosen')),
                   parts: {SHOWN_PARTS},
                 }};"
                ),
            )
            .await;
            assert!(parts.iter().all(|p| p.len() == 1), "a closure is one part, tick {tick}");
            same_parts(&shown["parts"], parts, *tick);
            assert_eq!(shown["tick"], Value::from(scored_at.to_string()), "tick {tick}");
            let page: Vec<f64> = shown["scores"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            let trace_scores: Vec<f64> = scores.iter().map(|s| f64::from(*s)).collect();
            assert_eq!(page, trace_scores, "tick {tick}");
            let labels: Vec<String> = (0..scores.len()).map(|i| format!("candidate {i}")).collect();
            assert_eq!(shown["labels"], Value::from(labels));
            let best = scores
                .iter()
                .enumerate()
                .filter(|(_, s)| **s > 0.0)
                .fold(None, |b: Option<(usize, f32)>, (i, s)| match b {
                    Some((_, bs)) if bs >= *s => b,
                    _ => Some((i, *s)),
                })
                .map(|(i, _)| i);
            let marked: Vec<bool> = (0..scores.len()).map(|i| Some(i) == best).collect();
            assert_eq!(
                shown["chosen"],
                Value::from(marked),
                "the first highest above zero, tick {tick}"
            );
        }
    });
}

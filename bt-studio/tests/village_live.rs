//! The villagers of `behaved_scenarios::village` watched in the live view
//! (issue 25: "watched in the studio with its scores"), in headless Chromium:
//! a game thread steps the village with a studio agent per villager; the
//! page follows villager 0 and its inspector shows the utility node's scores
//! and each score's considerations (labels and values), the same as the
//! game's own trace of that villager has at the shown tick.
//!
//! Needs `chromium` and `chromium-driver`; see `tests/browser.rs`.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use behaved::NodeKind;
use behaved_observe::{Event, Tee, Trace, TraceRecorder};
use behaved_scenarios::village::{Village, Villager};
use common::browser::{click, eval, follow_first_agent, wait_for, with_browser};
use serde_json::Value;

/// The last scoring of node `node` in `trace` up to the end of the tick
/// that started at time `now` (the live view numbers its ticks from when
/// the page began to follow; the game's trace from the game's start): the
/// scores, and every score's parts in order as `(child, label, value)`.
fn last_scores(trace: &Trace, node: u32, now: f64) -> (Vec<f32>, Vec<(u32, String, f32)>) {
    let (mut last, mut parts) = (Vec::new(), Vec::new());
    for t in trace.ticks() {
        let started = t.events.iter().find_map(|e| match *e {
            Event::TickStarted { now, .. } => Some(now),
            _ => None,
        });
        if started.is_some_and(|s| s > now) {
            break;
        }
        for e in t.events {
            match *e {
                Event::Considered {
                    node: n,
                    child,
                    part,
                    label,
                    value,
                } if n.0 == node => {
                    if child == 0 && part == 0 {
                        last.clear();
                        parts.clear();
                    }
                    parts.push((child, trace.labels[label as usize].clone(), value));
                }
                Event::Scored { node: n, score, .. } if n.0 == node => last.push(score),
                _ => {}
            }
        }
    }
    (last, parts)
}

#[test]
fn a_followed_villagers_inspector_shows_the_scores_its_tree_reported() {
    let utility = Villager::NODES
        .iter()
        .position(|n| n.kind == NodeKind::Utility)
        .unwrap();
    with_browser("village_live", |client| async move {
        let studio = behaved_studio::Studio::serve("127.0.0.1:0").unwrap();
        let mut observers: Vec<_> = (0..2)
            .map(|i| {
                Tee(
                    studio.agent(&format!("villager#{i}"), Villager::NODES).unwrap(),
                    TraceRecorder::new(Villager::NODES, 1_000_000).unwrap(),
                )
            })
            .collect();
        let quit = Arc::new(AtomicBool::new(false));
        let done: Arc<Mutex<Option<Trace>>> = Arc::default();
        let (stop, out) = (Arc::clone(&quit), Arc::clone(&done));
        let game = std::thread::spawn(move || {
            let mut village = Village::new(2, |_| Villager::new());
            while !stop.load(Ordering::SeqCst) {
                village.step_observed(&mut observers);
                std::thread::sleep(Duration::from_millis(5));
            }
            *out.lock().unwrap() = Some(observers.swap_remove(0).1.trace());
        });
        follow_first_agent(&client, &studio.url()).await;
        // The tree is drawn (the first window arrived) before the search can find its node.
        wait_for(&client, "#tree [data-id]").await;
        common::browser::search_node(&client, utility).await;
        wait_for(&client, &format!("#position[data-node='{utility}']")).await;
        click(&client, "#tabs button[data-tab='inspector']").await;
        wait_for(&client, "#scores-table tr[data-child='3']").await;
        quit.store(true, Ordering::SeqCst);
        game.join().unwrap();
        let trace = done.lock().unwrap().take().unwrap();
        // Whatever tick the page shows, its scores are the trace's there.
        let shown = eval(
            &client,
            "return { now: document.querySelector('#scores').dataset.now,
                      scores: [...document.querySelectorAll('#scores-table tr.score')].map((r) => Number(r.dataset.score)),
                      parts: [...document.querySelectorAll('#scores-table tr.part')]
                        .map((r) => [Number(r.dataset.child), r.cells[0].textContent, Number(r.dataset.value)]) };",
        )
        .await;
        let scored_at: f64 = shown["now"].as_str().unwrap().parse().unwrap();
        let (scores, parts) = last_scores(&trace, utility as u32, scored_at);
        let expected: Vec<Value> = scores.into_iter().map(|s| Value::from(f64::from(s))).collect();
        let expected_parts: Vec<Value> = parts
            .into_iter()
            .map(|(c, l, v)| serde_json::json!([c, l, f64::from(v)]))
            .collect();
        assert!(
            expected_parts.len() >= 4,
            "each choice's considerations: {expected_parts:?}"
        );
        assert_eq!(expected.len(), 4, "the villager's four choices");
        assert_eq!(
            shown["scores"],
            Value::from(expected),
            "scored in the tick at {scored_at} s"
        );
        assert_eq!(
            shown["parts"],
            Value::from(expected_parts),
            "the considerations' labels and values under each score, at {scored_at} s"
        );
    });
}

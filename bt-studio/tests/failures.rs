//! Finding where a dog went wrong, in a real headless Chromium: the dogs of
//! `examples/dogs_studio.rs` fail when their prey recalls past the leash, and
//! the page's "next / previous failure" (keys and buttons) lands on exactly
//! the ticks and events where the library recorded each failure, draws the
//! failed node failed there, and marks those ticks on the timeline.
//!
//! Needs `chromium` and `chromium-driver` (Debian); without them every test
//! here prints that it was skipped, unless `BT_STUDIO_REQUIRE_BROWSER=1`.

mod common;

use bt::observe::{Event, StatusSnapshot, Trace, TraceRecorder};
use bt::prelude::*;
use bt_scenarios::actor::Recall;
use bt_scenarios::dog::{DogView, WildDog};
use bt_scenarios::world::World;
use common::browser::{Drawn, click, drawn, eval, keys, open, screenshot, with_browser};
use common::{serve, temp_file};

/// Where a failure is drawn: the tick, and how many of its events are applied (up to the failing one).
type Position = (u64, usize);

/// The recall of `examples/dogs_studio.rs`: about every ten seconds, 40 hexes away.
const RECALL: Recall = Recall::new(10.0, 40);

/// The dogs' arena of `examples/dogs_studio.rs`, smaller (sixteen dogs, four
/// players recalling as there), recorded for 40 s with each dog's
/// [`DogView`] as its next tick finds it as context: the trace of the dog whose `MoveAdjacent` failed
/// most often.
fn recording() -> Trace {
    let mut world: World = World::arena(16);
    let players: Vec<_> = world.players().iter().map(|p| p.id).collect();
    for player in players {
        world.set_recall(player, Some(RECALL)).unwrap();
    }
    let mut recorders: Vec<_> = world
        .dogs()
        .iter()
        .map(|_| TraceRecorder::new(WildDog::NODES, 1 << 20).unwrap())
        .collect();
    for _ in 0..40 * 60 {
        // As the example does: the values as each dog's next tick will find the world.
        world.begin_frame();
        for (recorder, dog) in recorders.iter_mut().zip(world.dogs()) {
            recorder.record_context(&DogView::of(dog, world.players())).unwrap();
        }
        world.think_each_observed(&mut recorders);
        world.end_frame();
    }
    let traces = recorders.into_iter().map(|r| r.trace());
    traces
        .max_by_key(|t| failures(t, Some(move_adjacent(t))).len())
        .unwrap()
}

/// The id of the `MoveAdjacent` leaf.
fn move_adjacent(trace: &Trace) -> u32 {
    trace.nodes.iter().find(|n| n.label == "MoveAdjacent").unwrap().id
}

/// Where `trace` records a node (`node`, or any) ticked to failure, in order.
fn failures(trace: &Trace, node: Option<u32>) -> Vec<Position> {
    let mut out = Vec::new();
    for tick in trace.ticks() {
        for (i, event) in tick.events.iter().enumerate() {
            if let Event::Ticked {
                node: n,
                status: Status::Failure,
            } = *event
                && node.is_none_or(|id| id == n.0)
            {
                out.push((tick.tick, i + 1));
            }
        }
    }
    out
}

/// Every node's state at `at`, replayed by the library's `StatusSnapshot`.
fn states_at(trace: &Trace, at: Position) -> Vec<String> {
    let mut snapshot = StatusSnapshot::new(&trace.nodes).unwrap();
    for tick in trace.ticks().take_while(|t| t.tick <= at.0) {
        let events = if tick.tick == at.0 {
            &tick.events[..at.1]
        } else {
            tick.events
        };
        for event in events {
            match *event {
                Event::TickStarted { now, .. } => snapshot.tick_started(now),
                Event::Entered { node } => snapshot.entered(node),
                Event::Ticked { node, status } => snapshot.ticked(node, status),
                Event::Halted { node } => snapshot.halted(node),
                Event::TickFinished { status } => snapshot.tick_finished(status),
            }
        }
    }
    snapshot.statuses().iter().map(|s| s.name().to_owned()).collect()
}

/// The position the page shows.
fn position(page: &Drawn) -> Position {
    (page.tick, page.event)
}

/// The ticks of `positions`, each once.
fn ticks(positions: &[Position]) -> Vec<u64> {
    let mut ticks: Vec<u64> = positions.iter().map(|p| p.0).collect();
    ticks.dedup();
    ticks
}

/// The timeline's failure marks: whose (a node id, or `None`: any node's) and their ticks.
async fn failure_marks(client: &fantoccini::Client) -> (Option<u64>, Vec<u64>) {
    let marks = eval(client, "return window.btStudio.failureMarks();").await;
    (
        marks["of"].as_u64(),
        serde_json::from_value(marks["ticks"].clone()).unwrap(),
    )
}

#[test]
fn next_and_previous_failure_land_where_the_library_recorded_each_failure() {
    let trace = recording();
    let leaf = move_adjacent(&trace);
    let expected = failures(&trace, Some(leaf));
    assert!(
        expected.len() >= 3,
        "the recalls made the dog fail often enough: {expected:?}"
    );
    assert!(
        expected[0].0 > trace.first_tick(),
        "the page starts before the first failure"
    );
    let any = failures(&trace, None);
    let url = format!(
        "http://{}/",
        serve(temp_file("dog.trace.json", &trace.to_json().unwrap()))
    );
    with_browser("failures", |client| async move {
        open(&client, &format!("{url}#tick={}&node={leaf}", trace.first_tick())).await;
        assert_eq!(failure_marks(&client).await, (Some(u64::from(leaf)), ticks(&expected)));

        // `n` goes from failure to failure of the selected leaf, drawn failed at each.
        for &at in &expected {
            keys(&client, "n").await;
            let page = drawn(&client).await;
            assert_eq!(position(&page), at);
            assert_eq!(page.statuses[leaf as usize], "failure", "at {at:?}");
            assert_eq!(page.statuses, states_at(&trace, at), "at {at:?}");
        }
        let last = *expected.last().unwrap();
        keys(&client, "n").await;
        assert_eq!(position(&drawn(&client).await), last, "nothing later: the page stays");
        let note = eval(&client, "return document.querySelector('#failure-note').textContent;").await;
        assert_eq!(note, format!("No later failure of #{leaf} MoveAdjacent in the trace."));

        // `p` and the button go back, one failure each.
        let n = expected.len();
        keys(&client, "p").await;
        assert_eq!(position(&drawn(&client).await), expected[n - 2]);
        click(&client, "#prev-failure").await;
        let page = drawn(&client).await;
        assert_eq!(position(&page), expected[n - 3]);
        assert_eq!(page.statuses[leaf as usize], "failure");

        // Shift+N: the next failure of any node (the sequence the leaf failed is next).
        let here = expected[n - 3];
        let next_any = *any.iter().find(|&&p| p > here).unwrap();
        keys(&client, "N").await;
        let page = drawn(&client).await;
        assert_eq!(position(&page), next_any);
        assert_eq!(page.statuses, states_at(&trace, next_any));
        assert_eq!(page.node, Some(leaf), "the selection stays");

        // Beside the failure, the context says why: as the failing tick found the world, the target
        // stood past the 30-hex leash (it recalled between the two ticks).
        let (tick, k) = expected[0];
        eval(&client, &format!("window.btStudio.seek({tick}, {k});")).await;
        let shown = eval(
            &client,
            "const row = document.querySelector(\"#context tr[data-key='target_distance']\");
             return [document.querySelector('#context').dataset.tick, Number(row.dataset.value)];",
        )
        .await;
        let before = trace.context.iter().find(|c| c.tick == tick - 1).unwrap();
        assert_eq!(
            shown,
            serde_json::json!([(tick - 1).to_string(), before.values["target_distance"]])
        );
        assert!(shown[1].as_u64().unwrap() > 30, "{shown}");
        screenshot(&client, "failure").await;

        // Without a selection the timeline marks every node's failures, and `n` finds any.
        client.goto("about:blank").await.unwrap();
        open(&client, &format!("{url}#tick={}", trace.first_tick())).await;
        assert_eq!(failure_marks(&client).await, (None, ticks(&any)));
        click(&client, "#next-failure").await;
        assert_eq!(position(&drawn(&client).await), any[0]);
    });
}

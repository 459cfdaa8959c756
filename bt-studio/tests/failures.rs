//! Finding where a dog went wrong, in a real headless Chromium: the dogs of
//! `examples/dogs_studio.rs` fail when their prey recalls past the leash, and
//! the page's "next / previous failure" (keys and buttons) lands on exactly
//! the ticks and events where the library recorded each failure, draws the
//! failed node failed there, and marks those ticks on the timeline.
//!
//! Needs `chromium` and `chromium-driver` (Debian); without them every test
//! here prints that it was skipped, unless `BEHAVED_STUDIO_REQUIRE_BROWSER=1`.

mod common;

use behaved::prelude::*;
use behaved_observe::{Event, StatusSnapshot, Tee, Trace, TraceRecorder};
use behaved_scenarios::actor::Recall;
use behaved_scenarios::dog::{DogView, WildDog};
use behaved_scenarios::world::World;
use common::browser::{Drawn, click, drawn, eval, keys, open, screenshot, wait_for, with_browser};
use common::{serve, temp_file};

/// Where a failure is drawn: the tick, and how many of its events are applied (up to the failing one).
type Position = (u64, usize);

/// The recall of `examples/dogs_studio.rs`: about every ten seconds, 40 hexes away.
const RECALL: Recall = Recall::new(10.0, 40);

/// The dogs' arena of `examples/dogs_studio.rs`, smaller: sixteen dogs, four
/// players recalling as there.
fn arena() -> World {
    let mut world: World = World::arena(16);
    let players: Vec<_> = world.players().iter().map(|p| p.id).collect();
    for player in players {
        world.set_recall(player, Some(RECALL)).unwrap();
    }
    world
}

/// The first half of a frame, as the example runs it: the players act, then
/// each dog's [`DogView`] is recorded as its tick will find the world (the
/// values shown beside the tick before).
fn players_act<O>(world: &mut World, observers: &mut [O], mut record: impl FnMut(&mut O, DogView)) {
    world.begin_frame();
    for (observer, dog) in observers.iter_mut().zip(world.dogs()) {
        record(observer, DogView::of(dog, world.players()));
    }
}

/// The second half of a frame: the dogs think, the server acts.
fn dogs_think<O: Observer>(world: &mut World, observers: &mut [O]) {
    world.think_each_observed(observers);
    world.end_frame();
}

/// The arena recorded for 40 s, each dog's view as context: the trace of the
/// dog whose `MoveAdjacent` failed most often.
fn recording() -> Trace {
    let mut world = arena();
    let mut recorders: Vec<_> = world
        .dogs()
        .iter()
        .map(|_| TraceRecorder::new(WildDog::NODES, 1 << 20).unwrap())
        .collect();
    let record = |r: &mut TraceRecorder, view| r.record_context(&view).unwrap();
    players_act(&mut world, &mut recorders, record);
    for _ in 0..40 * 60 {
        dogs_think(&mut world, &mut recorders);
        players_act(&mut world, &mut recorders, record);
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
            snapshot.replay(event);
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

#[test]
fn a_followed_dogs_failures_are_found_in_its_live_window() {
    with_browser("live_failures", |client| async move {
        let studio = behaved_studio::Studio::serve("127.0.0.1:0").unwrap();
        let mut world = arena();
        // Each dog's live observer, the server's window recorded beside it (a recorder of its
        // size), and its whole life.
        let mut dogs: Vec<_> = (0..world.dogs().len())
            .map(|i| {
                let agent = studio.agent(&format!("dog#{i}"), WildDog::NODES).unwrap();
                let window = TraceRecorder::new(WildDog::NODES, behaved_studio::HISTORY).unwrap();
                Tee(agent, Tee(window, TraceRecorder::new(WildDog::NODES, 1 << 22).unwrap()))
            })
            .collect();
        let followed = 0;
        open(&client, &format!("{}#agent={followed}", studio.url())).await;
        wait_for(&client, &format!("body[data-following='{followed}']")).await;
        // Batches of frames, each drawn before the next, until the window dropped its oldest
        // ticks and holds a few failures. Each batch ends with the values of its last tick
        // recorded (the next frame's first half): the live view sends a tick with its values.
        let leaf = move_adjacent(&dogs[followed].1.1.trace());
        let record = |dog: &mut Tee<behaved_studio::ObservedAgent, Tee<TraceRecorder, TraceRecorder>>, view| {
            dog.0.record_context(&view).unwrap();
            dog.1.0.record_context(&view).unwrap();
        };
        players_act(&mut world, &mut dogs, record);
        let window = loop {
            for _ in 0..250 {
                dogs_think(&mut world, &mut dogs);
                players_act(&mut world, &mut dogs, record);
            }
            let window = dogs[followed].1.0.trace();
            wait_for(&client, &format!("#position[data-tick='{}']", window.last_tick())).await;
            let before = failures(&dogs[followed].1.1.trace(), Some(leaf))
                .into_iter()
                .filter(|&(tick, _)| tick <= window.first_tick())
                .count();
            if before > 0 && failures(&window, Some(leaf)).len() >= 3 {
                break window;
            }
            assert!(world.now() < 600.0, "the followed dog failed too rarely");
        };
        click(&client, "#live-pause").await;
        let expected = failures(&window, Some(leaf));
        click(&client, &format!("#viewport .node[data-id='{leaf}']")).await;
        assert_eq!(drawn(&client).await.node, Some(leaf));
        assert_eq!(failure_marks(&client).await, (Some(u64::from(leaf)), ticks(&expected)));
        // From the newest tick back, `p` finds each failure in the window, and none of the older.
        for &at in expected.iter().rev() {
            keys(&client, "p").await;
            let page = drawn(&client).await;
            assert_eq!(position(&page), at);
            assert_eq!(page.statuses[leaf as usize], "failure", "at {at:?}");
        }
        keys(&client, "p").await;
        assert_eq!(position(&drawn(&client).await), expected[0]);
        let note = eval(&client, "return document.querySelector('#failure-note').textContent;").await;
        assert_eq!(
            note,
            format!("No earlier failure of #{leaf} MoveAdjacent in the window.")
        );
        screenshot(&client, "live-failure").await;
    });
}

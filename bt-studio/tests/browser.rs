//! The page in a real headless Chromium, driven over WebDriver: what it draws
//! is compared with bt-observe's `Cursor` and `StatusSnapshot`.
//!
//! Needs `chromium` and `chromium-driver` (Debian); without them every test
//! here prints that it was skipped, unless `BT_STUDIO_REQUIRE_BROWSER=1`.
//! Screenshots go to `target/tmp/bt-studio-screenshots/`.

mod common;

use bt::NodeKind;
use bt::observe::{Cursor, Event, NodeState, StatusSnapshot, Trace};
use bt::prelude::*;
use common::browser::{Drawn, drawn, open, screenshot, with_browser};
use common::{guard_trace, guard_with_one_event_changed, serve, temp_file, wild_dog_trace};
use fantoccini::key::Key;
use fantoccini::{Client, Locator};

/// The names of `states`, as the page writes them in `data-status`.
fn names(states: &[NodeState]) -> Vec<String> {
    states.iter().map(|s| s.name().to_owned()).collect()
}

/// Serves `trace` and returns the page's URL.
fn serve_trace(name: &str, trace: &Trace) -> String {
    format!("http://{}/", serve(temp_file(name, &trace.to_json().unwrap())))
}

/// The id of the node labelled `label`.
fn node_id(trace: &Trace, label: &str) -> u32 {
    trace.nodes.iter().find(|n| n.label == label).unwrap().id
}

/// One position of the event-by-event replay: after event `k` (from 1) of `tick`.
struct Step {
    tick: u64,
    k: usize,
    event: Event,
    before: Vec<NodeState>,
    after: Vec<NodeState>,
}

/// Every event of `trace` applied in turn to a `StatusSnapshot`, the reference
/// for the page's replay (the trace must start before its first tick).
fn steps(trace: &Trace) -> Vec<Step> {
    assert!(trace.start.statuses.iter().all(|s| s.is_idle()));
    let mut snapshot = StatusSnapshot::new(&trace.nodes).unwrap();
    let mut steps = Vec::new();
    for tick in trace.ticks() {
        for (i, event) in tick.events.iter().enumerate() {
            let before = snapshot.statuses().to_vec();
            match *event {
                Event::TickStarted { now, .. } => snapshot.tick_started(now),
                Event::Entered { node } => snapshot.entered(node),
                Event::Ticked { node, status } => snapshot.ticked(node, status),
                Event::Halted { node } => snapshot.halted(node),
                Event::TickFinished { status } => snapshot.tick_finished(status),
            }
            steps.push(Step {
                tick: tick.tick,
                k: i + 1,
                event: *event,
                before,
                after: snapshot.statuses().to_vec(),
            });
        }
    }
    steps
}

/// Clicks the element `css`.
async fn click(client: &Client, css: &str) {
    client.find(Locator::Css(css)).await.unwrap().click().await.unwrap();
}

/// Steps through every tick of `trace` with the "next tick" button and checks
/// that the page draws, at each, what `Cursor` holds.
async fn every_tick_matches_the_cursor(client: &Client, url: &str, trace: &Trace) {
    let mut cursor = Cursor::new(trace).unwrap();
    open(client, &format!("{url}#tick={}", cursor.first_tick())).await;
    let next = client.find(Locator::Css("#next-tick")).await.unwrap();
    let mut ticks = 0;
    for tick in cursor.first_tick()..=cursor.last_tick() {
        cursor.seek(tick).unwrap();
        let page = drawn(client).await;
        assert_eq!(
            (page.tick, page.event, page.events),
            (tick, cursor.events().len(), cursor.events().len())
        );
        assert_eq!(page.statuses, names(cursor.statuses()), "tick {tick}");
        let halted: Vec<u32> = cursor
            .events()
            .iter()
            .filter_map(|e| match *e {
                Event::Halted { node } if cursor.statuses()[node.index()].is_idle() => Some(node.0),
                _ => None,
            })
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        assert_eq!(page.halted, halted, "tick {tick}: the nodes drawn as halted");
        next.click().await.unwrap();
        ticks += 1;
    }
    assert_eq!(drawn(client).await.tick, cursor.last_tick(), "the last tick is the end");
    assert!(ticks > 20, "{ticks} ticks checked");
}

#[test]
fn every_tick_of_the_guard_and_a_wild_dog_is_drawn_as_the_cursor_has_it() {
    with_browser("every_tick", |client| async move {
        let guard = guard_trace();
        every_tick_matches_the_cursor(&client, &serve_trace("guard.trace.json", &guard), &guard).await;
        assert!(
            guard.events.iter().any(|e| matches!(e, Event::Halted { .. })),
            "the guard's trace has halts"
        );

        let dog = wild_dog_trace(7, 150);
        let url = serve_trace("wild-dog.trace.json", &dog);
        every_tick_matches_the_cursor(&client, &url, &dog).await;
        open(&client, &format!("{url}#tick=100&node=0")).await;
        screenshot(&client, "wild-dog").await;
    });
}

#[test]
fn stepping_event_by_event_applies_one_event_at_a_time() {
    with_browser("event_by_event", |client| async move {
        let trace = guard_trace();
        let url = serve_trace("guard.trace.json", &trace);
        open(&client, &format!("{url}#tick=0")).await;
        let body = client.find(Locator::Css("body")).await.unwrap();
        let forward = format!("{}{}", Key::Shift, Key::Right);
        let all = steps(&trace);
        for step in &all {
            body.send_keys(&forward).await.unwrap();
            let page = drawn(&client).await;
            assert_eq!((page.tick, page.event), (step.tick, step.k), "after {:?}", step.event);
            assert_eq!(page.statuses, names(&step.after), "tick {} event {}", step.tick, step.k);
        }
        // And back again over the last three ticks, one event at a time.
        let backward = format!("{}{}", Key::Shift, Key::Left);
        let last = trace.last_tick();
        for step in all.iter().rev().skip(1).take_while(|s| s.tick + 3 > last) {
            body.send_keys(&backward).await.unwrap();
            let page = drawn(&client).await;
            assert_eq!(
                (page.tick, page.event),
                (step.tick, step.k),
                "back to tick {}",
                step.tick
            );
            assert_eq!(page.statuses, names(&step.after));
        }
        screenshot(&client, "guard-event-by-event").await;
    });
}

#[test]
fn the_transitions_filter_finds_the_changes_and_a_row_seeks_there() {
    with_browser("transitions", |client| async move {
        let trace = guard_trace();
        let chase = node_id(&trace, "Chase");
        let all = steps(&trace);
        // Reference: every change of a node's state, and whether a halt caused it.
        let changes: Vec<(u64, usize, u32, NodeState, bool)> = all
            .iter()
            .flat_map(|s| {
                let halt = matches!(s.event, Event::Halted { .. });
                (0..s.after.len())
                    .filter(|&n| s.before[n] != s.after[n])
                    .map(move |n| (s.tick, s.k, n as u32, s.after[n], halt))
            })
            .collect();
        open(&client, &serve_trace("guard.trace.json", &trace)).await;
        click(&client, "#tabs button[data-tab='transitions']").await;
        let count = async || {
            let p = client.find(Locator::Css("#transitions-count")).await.unwrap();
            let n: usize = p.attr("data-count").await.unwrap().unwrap().parse().unwrap();
            let rows = client
                .find_all(Locator::Css("#transitions-table tbody tr"))
                .await
                .unwrap()
                .len();
            assert_eq!(rows, n.min(500), "rows drawn");
            n
        };
        assert_eq!(count().await, changes.len());

        let filter = client.find(Locator::Css("#filter-node")).await.unwrap();
        filter.send_keys("Chase").await.unwrap();
        client
            .find(Locator::Css("#filter-status"))
            .await
            .unwrap()
            .select_by_value("running")
            .await
            .unwrap();
        let to_running: Vec<_> = changes
            .iter()
            .filter(|c| c.2 == chase && c.3 == NodeState::Running && !c.4)
            .collect();
        assert!(!to_running.is_empty());
        assert_eq!(count().await, to_running.len(), "Chase becoming running");

        filter.clear().await.unwrap();
        client
            .find(Locator::Css("#filter-kind"))
            .await
            .unwrap()
            .select_by_value("action")
            .await
            .unwrap();
        client
            .find(Locator::Css("#filter-status"))
            .await
            .unwrap()
            .select_by_value("halted")
            .await
            .unwrap();
        let halted_actions = changes
            .iter()
            .filter(|c| trace.nodes[c.2 as usize].kind == NodeKind::Action && c.4)
            .count();
        assert!(halted_actions > 0);
        assert_eq!(count().await, halted_actions, "actions halted");
        screenshot(&client, "guard-transitions").await;

        // A row click seeks to the change and selects its node.
        let first = changes
            .iter()
            .find(|c| trace.nodes[c.2 as usize].kind == NodeKind::Action && c.4)
            .unwrap();
        click(&client, "#transitions-table tbody tr").await;
        let page = drawn(&client).await;
        assert_eq!((page.tick, page.event, page.node), (first.0, first.1, Some(first.2)));
        assert_eq!(page.statuses[first.2 as usize], "idle");
        assert!(page.halted.contains(&first.2), "drawn as halted");
    });
}

#[test]
fn a_permalink_reopens_the_same_tick_event_and_node() {
    with_browser("permalink", |client| async move {
        let trace = guard_trace();
        let chase = node_id(&trace, "Chase");
        let url = serve_trace("guard.trace.json", &trace);
        open(&client, &format!("{url}#tick=12&event=3&node={chase}")).await;
        let page = drawn(&client).await;
        assert_eq!((page.tick, page.event, page.node), (12, 3, Some(chase)));
        let inspector = client
            .find(Locator::Css("#inspector h3"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(inspector.ends_with(&format!("#{chase} Chase")), "{inspector}");

        // Move with the keyboard, select another node, and reopen the address shown.
        let body = client.find(Locator::Css("body")).await.unwrap();
        body.send_keys(&Key::Right.to_string().repeat(3)).await.unwrap();
        body.send_keys(&Key::Up.to_string()).await.unwrap(); // the parent of Chase
        let before: Drawn = drawn(&client).await;
        assert_eq!(
            (before.tick, before.event, before.node),
            (15, before.events, trace.nodes[chase as usize].parent)
        );
        let link = client.current_url().await.unwrap();
        client.goto("about:blank").await.unwrap();
        open(&client, link.as_str()).await;
        assert_eq!(drawn(&client).await, before, "{link}");
        screenshot(&client, "guard-permalink").await;
    });
}

#[test]
fn a_broken_trace_shows_bt_observes_message_and_a_chosen_file_opens() {
    with_browser("broken", |client| async move {
        let good = guard_trace().to_json().unwrap();
        let broken = good[..good.len() / 3].to_owned();
        let message = Trace::from_json(&broken).unwrap_err().to_string();
        let url = format!("http://{}/", serve(temp_file("broken.json", &broken)));
        open(&client, &url).await;
        let error = client
            .find(Locator::Css("body[data-state='error'] #error"))
            .await
            .unwrap();
        assert_eq!(
            error.text().await.unwrap(),
            format!("broken.json cannot be shown: {message}")
        );
        screenshot(&client, "broken-trace").await;

        // Choosing a good file replaces the error with the trace.
        let file = temp_file("chosen.trace.json", &good);
        client
            .find(Locator::Css("#file"))
            .await
            .unwrap()
            .send_keys(file.to_str().unwrap())
            .await
            .unwrap();
        client
            .wait()
            .at_most(common::browser::PATIENCE)
            .for_element(Locator::Css("body[data-state='ready']"))
            .await
            .unwrap();
        assert_eq!(
            client.find(Locator::Css("#title")).await.unwrap().text().await.unwrap(),
            "chosen.trace.json"
        );
        assert!(
            !client
                .find(Locator::Css("#error"))
                .await
                .unwrap()
                .is_displayed()
                .await
                .unwrap()
        );
        let page = drawn(&client).await;
        assert_eq!(page.statuses.len(), guard_trace().nodes.len());

        // And choosing a broken one shows its message.
        let file = temp_file("bad.json", "{\"format\":\"bt-trace\"");
        let message = Trace::from_json("{\"format\":\"bt-trace\"").unwrap_err().to_string();
        client
            .find(Locator::Css("#file"))
            .await
            .unwrap()
            .send_keys(file.to_str().unwrap())
            .await
            .unwrap();
        let error = client
            .wait()
            .at_most(common::browser::PATIENCE)
            .for_element(Locator::Css("body[data-state='error'] #error"))
            .await
            .unwrap();
        assert_eq!(
            error.text().await.unwrap(),
            format!("bad.json cannot be shown: {message}")
        );
    });
}

#[test]
fn two_traces_open_at_their_first_difference() {
    with_browser("diff", |client| async move {
        let (a, b, i) = guard_with_one_event_changed();
        let node = a.events[i].node().unwrap().0;
        let files = bt_studio::Files::new(temp_file("a.json", &a.to_json().unwrap()))
            .with_diff(temp_file("b.json", &b.to_json().unwrap()));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        std::thread::spawn(move || bt_studio::serve_blocking(listener, files));
        open(&client, &url).await;
        let text = client
            .find(Locator::Css("#diff-text"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(text.starts_with("The traces part at tick 7, event 5: "), "{text}");

        let reference = |trace: &Trace| {
            names(
                &steps(trace)
                    .into_iter()
                    .find(|s| (s.tick, s.k) == (7, 5))
                    .unwrap()
                    .after,
            )
        };
        click(&client, "#diff-go").await;
        let first = drawn(&client).await;
        assert_eq!((first.tick, first.event, first.node), (7, 5, Some(node)));
        assert_eq!(first.statuses, reference(&a));

        click(&client, "#diff-b").await;
        client
            .find(Locator::Css("body[data-trace='b'][data-state='ready']"))
            .await
            .unwrap();
        assert_eq!(
            client.find(Locator::Css("#title")).await.unwrap().text().await.unwrap(),
            "b.json"
        );
        let second = drawn(&client).await;
        assert_eq!(
            (second.tick, second.event, second.node),
            (7, 5, Some(node)),
            "the same place in the second"
        );
        assert_eq!(second.statuses, reference(&b));
        assert_ne!(second.statuses[node as usize], first.statuses[node as usize]);
        screenshot(&client, "diff").await;
    });
}

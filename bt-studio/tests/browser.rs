//! The page in a real headless Chromium, driven over WebDriver: what it draws
//! is compared with behaved-observe's `Cursor` and `StatusSnapshot`.
//!
//! Needs `chromium` and `chromium-driver` (Debian); without them every test
//! here prints that it was skipped, unless `BEHAVED_STUDIO_REQUIRE_BROWSER=1`.
//! Screenshots go to `target/tmp/bt-studio-screenshots/`.

mod common;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use behaved::prelude::*;
use behaved::{NodeId, NodeKind};
use behaved_observe::{Cursor, Event, NodeState, StatusSnapshot, Trace};
use behaved_scenarios::dog::{DogCtx, FaceTarget, FindOrKeepTarget, MoveAdjacent, UseAbilityIfAdjacent};
use common::browser::{
    Drawn, choose, choose_file, click, drawn, eval, keys, off_centre, open, painted, screenshot, text_of, wait_for,
    with_browser,
};
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
            snapshot.replay(event);
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

/// How the page is made to draw the tree.
#[derive(Clone, Copy, PartialEq)]
enum Drawing {
    /// As SVG, read from its elements' `data-status`.
    Svg,
    /// On the canvas (as a big tree zoomed out is), read from its pixels.
    Canvas,
}

/// Steps through every tick of `trace` with the "next tick" button and checks
/// that the page draws, at each, what `Cursor` holds.
async fn every_tick_matches_the_cursor(client: &Client, url: &str, trace: &Trace, drawing: Drawing) {
    let mut cursor = Cursor::new(trace).unwrap();
    open(client, &format!("{url}#tick={}", cursor.first_tick())).await;
    if drawing == Drawing::Canvas {
        client.execute("window.btStudio.setSvgLimit(0)", vec![]).await.unwrap();
        assert!(drawn_ids(client).await.is_empty(), "no SVG nodes");
    }
    let next = client.find(Locator::Css("#next-tick")).await.unwrap();
    let mut ticks = 0;
    for tick in cursor.first_tick()..=cursor.last_tick() {
        cursor.seek(tick).unwrap();
        let page = match drawing {
            Drawing::Svg => drawn(client).await,
            Drawing::Canvas => painted(client).await.expect("drawn on the canvas"),
        };
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
        every_tick_matches_the_cursor(&client, &serve_trace("guard.trace.json", &guard), &guard, Drawing::Svg).await;
        assert!(
            guard.events.iter().any(|e| matches!(e, Event::Halted { .. })),
            "the guard's trace has halts"
        );

        let dog = wild_dog_trace(7, 150);
        let url = serve_trace("wild-dog.trace.json", &dog);
        every_tick_matches_the_cursor(&client, &url, &dog, Drawing::Svg).await;
        open(&client, &format!("{url}#tick=100&node=0")).await;
        screenshot(&client, "wild-dog").await;
    });
}

#[test]
fn drawn_on_the_canvas_every_tick_of_the_guard_and_a_wild_dog_is_as_the_cursor_has_it() {
    with_browser("every_tick_canvas", |client| async move {
        let guard = guard_trace();
        let url = serve_trace("guard.trace.json", &guard);
        every_tick_matches_the_cursor(&client, &url, &guard, Drawing::Canvas).await;
        // A click on a box drawn on the canvas selects its node.
        let chase = node_id(&guard, "Chase");
        client
            .execute(
                "const b = window.btStudio.boxOnScreen(arguments[0]);
                 const svg = document.querySelector('#tree'), r = svg.getBoundingClientRect();
                 const at = { clientX: r.left + b.x + b.w / 2, clientY: r.top + b.y + b.h / 2, bubbles: true };
                 svg.dispatchEvent(new PointerEvent('pointerdown', at));
                 svg.dispatchEvent(new PointerEvent('pointerup', at));",
                vec![chase.into()],
            )
            .await
            .unwrap();
        assert_eq!(painted(&client).await.unwrap().node, Some(chase));
        screenshot(&client, "guard-canvas").await;

        let dog = wild_dog_trace(7, 150);
        every_tick_matches_the_cursor(
            &client,
            &serve_trace("wild-dog.trace.json", &dog),
            &dog,
            Drawing::Canvas,
        )
        .await;
    });
}

/// Asserts that the fitted tree (every node's box on screen) fills at least
/// a third of the view in both directions (a wide tree is wrapped to the
/// view's shape, not drawn as a thin strip), that no two boxes overlap and
/// that every node is drawn below its parent.
async fn assert_fitted_to_the_views_shape(client: &Client, trace: &Trace) {
    let value = client
        .execute(
            "const boxes = [];
             for (let id = 0; ; id++) {
               const b = window.btStudio.boxOnScreen(id);
               if (!b) break;
               boxes.push([b.x, b.y, b.w, b.h]);
             }
             const svg = document.querySelector('#tree');
             return { boxes, view: [svg.clientWidth, svg.clientHeight] };",
            vec![],
        )
        .await
        .unwrap();
    let boxes: Vec<[f64; 4]> = serde_json::from_value(value["boxes"].clone()).unwrap();
    let [view_w, view_h]: [f64; 2] = serde_json::from_value(value["view"].clone()).unwrap();
    assert_eq!(boxes.len(), trace.nodes.len(), "every node has a box");
    let (left, right) = boxes
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, r), b| (l.min(b[0]), r.max(b[0] + b[2])));
    let (top, bottom) = boxes
        .iter()
        .fold((f64::MAX, f64::MIN), |(t, d), b| (t.min(b[1]), d.max(b[1] + b[3])));
    assert!(
        right - left >= view_w / 3.0 && bottom - top >= view_h / 3.0,
        "the fitted tree is {} by {} px in a view of {view_w} by {view_h}",
        right - left,
        bottom - top
    );
    // Boxes of one row (the same top) in x order, each ending before the next begins.
    let mut by_row: BTreeMap<i64, Vec<[f64; 4]>> = BTreeMap::new();
    for b in &boxes {
        by_row.entry((b[1] * 1000.0).round() as i64).or_default().push(*b);
    }
    for row in by_row.values_mut() {
        row.sort_by(|a, b| a[0].total_cmp(&b[0]));
        for pair in row.windows(2) {
            assert!(
                pair[0][0] + pair[0][2] <= pair[1][0] + 1e-9,
                "overlapping boxes {pair:?}"
            );
        }
    }
    for node in &trace.nodes {
        if let Some(parent) = node.parent {
            let (p, c) = (boxes[parent as usize], boxes[node.id as usize]);
            assert!(
                c[1] > p[1] + p[3],
                "node {} at {c:?} is not below its parent at {p:?}",
                node.id
            );
        }
    }
}

/// Asserts that every node but the root has an SVG edge that starts at the
/// middle of its parent's box's bottom and ends at the middle of its own
/// box's top, and that some of them are routed down a spine (a wrapped line
/// of children) rather than curved.
async fn assert_edges_meet_their_boxes(client: &Client, trace: &Trace) {
    let value = client
        .execute(
            "const r = document.querySelector('#tree').getBoundingClientRect();
             const at = (path, length) => {
               const p = path.getPointAtLength(length).matrixTransform(path.getScreenCTM());
               return [p.x - r.left, p.y - r.top];
             };
             const edges = [...document.querySelectorAll('#viewport path.edge')].map((path) =>
               [Number(path.dataset.child), ...at(path, 0), ...at(path, path.getTotalLength()),
                path.getAttribute('d').includes('V') ? 1 : 0]);
             const boxes = [];
             for (let id = 0; ; id++) {
               const b = window.btStudio.boxOnScreen(id);
               if (!b) break;
               boxes.push([b.x, b.y, b.w, b.h]);
             }
             return { edges, boxes };",
            vec![],
        )
        .await
        .unwrap();
    let edges: Vec<[f64; 6]> = serde_json::from_value(value["edges"].clone()).unwrap();
    let boxes: Vec<[f64; 4]> = serde_json::from_value(value["boxes"].clone()).unwrap();
    let mut children: Vec<u32> = edges.iter().map(|e| e[0] as u32).collect();
    children.sort_unstable();
    assert_eq!(
        children,
        (1..trace.nodes.len() as u32).collect::<Vec<_>>(),
        "one edge per child"
    );
    let near = |a: f64, b: f64| (a - b).abs() < 0.01;
    for e in &edges {
        let node = &trace.nodes[e[0] as usize];
        let (p, c) = (boxes[node.parent.unwrap() as usize], boxes[node.id as usize]);
        assert!(
            near(e[1], p[0] + p[2] / 2.0) && near(e[2], p[1] + p[3]),
            "the edge to {} starts at ({}, {}), not under its parent's box {p:?}",
            node.id,
            e[1],
            e[2]
        );
        assert!(
            near(e[3], c[0] + c[2] / 2.0) && near(e[4], c[1]),
            "the edge to {} ends at ({}, {}), not on its box {c:?}",
            node.id,
            e[3],
            e[4]
        );
    }
    assert!(edges.iter().any(|e| e[5] == 1.0), "no edge runs down a spine");
}

#[test]
fn a_big_tree_is_painted_whole_far_out_and_only_its_nodes_in_view_are_svg_close_up() {
    with_browser("big_tree", |client| async move {
        let trace = common::big::big_trace(3000, 20_000);
        let mut cursor = Cursor::new(&trace).unwrap();
        let url = serve_trace("big.trace.json", &trace);
        let tick = cursor.first_tick() + 40;
        cursor.seek(tick).unwrap();
        open(&client, &format!("{url}#tick={tick}")).await;
        // Opened, it is readable (tests/view.rs); fitted whole (Fit), all 3,000 nodes are in view: painted on the canvas, none as SVG.
        click(&client, "#fit").await;
        let mode = client.find(Locator::Css("#tree-canvas")).await.unwrap();
        assert_eq!(mode.attr("data-mode").await.unwrap().as_deref(), Some("canvas"));
        assert!(drawn_ids(&client).await.is_empty());
        screenshot(&client, "big-tree-far").await;
        assert_fitted_to_the_views_shape(&client, &trace).await;
        // All of it as SVG for a moment: every edge runs from its parent's box to its child's.
        client
            .execute("window.btStudio.setSvgLimit(5000);", vec![])
            .await
            .unwrap();
        assert_edges_meet_their_boxes(&client, &trace).await;
        client
            .execute("window.btStudio.setSvgLimit(1500);", vec![])
            .await
            .unwrap();
        assert_eq!(mode.attr("data-mode").await.unwrap().as_deref(), Some("canvas"));

        // Close up on node 1234: only the nodes around it are SVG, drawn as the cursor has them.
        let search = client.find(Locator::Css("#search")).await.unwrap();
        search.send_keys(&format!("#1234{}", Key::Enter)).await.unwrap();
        search.send_keys(&Key::Escape.to_string()).await.unwrap();
        // Thirty turns of the wheel over it (the page draws them at the next frame).
        client
            .execute(
                "const svg = document.querySelector('#tree'), r = svg.getBoundingClientRect();
                 const b = window.btStudio.boxOnScreen(1234);
                 const at = { clientX: r.left + b.x + b.w / 2, clientY: r.top + b.y + b.h / 2 };
                 for (let i = 0; i < 30; i++) {
                   svg.dispatchEvent(new WheelEvent('wheel', { ...at, deltaY: -100, bubbles: true, cancelable: true }));
                 }",
                vec![],
            )
            .await
            .unwrap();
        let deadline = Instant::now() + common::browser::PATIENCE;
        while mode.attr("data-mode").await.unwrap().as_deref() != Some("svg") {
            assert!(Instant::now() < deadline, "the close-up is never drawn as SVG");
            // Polling the page's state, not timing the test.
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
        let check = async |tick: u64| {
            let shown = client
                .execute(
                    "return [...document.querySelectorAll('#viewport .node')]
                       .map(g => [Number(g.dataset.id), g.dataset.status]);",
                    vec![],
                )
                .await
                .unwrap();
            let shown: Vec<(u32, String)> = serde_json::from_value(shown).unwrap();
            assert!(shown.iter().any(|(id, _)| *id == 1234), "the selected node is drawn");
            assert!(shown.len() < 200, "{} nodes drawn as SVG", shown.len());
            let mut cursor = Cursor::new(&trace).unwrap();
            cursor.seek(tick).unwrap();
            for (id, status) in &shown {
                assert_eq!(
                    status,
                    cursor.statuses()[*id as usize].name(),
                    "node {id} at tick {tick}"
                );
            }
            shown.len()
        };
        check(tick).await;
        // Steps repaint the nodes in view.
        for step in 1..=5 {
            click(&client, "#next-tick").await;
            check(tick + step).await;
        }
        // Panning brings other nodes into view, drawn as well.
        let before = drawn_ids(&client).await;
        client
            .execute(
                "const svg = document.querySelector('#tree'), r = svg.getBoundingClientRect();
                 const at = (x) => ({ clientX: r.left + x, clientY: r.top + 200, bubbles: true, pointerId: 1 });
                 svg.dispatchEvent(new PointerEvent('pointerdown', at(600)));
                 svg.dispatchEvent(new PointerEvent('pointermove', at(100)));
                 svg.dispatchEvent(new PointerEvent('pointerup', at(100)));",
                vec![],
            )
            .await
            .unwrap();
        // The pan draws at the next frame.
        client
            .execute_async(
                "const done = arguments[arguments.length - 1]; requestAnimationFrame(() => setTimeout(done, 0));",
                vec![],
            )
            .await
            .unwrap();
        let after = drawn_ids(&client).await;
        assert!(after.iter().any(|id| !before.contains(id)), "new nodes came into view");
        check(tick + 5).await;
        screenshot(&client, "big-tree-close").await;
    });
}

/// Serves `trace` through a server that holds its answer to `GET /api/agents`
/// until `GET /api/trace` has been asked for (at most the tests' patience).
/// Returns the page's URL and whether every answer to `/api/agents` went out
/// after the trace was asked for.
fn serve_holding_agents_until_the_trace_is_asked_for(
    trace: &Trace,
) -> (String, std::sync::Arc<std::sync::atomic::AtomicBool>) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let file = temp_file("together.trace.json", &trace.to_json().unwrap());
    let trace_asked = Arc::new(AtomicBool::new(false));
    let held_until_asked = Arc::new(AtomicBool::new(true));
    let (asked, held) = (Arc::clone(&trace_asked), Arc::clone(&held_until_asked));
    let hold = move |request: axum::extract::Request, next: axum::middleware::Next| {
        let (asked, held) = (Arc::clone(&asked), Arc::clone(&held));
        async move {
            match request.uri().path() {
                "/api/trace" => asked.store(true, Ordering::SeqCst),
                "/api/agents" => {
                    let deadline = Instant::now() + common::browser::PATIENCE;
                    while !asked.load(Ordering::SeqCst) && Instant::now() < deadline {
                        // Polling the other request's arrival, not timing the test.
                        tokio::time::sleep(Duration::from_millis(10)).await;
                    }
                    if !asked.load(Ordering::SeqCst) {
                        held.store(false, Ordering::SeqCst);
                    }
                }
                _ => {}
            }
            next.run(request).await
        }
    };
    let app = behaved_studio::router(behaved_studio::Files::new(file)).layer(axum::middleware::from_fn(hold));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            axum::serve(listener, app).await
        })
    });
    (url, held_until_asked)
}

#[test]
fn the_pages_start_up_requests_go_out_together() {
    let trace = guard_trace();
    let (url, held_until_asked) = serve_holding_agents_until_the_trace_is_asked_for(&trace);
    with_browser("start_up_together", |client| async move {
        open(&client, &format!("{url}#tick=20")).await;
        // The trace is drawn: the page asked for it while its question about agents was open.
        let shown = drawn(&client).await;
        assert_eq!(shown.tick, 20);
        assert_eq!(shown.statuses.len(), trace.nodes.len());
        assert!(
            held_until_asked.load(std::sync::atomic::Ordering::SeqCst),
            "the page asked for the trace only after /api/agents answered"
        );
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
        click(&client, "#tabs button[data-tab='events']").await;
        screenshot(&client, "guard-events-of-the-tick").await;
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
        choose(&client, "#filter-status", "running").await;
        let to_running: Vec<_> = changes
            .iter()
            .filter(|c| c.2 == chase && c.3 == NodeState::Running && !c.4)
            .collect();
        assert!(!to_running.is_empty());
        assert_eq!(count().await, to_running.len(), "Chase becoming running");

        filter.clear().await.unwrap();
        choose(&client, "#filter-kind", "action").await;
        choose(&client, "#filter-status", "halted").await;
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
        let inspector = text_of(&client, "#inspector h3").await;
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
        // The address follows the position a moment after the last move.
        let mut link = client.current_url().await.unwrap();
        let deadline = Instant::now() + common::browser::PATIENCE;
        // The tick and the node may reach it in two updates: wait for both.
        let node = format!("node={}", before.node.unwrap());
        while !(link.as_str().contains("tick=15&") && link.as_str().ends_with(&node)) && Instant::now() < deadline {
            link = client.current_url().await.unwrap();
        }
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
        choose_file(&client, &file).await;
        wait_for(&client, "body[data-state='ready']").await;
        assert_eq!(text_of(&client, "#title").await, "chosen.trace.json");
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
        choose_file(&client, &file).await;
        let error = wait_for(&client, "body[data-state='error'] #error").await;
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
        let files = behaved_studio::Files::new(temp_file("a.json", &a.to_json().unwrap()))
            .with_diff(temp_file("b.json", &b.to_json().unwrap()));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        std::thread::spawn(move || behaved_studio::serve_blocking(listener, files));
        open(&client, &url).await;
        let text = text_of(&client, "#diff-text").await;
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
        // The whole tree (Fit): the side-by-side default view collapses some of it (tests/view.rs).
        click(&client, "#fit").await;
        let first = drawn(&client).await;
        assert_eq!((first.tick, first.event, first.node), (7, 5, Some(node)));
        assert_eq!(first.statuses, reference(&a));

        click(&client, "#diff-b").await;
        client
            .find(Locator::Css("body[data-trace='b'][data-state='ready']"))
            .await
            .unwrap();
        assert_eq!(text_of(&client, "#title").await, "b.json");
        click(&client, "#fit").await;
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

/// `#viewport .node` ids drawn, in id order.
async fn drawn_ids(client: &Client) -> Vec<u64> {
    let ids = client
        .execute(
            "return [...document.querySelectorAll('#viewport .node')].map(g => Number(g.dataset.id)).sort((a, b) => a - b);",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(ids).unwrap()
}

/// The inspector's rows, `dt` text to `dd` text.
async fn inspector(client: &Client) -> BTreeMap<String, String> {
    let rows = client
        .execute(
            "const dl = document.querySelector('#inspector dl');
             return [...dl.querySelectorAll('dt')].map(dt => [dt.textContent, dt.nextElementSibling.textContent]);",
            vec![],
        )
        .await
        .unwrap();
    let rows: Vec<(String, String)> = serde_json::from_value(rows).unwrap();
    rows.into_iter().collect()
}

/// `value` as the page names its parts: objects opened into dotted names,
/// anything else one value.
fn flatten(value: &serde_json::Value, prefix: &str, out: &mut BTreeMap<String, serde_json::Value>) {
    match value {
        serde_json::Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                let name = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(v, &name, out);
            }
        }
        _ => {
            out.insert(
                if prefix.is_empty() {
                    "value".into()
                } else {
                    prefix.into()
                },
                value.clone(),
            );
        }
    }
}

/// Whether two JSON values are equal as the page shows them (JavaScript
/// writes the number `1.0` as `1`).
fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    match (a, b) {
        (serde_json::Value::Number(x), serde_json::Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// The context table under the inspector: the tick shown, and per value its
/// name, its value (JSON) and the ticks where it changed.
async fn context_table(client: &Client) -> (u64, Vec<(String, Option<serde_json::Value>, Vec<u64>)>) {
    let value = client
        .execute(
            "const c = document.querySelector('#context');
             return [Number(c.dataset.tick), [...c.querySelectorAll('tr[data-key]')].map(r =>
               [r.dataset.key, r.dataset.value === undefined ? null : r.dataset.value,
                r.dataset.changes.split(',').map(Number)])];",
            vec![],
        )
        .await
        .unwrap();
    let rows = value[1]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let value = r[1].as_str().map(|v| serde_json::from_str(v).unwrap());
            (
                r[0].as_str().unwrap().to_owned(),
                value,
                serde_json::from_value(r[2].clone()).unwrap(),
            )
        })
        .collect();
    (value[0].as_u64().unwrap(), rows)
}

#[test]
fn the_inspector_shows_the_context_values_at_every_tick_and_where_each_changed() {
    with_browser("context", |client| async move {
        let trace = guard_trace();
        assert_eq!(trace.context.len(), 24, "the guard records its post after every tick");
        // Where each value changed, from the recorded entries.
        let mut changes: BTreeMap<String, Vec<u64>> = BTreeMap::new();
        let mut last = BTreeMap::new();
        for entry in &trace.context {
            let mut now = BTreeMap::new();
            flatten(&entry.values, "", &mut now);
            for (k, v) in &now {
                if !last.get(k).is_some_and(|old| same_json(old, v)) {
                    changes.entry(k.clone()).or_default().push(entry.tick);
                }
            }
            last = now;
        }
        assert_eq!(changes["alarms"], [1, 21], "the guard's alarm is raised once");

        let url = serve_trace("guard.trace.json", &trace);
        let mut cursor = Cursor::new(&trace).unwrap();
        open(&client, &format!("{url}#tick=0")).await;
        let next = client.find(Locator::Css("#next-tick")).await.unwrap();
        for tick in cursor.first_tick()..=cursor.last_tick() {
            cursor.seek(tick).unwrap();
            let mut expected = BTreeMap::new();
            if let Some(context) = cursor.context() {
                flatten(&context.values, "", &mut expected);
            }
            let (shown_tick, rows) = context_table(&client).await;
            assert_eq!(shown_tick, tick);
            let names: Vec<&String> = rows.iter().map(|r| &r.0).collect();
            assert_eq!(
                names,
                changes.keys().collect::<Vec<_>>(),
                "tick {tick}: one row per value"
            );
            for (name, value, changed) in &rows {
                match (value, expected.get(name)) {
                    (Some(v), Some(e)) => assert!(same_json(v, e), "tick {tick}: {name} is {v}, recorded {e}"),
                    (None, None) => {}
                    (v, e) => panic!("tick {tick}: {name} is drawn as {v:?}, recorded {e:?}"),
                }
                assert_eq!(changed, &changes[name], "the ticks where {name} changed");
            }
            next.click().await.unwrap();
        }
        // A tick where a value changed is a button that seeks there.
        click(&client, "#context tr[data-key='alarms'] button[data-ti]").await;
        assert_eq!(drawn(&client).await.tick, 1);
        let (_, rows) = context_table(&client).await;
        assert_eq!(rows.iter().find(|r| r.0 == "alarms").unwrap().1, Some(0.into()));
        open(&client, &format!("{url}#tick=20&node=3")).await;
        screenshot(&client, "guard-context").await;
    });
}

#[test]
fn search_keyboard_collapse_jump_inspector_visits_zoom_and_export_work() {
    with_browser("tools", |client| async move {
        let trace = guard_trace();
        let url = serve_trace("guard.trace.json", &trace);
        open(&client, &format!("{url}#tick=20")).await;

        // The visit order of tick 20, numbered on the path: the root, the
        // reactive sequence, the condition that now sees the intruder, Chase.
        let visits = client
            .execute(
                "return [...document.querySelectorAll('#viewport .node')]
                   .filter(g => g.querySelector('.visit') && g.querySelector('.visit').style.display !== 'none')
                   .map(g => [Number(g.dataset.id), Number(g.querySelector('.visit text').textContent)])
                   .sort((a, b) => a[0] - b[0]);",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(visits, serde_json::json!([[0, 1], [1, 2], [2, 3], [3, 4]]));

        // Search by label: two waits; Enter selects each in turn.
        let search = client.find(Locator::Css("#search")).await.unwrap();
        search.send_keys("wait").await.unwrap();
        let count = client.find(Locator::Css("#search-count")).await.unwrap();
        assert_eq!(count.text().await.unwrap(), "2 found");
        search.send_keys(&Key::Enter.to_string()).await.unwrap();
        assert_eq!(drawn(&client).await.node, Some(node_id(&trace, "wait(1.0)")));
        search.send_keys(&Key::Enter.to_string()).await.unwrap();
        assert_eq!(drawn(&client).await.node, Some(10));
        assert_eq!(count.text().await.unwrap(), "2/2");
        // By id.
        search.clear().await.unwrap();
        search.send_keys(&format!("#6{}", Key::Enter)).await.unwrap();
        search.send_keys(&Key::Escape.to_string()).await.unwrap();
        assert_eq!(drawn(&client).await.node, Some(6));

        // Keyboard: first child, next and previous sibling, parent.
        for (key, expected) in [
            (Key::Down.to_string(), 7),
            ("]".to_owned(), 8),
            ("]".to_owned(), 9),
            ("[".to_owned(), 8),
            (Key::Up.to_string(), 6),
        ] {
            keys(&client, &key).await;
            assert_eq!(drawn(&client).await.node, Some(expected), "after {key:?}");
        }

        // Enter collapses the selected subtree (its four leaves) and expands it again.
        keys(&client, &Key::Enter.to_string()).await;
        assert_eq!(drawn_ids(&client).await, (0..=6).collect::<Vec<_>>());
        let fold = text_of(&client, "[data-fold='6']").await;
        assert_eq!(fold, "⊞ +4");
        screenshot(&client, "guard-collapsed").await;
        keys(&client, &Key::Enter.to_string()).await;
        assert_eq!(drawn_ids(&client).await, (0..=10).collect::<Vec<_>>());

        // Jump to running: the running leaf at tick 20 is Chase.
        keys(&client, "r").await;
        let chase = node_id(&trace, "Chase");
        assert_eq!(drawn(&client).await.node, Some(chase));

        // The inspector's counts, against the events and the cursor.
        let walk = node_id(&trace, "WalkTo(6.0)");
        let mut cursor = Cursor::new(&trace).unwrap();
        for node in [chase, walk, node_id(&trace, "cond(|p| p.sees_intruder())")] {
            search.clear().await.unwrap();
            search.send_keys(&format!("#{node}{}", Key::Enter)).await.unwrap();
            let rows = inspector(&client).await;
            let count = |f: &dyn Fn(&Event) -> bool| trace.events.iter().filter(|e| f(e)).count().to_string();
            let id = NodeId(node);
            assert_eq!(rows["activations"], count(&|e| *e == Event::Entered { node: id }));
            assert_eq!(
                rows["successes"],
                count(&|e| *e
                    == Event::Ticked {
                        node: id,
                        status: Status::Success
                    })
            );
            assert_eq!(
                rows["failures"],
                count(&|e| *e
                    == Event::Ticked {
                        node: id,
                        status: Status::Failure
                    })
            );
            assert_eq!(rows["halts"], count(&|e| *e == Event::Halted { node: id }));
            let (mut run, mut longest) = (0, 0);
            for tick in cursor.first_tick()..=cursor.last_tick() {
                cursor.seek(tick).unwrap();
                run = if cursor.statuses()[node as usize] == NodeState::Running {
                    run + 1
                } else {
                    0
                };
                longest = longest.max(run);
            }
            let plural = if longest == 1 { "" } else { "s" };
            assert_eq!(
                rows["longest run"],
                format!("{longest} tick{plural} running"),
                "#{node}"
            );
            assert_eq!(rows["source line"], trace.nodes[node as usize].line.to_string());
        }

        // Zoom in, then fit back.
        let scale = async || {
            let t = client
                .find(Locator::Css("#viewport"))
                .await
                .unwrap()
                .attr("transform")
                .await
                .unwrap()
                .unwrap();
            let s = t.rsplit_once("scale(").unwrap().1.trim_end_matches(')').to_owned();
            s.parse::<f64>().unwrap()
        };
        let fitted = scale().await;
        search.send_keys(&Key::Escape.to_string()).await.unwrap();
        keys(&client, "+").await;
        assert!(scale().await > fitted);
        keys(&client, "f").await;
        assert_eq!(scale().await, fitted);

        // The SVG export is a well-formed document with every node and the styles.
        let check = client
            .execute(
                "const text = window.btStudio.exportSvgText();
                 const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
                 return { error: doc.querySelector('parsererror') !== null, nodes: doc.querySelectorAll('g.node').length,
                          running: doc.querySelectorAll('g.node.running').length,
                          styled: text.includes('.node.running rect.box') };",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(
            check,
            serde_json::json!({"error": false, "nodes": trace.nodes.len(), "running": 3, "styled": true})
        );
    });
}

#[test]
fn the_live_view_lists_the_agents_and_follows_one_tick_by_tick() {
    use behaved_observe::Tee;
    use common::guard::{Guard, Post};
    with_browser("live", |client| async move {
        let studio = behaved_studio::Studio::serve("127.0.0.1:0").unwrap();
        // Five guards, each with its intruder at another place: each runs differently.
        let mut agents: Vec<_> = (0..5)
            .map(|i| {
                let observer = studio.agent(&format!("guard#{i}"), Guard::NODES).unwrap();
                let post = Post::at_start();
                (
                    Guard::new(),
                    post,
                    Tee(observer, StatusSnapshot::new(Guard::NODES).unwrap()),
                )
            })
            .collect();
        open(&client, &studio.url()).await;
        client.find(Locator::Css("body[data-mode='live']")).await.unwrap();
        let count = async || {
            let p = client.find(Locator::Css("#agents-count")).await.unwrap();
            p.attr("data-count").await.unwrap().unwrap()
        };
        assert_eq!(count().await, "5");
        client
            .find(Locator::Css("#agent-filter"))
            .await
            .unwrap()
            .send_keys("guard#3")
            .await
            .unwrap();
        assert_eq!(count().await, "1");
        click(&client, "#agent-list li[data-agent='3']").await;
        wait_for(&client, "body[data-following='3']").await;

        for tick in 1..=24u32 {
            for (i, (tree, post, observer)) in agents.iter_mut().enumerate() {
                let now = f64::from(tick - 1) * 0.5;
                post.now = now;
                if tick == 4 {
                    post.intruder = Some(1.0 + i as f64);
                }
                tree.tick_observed(post, now, observer);
                observer
                    .0
                    .record_context(&serde_json::json!({ "guard": post.guard }))
                    .unwrap();
            }
            wait_for(&client, &format!("#position[data-tick='{tick}']")).await;
            let page = drawn(&client).await;
            assert_eq!(page.statuses, names(agents[3].2.1.statuses()), "tick {tick}");
            // The values of every tick, the first included (they come right after it).
            wait_for(&client, &format!("#context[data-tick='{tick}']")).await;
            let (shown, rows) = context_table(&client).await;
            let guard = rows[0].1.as_ref().and_then(|v| v.as_f64());
            assert_eq!(
                (shown, guard),
                (u64::from(tick), Some(agents[3].1.guard)),
                "tick {tick}"
            );
        }
        assert_ne!(
            names(agents[3].2.1.statuses()),
            names(agents[0].2.1.statuses()),
            "the followed guard is told apart from another"
        );
        let status = client.find(Locator::Css("#live-status")).await.unwrap();
        assert_eq!(status.attr("data-dropped").await.unwrap().as_deref(), Some("0"));
        assert!(
            status
                .text()
                .await
                .unwrap()
                .starts_with("Following guard#3: ticks 0–24 in the window")
        );
        screenshot(&client, "live").await;

        // The list follows the game: an agent that comes and one that goes.
        common::browser::clear(&client, "#agent-filter").await;
        let _late = studio.agent("late#5", Guard::NODES).unwrap();
        drop(agents.remove(0));
        for css in ["#agent-list li[data-agent='5']", "#agent-list li.gone[data-agent='0']"] {
            wait_for(&client, css).await;
        }
        assert_eq!(count().await, "6");
    });
}

#[test]
fn a_followed_agent_past_its_window_is_replayed_as_it_grows_and_drawn_as_the_cursor_has_it() {
    use behaved_observe::{Tee, TraceRecorder};
    use common::guard::{Guard, Post};
    with_browser("live_window", |client| async move {
        let studio = behaved_studio::Studio::serve("127.0.0.1:0").unwrap();
        let observer = studio.agent("guard", Guard::NODES).unwrap();
        // The server's window, recorded beside it: a recorder of its size.
        let mut watch = Tee(
            observer,
            TraceRecorder::new(Guard::NODES, behaved_studio::HISTORY).unwrap(),
        );
        open(&client, &format!("{}#agent=0", studio.url())).await;
        wait_for(&client, "body[data-following='0']").await;
        let mut tree = Guard::new();
        let mut post = Post::at_start();
        let mut tick = 0u32;
        // Batches of 250 ticks, each drawn before the next: past the window's size.
        for _ in 0..12 {
            for _ in 0..250 {
                tick += 1;
                let now = post.patrol_tick(tick);
                tree.tick_observed(&mut post, now, &mut watch);
                let values = serde_json::json!({ "guard": post.guard });
                watch.0.record_context(&values).unwrap();
                watch.1.record_context(&values).unwrap();
            }
            wait_for(&client, &format!("#position[data-tick='{tick}']")).await;
        }
        let window = watch.1.trace();
        assert!(window.start.dropped_events > 0, "the window dropped its oldest ticks");
        let builds = client
            .execute("return window.btStudio.timings.builds;", vec![])
            .await
            .unwrap();
        assert_eq!(builds, 1, "built once, from the first window; extended since");

        // Pause, and scrub the window: the first tick, some in between, the last.
        click(&client, "#live-pause").await;
        let mut cursor = Cursor::new(&window).unwrap();
        let (first, last) = (cursor.first_tick(), cursor.last_tick());
        assert_eq!(first, window.start.tick);
        for at in [first, first + 1, first + 2, (first + last) / 2, last - 1, last] {
            cursor.seek(at).unwrap();
            client
                .execute("window.btStudio.seek(arguments[0])", vec![at.into()])
                .await
                .unwrap();
            let page = drawn(&client).await;
            assert_eq!((page.tick, page.events), (at, cursor.events().len()), "tick {at}");
            assert_eq!(page.statuses, names(cursor.statuses()), "tick {at}");
        }
        // The window's first tick is as far back as the page goes.
        click(&client, "#first").await;
        assert_eq!(drawn(&client).await.tick, first);
        keys(&client, &Key::Left.to_string()).await;
        assert_eq!(drawn(&client).await.tick, first);
        // The inspector counts the window's events only.
        let chase = node_id(&window, "Chase");
        common::browser::search_node(&client, chase).await;
        let entered = window
            .events
            .iter()
            .filter(|e| **e == Event::Entered { node: NodeId(chase) })
            .count();
        assert!(entered > 0);
        assert_eq!(inspector(&client).await["activations"], entered.to_string());
        // The context at the last tick.
        client
            .execute("window.btStudio.seek(arguments[0])", vec![last.into()])
            .await
            .unwrap();
        let (shown, rows) = context_table(&client).await;
        assert_eq!(
            (shown, rows[0].1.as_ref().and_then(|v| v.as_f64())),
            (last, Some(post.guard))
        );
    });
}

#[test]
fn thousands_of_agents_are_listed_filtered_and_followed() {
    use common::guard::{Guard, Post};
    with_browser("many_agents", |client| async move {
        let studio = behaved_studio::Studio::serve("127.0.0.1:0").unwrap();
        let mut agents: Vec<_> = (0..5000)
            .map(|i| studio.agent(&format!("dog#{i}"), Guard::NODES).unwrap())
            .collect();
        open(&client, &studio.url()).await;
        client.find(Locator::Css("body[data-mode='live']")).await.unwrap();
        let listed = async || {
            let count = client.find(Locator::Css("#agents-count")).await.unwrap();
            let rows = client.find_all(Locator::Css("#agent-list li")).await.unwrap().len();
            (count.attr("data-count").await.unwrap().unwrap(), rows)
        };
        // All 5,000 match; the list shows the first 500 and says so.
        assert_eq!(listed().await, ("5000".to_owned(), 500));
        let text = text_of(&client, "#agents-count").await;
        assert_eq!(text, "5000 of 5000 agents, first 500 shown: narrow the filter");
        let filter = client.find(Locator::Css("#agent-filter")).await.unwrap();
        filter.send_keys("dog#432").await.unwrap();
        // dog#432 and dog#4320 to dog#4329.
        assert_eq!(listed().await, ("11".to_owned(), 11));
        filter.send_keys("1").await.unwrap();
        assert_eq!(listed().await, ("1".to_owned(), 1));
        click(&client, "#agent-list li[data-agent='4321']").await;
        wait_for(&client, "body[data-following='4321']").await;
        let mut post = Post::at_start();
        Guard::new().tick_observed(&mut post, 0.0, &mut agents[4321]);
        wait_for(&client, "#position[data-tick='1']").await;
        assert!(agents[4321].is_recording() && !agents[4320].is_recording());
        screenshot(&client, "many-agents").await;
    });
}

/// Polls `probe` until `done` holds for what it returns; fails with `what` and the last value.
async fn poll<T: std::fmt::Debug>(what: &str, mut probe: impl AsyncFnMut() -> T, done: impl Fn(&T) -> bool) -> T {
    let deadline = Instant::now() + common::browser::PATIENCE;
    loop {
        let value = probe().await;
        if done(&value) {
            return value;
        }
        assert!(Instant::now() < deadline, "{what}: still {value:?}");
        // Polling the page's state, not timing the test.
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

#[test]
fn a_trace_opened_while_the_tree_has_no_size_is_fitted_once_it_has_one() {
    with_browser("unsized_view", |client| async move {
        // A narrower window than the others': the tree's view is far from the old guess of 800 px.
        client.set_window_size(1000, 800).await.unwrap();
        let good = guard_trace().to_json().unwrap();
        // The default view of the trace opened in a view that has its size: where it puts the tree, and what it draws.
        let fitted = "return [document.querySelector('#viewport').getAttribute('transform'),
                              [...document.querySelectorAll('#viewport .node')].map((g) => g.dataset.id).join()];";
        open(
            &client,
            &format!("http://{}/", serve(temp_file("sized.trace.json", &good))),
        )
        .await;
        wait_for(&client, "body[data-state='ready']").await;
        let reference = eval(&client, fitted).await;
        let url = format!("http://{}/", serve(temp_file("unsized.json", "not a trace")));
        open(&client, &url).await;
        wait_for(&client, "body[data-state='error']").await;
        let (_, width) = off_centre(&client).await;
        assert!(
            (width - 800.0).abs() > 200.0,
            "the test's set-up: the tree's view is {width} px wide, not about 800"
        );
        // A trace opened while the tree's view is hidden, then shown.
        eval(
            &client,
            "document.querySelector('#tree').style.display = 'none'; return true;",
        )
        .await;
        let file = temp_file("shown-later.trace.json", &good);
        choose_file(&client, &file).await;
        wait_for(&client, "body[data-state='ready']").await;
        eval(
            &client,
            "document.querySelector('#tree').style.display = ''; return true;",
        )
        .await;
        // Fitted as if it had had its size all along.
        poll(
            "the tree is not fitted as in a view that had its size (transform, nodes drawn)",
            async || eval(&client, fitted).await,
            |now| *now == reference,
        )
        .await;
        assert!(!reference[1].as_str().unwrap().is_empty(), "the set-up: nodes drawn");
    });
}

#[test]
fn zooming_with_keys_and_buttons_keeps_the_selected_node_in_place() {
    with_browser("zoom_about_selection", |client| async move {
        let trace = guard_trace();
        let walk = node_id(&trace, "WalkTo(6.0)");
        let url = serve_trace("guard.trace.json", &trace);
        open(&client, &format!("{url}#tick=20&node={walk}")).await;
        assert_eq!(drawn(&client).await.node, Some(walk));
        let centre = format!(
            "const b = window.btStudio.boxOnScreen({walk});
             const t = document.querySelector('#tree');
             return [b.x + b.w / 2, b.y + b.h / 2, b.w, t.clientWidth / 2, t.clientHeight / 2];"
        );
        let at = async || {
            let v = eval(&client, &centre).await;
            let f = |i: usize| v[i].as_f64().unwrap();
            (f(0), f(1), f(2), f(3), f(4))
        };
        let (x, y, w, cx, cy) = at().await;
        assert!(
            (x - cx).abs() > 50.0 || (y - cy).abs() > 50.0,
            "the test's set-up: {walk} is drawn at ({x}, {y}), away from the view's centre ({cx}, {cy})"
        );
        // `+` and the − button: the box grows, then shrinks, about the same point.
        keys(&client, "+").await;
        let (x1, y1, _, _, _) = poll("the box never grew", at, |v| v.2 > w * 1.2).await;
        assert!(
            (x1 - x).abs() < 1.0 && (y1 - y).abs() < 1.0,
            "{walk} moved from ({x}, {y}) to ({x1}, {y1})"
        );
        click(&client, "#zoom-out").await;
        let (x2, y2, _, _, _) = poll("the box never shrank", at, |v| (v.2 - w).abs() < 1.0).await;
        assert!(
            (x2 - x).abs() < 1.0 && (y2 - y).abs() < 1.0,
            "{walk} moved from ({x}, {y}) to ({x2}, {y2})"
        );
    });
}

/// What the editor's preview shows once it is done: its text, the divergence's
/// tick and path, the leaves without a recorded result and the notes (null before).
async fn preview_shown(client: &Client) -> serde_json::Value {
    eval(
        client,
        "const p = document.querySelector('#preview');
         return p && !p.hidden && document.body.dataset.pending === '0'
           ? [document.querySelector('#preview-text').textContent, p.dataset.divergeTick, p.dataset.divergePath,
              [...document.querySelectorAll('#unknown select')].map(s => s.dataset.leaf),
              [...document.querySelectorAll('#unknown .preview-note')].map(n => n.textContent)]
           : null;",
    )
    .await
}

behaved::behave! {
    /// The dogs' tree of `examples/dogs_studio.rs`, compiled from the same file.
    tree WildDogJson for DogCtx<'w> = json("../examples/trees/wild_dog.json") {
        "findOrKeepTarget" => FindOrKeepTarget, "faceTarget" => FaceTarget,
        "moveAdjacent" => MoveAdjacent, "useAbilityIfAdjacent" => UseAbilityIfAdjacent,
    }
}

#[test]
fn a_followed_dogs_window_is_replayed_in_the_editor_against_an_edit() {
    use behaved_scenarios::dog_json;
    use behaved_scenarios::world::World;
    with_browser("journey", |client| async move {
        // The game of `examples/dogs_studio.rs`, smaller: eight dogs, the editor on a copy of their tree.
        let file = temp_file("wild_dog.json", include_str!("../../examples/trees/wild_dog.json"));
        let editor = behaved_studio::Editor::new(&file).with_leaves(dog_json::leaf_manifest());
        let library = editor.clone();
        let studio = behaved_studio::Studio::serve_with_editor("127.0.0.1:0", editor).unwrap();
        let mut world: World<WildDogJson> = World::arena(8);
        let mut agents: Vec<_> = (0..world.dogs().len())
            .map(|i| studio.agent(&format!("dog#{i}"), WildDogJson::NODES).unwrap())
            .collect();
        // Some seconds of play before the page follows dog#3: its window starts mid-run.
        for _ in 0..100 {
            world.step_each_observed(&mut agents);
        }
        open(&client, &format!("{}#agent=3", studio.url())).await;
        wait_for(&client, "body[data-following='3']").await;
        // Three seconds of its life in the window, then paused and scrubbed back.
        poll(
            "the window never held 180 ticks",
            async || {
                for _ in 0..6 {
                    world.step_each_observed(&mut agents);
                }
                eval(&client, "return Number(document.querySelector('#slider').max);")
                    .await
                    .as_u64()
                    .unwrap()
            },
            |&ticks| ticks >= 180,
        )
        .await;
        click(&client, "#live-pause").await;
        keys(&client, &Key::Home.to_string()).await;
        poll(
            "Edit & replay is not offered",
            async || {
                let button = client.find(Locator::Css("#live-edit")).await.unwrap();
                button.is_displayed().await.unwrap()
            },
            |&shown| shown,
        )
        .await;

        // Edit & replay: the editor opens in a new tab and replays the unedited tree against the window.
        let live = client.window().await.unwrap();
        click(&client, "#live-edit").await;
        let tabs = poll(
            "no editor tab opened",
            async || client.windows().await.unwrap(),
            |w| w.len() == 2,
        )
        .await;
        let tab = tabs.into_iter().find(|w| *w != live).unwrap();
        client.switch_to_window(tab).await.unwrap();
        let shown = poll(
            "the preview never showed",
            async || preview_shown(&client).await,
            |v| !v.is_null(),
        )
        .await;
        let recording = eval(&client, "return window.btEditor.recordingText();").await;
        let recording = Trace::from_json(recording.as_str().unwrap()).unwrap();
        // What the library says about the same window and tree.
        let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let expect = |doc: &serde_json::Value| {
            let (_, p) = library.preview(doc, Some(recording.clone()), BTreeMap::new()).unwrap();
            let d = p.divergence.as_ref();
            serde_json::json!([
                d.map_or(
                    "The edited tree does what the recording did, tick for tick.".to_owned(),
                    |d| format!("First divergence: {}", d.text)
                ),
                d.map_or(String::new(), |d| d.tick.to_string()),
                d.map_or(String::new(), |d| d.path.clone()),
                p.unknown,
                p.notes.iter().map(|n| format!("⚠ {}", n.text)).collect::<Vec<_>>(),
            ])
        };
        let unedited = expect(&doc);
        assert_eq!(shown, unedited);
        // The unedited tree does what the dog did, every leaf answered from the recording.
        assert_eq!(unedited[1], "", "{unedited}");
        assert_eq!(unedited[3], serde_json::json!([]), "{unedited}");
        assert!(
            unedited[4][0]
                .as_str()
                .unwrap()
                .contains("starts in the middle of a run"),
            "{unedited}"
        );

        // The edit: the dog waits half a second after a bite, not one; the replay parts where it ends its wait sooner.
        click(&client, "#viewport .node[data-path='child.children[5]']").await;
        let input = client
            .find(Locator::Css("#properties input[data-field='seconds']"))
            .await
            .unwrap();
        let (ctrl, release, tab) = (char::from(Key::Control), char::from(Key::Null), char::from(Key::Tab));
        input
            .send_keys(&format!("{ctrl}a{release}{}0.5{tab}", char::from(Key::Backspace)))
            .await
            .unwrap();
        let mut edited = doc.clone();
        edited["child"]["children"][5]["seconds"] = serde_json::json!(0.5);
        let expected = expect(&edited);
        assert_ne!(expected[1], "", "the edit changes what the dog does: {expected}");
        poll(
            "the page's document never took the edit",
            async || eval(&client, "return window.btEditor.docText();").await,
            |text| serde_json::from_str::<serde_json::Value>(text.as_str().unwrap()).unwrap() == edited,
        )
        .await;
        click(&client, "#preview-run").await;
        let shown = poll(
            "the edited preview never showed",
            async || preview_shown(&client).await,
            |v| !v.is_null() && v[1] != "",
        )
        .await;
        assert_eq!(shown, expected);
    });
}

/// A node table one node past the studio's limit: a sequence over actions.
fn past_the_node_limit() -> Vec<behaved_observe::TraceNode> {
    let node = |id: usize, parent, kind| behaved_observe::TraceNode {
        id: u32::try_from(id).unwrap(),
        parent,
        kind,
        label: format!("n{id}"),
        line: 0,
    };
    let nodes = behaved_studio::limits::MAX_TRACE_NODES + 1;
    std::iter::once(node(0, None, NodeKind::Sequence))
        .chain((1..nodes).map(|id| node(id, Some(0), NodeKind::Action)))
        .collect()
}

#[test]
fn a_trace_past_the_studios_limits_is_refused_with_a_message_not_drawn() {
    with_browser("past_limits", |client| async move {
        let table = past_the_node_limit();
        let mut recorder = behaved_observe::TraceRecorder::new(&table, 100).unwrap();
        recorder.tick_started(0.0);
        recorder.entered(NodeId(0));
        recorder.ticked(NodeId(0), Status::Running);
        recorder.tick_finished(Status::Running);
        let text = recorder.trace().to_json().unwrap();
        let refused = "cannot be shown: a trace of 50001 nodes is past the studio's limit of 50000 nodes";
        // Served: the server refuses it.
        open(
            &client,
            &format!("http://{}/", serve(temp_file("wide.trace.json", &text))),
        )
        .await;
        let error = wait_for(&client, "body[data-state='error'] #error").await;
        assert_eq!(error.text().await.unwrap(), format!("wide.trace.json {refused}"));
        assert_eq!(
            eval(&client, "return document.querySelectorAll('#viewport .node').length;").await,
            0,
            "nothing drawn"
        );
        screenshot(&client, "past-limits").await;
        // Chosen in the page: the same.
        choose_file(&client, &temp_file("chosen-wide.json", &text)).await;
        wait_for(&client, "#error").await;
        let deadline = Instant::now() + common::browser::PATIENCE;
        while !text_of(&client, "#error").await.starts_with("chosen-wide.json") && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(text_of(&client, "#error").await, format!("chosen-wide.json {refused}"));

        // A game's agent of that tree: its window comes from the game, and the page itself refuses it.
        let studio = behaved_studio::Studio::serve("127.0.0.1:0").unwrap();
        let _agent = studio.agent("wide", &table).unwrap();
        common::browser::follow_first_agent(&client, &studio.url()).await;
        let error = wait_for(&client, "body[data-state='error'] #error").await;
        assert_eq!(error.text().await.unwrap(), format!("wide {refused}"));
        assert_eq!(
            eval(&client, "return document.querySelectorAll('#viewport .node').length;").await,
            0
        );
    });
}

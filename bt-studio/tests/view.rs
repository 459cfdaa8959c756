//! The view at first sight, in headless Chromium: the default fit draws every
//! label readably with the running path in view; two traces compared open at
//! their first difference, side by side.
//!
//! Needs `chromium` and `chromium-driver` (Debian); without them every test
//! here prints that it was skipped, unless `BEHAVED_STUDIO_REQUIRE_BROWSER=1`.

mod common;

use std::collections::BTreeSet;

use behaved_observe::{Cursor, StatusSnapshot, Trace};
use common::browser::{click, eval, open, screenshot, wait_for, with_browser};
use common::{serve, temp_file};
use fantoccini::Client;

/// The smallest label the default view may draw, in CSS pixels.
const READABLE_PX: f64 = 11.0;

/// Every drawn node's id, its label's rendered font size (its computed size
/// times the screen's scale of it), and its box in the tree's view
/// (`[x, y, w, h]`), with the view's size.
async fn drawn_labels(client: &Client) -> (Vec<(u32, f64, [f64; 4])>, [f64; 2]) {
    let value = eval(
        client,
        "const r = document.querySelector('#tree').getBoundingClientRect();
         const nodes = [...document.querySelectorAll('#viewport .node')].map((g) => {
           const t = g.querySelector('text.label'), b = g.querySelector('rect.box').getBoundingClientRect();
           const px = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
           return [Number(g.dataset.id), px, [b.left - r.left, b.top - r.top, b.width, b.height]];
         });
         return { nodes, view: [r.width, r.height] };",
    )
    .await;
    let nodes = serde_json::from_value(value["nodes"].clone()).unwrap();
    let view = serde_json::from_value(value["view"].clone()).unwrap();
    (nodes, view)
}

/// The running nodes at the last tick of `trace` and their ancestors, from behaved-observe's `Cursor`.
fn running_path(trace: &Trace) -> BTreeSet<u32> {
    let mut cursor = Cursor::new(trace).unwrap();
    cursor.seek(cursor.last_tick()).unwrap();
    let mut path = BTreeSet::new();
    for (id, state) in cursor.statuses().iter().enumerate() {
        if state.name() == "running" {
            let mut at = Some(id as u32);
            while let Some(node) = at {
                path.insert(node);
                at = trace.nodes[node as usize].parent;
            }
        }
    }
    path
}

/// Asserts that the page's default view draws every label at `READABLE_PX`
/// or more, with every node on `path` drawn inside the view, and that the
/// drawn tree spans at least half the view across or down. Returns the ids drawn.
async fn assert_readable_with_path(client: &Client, path: &BTreeSet<u32>) -> BTreeSet<u32> {
    let (nodes, [w, h]) = drawn_labels(client).await;
    for (id, px, _) in &nodes {
        assert!(*px >= READABLE_PX, "node {id}'s label is drawn {px:.2} px high");
    }
    let drawn: BTreeSet<u32> = nodes.iter().map(|n| n.0).collect();
    for id in path {
        let (_, _, b) = nodes
            .iter()
            .find(|n| n.0 == *id)
            .unwrap_or_else(|| panic!("node {id} on the running path is not drawn; drawn: {drawn:?}"));
        assert!(
            b[0] >= 0.0 && b[1] >= 0.0 && b[0] + b[2] <= w && b[1] + b[3] <= h,
            "node {id} on the running path is at {b:?}, outside the {w} x {h} view"
        );
    }
    let extent = |axis: usize| {
        let lo = nodes.iter().map(|n| n.2[axis]).fold(f64::MAX, f64::min);
        let hi = nodes.iter().map(|n| n.2[axis] + n.2[axis + 2]).fold(f64::MIN, f64::max);
        hi - lo
    };
    assert!(
        extent(0) >= w / 2.0 || extent(1) >= h / 2.0,
        "the tree takes {} x {} px of a {w} x {h} view",
        extent(0),
        extent(1)
    );
    drawn
}

/// Serves `trace` and opens it; returns the running path at its last tick.
async fn open_trace(client: &Client, name: &str, trace: &Trace) -> BTreeSet<u32> {
    let path = running_path(trace);
    assert!(
        path.len() >= 3,
        "the set-up: a running path from the root to a leaf, {path:?}"
    );
    let url = format!("http://{}/", serve(temp_file(name, &trace.to_json().unwrap())));
    open(client, &url).await;
    wait_for(client, "body[data-state='ready']").await;
    path
}

#[test]
fn the_default_view_of_a_wide_40_node_tree_draws_every_label_readably_with_the_running_path_in_view() {
    let trace = common::big::wide_trace(30);
    assert_eq!(trace.nodes.len(), 40);
    with_browser("readable_fit", |client| async move {
        let path = open_trace(&client, "wide.trace.json", &trace).await;
        screenshot(&client, "readable-fit").await;
        assert_readable_with_path(&client, &path).await;
        // The set-up: fitted whole (Fit), the tree's labels are smaller.
        click(&client, "#fit").await;
        let (whole, _) = drawn_labels(&client).await;
        assert_eq!(whole.len(), 40, "Fit draws the whole tree");
        assert!(
            whole.iter().any(|n| n.1 < READABLE_PX),
            "the whole tree fitted is readable: the test proves nothing"
        );
    });
}

#[test]
fn the_default_view_of_a_300_node_tree_collapses_what_does_not_fit_readably_a_click_away() {
    let trace = common::big::big_trace(300, 3000);
    with_browser("readable_collapsed", |client| async move {
        let path = open_trace(&client, "big.trace.json", &trace).await;
        screenshot(&client, "readable-collapsed").await;
        let drawn = assert_readable_with_path(&client, &path).await;
        assert!(drawn.len() < 300, "all {} nodes drawn by default", drawn.len());
        // The rest is collapsed, a click away: opening one subtree draws its children.
        let folded = eval(
            &client,
            "const f = [...document.querySelectorAll('#viewport .fold')].find((f) => {
               const r = f.getBoundingClientRect();
               return f.textContent.startsWith('⊞') && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === f;
             });
             return f ? Number(f.dataset.fold) : null;",
        )
        .await;
        let folded = folded.as_u64().expect("a collapsed node with its ⊞ mark in view") as u32;
        click(&client, &format!("#viewport .fold[data-fold='{folded}']")).await;
        let (opened, _) = drawn_labels(&client).await;
        for child in trace.nodes.iter().filter(|n| n.parent == Some(folded)) {
            assert!(
                opened.iter().any(|n| n.0 == child.id),
                "node {} under the opened {folded} is not drawn",
                child.id
            );
        }
    });
}

/// Each node's state name after event `k` of tick `tick` of `trace`, from behaved-observe's `StatusSnapshot`.
fn states_at(trace: &Trace, tick: u64, k: usize) -> Vec<String> {
    let mut snapshot = StatusSnapshot::new(&trace.nodes).unwrap();
    for t in trace.ticks().take_while(|t| t.tick <= tick) {
        let n = if t.tick == tick { k } else { t.events.len() };
        for event in &t.events[..n] {
            snapshot.replay(event);
        }
    }
    snapshot.statuses().iter().map(|s| s.name().to_owned()).collect()
}

#[test]
fn two_traces_open_side_by_side_at_their_first_difference() {
    let (a, b, i) = common::guard_with_one_event_changed();
    let node = a.events[i].node().unwrap().0;
    let (want_a, want_b) = (states_at(&a, 7, 5), states_at(&b, 7, 5));
    assert_ne!(
        want_a[node as usize], want_b[node as usize],
        "the set-up: node {node} differs there"
    );
    let files = behaved_studio::Files::new(temp_file("a.json", &a.to_json().unwrap()))
        .with_diff(temp_file("b.json", &b.to_json().unwrap()));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    std::thread::spawn(move || behaved_studio::serve_blocking(listener, files));
    with_browser("diff_side_by_side", |client| async move {
        open(&client, &url).await;
        wait_for(&client, "body[data-state='ready']").await;
        wait_for(&client, "#compare[data-tick='7'][data-event='5']").await;
        screenshot(&client, "diff-side-by-side").await;
        // Landed at the first difference (no click), both runs drawn as each is there, side by side.
        let value = eval(
            &client,
            "const a = document.querySelector('#tree').getBoundingClientRect();
             const b = document.querySelector('#tree-b').getBoundingClientRect();
             const nodes = (css) => [...document.querySelectorAll(css)]
               .map((g) => [Number(g.dataset.id), g.dataset.status, g.classList.contains('match')]);
             const p = document.querySelector('#position').dataset;
             return { a: [a.left, a.top, a.right, a.bottom], b: [b.left, b.top, b.right, b.bottom],
                      at: [Number(p.tick), Number(p.event), p.node === '' ? null : Number(p.node)],
                      first: nodes('#viewport .node'), second: nodes('#viewport-b .node'),
                      lanes: Number(document.querySelector('#lanes-b').dataset.rows) };",
        )
        .await;
        let at: (u64, usize, Option<u32>) = serde_json::from_value(value["at"].clone()).unwrap();
        assert_eq!(at, (7, 5, Some(node)), "where the page opened");
        for (side, want) in [("first", &want_a), ("second", &want_b)] {
            let nodes: Vec<(u32, String, bool)> = serde_json::from_value(value[side].clone()).unwrap();
            assert!(
                nodes.iter().any(|n| n.0 == node),
                "the differing node {node} is not drawn in the {side} tree"
            );
            for (id, status, outlined) in &nodes {
                assert_eq!(status, &want[*id as usize], "node {id} in the {side} tree");
                if side == "second" {
                    assert_eq!(
                        *outlined,
                        want_a[*id as usize] != want_b[*id as usize],
                        "node {id}'s outline"
                    );
                }
            }
        }
        let [al, at, ar, ab]: [f64; 4] = serde_json::from_value(value["a"].clone()).unwrap();
        let [bl, bt, br, bb]: [f64; 4] = serde_json::from_value(value["b"].clone()).unwrap();
        assert!(ar - al > 200.0 && br - bl > 200.0, "both trees have room: {value}");
        assert!(
            bl >= ar - 1.0 && bt < ab && at < bb,
            "the second tree is not beside the first: {value}"
        );
        assert!(value["lanes"].as_u64().unwrap() > 0, "the second run's lanes are drawn");
    });
}

#[test]
fn a_trace_whose_table_and_events_disagree_is_drawn_with_a_warning_naming_the_first_event() {
    use behaved_observe::Event;
    use behaved_studio::TracePayload;
    let checked = |name: &str, trace: &Trace| TracePayload::parse(name, &trace.to_json().unwrap()).to_json();
    // Recorded traces agree with their tables.
    for (name, trace) in [
        ("guard", common::guard_trace()),
        ("dog", common::wild_dog_trace(7, 200)),
        ("wide", common::big::wide_trace(30)),
        ("big", common::big::big_trace(300, 3000)),
    ] {
        let payload = checked(name, &trace);
        assert!(payload["trace"].is_object(), "{name}: {payload}");
        assert!(
            payload.get("disagreement").is_none(),
            "{name}: {}",
            payload["disagreement"]
        );
    }
    // The guard's table with its loop (#5, under the root) moved under the reactive sequence (#1).
    let mut bad = common::guard_trace();
    assert_eq!((bad.nodes[5].label.as_str(), bad.nodes[5].parent), ("loop", Some(0)));
    assert_eq!(bad.nodes[1].label, "reactive sequence");
    bad.nodes[5].parent = Some(1);
    let payload = checked("bad.json", &bad);
    let why = payload["disagreement"]
        .as_str()
        .expect("a disagreement reported")
        .to_owned();
    // The first: the loop's first return, which its table parent (ticked before it) does not follow.
    let first = bad
        .events
        .iter()
        .position(|e| matches!(e, Event::Ticked { node, .. } if node.0 == 5))
        .unwrap();
    assert!(
        why.contains(&format!("event {first} ")) && why.contains("#5 loop") && why.contains("#1 reactive sequence"),
        "{why}"
    );
    let url = format!("http://{}/", serve(temp_file("bad.json", &bad.to_json().unwrap())));
    with_browser("disagreement", |client| async move {
        open(&client, &url).await;
        wait_for(&client, "body[data-state='ready']").await;
        let shown = eval(
            &client,
            "const w = document.querySelector('#warning'); return w.hidden ? null : w.textContent;",
        )
        .await;
        assert_eq!(
            shown.as_str(),
            Some(format!("bad.json may be drawn wrong: {why}.").as_str())
        );
        screenshot(&client, "disagreement").await;
    });
}

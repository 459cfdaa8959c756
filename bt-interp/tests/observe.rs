//! `behaved-observe` works on interpreted trees as on compiled ones: snapshots,
//! views and trace recording read the interpreter's node table and events.
mod support;

use behaved_observe::{Cursor, StatusSnapshot, Tee, TraceRecorder, View};
use serde_json::json;
use support::*;

#[test]
fn views_and_snapshots_of_an_interpreted_tree() {
    let tree = json!({"type": "reactiveSelector", "children": [
        many("sequence", vec![cond("c1"), act("a")]),
        {"type": "wait", "seconds": 5.0}
    ]});
    let mut t = agent(tree);
    let mut c = Ctx::new();
    c.set("c1", F).set("a", R);
    let nodes = t.definition().clone();
    let mut watch = Tee(
        StatusSnapshot::new(nodes.nodes()).unwrap(),
        TraceRecorder::new(nodes.nodes(), 100).unwrap(),
    );
    t.tick_observed(&mut c, 0.0, &mut watch);
    c.set("c1", S);
    t.tick_observed(&mut c, 1.0, &mut watch);
    let view = View::new(nodes.nodes())
        .unwrap()
        .with_statuses(watch.0.statuses())
        .unwrap();
    assert_eq!(
        view.ascii(),
        "\
#0 reactive selector [running]
|-- #1 sequence [running]
|   |-- #2 c1 [success]
|   `-- #3 a [running]
`-- #4 wait(5.0)
"
    );
    assert_eq!(watch.0.unknown_events(), 0, "every event fits the node table");
    // Time travel back to the first tick: the wait was running.
    let trace = watch.1.trace();
    let mut cursor = Cursor::new(&trace).unwrap();
    cursor.seek(1).unwrap();
    let then = View::new(cursor.nodes())
        .unwrap()
        .with_statuses(cursor.statuses())
        .unwrap();
    assert_eq!(
        then.ascii(),
        "\
#0 reactive selector [running]
|-- #1 sequence [failure]
|   |-- #2 c1
|   `-- #3 a
`-- #4 wait(5.0) [running]
"
    );
}

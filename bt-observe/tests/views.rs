//! The views draw exactly the expected text, DOT and Mermaid for a few trees.
mod support;

use behaved::prelude::*;
use behaved_observe::{NodeState, StatusSnapshot, View};
use support::*;

behave! {
    /// A one-line tree (every node on the same source line) with labels that need escaping.
    tree Odd for World { sequence { cond(|w| w.now < 1.0 && !w.alarm), Act("say \"hi\" #1"), subtree(Small) } }
    /// A small subtree.
    tree Small for World { invert { wait(0.5) } }
}

/// Patrol's states after tick 3 of the snapshot scenario: chasing, patrol halted.
fn patrol_chasing() -> Vec<NodeState> {
    let mut snap = StatusSnapshot::new(Patrol::NODES).unwrap();
    patrol_three_ticks(&mut snap);
    assert_eq!(snap.statuses(), states("R R S R I I I I"));
    snap.statuses().to_vec()
}

#[test]
fn ascii_and_unicode_trees() {
    let states = patrol_chasing();
    let view = View::new(Patrol::NODES).unwrap().with_statuses(&states).unwrap();
    assert_eq!(
        view.ascii(),
        r#"#0 reactive selector [running]
|-- #1 reactive sequence [running]
|   |-- #2 cond(|w| w.alarm) [success]
|   `-- #3 Act("chase") [running]
`-- #4 sequence
    |-- #5 Act("walk")
    |-- #6 wait(1.0)
    `-- #7 Act("look")
"#
    );
    assert_eq!(
        view.unicode(),
        r#"#0 reactive selector [running]
├── #1 reactive sequence [running]
│   ├── #2 cond(|w| w.alarm) [success]
│   └── #3 Act("chase") [running]
└── #4 sequence
    ├── #5 Act("walk")
    ├── #6 wait(1.0)
    └── #7 Act("look")
"#
    );
}

#[test]
fn ascii_of_a_deep_tree_with_a_subtree_and_no_states() {
    assert_eq!(
        View::new(Guard::NODES).unwrap().ascii(),
        r#"#0 reactive selector
|-- #1 reactive sequence
|   |-- #2 cond(|w| w.alarm)
|   `-- #3 parallel(any)
|       |-- #4 Act("chase")
|       `-- #5 sequence
|           |-- #6 wait(2.0)
|           `-- #7 Act("shout")
|-- #8 sequence
|   |-- #9 cond(|w| w.tired)
|   `-- #10 retry(2)
|       `-- #11 invert
|           `-- #12 Act("rest")
`-- #13 subtree(Rounds)
    `-- #14 loop
        `-- #15 sequence
            |-- #16 Act("walk")
            |-- #17 wait(1.0)
            |-- #18 Act("look")
            `-- #19 repeat(2)
                `-- #20 Act("scan")
"#
    );
}

#[test]
fn dot_colours_nodes_by_state_and_escapes_labels() {
    let states = [
        NodeState::Running,
        NodeState::Success,
        NodeState::Failure,
        NodeState::Running,
        NodeState::Idle,
        NodeState::Running,
    ];
    let view = View::new(Odd::NODES).unwrap().with_statuses(&states).unwrap();
    let expected = r##"digraph bt {
    node [shape=box, style="rounded,filled", fillcolor="#ffffff", fontname="Helvetica"];
    n0 [label="sequence", fillcolor="#ffd966", tooltip="#0 sequence, line LINE"];
    n1 [label="cond(|w| w.now < 1.0 && !w.alarm)", shape=ellipse, fillcolor="#93c47d", tooltip="#1 cond, line LINE"];
    n2 [label="Act(\"say \\\"hi\\\" #1\")", fillcolor="#e06666", tooltip="#2 act, line LINE"];
    n3 [label="subtree(Small)", fillcolor="#ffd966", tooltip="#3 subtree, line LINE"];
    n4 [label="invert", tooltip="#4 invert, line SUB"];
    n5 [label="wait(0.5)", fillcolor="#ffd966", tooltip="#5 wait, line SUB"];
    n0 -> n1;
    n0 -> n2;
    n0 -> n3;
    n3 -> n4;
    n4 -> n5;
}
"##;
    let expected = expected
        .replace("LINE", &Odd::NODES[0].line.to_string())
        .replace("SUB", &Small::NODES[0].line.to_string());
    assert_eq!(view.dot(), expected);
    // Without states every node keeps the default white.
    assert!(!View::new(Odd::NODES).unwrap().dot().contains("fillcolor=\"#ffd966\""));
}

#[test]
fn mermaid_flowchart_with_classes_and_entity_escapes() {
    let states = patrol_chasing();
    let view = View::new(Patrol::NODES).unwrap().with_statuses(&states).unwrap();
    assert_eq!(
        view.mermaid(),
        r#"flowchart TD
    classDef running fill:#ffd966
    classDef success fill:#93c47d
    classDef failure fill:#e06666
    n0["reactive selector"]:::running
    n1["reactive sequence"]:::running
    n2(["cond(|w| w.alarm)"]):::success
    n3["Act(#quot;chase#quot;)"]:::running
    n4["sequence"]
    n5["Act(#quot;walk#quot;)"]
    n6["wait(1.0)"]
    n7["Act(#quot;look#quot;)"]
    n0 --> n1
    n1 --> n2
    n1 --> n3
    n0 --> n4
    n4 --> n5
    n4 --> n6
    n4 --> n7
"#
    );
    assert_eq!(
        View::new(Odd::NODES).unwrap().mermaid(),
        r#"flowchart TD
    n0["sequence"]
    n1(["cond(|w| w.now #lt; 1.0 #amp;#amp; !w.alarm)"])
    n2["Act(#quot;say \#quot;hi\#quot; #35;1#quot;)"]
    n3["subtree(Small)"]
    n4["invert"]
    n5["wait(0.5)"]
    n0 --> n1
    n0 --> n2
    n0 --> n3
    n3 --> n4
    n4 --> n5
"#
    );
}

#[test]
fn states_must_match_the_table() {
    let err = View::new(Patrol::NODES)
        .unwrap()
        .with_statuses(&[NodeState::Idle; 3])
        .unwrap_err();
    assert_eq!(err.to_string(), "3 statuses given for 8 nodes: give one per node");
}

//! Selectors as a test author writes them: durations in any unit, identical
//! siblings told apart by index (the form an ambiguity error suggests), a
//! JSON node's `"name"`; and coverage titled by the tree's name.

use behaved::prelude::*;
use behaved_interp::{Agent, NoParams, Registry};
use behaved_runtime::NodeId;
use behaved_testing::{Error, TestTree};

#[derive(Default)]
struct Ctx;

#[derive(Clone)]
struct Chase;

impl Action<Ctx> for Chase {
    fn tick(&mut self, _: &mut Ctx) -> Status {
        Status::Running
    }
}

behave! {
    tree Timed for Ctx {
        sequence {
            wait(3s),
            wait(500ms),
            timeout(1.5min) { Chase },
            cooldown(2) { wait(1h) },
        }
    }
}

#[test]
fn a_duration_is_found_in_any_unit_the_dsl_writes() -> Result<(), Error> {
    let t = TestTree::new(Timed::new());
    let labels: Vec<&str> = t.nodes().iter().map(|n| n.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "sequence",
            "wait(3.0)",
            "wait(0.5)",
            "timeout(90.0)",
            "Chase",
            "cooldown(2.0)",
            "wait(3600.0)"
        ]
    );
    for (selector, id) in [
        ("wait(3s)", 1),
        ("wait(3)", 1),
        ("wait(3.0)", 1),
        ("wait(3_000ms)", 1),
        ("wait(0.05min)", 1),
        ("wait(500ms)", 2),
        ("wait(0.5s)", 2),
        ("wait(0.5)", 2),
        ("timeout(1.5min)", 3),
        ("timeout(90s)", 3),
        ("cooldown(2s)", 5),
        ("wait(1h)", 6),
        ("wait(60min)", 6),
        ("cooldown(2s)/wait(3600)", 6),
    ] {
        assert_eq!(t.find(selector)?, NodeId(id), "{selector}");
    }
    // Another value is another node, and a duration is not another kind's.
    assert!(t.find("wait(4s)").is_err());
    assert!(t.find("wait(90s)").is_err(), "a timeout of 90 s is not a wait");
    assert!(t.find("wait(3x)").is_err(), "not a unit");
    Ok(())
}

#[test]
fn a_json_duration_is_found_as_the_dsl_writes_it() -> Result<(), Error> {
    let json =
        r#"{"type": "sequence", "children": [{"type": "wait", "seconds": 0.25}, {"type": "wait", "seconds": 120}]}"#;
    let t = TestTree::agent(Agent::<Ctx>::new(Registry::new().load(json).unwrap()));
    assert_eq!(t.find("wait(250ms)")?, NodeId(1));
    assert_eq!(t.find("wait(2min)")?, NodeId(2));
    Ok(())
}

behave! {
    tree Twins for Ctx {
        selector {
            sequence { wait(1.0), Chase, Chase },
            sequence { wait(1.0), Chase },
            Chase,
        }
    }
}

/// The selectors an ambiguity error suggests, with the id it gives each.
fn suggestions(error: &str) -> Vec<(String, u32)> {
    let list = error.split_once(" nodes: ").expect("a list of matches").1;
    let list = list.split_once("; select one").expect("the end of the list").0;
    list.split(", `")
        .map(|m| {
            let (selector, id) = m.trim_start_matches('`').rsplit_once("` (#").expect("`selector` (#id)");
            (selector.to_owned(), id.trim_end_matches(')').parse().expect("an id"))
        })
        .collect()
}

#[test]
fn identical_siblings_are_told_apart_by_the_path_the_error_suggests() -> Result<(), Error> {
    let t = TestTree::new(Twins::new());
    let error = t.find("Chase").unwrap_err().to_string();
    assert_eq!(
        error,
        "`Chase` matches 4 nodes: `sequence[0]/Chase[0]` (#3), `Chase[1]` (#4), \
         `sequence[1]/Chase` (#7), `selector/Chase` (#8); select one by the path shown \
         (`parent/child`, `[1]`: the second of the siblings it names) or by its id (`#3`)"
    );
    let found = suggestions(&error);
    assert_eq!(found.len(), 4);
    for (selector, id) in found {
        assert_eq!(t.find(&selector)?, NodeId(id), "{selector}");
    }
    // The index counts the siblings the segment names, from 0.
    assert_eq!(t.find("sequence[0]/Chase[1]")?, NodeId(4));
    assert_eq!(
        t.find("Chase[1]")?,
        NodeId(4),
        "only the first sequence has a second Chase"
    );
    assert_eq!(t.find("sequence[1]/wait(1.0)")?, NodeId(6));
    assert_eq!(t.find("selector/sequence[1]")?, NodeId(5));
    assert!(t.find("sequence[2]").is_err(), "two sequences");
    assert!(t.find("Chase[0]").is_err(), "the first Chase of each parent");
    // A suggestion from a selector as the DSL writes it works too.
    let error = t.find("act(Chase)").unwrap_err().to_string();
    for (selector, id) in suggestions(&error) {
        assert_eq!(t.find(&selector)?, NodeId(id), "{selector}");
    }
    Ok(())
}

const PATROL: &str = r#"{"type": "selector", "name": "Guard post", "children": [
    {"type": "sequence", "name": "Night watch", "children": [
        {"type": "action", "action": "Chase"},
        {"type": "action", "action": "Chase", "name": "second chase"}]},
    {"type": "sequence", "children": [{"type": "action", "action": "Chase"}]}]}"#;

fn patrol() -> TestTree<Ctx, Agent<Ctx>> {
    let mut leaves = Registry::new();
    leaves.action("Chase", |_: NoParams| Chase);
    TestTree::agent(Agent::new(leaves.load(PATROL).unwrap()))
}

#[test]
fn a_json_name_is_a_selector() -> Result<(), Error> {
    let t = patrol();
    assert_eq!(t.find("Night watch")?, NodeId(1));
    assert_eq!(t.find("second chase")?, NodeId(3));
    assert_eq!(t.find("Night watch/Chase[0]")?, NodeId(2));
    assert_eq!(t.find("Guard post/sequence[1]")?, NodeId(4));
    assert_eq!(
        t.find("Night watch")?,
        t.find("Guard post/sequence[0]")?,
        "a name is no label"
    );
    assert_eq!(t.find("Night watch/#3")?, NodeId(3));
    // An ambiguity suggests a unique name where a match has one.
    let error = t.find("Chase").unwrap_err().to_string();
    assert!(
        error.starts_with(
            "`Chase` matches 3 nodes: `Night watch/Chase[0]` (#2), `second chase` (#3), `sequence[1]/Chase` (#5);"
        ),
        "{error}"
    );
    for (selector, id) in suggestions(&error) {
        assert_eq!(t.find(&selector)?, NodeId(id), "{selector}");
    }
    Ok(())
}

#[test]
fn coverage_is_titled_by_the_tree_name() {
    let mut t = patrol();
    t.tick(&mut Ctx, 0.0);
    assert!(
        t.coverage().to_string().starts_with("coverage of `Guard post`: "),
        "{}",
        t.coverage()
    );
    assert_eq!(t.name(), "Guard post");
    // The coverage's selectors take names too.
    t.coverage()
        .require_all_reached(&["second chase", "Guard post/sequence[1]", "sequence[1]/Chase"])
        .unwrap();
    assert!(t.coverage().require_all_reached(&["second chase"]).is_err());
    // A compiled tree: its type's name.
    assert_eq!(TestTree::new(Twins::new()).name(), "Twins");
    // A JSON tree whose root has no name: its fingerprint, as before.
    let unnamed = TestTree::agent(Agent::<Ctx>::new(
        Registry::new().load(r#"{"type": "success"}"#).unwrap(),
    ));
    assert!(unnamed.name().starts_with("agent-"), "{}", unnamed.name());
}

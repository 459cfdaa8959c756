//! Golden traces: a recorded run passes against itself, and any change of
//! the tree or of its behaviour fails with the first tick, node and event
//! that differ; source lines do not count.

use std::path::PathBuf;

use behaved::prelude::*;
use behaved_testing::golden::{self, Mode};
use behaved_testing::{Error, StandIn, TestTree};

use Status::{Running as R, Success as S};

struct Ctx;

behave! {
    tree Patrol for Ctx {
        reactive selector {
            sequence { cond(|_| false), act(|_| ()) },
            sequence { wait(1.0), act(|_| ()) },
        }
    }
}

// The same tree with one wait changed.
behave! {
    tree PatrolChanged for Ctx {
        reactive selector {
            sequence { cond(|_| false), act(|_| ()) },
            sequence { wait(2.0), act(|_| ()) },
        }
    }
}

fn file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("golden").join(name)
}

/// Three ticks of `tree`, the condition standing in with `alarm`.
fn run<T: Tree<Ctx>>(tree: T, alarm: [bool; 3]) -> Result<TestTree<Ctx, T>, Error> {
    let mut t = TestTree::new(tree);
    t.stand_in("cond(|_| false)", StandIn::values(alarm))?;
    for now in [0.0, 0.5, 1.0] {
        t.tick(&mut Ctx, now);
    }
    Ok(t)
}

#[test]
fn a_run_matches_its_own_recording() -> Result<(), Error> {
    let path = file("same.json");
    run(Patrol::new(), [false; 3])?.golden_with(&path, Mode::Overwrite)?;
    run(Patrol::new(), [false; 3])?.golden_with(&path, Mode::Compare)?;
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("\n{\"event\":\"ticked\",\"node\":4,\"status\":\"running\"},\n"),
        "one event a line:\n{text}"
    );
    Ok(())
}

#[test]
fn a_changed_behaviour_names_the_first_tick_node_and_event() -> Result<(), Error> {
    let path = file("behaviour.json");
    run(Patrol::new(), [false; 3])?.golden_with(&path, Mode::Overwrite)?;
    let err = run(Patrol::new(), [false, true, false])?
        .golden_with(&path, Mode::Compare)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "the run differs from the golden trace {}: first difference at tick 2, node #2 `cond(|_| false)`, event 4 of the tick:\n  \
             golden:   #2 `cond(|_| false)` returned failure\n  \
             this run: #2 `cond(|_| false)` returned success\n  \
             (if the change is intended, run again with BEHAVED_GOLDEN=overwrite and review the file's diff)",
            path.display()
        )
    );
    Ok(())
}

#[test]
fn a_changed_tree_is_named_node_by_node() -> Result<(), Error> {
    let path = file("tree.json");
    run(Patrol::new(), [false; 3])?.golden_with(&path, Mode::Overwrite)?;
    let err = run(PatrolChanged::new(), [false; 3])?
        .golden_with(&path, Mode::Compare)
        .unwrap_err();
    assert!(
        err.to_string().contains(
            "the tree changed: node #5 was #5 `wait(1.0)` (wait under #4) in the golden trace, is #5 `wait(2.0)` (wait under #4) now"
        ),
        "{err}"
    );
    Ok(())
}

#[test]
fn source_lines_do_not_count_but_a_shorter_run_does() -> Result<(), Error> {
    let path = file("lines.json");
    let t = run(Patrol::new(), [false; 3])?;
    let mut moved = t.trace();
    for n in &mut moved.nodes {
        n.line += 40; // an edit above the tree
    }
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, moved.to_json().unwrap()).unwrap();
    t.golden_with(&path, Mode::Compare)?;

    let mut shorter = TestTree::new(Patrol::new());
    shorter.stand_in("cond(|_| false)", StandIn::values([false]))?;
    assert_eq!((shorter.tick(&mut Ctx, 0.0), shorter.tick(&mut Ctx, 0.5)), (R, R));
    let err = shorter.golden_with(&path, Mode::Compare).unwrap_err().to_string();
    assert!(
        err.contains(": the run ended after tick 2; the golden trace goes on to tick 3"),
        "{err}"
    );
    Ok(())
}

#[test]
fn a_missing_golden_file_fails_rather_than_records() {
    let path = file("never-recorded.json");
    let t = TestTree::new(Patrol::new());
    let err = t.golden_with(&path, Mode::Compare).unwrap_err().to_string();
    assert!(
        err.contains("the file does not exist; record it with BEHAVED_GOLDEN=overwrite"),
        "{err}"
    );
    assert!(!path.exists());
}

#[test]
fn diff_agrees_with_equal_traces_and_names_an_extra_event() {
    let mut t = TestTree::new(Patrol::new());
    assert_eq!(t.tick(&mut Ctx, 0.0), R);
    assert_eq!(t.tick(&mut Ctx, 1.0), S);
    let a = t.trace();
    assert_eq!(golden::diff(&a, &a), None);
    let mut b = a.clone();
    b.events.insert(3, behaved_observe::Event::Halted { node: NodeId(3) });
    assert_eq!(
        golden::diff(&a, &b).unwrap(),
        "first difference at tick 1, node #2 `cond(|_| false)`, event 4 of the tick:\n  \
         golden:   #2 `cond(|_| false)` entered\n  \
         this run: #3 `act(|_| ())` halted"
    );
}

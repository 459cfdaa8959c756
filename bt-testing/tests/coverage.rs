//! Coverage: counts per node, branches taken and not, never-reached nodes,
//! the table, the trace format, merging across processes, and reachability
//! over seeds for random trees.

use behaved::prelude::*;
use behaved_testing::{Coverage, Error, StandIn, TestTree};

use Status::{Failure as F, Running as R};

struct Ctx {
    hungry: bool,
}

behave! {
    tree Dog for Ctx {
        sequence {
            if |c| c.hungry { act(|_| ()) } else if |_| false { failure },
            random { success, failure, running },
        }
    }
}

#[test]
fn the_table_shows_counts_branches_and_what_was_never_reached() {
    let mut t = TestTree::new(Dog::with_seed(1));
    let mut ctx = Ctx { hungry: true };
    t.tick(&mut ctx, 0.0);
    ctx.hungry = false;
    t.tick(&mut ctx, 1.0);
    assert_eq!(
        t.coverage().to_string(),
        "\
coverage of `Dog`: 7 of 10 nodes reached, 3 of 6 branches taken
node                        entered  success  failure  running   halted  branches
#0  sequence                      2        0        2        0        0
#1    if                          2        2        0        0        0  2/3
#2      cond(|c| c.hungry)        2        1        1        0        0
#3      act(|_| ())               1        1        0        0        0
#4      cond(|_| false)           1        0        1        0        0
#5      failure                   -  never reached
#6    random                      2        0        2        0        0  1/3
#7      success                   -  never reached
#8      failure                   2        0        2        0        0
#9      running                   -  never reached
never reached: #5, #7, #9
branches not taken: #1 -> #5, #6 -> #7, #6 -> #9
"
    );
}

#[test]
fn random_trees_reach_every_node_over_enough_seeds_and_not_over_one() -> Result<(), Error> {
    let over = |seeds: std::ops::Range<u64>| -> Result<Coverage, Error> {
        let mut total: Option<Coverage> = None;
        for seed in seeds {
            let mut t = TestTree::new(Dog::with_seed(seed));
            let mut ctx = Ctx { hungry: seed % 2 == 0 };
            t.tick(&mut ctx, 0.0);
            match &mut total {
                Some(c) => c.merge(t.coverage())?,
                None => total = Some(t.coverage().clone()),
            }
        }
        Ok(total.expect("at least one seed"))
    };
    // `else if |_| false` never holds: its branch is unreachable by design.
    over(0..16)?.require_all_reached(&["if |c| c.hungry/failure"])?;
    let err = over(0..1)?.require_all_reached(&["#5"]).unwrap_err().to_string();
    assert!(err.starts_with("nodes of `Dog` never reached: "), "{err}");
    Ok(())
}

#[test]
fn coverage_travels_in_trace_files_and_merges_across_processes() -> Result<(), Error> {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("coverage-merge");
    let _ = std::fs::remove_dir_all(&dir);
    for hungry in [true, false] {
        let mut t = TestTree::new(Dog::with_seed(3));
        t.stand_in("act(|_| ())", StandIn::statuses([R]))?;
        t.tick(&mut Ctx { hungry }, 0.0);
        t.coverage().save_in(&dir)?;
    }
    let merged = Coverage::load_dir(&dir)?;
    assert_eq!(merged.len(), 1, "one tree");
    let act = merged[0].counts()[3];
    assert_eq!((act.entered, act.running), (1, 1));
    assert_eq!(merged[0].counts()[0].ticked(), 2);
    let file = std::fs::read_dir(&dir).unwrap().next().unwrap().unwrap().path();
    let text = std::fs::read_to_string(file).unwrap();
    assert!(text.contains("\"coverage\":[\n{\"entered\":1,"), "{text}");
    Ok(())
}

#[test]
fn coverage_of_another_tree_does_not_merge() {
    behave! { tree Other for Ctx { sequence { success } } }
    let mut a = Coverage::new("Dog", TestTree::new(Dog::new()).nodes());
    let b = Coverage::new("Other", TestTree::new(Other::new()).nodes());
    assert_eq!(
        a.merge(&b).unwrap_err().to_string(),
        "cannot merge the coverage of `Other` into `Dog`: the trees differ"
    );
    let _ = F;
}

/// One "test process" of a suite: run by the next test with `BEHAVED_COVERAGE` set.
#[test]
#[ignore = "a child process of suite_coverage_merges_across_test_processes"]
fn one_process_of_a_suite() {
    let hungry = std::env::var("DOG_HUNGRY").is_ok_and(|v| v == "1");
    let mut t = TestTree::new(Dog::with_seed(5));
    t.tick(&mut Ctx { hungry }, 0.0);
    // Dropping the test tree saves its coverage into $BEHAVED_COVERAGE.
}

#[test]
fn suite_coverage_merges_across_test_processes() -> Result<(), Error> {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("coverage-suite");
    let _ = std::fs::remove_dir_all(&dir);
    for hungry in ["1", "0"] {
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "one_process_of_a_suite", "--ignored", "--quiet"])
            .env(behaved_testing::coverage::COVERAGE_ENV, &dir)
            .env("DOG_HUNGRY", hungry)
            .status()
            .unwrap();
        assert!(status.success());
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2, "one file per process");
    let merged = Coverage::load_dir(&dir)?;
    assert_eq!(merged.len(), 1);
    let branches = merged[0].branches();
    let of_if: Vec<bool> = branches.iter().filter(|b| b.node == 1).map(|b| b.taken).collect();
    assert_eq!(
        of_if,
        [true, false, true],
        "the act, not the unreachable branch, and no branch"
    );

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_behaved-coverage"))
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.starts_with("coverage of `Dog`: "), "{table}");
    assert_eq!(table, format!("{}\n", merged[0]));
    Ok(())
}

//! The property checks fail when a tree breaks them: a Running limit on a
//! real tree, and the lifecycle rules on a hand-written tree that reports impossible
//! events (no `behaved` tree does, which is what the checks are for).

use behaved::prelude::*;
use behaved_testing::{Error, Scenario, StandIn, TestTree};

use Status::{Running as R, Success as S};

struct Ctx;

behave! {
    tree Walk for Ctx {
        sequence { act(|_| Status::Running), success }
    }
}

#[test]
fn a_node_running_too_long_breaks_its_limit_at_the_tick_it_happens() -> Result<(), Error> {
    let mut t = TestTree::new(Walk::new());
    t.stand_in("act(|_| Status::Running)", StandIn::statuses([R, R, R, S]))?
        .limit_running("#0", 3)?;
    let ok = Scenario::new("three ticks running are allowed")
        .ticks([0.0, 1.0, 2.0])
        .expect(R);
    ok.run(&mut t, &mut Ctx)?;
    t.check_properties()?;

    let mut t = TestTree::new(Walk::new());
    t.stand_in("act(|_| Status::Running)", StandIn::always(R))?
        .limit_running("#0", 3)?;
    let err = Scenario::new("walks forever")
        .ticks([0.0, 1.0, 2.0, 3.0])
        .expect(S)
        .run(&mut t, &mut Ctx)
        .unwrap_err();
    assert!(
        err.to_string().starts_with(
            "scenario `walks forever` failed at tick 4 (now = 3): property broken at tick 4: \
             #0 `sequence` has been Running for 4 ticks in a row (limit 3)"
        ),
        "{err}"
    );
    Ok(())
}

/// A two-node "tree" that reports the events it is given, right or wrong.
struct Scripted(Vec<Vec<(u32, Option<Status>)>>);

impl Tree<Ctx> for Scripted {
    type Row = NodeInfo;
    fn nodes(&self) -> &[NodeInfo] {
        &Walk::NODES[..2]
    }
    /// Each tick plays the next list: (node, Some(status)) is a tick, (node, None) a halt;
    /// a node is entered when it was not running (as far as the script knows).
    fn tick_observed<O: Observer + ?Sized>(&mut self, _: &mut Ctx, now: f64, o: &mut O) -> Status {
        o.tick_started(now);
        let events = self.0.remove(0);
        for (node, what) in events {
            match what {
                Some(status) => o.ticked(NodeId(node), status),
                None => o.halted(NodeId(node)),
            }
        }
        o.tick_finished(R);
        R
    }
    fn reset_observed<O: Observer + ?Sized>(&mut self, _: &mut Ctx, _: &mut O) {}
    fn is_running(&self) -> bool {
        false
    }
}

#[test]
fn a_halt_without_an_enter_and_a_tick_after_a_halt_are_caught() {
    let mut t = TestTree::new(Scripted(vec![vec![(1, None)]]));
    t.tick(&mut Ctx, 0.0);
    assert_eq!(
        t.check_properties().unwrap_err().to_string(),
        "property broken at tick 1: #1 `act(|_| Status::Running)` was halted without a matching enter (it was not running)"
    );

    let mut t = TestTree::new(Scripted(vec![vec![(1, Some(R))]]));
    t.tick(&mut Ctx, 0.0);
    assert_eq!(
        t.check_properties().unwrap_err().to_string(),
        "property broken at tick 1: #1 `act(|_| Status::Running)` was ticked without being entered \
         (after a halt or a completion, a node must be entered again)"
    );
}

#[test]
fn real_trees_keep_the_lifecycle_rules() -> Result<(), Error> {
    let mut t = TestTree::new(Walk::new());
    t.stand_in("act(|_| Status::Running)", StandIn::per_start([vec![R, S], vec![R]]))?;
    Scenario::new("walk, reset, walk")
        .ticks([0.0, 1.0])
        .expect(S)
        .tick(2.0)
        .expect(R)
        .reset()
        .halted("act(|_| Status::Running)")
        .tick(3.0)
        .ran("act(|_| Status::Running)")
        .run(&mut t, &mut Ctx)?;
    t.check_properties()
}

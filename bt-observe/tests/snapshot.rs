//! The status snapshot follows its rules tick by tick on a real `behave!` tree.
mod support;

use behaved::prelude::*;
use behaved_observe::{NodeState, StatusSnapshot};
use support::*;

/// Ticks `tree` at `now` with the snapshot and returns the root's status.
fn tick(tree: &mut Patrol, world: &mut World, now: f64, snapshot: &mut StatusSnapshot) -> Status {
    world.now = now;
    tree.tick_observed(world, now, snapshot)
}

// Patrol's ids: 0 reactive selector, 1 reactive sequence, 2 cond(alarm), 3 chase,
//               4 sequence, 5 walk, 6 wait(1.0), 7 look.

#[test]
fn snapshot_follows_completions_halts_and_resets() {
    let mut tree = Patrol::new();
    let mut world = World::new(LEAVES);
    let mut snap = StatusSnapshot::new(Patrol::NODES).unwrap();
    assert_eq!(snap.statuses(), states("I I I I I I I I"));
    assert_eq!((snap.tick(), snap.now(), snap.root_status()), (0, None, None));

    // Tick 1: no alarm, so the alarm branch fails (its condition goes idle with
    // it) and the walk starts.
    world.set("walk", R);
    assert_eq!(tick(&mut tree, &mut world, 0.0, &mut snap), R);
    assert_eq!(snap.statuses(), states("R F I I R R I I"));
    assert_eq!(snap.running().collect::<Vec<_>>(), [NodeId(0), NodeId(4), NodeId(5)]);

    // Tick 2: the walk succeeds and stays green while the sequence goes on to the wait.
    world.set("walk", S);
    assert_eq!(tick(&mut tree, &mut world, 0.5, &mut snap), R);
    assert_eq!(snap.statuses(), states("R F I I R S R I"));

    // Tick 3: the alarm: the chase starts and the patrol (wait, then sequence)
    // is halted; the finished walk goes idle with its sequence.
    world.alarm = true;
    world.set("chase", R);
    assert_eq!(tick(&mut tree, &mut world, 1.0, &mut snap), R);
    assert_eq!(snap.statuses(), states("R R S R I I I I"));

    // Tick 4: the alarm stops: the chase is halted, the patrol starts again.
    world.alarm = false;
    assert_eq!(tick(&mut tree, &mut world, 1.5, &mut snap), R);
    assert_eq!(snap.statuses(), states("R F I I R S R I"));

    // Tick 5: the wait is over, the look succeeds, the root completes: only
    // the root keeps a status.
    assert_eq!(tick(&mut tree, &mut world, 2.5, &mut snap), S);
    assert_eq!(snap.statuses(), states("S I I I I I I I"));
    assert_eq!((snap.tick(), snap.now(), snap.root_status()), (5, Some(2.5), Some(S)));

    // Tick 6: the tree starts over.
    world.set("walk", R);
    assert_eq!(tick(&mut tree, &mut world, 3.0, &mut snap), R);
    assert_eq!(snap.statuses(), states("R F I I R R I I"));

    // A reset halts the running nodes; everything below the halted root goes idle.
    tree.reset_observed(&mut world, &mut snap);
    assert_eq!(snap.statuses(), states("I I I I I I I I"));
    assert_eq!(snap.tick(), 6);
    assert_eq!(snap.status(NodeId(7)), Some(NodeState::Idle));
    assert_eq!(snap.status(NodeId(8)), None);
    assert_eq!(snap.unknown_events(), 0);
}

#[test]
fn a_snapshot_given_to_another_tree_counts_unknown_events() {
    let mut world = World::new(LEAVES);
    // Patrol's table has 8 nodes; Guard reports ids up to 20.
    let mut snap = StatusSnapshot::new(Patrol::NODES).unwrap();
    Guard::new().tick_observed(&mut world, 0.0, &mut snap);
    assert!(snap.unknown_events() > 0);
}

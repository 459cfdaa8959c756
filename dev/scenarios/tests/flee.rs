//! ClosureBT's reactive flee: the flee interrupts (halts) the walk to the
//! centre, latches until the player is farther than 5, and the walk resumes.

mod support;

use behaved::prelude::*;
use behaved_scenarios::flee::*;
use behaved_scenarios::hex::Hex;
use support::*;

#[test]
fn flee_halts_the_walk_latches_until_safe_and_the_walk_resumes() {
    let nodes = Skittish::NODES;
    let (flee, walk) = (node(nodes, "Flee", 0), node(nodes, "WalkToCentre", 0));
    let walk_branch = nodes[walk.index()].parent.unwrap();
    let mut s = FleeCtx::new(Hex::new(-8, 0), Hex::new(10, 10), Hex::ORIGIN, 0.5);
    let mut tree = Skittish::new();
    let mut rec = Rec::default();
    let mut tick = |s: &mut FleeCtx, now: f64, rec: &mut Rec| {
        rec.clear();
        s.now = now;
        tree.tick_observed(s, now, rec)
    };
    let halts = |s: &FleeCtx| {
        s.log
            .iter()
            .filter(|e| matches!(e, FleeEvent::WalkHalted { .. }))
            .count()
    };

    // Walking to the centre: one hex per half second, the first at once.
    for (i, q) in [-7, -7, -6, -6, -5, -5, -4, -4, -3].into_iter().enumerate() {
        let now = i as f64 * 0.25;
        assert_eq!(tick(&mut s, now, &mut rec), R);
        assert_eq!((rec.statuses(walk), rec.statuses(flee)), (vec![R], vec![]), "t={now}");
        assert_eq!(s.npc, Hex::new(q, 0), "t={now}");
    }

    // The player steps up close: the flee starts and the walk is halted, in one tick.
    s.player = Hex::new(-2, 0);
    assert_eq!(tick(&mut s, 2.25, &mut rec), R);
    assert_eq!(rec.statuses(flee), [R]);
    assert!(rec.statuses(walk).is_empty(), "the walk is not ticked, only halted");
    assert_eq!(rec.halted, [walk, walk_branch]);
    assert_eq!(s.npc, Hex::new(-4, 0), "the first flee step at once");
    assert_eq!(halts(&s), 1);

    // Latched: it keeps fleeing while the player is 2..=5 away, though no longer closer than 2.
    let mut now = 2.25;
    while s.player_distance() <= SAFE_BEYOND {
        now += 0.25;
        assert_eq!(tick(&mut s, now, &mut rec), R);
        assert_eq!(rec.statuses(flee), [R], "t={now}: distance {}", s.player_distance());
        assert!(rec.statuses(walk).is_empty() && rec.halted.is_empty());
    }
    assert_eq!((now, s.npc), (4.25, Hex::new(-8, 0)));

    // The player wanders off; safe now, the flee ends and the walk resumes in the same tick.
    s.player = Hex::new(0, 9);
    assert_eq!(tick(&mut s, 4.5, &mut rec), R);
    assert_eq!(rec.statuses(flee), [S]);
    assert_eq!(rec.statuses(walk), [R]);
    assert_eq!(
        rec.entered.iter().filter(|n| **n == walk).count(),
        1,
        "a new activation of the walk"
    );
    assert_eq!(s.npc, Hex::new(-7, 0));
    let mut now = 4.5;
    while s.npc != s.centre {
        now += 0.25;
        tick(&mut s, now, &mut rec);
        assert!(rec.statuses(flee).is_empty() && rec.halted.is_empty());
    }
    assert_eq!(now, 8.0, "seven more hexes, one per half second");
    assert_eq!(rec.statuses(walk), [S]);

    // Idle at the centre from then on.
    for i in 1..=8 {
        assert_eq!(tick(&mut s, now + i as f64 * 0.25, &mut rec), R);
        assert_eq!(s.npc, s.centre);
    }
    assert_eq!(halts(&s), 1, "the walk was halted exactly once");
    let started = |e: &&FleeEvent| matches!(e, FleeEvent::WalkStarted { .. });
    assert_eq!(s.log.iter().filter(started).count(), 2);
}

#[test]
fn a_player_two_away_does_not_scare_the_npc() {
    let mut s = FleeCtx::new(Hex::new(-3, 0), Hex::new(-1, 0), Hex::ORIGIN, 0.5);
    let mut tree = Skittish::new();
    assert_eq!(tree.tick(&mut s), Status::Running);
    assert_eq!(s.log.first(), Some(&FleeEvent::WalkStarted { at: 0.0 }));
    assert!(!s.log.iter().any(|e| matches!(e, FleeEvent::FleeStarted { .. })));
    s.now = 0.5;
    tree.tick(&mut s);
    assert!(
        s.log.iter().any(|e| matches!(e, FleeEvent::FleeStarted { .. })),
        "one step on, it is 1 away: flee"
    );
}

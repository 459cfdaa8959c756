//! The validation criteria of ADR-006 and ADR-012 for the Wild Dog, one test
//! (or a pair: the criterion and a variant that shows the test can fail) each.

mod support;

use behaved::prelude::*;
use behaved_scenarios::ability::{TryUseAbility, execute_ability};
use behaved_scenarios::actor::{Dodge, Dog, PLAYER_STEP, Player, Players, Recall};
use behaved_scenarios::clock::FRAME;
use behaved_scenarios::combat::{Ability, TargetLock};
use behaved_scenarios::dog::{DogCtx, FaceTarget, FindOrKeepTarget, MoveAdjacent, UseAbilityIfAdjacent, WildDog};
use behaved_scenarios::event::{Event, EventKind, Refusal, ReleaseReason};
use behaved_scenarios::hex::{Heading, Hex};
use behaved_scenarios::id::{DogId, PlayerId};
use behaved_scenarios::metrics::ReleaseCounts;
use behaved_scenarios::spatial::Occupancy;
use behaved_scenarios::world::{Brain, World, WorldError};
use support::*;

/// ADR-006's old node: the nearest player, picked again on every run (no lock).
#[derive(Default)]
struct FindSomethingInterestingWithin {
    dist: u32,
}

impl Action<DogCtx<'_>> for FindSomethingInterestingWithin {
    fn tick(&mut self, ctx: &mut DogCtx<'_>) -> Status {
        let found = ctx.index.nearest_within(ctx.players, ctx.dog.loc, self.dist);
        ctx.dog.target = found;
        ctx.dog.lock = found.map(|t| TargetLock::new(t, 0));
        found.is_some().into()
    }
}

behave! {
    /// The Wild Dog without TargetLock: what ADR-006 set out to fix.
    tree FickleDog for DogCtx<'w> {
        loop {
            sequence {
                FindSomethingInterestingWithin { dist: 20 },
                FaceTarget,
                MoveAdjacent,
                FaceTarget,
                UseAbilityIfAdjacent { ability: Ability::BasicAttack },
                wait(1.0),
            }
        }
    }

    /// The Wild Dog without its `wait(1.0)`: only the GCD spaces its bites.
    tree HastyDog for DogCtx<'w> {
        loop {
            sequence {
                FindOrKeepTarget { dist: 20, leash: 30 },
                FaceTarget,
                MoveAdjacent,
                FaceTarget,
                UseAbilityIfAdjacent { ability: Ability::BasicAttack },
            }
        }
    }

    /// The Wild Dog without the second FaceTarget (ADR-006 open question 1, rejected option).
    tree OnceFacingDog for DogCtx<'w> {
        loop {
            sequence {
                FindOrKeepTarget { dist: 20, leash: 30 },
                FaceTarget,
                MoveAdjacent,
                UseAbilityIfAdjacent { ability: Ability::BasicAttack },
                wait(1.0),
            }
        }
    }
}

fn lock_of<B: Brain>(w: &World<B>, dog: DogId) -> Option<PlayerId> {
    w.dog(dog).unwrap().lock.map(|l| l.locked_target)
}

fn attacks(events: &[Event]) -> Vec<(f64, DogId, PlayerId)> {
    events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::AbilityUsed { dog, target, .. } => Some((e.at, dog, target)),
            _ => None,
        })
        .collect()
}

/// Per frame: was B strictly closer to the dog than A, and the dog's target after the frame.
type Frame = (bool, Option<PlayerId>);

/// A dog locked on A, who walks away, while B keeps at the dog's heels (on
/// the hex behind it); returns, per frame, whether B was strictly closer to
/// the dog than A, and the dog's target after the frame.
fn closer_player_at_the_heels<B: Brain>() -> (World<B>, DogId, PlayerId, PlayerId, Vec<Frame>) {
    let mut w: World<B> = World::new(1);
    let dog = w.spawn_dog(Hex::new(0, 0)).unwrap();
    let a = w.spawn_player("A", Hex::new(6, 0)).unwrap();
    w.walk_player(a, Some(Hex::new(60, 0))).unwrap();
    w.step();
    assert_eq!(w.dog(dog).unwrap().target, Some(a), "A is the only player in range");
    let b = w.spawn_player("B", Hex::new(-8, 0)).unwrap();
    let mut frames = Vec::new();
    for _ in 0..600 {
        let at = w.dog(dog).unwrap().loc;
        let to_a = w.player(a).unwrap().loc - at;
        let behind = at.neighbor(Heading::towards(to_a).unwrap().opposite());
        let _ = w.teleport_player(b, behind); // stays put if that hex is taken
        let da = at.distance(w.player(a).unwrap().loc);
        let db = at.distance(w.player(b).unwrap().loc);
        w.step();
        frames.push((db < da, w.dog(dog).unwrap().target));
    }
    (w, dog, a, b, frames)
}

#[test]
fn target_commitment_a_dog_locked_on_a_ignores_a_closer_b() {
    let (mut w, dog, a, _b, frames) = closer_player_at_the_heels::<WildDog>();
    assert!(
        frames.iter().filter(|f| f.0).count() > 300,
        "B was closer than A most of the time"
    );
    assert!(
        frames.iter().all(|f| f.1 == Some(a)),
        "the dog never targets anyone but A"
    );
    let events = w.take_events();
    let bites = attacks(&events);
    assert!(bites.len() >= 5, "{bites:?}");
    assert!(bites.iter().all(|&(_, d, t)| d == dog && t == a));
    assert_eq!(w.metrics().locks_acquired, 1);
    assert_eq!(w.metrics().lock_switches, 0);
}

#[test]
fn without_target_lock_the_same_dog_switches_to_the_closer_player() {
    let (_, _, a, b, frames) = closer_player_at_the_heels::<FickleDog>();
    let switched = frames
        .iter()
        .position(|f| f.1 == Some(b))
        .expect("the fickle dog switches to B");
    assert!(frames[..switched].iter().all(|f| f.1 == Some(a)));
}

/// A dog that has just bitten A (adjacent), with B standing 8 hexes away.
fn dog_biting_a() -> (World, DogId, PlayerId, PlayerId) {
    let mut w: World = World::new(2);
    let dog = w.spawn_dog(Hex::new(0, 0)).unwrap();
    let a = w.spawn_player("A", Hex::new(3, 0)).unwrap();
    let b = w.spawn_player("B", Hex::new(-8, 0)).unwrap();
    while attacks(w.events()).is_empty() {
        w.step();
        assert!(w.now() < 2.0, "the dog reaches A and bites within 2 s");
    }
    assert_eq!(attacks(w.events())[0].2, a);
    w.clear_events();
    (w, dog, a, b)
}

/// Steps frame by frame after A became invalid; checks that the lock on A
/// holds until the first frame in which `FindOrKeepTarget` runs, and that in
/// that frame the dog releases A for `reason` and locks on B; then that it
/// goes and bites B.
fn releases_then_reacquires(mut w: World, dog: DogId, a: PlayerId, b: PlayerId, reason: ReleaseReason) {
    let find = node(WildDog::NODES, "FindOrKeepTarget", 0);
    let mut rec = Rec::default();
    let mut waited = 0;
    loop {
        rec.clear();
        w.step_observed(&mut rec);
        if !rec.statuses(find).is_empty() {
            break;
        }
        assert_eq!(lock_of(&w, dog), Some(a), "no release before FindOrKeepTarget runs");
        assert!(w.events().is_empty());
        waited += 1;
    }
    // The dog was in its wait(1.0) after the bite: the next run starts when it ends.
    assert!(
        (58..=60).contains(&waited),
        "FindOrKeepTarget ran {waited} frames later"
    );
    let kinds: Vec<_> = w.events().iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds[..2],
        [
            EventKind::LockReleased { dog, target: a, reason },
            EventKind::LockAcquired { dog, target: b }
        ]
    );
    assert_eq!(lock_of(&w, dog), Some(b));
    w.run_for(3.0);
    let bites = attacks(w.events());
    assert!(!bites.is_empty() && bites.iter().all(|&(_, _, t)| t == b), "{bites:?}");
}

#[test]
fn lock_releases_when_the_target_goes_beyond_the_leash_then_reacquires() {
    let (mut w, dog, a, b) = dog_biting_a();
    w.teleport_player(a, Hex::new(40, 0)).unwrap();
    releases_then_reacquires(w, dog, a, b, ReleaseReason::Leash);
}

#[test]
fn lock_releases_when_the_target_dies_then_reacquires() {
    let (mut w, dog, a, b) = dog_biting_a();
    assert!(w.kill_player(a));
    w.clear_events();
    releases_then_reacquires(w, dog, a, b, ReleaseReason::Died);
}

#[test]
fn lock_releases_when_the_target_despawns_then_reacquires() {
    let (mut w, dog, a, b) = dog_biting_a();
    assert!(w.despawn_player(a));
    w.clear_events();
    releases_then_reacquires(w, dog, a, b, ReleaseReason::Despawned);
}

/// The players a frame's log says recalled.
fn recalled(events: &[Event]) -> Vec<PlayerId> {
    let recalls = events.iter().filter_map(|e| match e.kind {
        EventKind::Recalled { player, .. } => Some(player),
        _ => None,
    });
    recalls.collect()
}

#[test]
fn a_recall_lands_its_distance_from_home_and_the_player_walks_back() {
    let mut w: World = World::new(12);
    let home = Hex::new(0, 0);
    let p = w.spawn_player("P", home).unwrap();
    w.set_recall(p, Some(Recall::new(2.0, 40))).unwrap();
    while recalled(w.events()).is_empty() {
        w.step();
    }
    let at = w.events()[0].at;
    assert!(
        (1.0..=3.0).contains(&at),
        "the first recall comes after half to one and a half times 2 s: {at}"
    );
    let EventKind::Recalled { from, to, .. } = w.events()[0].kind else {
        panic!("{:?}", w.events());
    };
    assert_eq!((from, to.distance(home)), (home, 40));
    assert_eq!(
        w.player(p).unwrap().loc.distance(home),
        39,
        "landed, and took its first step home"
    );
    w.set_recall(p, None).unwrap();
    w.run_for(40.0 * PLAYER_STEP + 0.5);
    assert_eq!(w.player(p).unwrap().loc, home, "walked back home");
    assert_eq!(w.metrics().recalls, 1);
}

/// ADR-006: "Target out of leash range (>30 hexes): FindOrKeepTarget detects
/// invalid range, removes lock, finds new target". A dog running after a
/// player who recalls 40 hexes away fails its `MoveAdjacent` in that frame
/// (the world's doing: the target is past the leash); its next run starts in
/// the same tick (the failed one started on an earlier tick) and lets the
/// player go.
#[test]
fn a_recall_past_the_leash_fails_the_chase_and_the_dog_turns_to_another_player() {
    let mut w: World = World::new(14);
    let dog = w.spawn_dog(Hex::new(0, 0)).unwrap();
    for (name, at) in [("A", Hex::new(6, 0)), ("B", Hex::new(-6, 3))] {
        let p = w.spawn_player(name, at).unwrap();
        w.wander_player(p, 3).unwrap();
        w.set_recall(p, Some(Recall::new(10.0, 40))).unwrap();
    }
    let (move_adjacent, run) = (
        node(WildDog::NODES, "MoveAdjacent", 0),
        node(WildDog::NODES, "sequence", 0),
    );
    let mut rec = Rec::default();
    let mut failed_on = Vec::new();
    for _ in 0..120 * 60 {
        let target = w.dog(dog).unwrap().target;
        rec.clear();
        w.step_observed(&mut rec);
        if rec.statuses(move_adjacent).contains(&F) {
            let target = target.expect("a dog runs after a target");
            assert!(recalled(w.events()).contains(&target), "only a recall fails the chase");
            let d = w.dog(dog).unwrap().loc.distance(w.player(target).unwrap().loc);
            assert!(d > 30, "the target is past the leash: {d} hexes");
            assert_eq!(rec.statuses(run)[0], F, "the run fails");
            let released = EventKind::LockReleased {
                dog,
                target,
                reason: ReleaseReason::Leash,
            };
            assert!(w.events().iter().any(|e| e.kind == released), "{:?}", w.events());
            assert_ne!(lock_of(&w, dog), Some(target));
            failed_on.push(target);
        }
        w.clear_events();
    }
    assert!(failed_on.len() >= 2, "{failed_on:?}");
    assert!(w.metrics().locks_released.leash >= failed_on.len() as u64);
}

#[test]
fn the_leash_holds_at_exactly_thirty_hexes() {
    let (mut w, dog, a, _b) = dog_biting_a();
    let at = w.dog(dog).unwrap().loc;
    w.teleport_player(a, at + Hex::new(30, 0)).unwrap();
    w.run_for(1.5);
    assert_eq!(lock_of(&w, dog), Some(a), "30 is within the leash: the dog gives chase");
    assert!(w.dog(dog).unwrap().loc.distance(w.player(a).unwrap().loc) < 30);
    assert_eq!(w.metrics().locks_released, ReleaseCounts::default());
}

#[test]
fn two_dogs_adjacent_fill_the_reaction_queue_within_three_seconds() {
    let mut w: World = World::new(3);
    let p = w.spawn_player("P", Hex::new(0, 0)).unwrap();
    w.spawn_dog(Hex::new(1, 0)).unwrap();
    w.spawn_dog(Hex::new(-1, 0)).unwrap();
    w.step();
    let first = attacks(w.events());
    assert_eq!(first.len(), 2, "both dogs bite in the first frame");
    assert_eq!(w.player(p).unwrap().queue.len(), 2);
    let mut full_at = None;
    while w.now() <= 3.0 && full_at.is_none() {
        w.step();
        full_at = w
            .events()
            .iter()
            .find(|e| e.kind == EventKind::QueueFull { player: p })
            .map(|e| e.at);
        if full_at.is_none() {
            assert_eq!(
                w.player(p).unwrap().queue.len(),
                2,
                "two threats wait until the next bites"
            );
        }
    }
    let full_at = full_at.expect("the queue fills within 3 s");
    let bites = attacks(w.events());
    assert_eq!(bites[2].0, full_at, "the third bite fills the queue");
    assert!(
        (full_at - 1.0).abs() <= FRAME,
        "a second after the first bites: {full_at}"
    );
    let m = w.metrics();
    assert_eq!(m.queues_filled, 1);
    assert!(m.queue_fill.max <= 3.0);
}

#[test]
fn two_dogs_that_must_close_in_first_also_fill_it_within_three_seconds() {
    let mut w: World = World::new(4);
    w.spawn_player("P", Hex::new(0, 0)).unwrap();
    w.spawn_dog(Hex::new(4, 0)).unwrap();
    w.spawn_dog(Hex::new(-3, -2)).unwrap();
    w.run_for(4.0);
    let m = w.metrics();
    assert_eq!(m.queues_filled, 1);
    assert!(m.queue_fill.max <= 3.0, "{:?}", m.queue_fill);
}

#[test]
fn one_dog_alone_never_fills_the_queue() {
    let mut w: World = World::new(5);
    let p = w.spawn_player("P", Hex::new(0, 0)).unwrap();
    w.spawn_dog(Hex::new(1, 0)).unwrap();
    let mut most = 0;
    for _ in 0..600 {
        w.step();
        for e in w.take_events() {
            if let EventKind::ThreatQueued { queued, .. } = e.kind {
                most = most.max(queued);
            }
        }
    }
    assert_eq!(most, 2, "its previous threat expires in the frame of its next bite");
    assert_eq!(w.metrics().queues_filled, 0);
    assert!(w.player(p).unwrap().health.current < w.player(p).unwrap().health.max);
}

fn intervals(bites: &[(f64, DogId, PlayerId)]) -> Vec<f64> {
    bites.windows(2).map(|w| w[1].0 - w[0].0).collect()
}

#[test]
fn a_dog_attacks_about_once_per_second() {
    let mut w: World = World::new(6);
    w.spawn_player("P", Hex::new(0, 0)).unwrap();
    w.spawn_dog(Hex::new(1, 0)).unwrap();
    w.run_for(20.0);
    let bites = attacks(w.events());
    assert_eq!(bites.len(), 20, "{bites:?}");
    for i in intervals(&bites) {
        assert!((1.0 - 1e-9..=1.0 + FRAME + 1e-9).contains(&i), "interval {i}");
    }
    assert_eq!(w.metrics().checks_failed.gcd, 0, "the wait covers the GCD");
}

#[test]
fn a_dog_never_attacks_faster_than_the_gcd_even_without_its_wait() {
    let mut w: World<HastyDog> = World::new(7);
    w.spawn_player("P", Hex::new(0, 0)).unwrap();
    w.spawn_dog(Hex::new(1, 0)).unwrap();
    w.run_for(10.0);
    let bites = attacks(w.events());
    assert!(bites.len() >= 19, "{}", bites.len());
    for i in intervals(&bites) {
        assert!((0.5 - 1e-9..=0.5 + FRAME + 1e-9).contains(&i), "interval {i}");
    }
    let m = w.metrics();
    assert!(
        m.checks_failed.gcd > 0,
        "UseAbilityIfAdjacent refuses while the GCD runs"
    );
    assert_eq!(m.refusals, 0, "so the server never sees a bite on cooldown");
}

#[test]
fn the_server_refuses_a_bite_while_the_gcd_runs() {
    let mut dogs = [Dog::new(DogId(0), Hex::new(1, 0))];
    dogs[0].heading = Heading::W;
    let mut players = Players::new();
    let p = players.spawn(|id| Player::new(id, "P", Hex::new(0, 0)));
    let (mut occupancy, mut events) = (Occupancy::new(), Vec::new());
    let bite = TryUseAbility {
        dog: DogId(0),
        ability: Ability::BasicAttack,
        target: p,
    };
    let mut tries = vec![bite, bite];
    execute_ability(10.0, &mut tries, &mut dogs, &mut players, &mut occupancy, &mut events);
    let mut tries = vec![bite];
    execute_ability(10.4, &mut tries, &mut dogs, &mut players, &mut occupancy, &mut events);
    let mut tries = vec![bite];
    execute_ability(10.5, &mut tries, &mut dogs, &mut players, &mut occupancy, &mut events);
    let outcomes: Vec<_> = events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::AbilityUsed { .. } => Some((e.at, None)),
            EventKind::AbilityFailed { reason, .. } => Some((e.at, Some(reason))),
            _ => None,
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            (10.0, None),
            (10.0, Some(Refusal::OnCooldown)),
            (10.4, Some(Refusal::OnCooldown)),
            (10.5, None)
        ]
    );
    assert_eq!(players.get(p).unwrap().queue.len(), 2);
}

/// Four dogs and three players who wander around their spots and dodge, for
/// a minute; A is killed at 20 s and B logs out at 40 s, so dogs lose their
/// targets mid-fight and must find new ones.
fn skirmish<B: Brain>(seed: u64) -> World<B> {
    let mut w: World<B> = World::new(seed);
    let mut players = Vec::new();
    for (name, at) in [("A", Hex::new(0, 0)), ("B", Hex::new(8, -3)), ("C", Hex::new(-5, 6))] {
        let p = w.spawn_player(name, at).unwrap();
        w.wander_player(p, 5).unwrap();
        w.set_dodge(p, Some(Dodge::new(1, 1.0))).unwrap();
        players.push(p);
    }
    for at in [Hex::new(-10, 0), Hex::new(12, 2), Hex::new(0, -12), Hex::new(3, 10)] {
        w.spawn_dog(at).unwrap();
    }
    w.run_for(20.0);
    assert!(w.kill_player(players[0]));
    w.run_for(20.0);
    assert!(w.despawn_player(players[1]));
    w.run_for(20.0);
    w
}

#[test]
fn more_than_80_percent_of_sequence_runs_complete() {
    for seed in [10, 11, 12] {
        let w = skirmish::<WildDog>(seed);
        let m = w.metrics();
        let s = m.sequences;
        assert_eq!(m.deaths, 1, "only the player killed by the script dies");
        assert!(
            m.locks_released.died >= 1 && m.locks_released.despawned >= 1,
            "{:?}",
            m.locks_released
        );
        assert_eq!(s.no_target, 0, "every run had a target in range");
        assert!(s.completed >= 100, "{s:?}");
        assert!(
            m.attacks - s.completed <= 4,
            "every bite but those still in their wait ends a run"
        );
        let rate = s.completion_rate().unwrap();
        assert!(rate > 0.8, "seed {seed}: {rate} ({s:?})");
        assert!(
            s.started - s.completed - s.failed <= 4,
            "at most one run per dog still under way"
        );
    }
}

#[test]
fn sequence_runs_are_counted_as_completed_or_restarted() {
    let mut w: World = World::new(8);
    let p = w.spawn_player("P", Hex::new(0, 0)).unwrap();
    w.spawn_dog(Hex::new(1, 0)).unwrap();
    w.step();
    assert_eq!(w.metrics().sequences.started, 1);
    assert_eq!(w.metrics().sequences.completed, 0, "the run is in its wait");
    w.run_for(1.0);
    let s = w.metrics().sequences;
    assert_eq!(
        (s.started, s.completed, s.failed),
        (2, 1, 0),
        "one run done, the next one waiting"
    );
    w.kill_player(p);
    w.run_for(1.0);
    let s = w.metrics().sequences;
    assert_eq!(
        (s.completed, s.failed - s.no_target),
        (2, 0),
        "the waiting run completes, later ones find nobody"
    );
    assert!(s.no_target > 0);
    assert_eq!(s.engaged_completion_rate(), Some(1.0));
}

#[test]
fn face_target_runs_before_and_after_the_move() {
    let mut w: World = World::new(9);
    let dog = w.spawn_dog(Hex::new(0, 0)).unwrap();
    w.spawn_player("P", Hex::new(3, -1)).unwrap();
    let nodes = WildDog::NODES;
    let mut rec = Rec::default();
    w.step_observed(&mut rec);
    let labels = |rec: &Rec| rec.leaves(nodes).into_iter().map(|(l, s)| (leaf_name(l), s)).collect();
    let first: Vec<_> = labels(&rec);
    assert_eq!(first, [("FindOrKeepTarget", S), ("FaceTarget", S), ("MoveAdjacent", R)]);
    assert_eq!(
        rec.statuses(node(nodes, "FaceTarget", 0)),
        [S],
        "the first FaceTarget, before the move"
    );
    assert_eq!(w.dog(dog).unwrap().loc, Hex::new(1, 0), "one hex in the first frame");
    let mut frames = 0;
    loop {
        rec.clear();
        w.step_observed(&mut rec);
        frames += 1;
        assert!(frames < 60, "the dog arrives within a second");
        let leaves: Vec<_> = labels(&rec);
        if leaves == [("MoveAdjacent", R)] {
            assert_eq!(w.dog(dog).unwrap().loc, Hex::new(1, 0), "one hex per movement step");
            continue;
        }
        assert_eq!(
            leaves,
            [
                ("MoveAdjacent", S),
                ("FaceTarget", S),
                ("UseAbilityIfAdjacent", S),
                ("wait(1.0)", R)
            ]
        );
        assert_eq!(
            rec.statuses(node(nodes, "FaceTarget", 1)),
            [S],
            "the second FaceTarget, after the move"
        );
        break;
    }
    assert!(
        (frames as f64 * FRAME - 0.2).abs() < 1e-9,
        "the second step a movement step later"
    );
    let d = w.dog(dog).unwrap();
    assert_eq!(d.loc, Hex::new(2, -1), "the last step went north-east");
    assert_eq!(
        d.heading,
        Heading::E,
        "the second FaceTarget turned the dog back to the target"
    );
    assert_eq!(attacks(w.events()).len(), 1);
}

#[test]
fn with_one_facetarget_the_same_approach_fails_the_facing_check() {
    let mut w: World<OnceFacingDog> = World::new(9);
    let dog = w.spawn_dog(Hex::new(0, 0)).unwrap();
    w.spawn_player("P", Hex::new(3, -1)).unwrap();
    let nodes = OnceFacingDog::NODES;
    let mut rec = Rec::default();
    while w.dog(dog).unwrap().loc != Hex::new(2, -1) {
        rec.clear();
        w.step_observed(&mut rec);
        assert!(w.now() < 1.0, "the dog takes the same path as WildDog's");
    }
    let leaves: Vec<_> = rec.leaves(nodes).into_iter().map(|(l, s)| (leaf_name(l), s)).collect();
    assert_eq!(
        leaves,
        [
            ("MoveAdjacent", S),
            ("UseAbilityIfAdjacent", F),
            ("FindOrKeepTarget", S),
            ("FaceTarget", S),
            ("MoveAdjacent", S),
            ("UseAbilityIfAdjacent", S),
            ("wait(1.0)", R),
        ],
        "running left the dog facing NE: the bite fails and the run restarts in the same tick"
    );
    let m = w.metrics();
    assert_eq!(m.checks_failed.not_facing, 1);
    assert_eq!(
        m.sequences.failed, 1,
        "a restarted run, counted against the completion rate"
    );
    assert_eq!(m.attacks, 1);
}

#[test]
fn attacks_never_fail_the_facing_check_after_the_second_facetarget() {
    for seed in [10, 11, 12] {
        let w = skirmish::<WildDog>(seed);
        assert_eq!(w.metrics().checks_failed.not_facing, 0, "seed {seed}");
        assert!(w.metrics().attacks > 100);
        let w = skirmish::<OnceFacingDog>(seed);
        assert!(
            w.metrics().checks_failed.not_facing > 0,
            "seed {seed}: the variant does fail"
        );
    }
}

#[test]
fn the_world_refuses_bad_requests_with_an_error() {
    let mut w: World = World::new(13);
    let p = w.spawn_player("P", Hex::new(0, 0)).unwrap();
    assert_eq!(w.spawn_dog(Hex::new(0, 0)), Err(WorldError::Occupied(Hex::new(0, 0))));
    let d = w.spawn_dog(Hex::new(1, 0)).unwrap();
    assert_eq!(
        w.teleport_player(p, Hex::new(1, 0)),
        Err(WorldError::Occupied(Hex::new(1, 0)))
    );
    assert_eq!(w.player(p).unwrap().loc, Hex::new(0, 0));
    assert!(w.kill_player(p));
    assert!(!w.kill_player(p), "already dead");
    assert_eq!(w.walk_player(p, None), Err(WorldError::NoLivingPlayer(p)));
    assert_eq!(w.teleport_player(p, Hex::new(5, 5)), Err(WorldError::NoLivingPlayer(p)));
    assert!(w.despawn_player(p));
    assert!(!w.despawn_player(p), "already gone");
    assert_eq!(w.set_dodge(p, None), Err(WorldError::NoLivingPlayer(p)));
    assert_eq!(w.set_recall(p, None), Err(WorldError::NoLivingPlayer(p)));
    assert_eq!(
        w.spawn_player("Q", Hex::new(0, 0)).map(|_| ()),
        Ok(()),
        "the dead player's hex was freed"
    );
    assert_eq!(w.dog(d).unwrap().loc, Hex::new(1, 0));
}

/// A leaf's type from its label: `FindOrKeepTarget` of
/// `FindOrKeepTarget(dist: 20, leash: 30)`; other labels whole (`wait(1.0)`).
fn leaf_name(label: &str) -> &str {
    match label.split_once('(') {
        Some((ty, _)) if ty.starts_with(char::is_uppercase) => ty,
        _ => label,
    }
}

//! The guard NPC of ADR-017: every branch, both execution modes, and the
//! reactive halt of the walk when day breaks.

mod support;

use behaved::Run;
use behaved::prelude::*;
use behaved_scenarios::guard::*;
use behaved_scenarios::hex::Hex;
use support::*;

const MARKET: Hex = Hex::new(0, 0);
const POST: Hex = Hex::new(6, 0);

fn scene() -> GuardCtx {
    let world = WorldState {
        locations: vec![(GUARDHOUSE, POST)],
        ..WorldState::default()
    };
    let npc = Npc {
        name: "Guard",
        loc: MARKET,
        step_every: 1.0,
        default_dialogue: DEFAULT_DIALOGUE,
    };
    GuardCtx::new(world, npc)
}

fn night(mut s: GuardCtx) -> GuardCtx {
    s.world.time_of_day = TimeOfDay::Night;
    s
}

fn at_post(mut s: GuardCtx) -> GuardCtx {
    s.npc.loc = POST;
    s
}

fn with_bribe(mut s: GuardCtx) -> GuardCtx {
    s.world.inventory.push(BRIBE);
    s
}

fn quest(mut s: GuardCtx, state: StageState) -> GuardCtx {
    s.world.set_stage(BUILD_RESONANCE, state);
    s
}

/// Talks to the guard; checks the talk changed nothing in the scene.
fn talk(s: &GuardCtx) -> Interaction {
    let before = s.clone();
    let said = interact(s);
    assert_eq!(*s, before, "choosing a line moves nobody and logs nothing");
    said
}

fn chosen(dialogue: Dialogue) -> Interaction {
    Interaction {
        dialogue,
        fallback: false,
        run: Some(Run::Completed(Status::Success)),
    }
}

#[test]
fn default_branch_by_day() {
    assert_eq!(talk(&scene()), chosen(DEFAULT_DIALOGUE));
    assert_eq!(
        talk(&quest(scene(), StageState::Complete)),
        chosen(DEFAULT_DIALOGUE),
        "a finished quest is no reason"
    );
}

#[test]
fn bribe_branch_when_the_player_carries_one() {
    assert_eq!(talk(&with_bribe(scene())), chosen(BRIBE_OFFER));
}

#[test]
fn night_branch_at_the_post_gives_the_night_line() {
    assert_eq!(talk(&night(at_post(scene()))), chosen(NIGHT_GUARD));
    assert_eq!(
        talk(&night(at_post(with_bribe(scene())))),
        chosen(NIGHT_GUARD),
        "night outranks the bribe"
    );
}

#[test]
fn quest_branch_outranks_everything() {
    let s = quest(night(at_post(with_bribe(scene()))), StageState::Active);
    assert_eq!(talk(&s), chosen(BRUSH_OFF));
}

#[test]
fn on_interaction_a_dialogue_is_chosen_in_a_single_tick() {
    for s in [
        scene(),
        with_bribe(scene()),
        night(at_post(scene())),
        quest(scene(), StageState::Active),
    ] {
        let mut s = s;
        let mut tree = Guard::new();
        assert_eq!(tree.run(&mut s, 1), Run::Completed(Status::Success));
        assert!(s.dialogue.is_some());
    }
}

#[test]
fn at_night_away_from_the_post_interaction_falls_back_to_the_default_dialogue() {
    let s = night(with_bribe(scene()));
    assert_eq!(
        talk(&s),
        Interaction {
            dialogue: DEFAULT_DIALOGUE,
            fallback: true,
            run: Some(Run::TickLimit)
        },
        "the tree chose to walk, not to talk: no dialogue, so the NPC's default"
    );
    // The same run by hand: Running on every tick (time does not pass within
    // the call, so the guard does not move), no dialogue, nothing halted.
    let mut s = s;
    let mut tree = Guard::new();
    let mut rec = Rec::default();
    for _ in 0..5 {
        assert_eq!(tree.tick_observed(&mut s, 0.0, &mut rec), Status::Running);
    }
    assert_eq!(s.dialogue, None);
    assert_eq!(s.npc.loc, MARKET);
    assert!(rec.halted.is_empty());
}

#[test]
fn an_npc_without_a_tree_says_its_default_dialogue() {
    let npc = scene().npc;
    assert_eq!(
        interact_without_tree(&npc),
        Interaction {
            dialogue: DEFAULT_DIALOGUE,
            fallback: true,
            run: None
        }
    );
}

#[test]
fn a_walk_to_an_unknown_place_fails_with_a_logged_error_and_the_guard_falls_through() {
    let mut s = night(scene());
    s.world.locations.clear();
    assert_eq!(talk(&s), chosen(DEFAULT_DIALOGUE));
    let mut tree = Guard::new();
    assert_eq!(tree.tick(&mut s), Status::Success);
    assert_eq!(s.dialogue, Some(DEFAULT_DIALOGUE));
    assert_eq!(
        s.log,
        [
            GuardEvent::WalkStarted {
                at: 0.0,
                to: GUARDHOUSE
            },
            GuardEvent::UnknownLocation {
                at: 0.0,
                to: GUARDHOUSE
            }
        ]
    );
}

/// Ticks the continuous tree at `now`, recording into a fresh `rec`.
fn tick(tree: &mut Guard, s: &mut GuardCtx, now: f64, rec: &mut Rec) -> Status {
    rec.clear();
    s.now = now;
    s.dialogue = None;
    tree.tick_observed(s, now, rec)
}

#[test]
fn continuously_at_night_the_guard_walks_to_the_guardhouse_running_while_moving() {
    let mut s = night(scene());
    let mut tree = Guard::new();
    let mut rec = Rec::default();
    let walk = node(Guard::NODES, "MoveTo", 0);
    // Ticks every quarter second; one hex per second.
    for i in 0..24 {
        let now = i as f64 * 0.25;
        assert_eq!(tick(&mut tree, &mut s, now, &mut rec), R, "t={now}");
        assert_eq!(rec.statuses(walk), [R]);
        assert_eq!(s.npc.loc, Hex::new(i / 4, 0), "t={now}: one hex per second");
        assert_eq!(s.dialogue, None);
    }
    assert_eq!(tick(&mut tree, &mut s, 6.0, &mut rec), S, "arrived");
    assert_eq!(rec.statuses(walk), [S]);
    assert_eq!(s.npc.loc, POST);
    assert_eq!(tick(&mut tree, &mut s, 6.25, &mut rec), S);
    assert!(rec.statuses(walk).is_empty(), "at the post: no walk");
    assert_eq!(s.dialogue, Some(NIGHT_GUARD));
    assert_eq!(
        s.log.first(),
        Some(&GuardEvent::WalkStarted {
            at: 0.0,
            to: GUARDHOUSE
        })
    );
    assert_eq!(
        s.log.last(),
        Some(&GuardEvent::Arrived {
            at: 6.0,
            to: GUARDHOUSE
        })
    );
    assert!(!s.log.iter().any(|e| matches!(e, GuardEvent::WalkHalted { .. })));
}

#[test]
fn day_break_halts_the_walk_exactly_once_and_the_next_night_resumes_it() {
    let nodes = Guard::NODES;
    let (walk, inner) = (node(nodes, "MoveTo", 0), node(nodes, "selector", 0));
    let mut s = night(scene());
    let mut tree = Guard::new();
    let mut rec = Rec::default();
    let mut now = 0.0;
    while now < 3.5 {
        assert_eq!(tick(&mut tree, &mut s, now, &mut rec), R);
        now += 0.25;
    }
    assert_eq!(s.npc.loc, Hex::new(3, 0));

    s.world.time_of_day = TimeOfDay::Day;
    assert_eq!(
        tick(&mut tree, &mut s, 3.5, &mut rec),
        S,
        "the day branch runs in the same tick"
    );
    assert_eq!(
        rec.halted,
        [walk, inner],
        "the walk, then the selector above it: post-order"
    );
    assert_eq!(s.dialogue, Some(DEFAULT_DIALOGUE));
    let halts = |s: &GuardCtx| {
        s.log
            .iter()
            .filter(|e| matches!(e, GuardEvent::WalkHalted { .. }))
            .count()
    };
    assert_eq!(halts(&s), 1);
    assert_eq!(
        s.log.last(),
        Some(&GuardEvent::WalkHalted {
            at: 3.5,
            loc: Hex::new(3, 0)
        })
    );

    for i in 1..=20 {
        assert_eq!(tick(&mut tree, &mut s, 3.5 + i as f64 * 0.25, &mut rec), S);
        assert!(rec.halted.is_empty() && rec.statuses(walk).is_empty());
    }
    assert_eq!(halts(&s), 1, "halted exactly once");
    assert_eq!(s.npc.loc, Hex::new(3, 0), "and it stays halted all day");

    s.world.time_of_day = TimeOfDay::Night;
    assert_eq!(tick(&mut tree, &mut s, 20.0, &mut rec), R);
    assert_eq!(
        rec.entered.iter().filter(|n| **n == walk).count(),
        1,
        "a new walk starts"
    );
    let mut now = 20.0;
    while tick(&mut tree, &mut s, now, &mut rec) == R {
        now += 0.25;
    }
    assert_eq!((now, s.npc.loc), (23.0, POST), "the three hexes left, one per second");
    assert_eq!(halts(&s), 1);
}

#[test]
fn a_quest_starting_mid_walk_halts_it_too() {
    let nodes = Guard::NODES;
    let (walk, inner, night_branch) = (
        node(nodes, "MoveTo", 0),
        node(nodes, "selector", 0),
        node(nodes, "reactive sequence", 0),
    );
    let mut s = night(scene());
    let mut tree = Guard::new();
    let mut rec = Rec::default();
    assert_eq!(tick(&mut tree, &mut s, 0.0, &mut rec), R);
    assert_eq!(tick(&mut tree, &mut s, 1.0, &mut rec), R);
    s.world.set_stage(BUILD_RESONANCE, StageState::Active);
    assert_eq!(tick(&mut tree, &mut s, 1.5, &mut rec), S);
    assert_eq!(
        rec.halted,
        [walk, inner, night_branch],
        "a higher-priority branch halts the whole night branch"
    );
    assert_eq!(s.dialogue, Some(BRUSH_OFF));
    assert_eq!(s.npc.loc, Hex::new(1, 0));
}

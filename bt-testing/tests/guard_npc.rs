//! The guard NPC of ADR-017 (`behaved-scenarios`), tested with the kit: its real
//! leaves in a scenario, a stand-in for a blocked walk, a golden trace of a
//! night, and the coverage of all of it.

use behaved::prelude::*;
use behaved_scenarios::guard::*;
use behaved_scenarios::hex::Hex;
use behaved_testing::{Coverage, Error, Scenario, StandIn, TestTree};

use Status::{Failure as F, Running as R, Success as S};

const WALK: &str = "MoveTo::new(GUARDHOUSE)";

fn scene() -> GuardCtx {
    let world = WorldState {
        locations: vec![(GUARDHOUSE, Hex::new(3, 0))],
        ..WorldState::default()
    };
    let npc = Npc {
        name: "Guard",
        loc: Hex::new(0, 0),
        step_every: 1.0,
        default_dialogue: DEFAULT_DIALOGUE,
    };
    GuardCtx::new(world, npc)
}

fn night(c: &mut GuardCtx) {
    c.world.time_of_day = TimeOfDay::Night;
}

fn day(c: &mut GuardCtx) {
    c.world.time_of_day = TimeOfDay::Day;
}

/// Day, then night: the guard walks towards his post; day breaks on the way
/// and halts the walk on that very tick.
fn day_night_day() -> Scenario<GuardCtx> {
    Scenario::new("day breaks during the walk to the post")
        .clock(|c: &mut GuardCtx, now| c.now = now)
        .tick(0.0)
        .expect(S)
        .ran("Say(DEFAULT_DIALOGUE)")
        .not_ran(WALK)
        .set(night)
        .tick(1.0)
        .expect(R)
        .ran(WALK)
        .not_ran("Say(DEFAULT_DIALOGUE)")
        .ticks([2.0, 3.0])
        .expect(R)
        .holds("two steps walked", |c: &GuardCtx| {
            c.log.iter().filter(|e| matches!(e, GuardEvent::Stepped { .. })).count() == 2
        })
        .set(day)
        .tick(4.0)
        .expect(S)
        .halted(WALK)
        .ran("Say(DEFAULT_DIALOGUE)")
        .holds("the halt is logged", |c: &GuardCtx| {
            matches!(c.log.last(), Some(GuardEvent::WalkHalted { .. }))
        })
}

#[test]
fn day_breaking_halts_the_walk_with_the_real_leaves() -> Result<(), Error> {
    let mut guard = TestTree::new(Guard::new());
    guard.limit_running(WALK, 3)?;
    day_night_day().run(&mut guard, &mut scene())
}

#[test]
fn a_blocked_walk_falls_back_to_the_default_line() -> Result<(), Error> {
    let mut guard = TestTree::new(Guard::new());
    guard.stand_in(WALK, StandIn::per_start([vec![R, F]]))?;
    Scenario::new("the way to the post is blocked")
        .clock(|c: &mut GuardCtx, now| c.now = now)
        .set(night)
        .tick(0.0)
        .expect(R)
        .tick(1.0)
        .expect(S)
        .returned(WALK, F)
        .ran("Say(DEFAULT_DIALOGUE)")
        .holds("the guard did not move", |c: &GuardCtx| c.npc.loc == Hex::new(0, 0))
        .run(&mut guard, &mut scene())
}

#[test]
fn a_wrong_expectation_fails_naming_the_tick_and_listing_its_events() -> Result<(), Error> {
    let mut guard = TestTree::new(Guard::new());
    guard.stand_in("cond(TimeOfDayIs(TimeOfDay::Night))", StandIn::values([true]))?;
    let err = Scenario::new("expects the bribe line at night")
        .tick(0.0)
        .ran("Say(BRIBE_OFFER)")
        .run(&mut guard, &mut scene())
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with(
            "scenario `expects the bribe line at night` failed at tick 1 (now = 0): \
             expected `Say(BRIBE_OFFER)` to run; it did not\n  events of tick 1:\n"
        ),
        "{text}"
    );
    assert!(text.contains(&format!("    #10 `{WALK}` returned running\n")), "{text}");
    Ok(())
}

/// The night walk's trace, compared with the golden file in `tests/golden`
/// (`BEHAVED_GOLDEN=overwrite cargo test -p behaved-testing --test guard_npc` rewrites it).
#[test]
fn the_night_walk_matches_its_golden_trace() -> Result<(), Error> {
    let mut guard = TestTree::new(Guard::new());
    day_night_day().run(&mut guard, &mut scene())?;
    guard.golden("tests/golden/guard_night_walk.json")
}

#[test]
fn the_scenarios_together_reach_every_node_of_the_guard() -> Result<(), Error> {
    let mut total: Option<Coverage> = None;
    let mut add = |t: &TestTree<GuardCtx, _>| match &mut total {
        Some(c) => c.merge(t.coverage()),
        None => {
            total = Some(t.coverage().clone());
            Ok(())
        }
    };
    let mut walk = TestTree::new(Guard::new());
    day_night_day().run(&mut walk, &mut scene())?;
    add(&walk)?;
    let mut lines = TestTree::new(Guard::new());
    lines
        .stand_in(
            "cond(QuestStageIs(BUILD_RESONANCE, StageState::Active))",
            StandIn::values([true, false]),
        )?
        .stand_in("cond(TimeOfDayIs(TimeOfDay::Night))", StandIn::values([true, false]))?
        .stand_in("cond(AtLocation(GUARDHOUSE))", StandIn::values([true]))?
        .stand_in("cond(HasItem(BRIBE))", StandIn::values([true]))?;
    Scenario::new("every line")
        .ticks([0.0, 1.0, 2.0])
        .expect(S)
        .ran("Say(BRIBE_OFFER)")
        .run(&mut lines, &mut scene())?;
    add(&lines)?;
    let total = total.expect("two runs");
    total.require_all_reached(&[])?;
    let table = total.to_string();
    assert!(
        table.starts_with("coverage of `Guard`: 15 of 15 nodes reached, 6 of 6 branches taken\n"),
        "{table}"
    );
    Ok(())
}

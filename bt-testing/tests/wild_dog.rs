//! The Wild Dog of ADR-012 (`behaved-scenarios`), tested with the kit: the real
//! target search and facing, with stand-ins for the run and the bite; the
//! order of the leaves, the loop's restart, a golden trace and coverage.

use behaved::prelude::*;
use behaved_scenarios::ability::TryUseAbility;
use behaved_scenarios::actor::{Dog, Player, Players};
use behaved_scenarios::dog::{DogCtx, WildDog};
use behaved_scenarios::event::Event;
use behaved_scenarios::hex::Hex;
use behaved_scenarios::id::{DogId, PlayerId};
use behaved_scenarios::spatial::{Occupancy, PlayerIndex};
use behaved_testing::{Error, Scenario, StandIn, TestTree};

use Status::{Failure as F, Running as R, Success as S};

const FIND: &str = "FindOrKeepTarget { dist: 20, leash: 30 }";
const RUN: &str = "MoveAdjacent";
const BITE: &str = "UseAbilityIfAdjacent { ability: Ability::BasicAttack }";
/// `FaceTarget` is written twice: before the run (#3) and after it (#5).
const FACE_BEFORE: &str = "#3";
const FACE_AFTER: &str = "#5";

/// The world one dog sees: players, their index, occupancy and the outboxes.
struct Scene {
    dog: Dog,
    players: Players,
    index: PlayerIndex,
    occupancy: Occupancy,
    tries: Vec<TryUseAbility>,
    events: Vec<Event>,
}

impl Scene {
    fn new(player_at: Option<Hex>) -> Scene {
        let mut players = Players::new();
        if let Some(at) = player_at {
            players.spawn(|id| Player::new(id, "A", at));
        }
        let mut index = PlayerIndex::new();
        index.rebuild(&players);
        Scene {
            dog: Dog::new(DogId(0), Hex::new(0, 0)),
            players,
            index,
            occupancy: Occupancy::new(),
            tries: Vec::new(),
            events: Vec::new(),
        }
    }

    fn ctx(&mut self) -> DogCtx<'_> {
        DogCtx {
            now: 0.0,
            dog: &mut self.dog,
            players: &self.players,
            index: &self.index,
            occupancy: &mut self.occupancy,
            tries: &mut self.tries,
            events: &mut self.events,
        }
    }
}

fn dog_tree<'w>() -> Result<TestTree<DogCtx<'w>, WildDog>, Error> {
    let mut dog = TestTree::new(WildDog::new());
    dog.stand_in(RUN, StandIn::per_start([vec![R, R, S], vec![S]]))?
        .stand_in(BITE, StandIn::always(S))?
        .limit_running(RUN, 2)?;
    Ok(dog)
}

fn approach_and_bite<'w>() -> Scenario<DogCtx<'w>> {
    Scenario::new("the dog locks on, runs up, bites, waits, and goes again")
        .clock(|c: &mut DogCtx, now| c.now = now)
        .tick(0.0)
        .expect(R)
        .ran(FIND)
        .ran(FACE_BEFORE)
        .returned(RUN, R)
        .not_ran(FACE_AFTER)
        .holds("the dog targets the player", |c: &DogCtx| {
            c.dog.target == Some(PlayerId(0))
        })
        .tick(0.5)
        .not_ran(FIND)
        .returned(RUN, R)
        .tick(1.0)
        .returned(RUN, S)
        .ran(FACE_AFTER)
        .returned(BITE, S)
        .returned("wait(1.0)", R)
        .tick(2.0)
        .expect(R)
        .returned("wait(1.0)", R)
        .ran(FIND)
        .returned(RUN, S)
}

#[test]
fn the_leaves_run_in_order_and_the_loop_goes_again() -> Result<(), Error> {
    let mut scene = Scene::new(Some(Hex::new(4, 0)));
    let mut dog = dog_tree()?;
    approach_and_bite().run(&mut dog, &mut scene.ctx())?;
    dog.check_properties()
}

#[test]
fn without_anybody_to_lock_on_the_sequence_fails_and_the_loop_waits_a_tick() -> Result<(), Error> {
    let mut scene = Scene::new(None);
    let mut dog = dog_tree()?;
    Scenario::new("nobody around")
        .tick(0.0)
        .expect(R)
        .returned(FIND, F)
        .returned("sequence", F)
        .not_ran(FACE_BEFORE)
        .not_ran(RUN)
        .tick(1.0)
        .returned(FIND, F)
        .run(&mut dog, &mut scene.ctx())
}

/// `BEHAVED_GOLDEN=overwrite cargo test -p behaved-testing --test wild_dog` rewrites the file.
#[test]
fn the_approach_matches_its_golden_trace() -> Result<(), Error> {
    let mut scene = Scene::new(Some(Hex::new(4, 0)));
    let mut dog = dog_tree()?;
    approach_and_bite().run(&mut dog, &mut scene.ctx())?;
    dog.golden("tests/golden/wild_dog_approach.json")
}

#[test]
fn the_approach_reaches_every_node_of_the_dog() -> Result<(), Error> {
    let mut scene = Scene::new(Some(Hex::new(4, 0)));
    let mut dog = dog_tree()?;
    approach_and_bite().run(&mut dog, &mut scene.ctx())?;
    dog.coverage().require_all_reached(&[])?;
    assert_eq!(dog.coverage().counts()[7].running, 2, "the wait ran twice");
    Ok(())
}

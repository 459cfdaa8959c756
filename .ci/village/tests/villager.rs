//! The villager's compiled tree, tested with the test kit.

use behaved::prelude::*;
use behaved_testing::{Scenario, StandIn, TestTree};
use village::{Villager, VillagerMind};

#[test]
fn a_villager_walks_until_hungry_then_eats() -> Result<(), behaved_testing::Error> {
    let mut tree = TestTree::new(VillagerMind::new());
    let walk = |at: f64, story: Scenario<Villager>| story.tick(at).expect(Status::Running).ran("wait(1.0)");
    let rest = |at: f64, story: Scenario<Villager>| story.tick(at).expect(Status::Success);
    let mut story = Scenario::new("three walks, then a meal");
    for k in 0..3 {
        story = rest(2.0 * k as f64 + 1.0, walk(2.0 * k as f64, story));
    }
    story
        .tick(6.0)
        .expect(Status::Success)
        .not_ran("wait(1.0)")
        .holds("it ate once and is no longer hungry", |v: &Villager| {
            v.meals == 1 && v.hunger == 0
        })
        .run(&mut tree, &mut Villager::default())?;
    println!("{}", tree.coverage());
    Ok(())
}

#[test]
fn a_villager_who_cannot_stop_walking_never_eats() -> Result<(), behaved_testing::Error> {
    let mut tree = TestTree::new(VillagerMind::new());
    // The hunger check stood in for: never hungry.
    tree.stand_in("cond(|v| v.hunger >= 3)", StandIn::values([false]))?;
    Scenario::new("walks forever")
        .ticks([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])
        .holds("it never ate", |v: &Villager| v.meals == 0 && v.walks == 4)
        .run(&mut tree, &mut Villager::default())
}

//! A village: villagers whose tree is compiled by `behave!`, and a shopkeeper
//! whose tree is a JSON file, in a Bevy app.

use behaved::prelude::*;
use behaved_bevy::{AgentBrain, Behavior, BehaviorPlugin, Brain, NpcItem, Ticked, WorldItem};
use behaved_interp::Registry;
use bevy_ecs::prelude::*;
use serde::Deserialize;

/// A villager's needs, what it did about them, and the time its tree runs at:
/// the compiled tree's context.
#[derive(Component, Default, Debug)]
pub struct Villager {
    pub hunger: u32,
    pub meals: u32,
    pub walks: u32,
    pub now: f64,
}

impl Clock for Villager {
    fn now(&self) -> f64 {
        self.now
    }
}

behave! {
    /// Eat when hungry; otherwise take a walk, which makes hungry, and rest a second.
    pub tree VillagerMind for Villager {
        selector {
            sequence {
                cond(|v| v.hunger >= 3),
                act(|v| { v.hunger = 0; v.meals += 1; }),
            },
            sequence {
                act(|v| { v.hunger += 1; v.walks += 1; }),
                wait(1.0),
            },
        }
    }
}

/// Runs a villager's compiled tree on its `Villager` component.
pub struct VillagerBrain(pub VillagerMind);

impl Brain for VillagerBrain {
    type Npc = &'static mut Villager;
    type World = ();
    type Choice = ();
    fn tick(&mut self, villager: NpcItem<'_, '_, Self>, _: &WorldItem<'_, '_, Self>, now: f64) -> Ticked {
        let villager = villager.into_inner();
        villager.now = now;
        self.0.step(villager, now)
    }
}

/// The shop's counter: the JSON tree's context.
#[derive(Component, Default, Debug)]
pub struct Counter {
    pub customer_gold: u32,
    pub till: u32,
    pub said: Vec<String>,
}

#[derive(Deserialize)]
struct Price {
    price: u32,
}

#[derive(Clone)]
struct HasGold(u32);

impl Condition<Counter> for HasGold {
    fn check(&self, counter: &Counter) -> bool {
        counter.customer_gold >= self.0
    }
}

#[derive(Clone)]
struct Sell(u32);

impl Action<Counter> for Sell {
    fn tick(&mut self, counter: &mut Counter) -> Status {
        counter.customer_gold -= self.0;
        counter.till += self.0;
        Status::Success
    }
}

#[derive(Clone, Deserialize)]
struct Say {
    line: String,
}

impl Action<Counter> for Say {
    fn tick(&mut self, counter: &mut Counter) -> Status {
        counter.said.push(self.line.clone());
        Status::Success
    }
}

/// The shopkeeper's leaves, by the names its JSON file uses.
pub fn shop_leaves() -> Registry<Counter> {
    let mut leaves = Registry::new();
    leaves.condition("customerHasGold", |p: Price| HasGold(p.price));
    leaves.action("sell", |p: Price| Sell(p.price));
    leaves.action("say", |say: Say| say);
    leaves
}

/// The shopkeeper's tree, from its file.
pub const SHOPKEEPER: &str = include_str!("../trees/shopkeeper.json");

/// The app: five villagers living on their own, a shopkeeper answering when asked.
pub fn village() -> (bevy_app::App, Entity) {
    let mut app = bevy_app::App::new();
    app.add_plugins((
        bevy_time::TimePlugin,
        BehaviorPlugin::<VillagerBrain>::default(),
        BehaviorPlugin::<AgentBrain<Counter>>::default(),
    ));
    // One update is 1/10 s of game time here; a game leaves the real clock on.
    app.insert_resource(bevy_time::TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_millis(100),
    ));
    for _ in 0..5 {
        app.world_mut().spawn((
            Villager::default(),
            Behavior::continuous(VillagerBrain(VillagerMind::new())),
        ));
    }
    let tree = shop_leaves().load(SHOPKEEPER).expect("the shopkeeper's tree loads");
    let shopkeeper = app
        .world_mut()
        .spawn((Counter::default(), Behavior::on_interaction(AgentBrain::of(tree))))
        .id();
    (app, shopkeeper)
}

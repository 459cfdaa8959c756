//! ADR-017's guard as data: the world and the leaf types that
//! `examples/trees/guard.json` names, with the registry that loads it. One
//! set of leaves for every user of that file: the `guard_json` example (the
//! interpreter), `tests/json_trees.rs` (the same file compiled by `behave!`,
//! against the interpreter) and the README.
//!
//! ```
//! use behaved::Status;
//! use behaved_scenarios::guard_json::{World, registry};
//!
//! let tree = registry().load(include_str!("../../../examples/trees/guard.json")).unwrap();
//! let mut guard = behaved_interp::Agent::new(tree);
//! let mut world = World { time_of_day: "night".into(), guard_at: "guardhouse".into(), ..World::default() };
//! assert_eq!(guard.tick_at(&mut world, 0.0), Status::Success);
//! assert_eq!(world.said, ["guard-night"]);
//! ```

use std::collections::BTreeMap;

use behaved::{Action, Condition, Status};
use behaved_interp::Registry;
use serde::Deserialize;

/// What the guard's tree reads and writes (ADR-018's world state, reduced to
/// what this tree asks).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct World {
    /// Quest stages that have a state: (quest, stage) -> state.
    pub quest_stages: BTreeMap<(String, String), String>,
    /// `"day"` or `"night"`.
    pub time_of_day: String,
    /// Where the guard stands.
    pub guard_at: String,
    /// The player's items, by id.
    pub player_items: Vec<String>,
    /// The dialogues the tree chose, in order.
    pub said: Vec<String>,
    /// Where the guard is walking to, while he walks.
    pub walking_to: Option<String>,
}

/// ADR-017 `{ type: 'questStage'; questId; stageId; state }`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QuestStage {
    /// The quest.
    pub quest_id: String,
    /// The stage within it.
    pub stage_id: String,
    /// The state it must be in.
    pub state: String,
}

impl Condition<World> for QuestStage {
    fn check(&self, w: &World) -> bool {
        w.quest_stages.get(&(self.quest_id.clone(), self.stage_id.clone())) == Some(&self.state)
    }
}

/// ADR-017 `{ type: 'timeOfDay'; value }`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeOfDay {
    /// `"day"` or `"night"`.
    pub value: String,
}

impl Condition<World> for TimeOfDay {
    fn check(&self, w: &World) -> bool {
        w.time_of_day == self.value
    }
}

/// ADR-017 `{ type: 'atLocation'; locationId }`: where the guard stands.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AtLocation {
    /// The place.
    pub location_id: String,
}

impl Condition<World> for AtLocation {
    fn check(&self, w: &World) -> bool {
        w.guard_at == self.location_id
    }
}

/// ADR-017 `{ type: 'hasItem'; itemId }`: the player carries the item.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HasItem {
    /// The item.
    pub item_id: String,
}

impl Condition<World> for HasItem {
    fn check(&self, w: &World) -> bool {
        w.player_items.contains(&self.item_id)
    }
}

/// ADR-017 `{ type: 'dialogue'; dialogueId }`: the chosen dialogue.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Dialogue {
    /// The dialogue.
    pub dialogue_id: String,
}

impl Action<World> for Dialogue {
    fn tick(&mut self, w: &mut World) -> Status {
        w.said.push(self.dialogue_id.clone());
        Status::Success
    }
}

/// ADR-017 `{ type: 'moveTo'; target }`: the guard sets off on one tick
/// (`Running`) and arrives on the next.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveTo {
    /// The place to walk to.
    pub target: String,
}

impl Action<World> for MoveTo {
    fn tick(&mut self, w: &mut World) -> Status {
        if w.walking_to.as_ref() == Some(&self.target) {
            w.guard_at = self.target.clone();
            w.walking_to = None;
            Status::Success
        } else {
            w.walking_to = Some(self.target.clone());
            Status::Running
        }
    }
    fn halt(&mut self, w: &mut World) {
        w.walking_to = None;
    }
}

/// The leaf names of `guard.json`, for the interpreter.
pub fn registry() -> Registry<World> {
    let mut r = Registry::new();
    r.condition("questStage", |c: QuestStage| c)
        .condition("timeOfDay", |c: TimeOfDay| c)
        .condition("atLocation", |c: AtLocation| c)
        .condition("hasItem", |c: HasItem| c)
        .action("dialogue", |a: Dialogue| a)
        .action("moveTo", |a: MoveTo| a);
    r
}

/// The world on tick `t` of the guard's tests (the compiled, interpreted,
/// JSON and XML guards are run on it side by side): time of day, quest and
/// bribe change over time.
pub fn world_at(t: u32, w: &mut World) {
    w.time_of_day = if t % 10 < 6 { "day".into() } else { "night".into() };
    if t % 13 == 5 {
        w.guard_at = "gate".into();
    }
    w.player_items = if t % 7 == 3 {
        vec!["bribe-purse".into()]
    } else {
        Vec::new()
    };
    let stage = if t % 17 > 12 { "active" } else { "done" };
    w.quest_stages
        .insert(("flying-home".into(), "build-resonance".into()), stage.into());
}

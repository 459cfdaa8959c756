//! The guard NPC of ADR-017: a typed world state (quest stages, time of day,
//! the player's inventory, NPC locations), the guard's tree, and its two
//! execution modes.
//!
//! - **On interaction** ([`interact`]): when the player talks to the guard, a
//!   fresh tree is run to completion within one call on a snapshot of the scene
//!   (choosing what to say must not move anybody), and the dialogue it chose is
//!   returned; if it chose none, the NPC's default dialogue.
//! - **Continuous**: the scene keeps one [`Guard`] tree and ticks it every
//!   frame. At night the guard walks to the guardhouse, `Running` while
//!   moving; the root is a reactive selector and the night branch a reactive
//!   sequence, so when day breaks the walk is halted on that very tick.

use behaved::Run;
use behaved::prelude::*;

use crate::hex::Hex;
use crate::movement::step_toward;

/// A line of dialogue, by id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dialogue(pub &'static str);

/// The guard's brush-off while the player builds resonance (quest branch).
pub const BRUSH_OFF: Dialogue = Dialogue("guard.brush-off");
/// The guard's line at his post at night.
pub const NIGHT_GUARD: Dialogue = Dialogue("guard.night");
/// The guard's line when the player carries a bribe.
pub const BRIBE_OFFER: Dialogue = Dialogue("guard.bribe");
/// The guard's default line.
pub const DEFAULT_DIALOGUE: Dialogue = Dialogue("guard.default");

/// A stage of a quest (ADR-016 beats), by ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct QuestStage {
    /// The quest.
    pub quest: &'static str,
    /// The stage within it.
    pub stage: &'static str,
}

/// The stage the guard's quest branch watches.
pub const BUILD_RESONANCE: QuestStage = QuestStage {
    quest: "flying-home",
    stage: "build-resonance",
};

/// Where a quest stage stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum StageState {
    /// Not reached yet.
    #[default]
    Inactive,
    /// Being played.
    Active,
    /// Done.
    Complete,
}

/// Day or night.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TimeOfDay {
    /// Day.
    #[default]
    Day,
    /// Night.
    Night,
}

/// An item, by id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Item(pub &'static str);

/// What the guard can be bribed with.
pub const BRIBE: Item = Item("item.bribe");

/// A named place, by id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LocationId(pub &'static str);

/// The guard's post.
pub const GUARDHOUSE: LocationId = LocationId("loc.guardhouse");

/// The shared world state the guard reads (ADR-018's role): quests write it, NPCs react.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorldState {
    /// Day or night.
    pub time_of_day: TimeOfDay,
    /// Quest stages that are not `Inactive`.
    pub quests: Vec<(QuestStage, StageState)>,
    /// The player's inventory.
    pub inventory: Vec<Item>,
    /// Where the named places are.
    pub locations: Vec<(LocationId, Hex)>,
}

impl WorldState {
    /// The state of a quest stage (`Inactive` if never set).
    pub fn stage(&self, stage: QuestStage) -> StageState {
        self.quests
            .iter()
            .find(|(s, _)| *s == stage)
            .map_or(StageState::Inactive, |(_, st)| *st)
    }

    /// Sets the state of a quest stage.
    pub fn set_stage(&mut self, stage: QuestStage, state: StageState) {
        match self.quests.iter_mut().find(|(s, _)| *s == stage) {
            Some(entry) => entry.1 = state,
            None => self.quests.push((stage, state)),
        }
    }

    /// `true` when the player carries `item`.
    pub fn has_item(&self, item: Item) -> bool {
        self.inventory.contains(&item)
    }

    /// Where `location` is, if it exists.
    pub fn location(&self, location: LocationId) -> Option<Hex> {
        self.locations.iter().find(|(l, _)| *l == location).map(|(_, h)| *h)
    }
}

/// The NPC itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Npc {
    /// Shown in logs.
    pub name: &'static str,
    /// Where it stands.
    pub loc: Hex,
    /// Seconds it takes to walk one hex.
    pub step_every: f64,
    /// What it says when its tree chooses nothing (ADR-017 `defaultDialogue`).
    pub default_dialogue: Dialogue,
}

/// What the guard did, for logs and tests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GuardEvent {
    /// A walk to `to` began.
    WalkStarted {
        /// Time.
        at: f64,
        /// Destination.
        to: LocationId,
    },
    /// One hex walked.
    Stepped {
        /// Time.
        at: f64,
        /// The hex reached.
        loc: Hex,
    },
    /// The walk reached its destination.
    Arrived {
        /// Time.
        at: f64,
        /// Where.
        to: LocationId,
    },
    /// The walk was interrupted while under way.
    WalkHalted {
        /// Time of the tick that halted it.
        at: f64,
        /// Where the guard stopped.
        loc: Hex,
    },
    /// A walk to a place the world does not know failed.
    UnknownLocation {
        /// Time.
        at: f64,
        /// The missing place.
        to: LocationId,
    },
}

/// Everything the guard's tree reads and writes: the guard's blackboard.
#[derive(Debug, Clone, PartialEq)]
pub struct GuardCtx {
    /// Game time in seconds.
    pub now: f64,
    /// The shared world state.
    pub world: WorldState,
    /// The guard.
    pub npc: Npc,
    /// The dialogue the tree chose on this run, if any.
    pub dialogue: Option<Dialogue>,
    /// What the guard did.
    pub log: Vec<GuardEvent>,
}

impl GuardCtx {
    /// A scene at time 0 with nothing said and nothing logged.
    pub fn new(world: WorldState, npc: Npc) -> GuardCtx {
        GuardCtx {
            now: 0.0,
            world,
            npc,
            dialogue: None,
            log: Vec::new(),
        }
    }
}

impl Clock for GuardCtx {
    fn now(&self) -> f64 {
        self.now
    }
}

/// `quest.stage(..) == state`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuestStageIs(pub QuestStage, pub StageState);

impl Condition<GuardCtx> for QuestStageIs {
    fn check(&self, ctx: &GuardCtx) -> bool {
        ctx.world.stage(self.0) == self.1
    }
}

/// `world.timeOfDay == ..`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeOfDayIs(pub TimeOfDay);

impl Condition<GuardCtx> for TimeOfDayIs {
    fn check(&self, ctx: &GuardCtx) -> bool {
        ctx.world.time_of_day == self.0
    }
}

/// `self.atLocation(..)`; an unknown place is never reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AtLocation(pub LocationId);

impl Condition<GuardCtx> for AtLocation {
    fn check(&self, ctx: &GuardCtx) -> bool {
        ctx.world.location(self.0) == Some(ctx.npc.loc)
    }
}

/// `player.hasItem(..)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HasItem(pub Item);

impl Condition<GuardCtx> for HasItem {
    fn check(&self, ctx: &GuardCtx) -> bool {
        ctx.world.has_item(self.0)
    }
}

/// `dialogue(..)`: chooses a line and succeeds at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Say(pub Dialogue);

impl Action<GuardCtx> for Say {
    fn tick(&mut self, ctx: &mut GuardCtx) -> Status {
        ctx.dialogue = Some(self.0);
        Status::Success
    }
}

/// `moveTo(..)`: walks to a named place, one hex per `step_every` seconds
/// (the first step one step-time after starting), `Running` until there.
/// Fails, and logs it, if the place does not exist or the way is blocked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveTo {
    to: LocationId,
    next_step_at: f64,
}

impl MoveTo {
    /// A walk to `to`.
    pub const fn new(to: LocationId) -> MoveTo {
        MoveTo { to, next_step_at: 0.0 }
    }
}

impl Action<GuardCtx> for MoveTo {
    fn enter(&mut self, ctx: &mut GuardCtx) {
        self.next_step_at = ctx.now + ctx.npc.step_every;
        ctx.log.push(GuardEvent::WalkStarted {
            at: ctx.now,
            to: self.to,
        });
    }

    fn tick(&mut self, ctx: &mut GuardCtx) -> Status {
        let Some(goal) = ctx.world.location(self.to) else {
            ctx.log.push(GuardEvent::UnknownLocation {
                at: ctx.now,
                to: self.to,
            });
            return Status::Failure;
        };
        while ctx.npc.loc != goal && ctx.now >= self.next_step_at {
            let Some(h) = step_toward(ctx.npc.loc, goal, |_| true) else {
                return Status::Failure;
            };
            ctx.npc.loc = ctx.npc.loc.neighbor(h);
            self.next_step_at += ctx.npc.step_every;
            ctx.log.push(GuardEvent::Stepped {
                at: ctx.now,
                loc: ctx.npc.loc,
            });
        }
        if ctx.npc.loc == goal {
            ctx.log.push(GuardEvent::Arrived {
                at: ctx.now,
                to: self.to,
            });
            Status::Success
        } else {
            Status::Running
        }
    }

    fn halt(&mut self, ctx: &mut GuardCtx) {
        ctx.log.push(GuardEvent::WalkHalted {
            at: ctx.now,
            loc: ctx.npc.loc,
        });
    }
}

behave! {
    /// The guard of ADR-017, in priority order: the quest brush-off; at night,
    /// the night line at his post or else the walk there; the bribe line; the
    /// default line. Reactive where ADR-017's evaluator re-evaluates from the
    /// root every tick, so a higher-priority change (day breaking, the quest
    /// starting) halts a walk under way.
    pub tree Guard for GuardCtx {
        reactive selector {
            sequence { cond(QuestStageIs(BUILD_RESONANCE, StageState::Active)), Say(BRUSH_OFF) },
            reactive sequence {
                cond(TimeOfDayIs(TimeOfDay::Night)),
                selector {
                    sequence { cond(AtLocation(GUARDHOUSE)), Say(NIGHT_GUARD) },
                    MoveTo::new(GUARDHOUSE),
                },
            },
            sequence { cond(HasItem(BRIBE)), Say(BRIBE_OFFER) },
            Say(DEFAULT_DIALOGUE),
        }
    }
}

/// The outcome of talking to an NPC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interaction {
    /// What the NPC says.
    pub dialogue: Dialogue,
    /// `true` when the tree chose no dialogue and the NPC's default was used.
    pub fallback: bool,
    /// How the tree's run ended (`None` for an NPC without a tree).
    pub run: Option<Run>,
}

/// Ticks allowed to an interaction's run: dialogue choices complete in one
/// tick, so reaching this means the tree chose to do something else (walk).
pub const INTERACTION_TICKS: u32 = 8;

/// On-interaction mode: runs a fresh guard tree to completion on a snapshot
/// of `scene` (so choosing a line moves nobody) and returns the chosen
/// dialogue, or the NPC's default when the tree chose none (it failed, or
/// hit the tick limit doing something else, such as walking to its post).
pub fn interact(scene: &GuardCtx) -> Interaction {
    let mut snapshot = scene.clone();
    snapshot.dialogue = None;
    let mut tree = Guard::new();
    let run = tree.run(&mut snapshot, INTERACTION_TICKS);
    if run == Run::TickLimit {
        tree.reset(&mut snapshot);
    }
    match (run, snapshot.dialogue) {
        (Run::Completed(Status::Success), Some(dialogue)) => Interaction {
            dialogue,
            fallback: false,
            run: Some(run),
        },
        _ => Interaction {
            dialogue: scene.npc.default_dialogue,
            fallback: true,
            run: Some(run),
        },
    }
}

/// On-interaction mode for an NPC without a tree: its default dialogue (ADR-017).
pub fn interact_without_tree(npc: &Npc) -> Interaction {
    Interaction {
        dialogue: npc.default_dialogue,
        fallback: true,
        run: None,
    }
}

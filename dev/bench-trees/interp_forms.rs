//! The four trees as JSON (`t1_wild_dog.json`, `t2_guard.json`, `t4_squad.json`
//! with its subtree `t4_medic.json`, and
//! `t3_synthetic.json`, which `build.rs` writes into `OUT_DIR`), loaded by our interpreter, behaved-interp, with the same
//! leaf types as the compiled trees. One [`Definition`] is shared by all the
//! agents that run a tree; each [`Agent`] owns only its running state.

use std::sync::Arc;

use behaved::prelude::*;
use behaved_interp::{Agent, Definition, Library, NoParams, Registry};
use serde_json::Value;

use super::guard::{AtPost, GuardCtx, HasBribe, IsNight, Line, MoveToPost, QuestActive, Say};
use super::squad::{
    Aim, Bandage, CallOut, EnemyVisible, Fire, Hurt, LookAround, Patrol, Radio, Regroup, RegroupOrdered, Reload, Scan,
    SquadCtx, TakeCover, Track,
};
use super::synthetic::SynCtx;
use super::wild_dog::{AttackIfAdjacent, DogCtx, FaceTarget, FindTarget, MoveAdjacent};

/// T1's definition: the Wild Dog's leaves registered by name.
pub fn definition_t1() -> Arc<Definition<DogCtx>> {
    let mut leaves = Registry::new();
    leaves
        .condition("findTarget", |_: NoParams| FindTarget)
        .action("faceTarget", |_: NoParams| FaceTarget)
        .action("moveAdjacent", |_: NoParams| MoveAdjacent)
        .action("attackIfAdjacent", |_: NoParams| AttackIfAdjacent);
    leaves.load(include_str!("t1_wild_dog.json")).expect("T1's JSON loads")
}

/// T2's definition: `say` takes the line as a parameter.
pub fn definition_t2() -> Arc<Definition<GuardCtx>> {
    let mut leaves = Registry::new();
    leaves
        .condition("questActive", |_: NoParams| QuestActive)
        .condition("isNight", |_: NoParams| IsNight)
        .condition("atPost", |_: NoParams| AtPost)
        .condition("hasBribe", |_: NoParams| HasBribe)
        .try_action("say", |p: Value| {
            Ok::<_, &str>(Say(match p["line"].as_str() {
                Some("brushOff") => Line::BrushOff,
                Some("night") => Line::Night,
                Some("bribe") => Line::Bribe,
                Some("default") => Line::Default,
                _ => return Err("`line` must be brushOff, night, bribe or default"),
            }))
        })
        .action("moveToPost", |_: NoParams| MoveToPost);
    leaves.load(include_str!("t2_guard.json")).expect("T2's JSON loads")
}

/// T3's leaf as a registered action: `{"type": "leaf", "id": 17}`.
#[derive(Debug, Clone, Copy)]
pub struct HashLeaf(u32);

impl Action<SynCtx> for HashLeaf {
    #[inline]
    fn tick(&mut self, ctx: &mut SynCtx) -> Status {
        ctx.leaf(self.0)
    }
}

/// T3's definition.
pub fn definition_t3() -> Arc<Definition<SynCtx>> {
    let mut leaves = Registry::new();
    leaves.try_action("leaf", |p: Value| {
        let id = p["id"].as_u64().and_then(|id| u32::try_from(id).ok());
        id.map(HashLeaf).ok_or("`id` must be a u32")
    });
    leaves
        .load(include_str!(concat!(env!("OUT_DIR"), "/t3_synthetic.json")))
        .expect("T3's JSON loads")
}

/// A hook of T4: counts its runs in `hooks[n]`.
#[derive(Debug, Clone, Copy)]
pub struct Hook(usize);

impl Action<SquadCtx> for Hook {
    #[inline]
    fn tick(&mut self, ctx: &mut SquadCtx) -> Status {
        ctx.hooks[self.0] += 1;
        Status::Success
    }
}

/// T4's definition, with the Medic subtree in its library.
pub fn definition_t4() -> Arc<Definition<SquadCtx>> {
    let mut leaves = Registry::new();
    leaves
        .condition("regroupOrdered", |_: NoParams| RegroupOrdered)
        .condition("hurt", |_: NoParams| Hurt)
        .condition("enemyVisible", |_: NoParams| EnemyVisible)
        .action("takeCover", |_: NoParams| TakeCover)
        .action("bandage", |_: NoParams| Bandage)
        .action("aim", |_: NoParams| Aim)
        .action("fire", |_: NoParams| Fire)
        .action("reload", |_: NoParams| Reload)
        .action("track", |_: NoParams| Track)
        .action("callOut", |_: NoParams| CallOut)
        .action("regroup", |_: NoParams| Regroup)
        .action("radio", |_: NoParams| Radio)
        .action("patrol", |_: NoParams| Patrol)
        .action("lookAround", |_: NoParams| LookAround)
        .action("scan", |_: NoParams| Scan)
        .try_action("hook", |p: Value| {
            let n = p["n"]
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .filter(|&n| n < 12);
            n.map(Hook).ok_or("`n` must be a hook number below 12")
        });
    let mut library = Library::new();
    library
        .insert_json("Medic", include_str!("t4_medic.json"))
        .expect("T4's subtree loads");
    leaves
        .load_with(include_str!("t4_squad.json"), &library)
        .expect("T4's JSON loads")
}

/// T1 interpreted (an agent with its own definition).
pub fn t1() -> Agent<DogCtx> {
    Agent::new(definition_t1())
}
/// T2 interpreted.
pub fn t2() -> Agent<GuardCtx> {
    Agent::new(definition_t2())
}
/// T3 interpreted.
pub fn t3() -> Agent<SynCtx> {
    Agent::new(definition_t3())
}
/// T4 interpreted.
pub fn t4() -> Agent<SquadCtx> {
    Agent::new(definition_t4())
}

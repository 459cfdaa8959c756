//! Trees loaded from JSON (`behaved-interp`) in a real `App`: the ready-made
//! `AgentBrain`, continuous and on interaction, and a brain of the user's
//! own holding an `Agent` (which is `Sync`, so no lock is needed).
#![allow(missing_docs)]

mod common;

use behaved_bevy::{
    AgentBrain, Answer, Behavior, BehaviorPlugin, Behaviors, Brain, Interact, NpcItem, Run, Status, Ticked, Tree,
    WorldItem,
};
use behaved_interp::{Agent, NoParams, Registry};
use behaved_runtime::Action;
use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParamItem;
use common::STEP;

/// The NPC's blackboard: the JSON tree's context.
#[derive(Component, Default, Debug, PartialEq)]
struct Mind {
    steps: u32,
    /// Added to each step (world data, for the brain of the user's own).
    stride: u32,
}

#[derive(Clone)]
struct Step;

impl Action<Mind> for Step {
    fn tick(&mut self, mind: &mut Mind) -> Status {
        mind.steps += mind.stride.max(1);
        Status::Success
    }
}

fn leaves() -> Registry<Mind> {
    let mut leaves = Registry::new();
    leaves.action("step", |_: NoParams| Step);
    leaves
}

/// Step, then wait a second; forever.
const PATROL: &str = r#"{"type": "loop", "child": {"type": "sequence", "children": [
    {"type": "action", "action": "step"}, {"type": "wait", "seconds": 1}]}}"#;

/// Three steps.
const THREE: &str = r#"{"type": "repeater", "count": 3, "child": {"type": "action", "action": "step"}}"#;

fn app<B: Brain>() -> bevy_app::App
where
    for<'w, 's> SystemParamItem<'w, 's, B::World>: Sync,
{
    let mut app = bevy_app::App::new();
    app.add_plugins(BehaviorPlugin::<B>::default())
        .insert_resource(behaved_bevy::BehaviorClock::stepping(STEP));
    app
}

#[test]
fn a_json_tree_is_a_brain_that_sleeps_through_its_waits() {
    let mut app = app::<AgentBrain<Mind>>();
    let tree = leaves().load(PATROL).unwrap();
    let npc = app
        .world_mut()
        .spawn((Mind::default(), Behavior::continuous(AgentBrain::of(tree))))
        .id();
    let mut ticked = Vec::new();
    for update in 1..=130 {
        app.update();
        if app
            .world()
            .resource::<Behaviors<AgentBrain<Mind>>>()
            .last_frame()
            .ticked
            == 1
        {
            ticked.push(update);
        }
    }
    // Update n is at n/64 s: a step at once, then when each one-second wait ends.
    assert_eq!(ticked, [1, 65, 129]);
    assert_eq!(app.world().get::<Mind>(npc).unwrap().steps, 3);
    assert_eq!(app.world().get::<Behavior<AgentBrain<Mind>>>(npc).unwrap().ticks(), 3);
}

#[test]
fn a_json_tree_on_interaction_runs_to_completion_and_answers_how() {
    let mut app = app::<AgentBrain<Mind>>();
    let npc = app
        .world_mut()
        .spawn((
            Mind::default(),
            Behavior::on_interaction(AgentBrain::of(leaves().load(THREE).unwrap())),
        ))
        .id();
    let mut stuck = AgentBrain::of(leaves().load(PATROL).unwrap());
    stuck.max_ticks = 5;
    let looping = app
        .world_mut()
        .spawn((Mind::default(), Behavior::on_interaction(stuck)))
        .id();
    app.update();
    assert_eq!(app.world().get::<Mind>(npc).unwrap().steps, 0, "not ticked by frames");
    app.world_mut().write_message(Interact { npc });
    app.world_mut().write_message(Interact { npc: looping });
    app.update();
    let answers: Vec<Answer<Run>> = common::answers(&mut app);
    assert_eq!(
        answers,
        [
            Answer {
                npc,
                choice: Run::Completed(Status::Success)
            },
            Answer {
                npc: looping,
                choice: Run::TickLimit
            }
        ]
    );
    assert_eq!(app.world().get::<Mind>(npc).unwrap().steps, 3);
}

/// How far each step goes: world data a brain of the user's own reads.
#[derive(Resource)]
struct Stride(u32);

/// A brain of the user's own around an `Agent`: no `Mutex`, one method.
struct Strider(Agent<Mind>);

impl Brain for Strider {
    type Npc = &'static mut Mind;
    type World = Res<'static, Stride>;
    type Choice = ();

    fn tick(&mut self, mind: NpcItem<'_, '_, Self>, stride: &WorldItem<'_, '_, Self>, now: f64) -> Ticked {
        let mind = mind.into_inner();
        mind.stride = stride.0;
        self.0.step(mind, now)
    }
}

#[test]
fn an_agent_in_a_brain_of_ones_own_reads_world_data() {
    let mut app = app::<Strider>();
    app.insert_resource(Stride(10));
    let tree = leaves().load(PATROL).unwrap();
    let npcs: Vec<Entity> = (0..20)
        .map(|_| {
            app.world_mut()
                .spawn((Mind::default(), Behavior::continuous(Strider(Agent::new(tree.clone())))))
                .id()
        })
        .collect();
    for _ in 0..65 {
        app.update();
    }
    for npc in npcs {
        assert_eq!(app.world().get::<Mind>(npc).unwrap().steps, 20, "two steps of 10");
    }
}

//! Trees loaded from JSON (`behaved-interp`) as ready-made brains.

use std::sync::Arc;

use behaved_interp::{Agent, Definition};
use behaved_runtime::{Run, Ticked, Tree};
use bevy_ecs::component::{Component, Mutable};

use crate::{Brain, NpcItem, WorldItem};

/// A tree loaded from JSON as a [`Brain`]: its context `C` is a component of
/// the NPC (its blackboard), which the tree's leaves read and write.
///
/// The tree sees nothing else: systems that run before
/// [`BehaviorSystems`](crate::BehaviorSystems) write what it should know
/// into `C` (a sense step). For a context built from several components
/// and world data, write a brain of your own around an
/// [`Agent`]; it is `Send + Sync` and ticks with [`Tree::step`].
///
/// Continuous NPCs tick the agent with [`Tree::step`]; on interaction,
/// the agent runs to completion (at most [`max_ticks`](AgentBrain::max_ticks)
/// ticks) and answers how that went, an [`Answer<Run>`](crate::Answer):
/// what it chose is in `C`.
///
/// ```
/// use bevy_app::App;
/// use bevy_ecs::prelude::*;
/// use bevy_time::TimePlugin;
/// use behaved_bevy::{AgentBrain, Behavior, BehaviorPlugin};
/// use behaved_interp::{Agent, NoParams, Registry};
/// use behaved_runtime::{Action, Status};
///
/// #[derive(Component, Default)]
/// struct Mind { steps: u32 }
///
/// #[derive(Clone)]
/// struct Step;
/// impl Action<Mind> for Step {
///     fn tick(&mut self, mind: &mut Mind) -> Status {
///         mind.steps += 1;
///         Status::Success
///     }
/// }
///
/// let mut leaves = Registry::new();
/// leaves.action("step", |_: NoParams| Step);
/// let tree = leaves.load(r#"{"type": "sequence", "children": [
///     {"type": "action", "action": "step"}, {"type": "wait", "seconds": 60}]}"#)?;
///
/// let mut app = App::new();
/// app.add_plugins((TimePlugin, BehaviorPlugin::<AgentBrain<Mind>>::default()));
/// let npc = app.world_mut().spawn((Mind::default(), Behavior::continuous(AgentBrain::new(Agent::new(tree))))).id();
/// for _ in 0..3 {
///     app.update();
/// }
/// // One step, then asleep in its minute's wait.
/// assert_eq!(app.world().get::<Mind>(npc).unwrap().steps, 1);
/// # Ok::<(), behaved_interp::LoadError>(())
/// ```
pub struct AgentBrain<C: 'static> {
    /// The running tree.
    pub agent: Agent<C>,
    /// The most ticks an evaluation on interaction runs (1,000 by default):
    /// a tree still running then answers [`Run::TickLimit`].
    pub max_ticks: u32,
}

impl<C: 'static> AgentBrain<C> {
    /// The brain of `agent`.
    pub fn new(agent: Agent<C>) -> AgentBrain<C> {
        AgentBrain { agent, max_ticks: 1000 }
    }

    /// The brain of a new agent of `definition`.
    pub fn of(definition: Arc<Definition<C>>) -> AgentBrain<C> {
        AgentBrain::new(Agent::new(definition))
    }
}

impl<C: Component<Mutability = Mutable>> Brain for AgentBrain<C> {
    type Npc = &'static mut C;
    type World = ();
    type Choice = Run;

    fn tick(&mut self, ctx: NpcItem<'_, '_, Self>, _: &WorldItem<'_, '_, Self>, now: f64) -> Ticked {
        self.agent.step(ctx.into_inner(), now)
    }

    fn evaluate(&mut self, ctx: NpcItem<'_, '_, Self>, _: &WorldItem<'_, '_, Self>, now: f64) -> Option<Run> {
        Some(self.agent.run_at(ctx.into_inner(), now, self.max_ticks))
    }
}

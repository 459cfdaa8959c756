//! Guards and a pack of Wild Dogs (from `behaved-scenarios`) as Bevy NPCs, in a
//! headless app: the dogs hunt two players (ticked only when their trees
//! have something to do), a guard walks to his post when night falls
//! (ticked four times a second), and another answers when talked to
//! (ADR-017's on-interaction mode). Prints what they do.
//!
//! ```text
//! cargo run -p behaved-bevy --example bevy_npcs
//! ```

#[path = "support/pack.rs"]
mod pack;

use behaved_bevy::{
    Answer, Behavior, BehaviorPlugin, BehaviorSystems, BehaviorTime, Brain, Interact, NpcItem, Ticked, Tree, WorldItem,
};
use behaved_scenarios::event::EventKind;
use behaved_scenarios::guard::{
    BRIBE, DEFAULT_DIALOGUE, GUARDHOUSE, Guard, GuardCtx, GuardEvent, Interaction, Npc, TimeOfDay, WorldState, interact,
};
use behaved_scenarios::hex::Hex;
use bevy_ecs::prelude::*;

/// A guard's body.
#[derive(Component)]
struct GuardBody(Npc);

/// The world state guards read (ADR-018's role).
#[derive(Resource)]
struct Scene(WorldState);

/// A guard's brain: the scenarios' guard tree on a context built from the
/// guard's body and the scene.
struct GuardBrain(Guard);

impl Brain for GuardBrain {
    type Npc = &'static mut GuardBody;
    type World = Res<'static, Scene>;
    type Choice = Interaction;

    fn tick(&mut self, body: NpcItem<'_, '_, Self>, scene: &WorldItem<'_, '_, Self>, now: f64) -> Ticked {
        let body = body.into_inner();
        let mut ctx = GuardCtx::new(scene.0.clone(), body.0.clone());
        ctx.now = now;
        let ticked = self.0.step(&mut ctx, now);
        for event in &ctx.log {
            match event {
                GuardEvent::WalkStarted { at, to } => println!("{at:6.2}s  {} walks to {}", body.0.name, to.0),
                GuardEvent::Arrived { at, to } => println!("{at:6.2}s  {} reaches {}", body.0.name, to.0),
                GuardEvent::WalkHalted { at, loc } => println!("{at:6.2}s  {} stops at {loc}", body.0.name),
                _ => {}
            }
        }
        body.0 = ctx.npc;
        ticked
    }

    fn evaluate(
        &mut self,
        body: NpcItem<'_, '_, Self>,
        scene: &WorldItem<'_, '_, Self>,
        now: f64,
    ) -> Option<Interaction> {
        let mut ctx = GuardCtx::new(scene.0.clone(), body.0.clone());
        ctx.now = now;
        Some(interact(&ctx))
    }
}

fn guard(name: &'static str, loc: Hex) -> GuardBody {
    GuardBody(Npc {
        name,
        loc,
        step_every: 0.5,
        default_dialogue: DEFAULT_DIALOGUE,
    })
}

/// What happened, for the test.
#[derive(Resource, Default, Debug)]
struct Tally {
    bites: usize,
    answers: Vec<&'static str>,
}

/// Prints what the dogs did this frame and empties their outboxes.
fn report_dogs(time: BehaviorTime, mut tally: ResMut<Tally>, mut dogs: Query<(&pack::DogBody, &mut pack::DogOut)>) {
    for (body, mut out) in &mut dogs {
        for event in out.events.drain(..) {
            match event.kind {
                EventKind::LockAcquired { target, .. } => {
                    println!("{:6.2}s  dog {} hunts player {}", event.at, body.0.id.0, target.0)
                }
                EventKind::CheckFailed { reason, .. } => {
                    println!("{:6.2}s  dog {} cannot bite yet: {reason:?}", event.at, body.0.id.0)
                }
                other => println!("{:6.2}s  dog {}: {other:?}", event.at, body.0.id.0),
            }
        }
        for try_ in out.tries.drain(..) {
            let now = time.now().unwrap_or_default();
            println!("{now:6.2}s  dog {} bites player {}", try_.dog.0, try_.target.0);
            tally.bites += 1;
        }
    }
}

fn print_answers(mut answers: MessageReader<Answer<Interaction>>, mut tally: ResMut<Tally>, guards: Query<&GuardBody>) {
    for answer in answers.read() {
        let name = guards.get(answer.npc).map_or("?", |g| g.0.name);
        println!("         {name} says \"{}\"", answer.choice.dialogue.0);
        tally.answers.push(answer.choice.dialogue.0);
    }
}

fn main() {
    run();
}

/// What the scene ended with (read by the test).
#[cfg_attr(not(test), allow(dead_code))]
struct Summary {
    tally: Tally,
    /// Where the continuous guard stands.
    aldo: Hex,
    /// Dog ticks, and dogs x frames.
    dog_ticks: u64,
    dog_frames: u64,
}

/// Runs the scene for 15 s, with night falling at 5 s.
fn run() -> Summary {
    let mut app = pack::arena(2, pack::Form::Sleeping);
    app.add_plugins(BehaviorPlugin::<GuardBrain>::default())
        .insert_resource(Scene(WorldState {
            locations: vec![(GUARDHOUSE, Hex::new(-40, 3))],
            ..WorldState::default()
        }))
        .init_resource::<Tally>()
        .add_systems(bevy_app::Update, (report_dogs, print_answers).after(BehaviorSystems));
    let aldo = app
        .world_mut()
        .spawn((
            guard("Aldo", Hex::new(-40, 0)),
            Behavior::continuous(GuardBrain(Guard::new())).every(0.25),
        ))
        .id();
    let gate = app
        .world_mut()
        .spawn((
            guard("Bruna", Hex::new(-45, 0)),
            Behavior::on_interaction(GuardBrain(Guard::new())),
        ))
        .id();
    let frames: u64 = 15 * 60;
    for frame in 0..frames {
        match frame {
            60 => {
                println!("  1.00s  the player talks to Bruna");
                app.world_mut().write_message(Interact { npc: gate });
            }
            180 => {
                println!("  3.00s  the player, now carrying a bribe, talks to Bruna");
                app.world_mut().resource_mut::<Scene>().0.inventory.push(BRIBE);
                app.world_mut().write_message(Interact { npc: gate });
            }
            300 => {
                println!("  5.00s  night falls");
                app.world_mut().resource_mut::<Scene>().0.time_of_day = TimeOfDay::Night;
            }
            600 => {
                println!(" 10.00s  the player talks to Bruna at night (she would rather walk to her post)");
                app.world_mut().write_message(Interact { npc: gate });
            }
            _ => {}
        }
        app.update();
    }
    let mut dogs = app.world_mut().query::<&Behavior<pack::DogBrain>>();
    let ticks: u64 = dogs.iter(app.world()).map(|b| b.ticks()).sum();
    let count = dogs.iter(app.world()).count() as u64;
    println!(
        "{count} dogs over {frames} frames: {ticks} ticks ({:.1}% of ticking every dog every frame)",
        100.0 * ticks as f64 / (count * frames) as f64
    );
    Summary {
        tally: app.world_mut().remove_resource::<Tally>().expect("inserted"),
        aldo: app.world().get::<GuardBody>(aldo).expect("spawned").0.loc,
        dog_ticks: ticks,
        dog_frames: count * frames,
    }
}

#[cfg(test)]
mod tests {
    use behaved_scenarios::hex::Hex;

    /// `cargo test` runs the example: the dogs bite, Aldo reaches his post
    /// at night, Bruna answers three times (the bribe line when offered one by day), and
    /// the dogs sleep through most frames.
    #[test]
    fn the_example_runs_and_its_npcs_do_their_jobs() {
        let s = super::run();
        assert!(s.tally.bites >= 8, "{:?}", s.tally);
        assert_eq!(s.aldo, Hex::new(-40, 3));
        assert_eq!(s.tally.answers, ["guard.default", "guard.bribe", "guard.default"]);
        assert!(
            s.dog_ticks * 4 < s.dog_frames,
            "{} ticks of {}",
            s.dog_ticks,
            s.dog_frames
        );
    }
}

//! An NPC whose behavior tree is a JSON file (`json_npc.json`, next to this
//! file), loaded by `behaved-interp` and run as an [`AgentBrain`]: its
//! context is a component of the NPC (`Mind`), which a sense system fills
//! from the world before the trees run, waking the NPC when what it senses
//! changes. The file is read again twice a second; when its text changes,
//! the new tree replaces the old one in every NPC (hot reload: what was
//! running is halted, the new tree starts from its beginning), and a file
//! that does not load is reported, with the old tree kept.
//!
//! ```text
//! cargo run -p behaved-bevy --example json_npc [seconds]
//! ```
//!
//! It runs for `seconds` (30 by default) in real time; the alarm rings from
//! the 3rd to the 6th second. Edit `bt-bevy/examples/json_npc.json` while it
//! runs (the words it says, the waits) and watch the sentry change.

use std::path::PathBuf;
use std::sync::Arc;

use behaved_bevy::{AgentBrain, Behavior, BehaviorPlugin, BehaviorSystems, Behaviors};
use behaved_interp::{Definition, Registry};
use behaved_runtime::{Action, Condition, Status};
use bevy_app::{App, Update};
use bevy_ecs::prelude::*;
use bevy_time::{Real, Time, TimePlugin};
use serde::Deserialize;

/// What the sentry's tree works on: its blackboard.
#[derive(Component, Default)]
struct Mind {
    name: &'static str,
    /// Written by the sense system: the alarm rings.
    alarmed: bool,
    /// What it said, in order.
    said: Vec<String>,
}

/// `{"type": "say", "text": ".."}`: says the text, and succeeds.
#[derive(Clone, Deserialize)]
struct Say {
    text: String,
}

impl Action<Mind> for Say {
    fn tick(&mut self, mind: &mut Mind) -> Status {
        println!("{}: {}", mind.name, self.text);
        mind.said.push(self.text.clone());
        Status::Success
    }
}

/// `"alarmed"`: the alarm rings.
struct Alarmed;

impl Condition<Mind> for Alarmed {
    fn check(&self, mind: &Mind) -> bool {
        mind.alarmed
    }
}

/// The leaves the tree files may use.
fn leaves() -> Registry<Mind> {
    let mut leaves = Registry::new();
    leaves
        .action("say", |say: Say| say)
        .condition("alarmed", |_: behaved_interp::NoParams| Alarmed);
    leaves
}

/// The tree file, and what was last read from it.
#[derive(Resource)]
struct TreeFile {
    path: PathBuf,
    leaves: Registry<Mind>,
    text: String,
    tree: Arc<Definition<Mind>>,
    /// Real time of the next look at the file.
    next_look: f64,
}

impl TreeFile {
    /// Reads and loads the file: the first tree must load.
    fn open(path: PathBuf) -> TreeFile {
        let leaves = leaves();
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let tree = leaves.load(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        TreeFile {
            path,
            leaves,
            text,
            tree,
            next_look: 0.0,
        }
    }
}

/// The world's state the sentries sense.
#[derive(Resource, Default)]
struct Alarm(bool);

/// Twice a second of real time, reads the file again; when its text
/// changed and loads, every sentry's tree is replaced and woken (it may be
/// asleep in a wait of the old tree).
fn hot_reload(
    real: Res<Time<Real>>,
    mut file: ResMut<TreeFile>,
    mut npcs: Query<(Entity, &mut Behavior<AgentBrain<Mind>>, &mut Mind)>,
    mut schedule: ResMut<Behaviors<AgentBrain<Mind>>>,
) {
    let now = real.elapsed_secs_f64();
    if now < file.next_look {
        return;
    }
    file.next_look = now + 0.5;
    let Ok(text) = std::fs::read_to_string(&file.path) else {
        return;
    };
    if text == file.text {
        return;
    }
    match file.leaves.load(&text) {
        Ok(tree) => {
            println!("-- {} changed: the sentries run the new tree", file.path.display());
            for (npc, mut behavior, mut mind) in &mut npcs {
                behavior.brain.agent.replace_definition(&mut mind, Arc::clone(&tree));
                schedule.wake(npc);
            }
            file.tree = tree;
        }
        Err(e) => println!(
            "-- {} does not load, the sentries keep their tree: {e}",
            file.path.display()
        ),
    }
    file.text = text;
}

/// Writes what the sentries sense into their minds, and wakes those for
/// which it changed (a sleeping tree would not see it before its wait ends).
fn sense(alarm: Res<Alarm>, mut minds: Query<(Entity, &mut Mind)>, mut schedule: ResMut<Behaviors<AgentBrain<Mind>>>) {
    for (npc, mut mind) in &mut minds {
        if mind.alarmed != alarm.0 {
            mind.alarmed = alarm.0;
            schedule.wake(npc);
        }
    }
}

/// The alarm rings from the 3rd to the 6th second of game time.
fn ring(time: Res<Time>, mut alarm: ResMut<Alarm>) {
    let t = time.elapsed_secs_f64();
    let ringing = (3.0..6.0).contains(&t);
    if ringing != alarm.0 {
        println!("-- {t:.2}s: the alarm {}", if ringing { "rings" } else { "stops" });
        alarm.0 = ringing;
    }
}

/// The app: a sentry running the tree of the file at `path`.
fn app(path: PathBuf) -> App {
    let file = TreeFile::open(path);
    let mut app = App::new();
    app.add_plugins((TimePlugin, BehaviorPlugin::<AgentBrain<Mind>>::default()))
        .init_resource::<Alarm>()
        .add_systems(Update, (ring, hot_reload, sense).chain().before(BehaviorSystems));
    let tree = Arc::clone(&file.tree);
    app.insert_resource(file);
    app.world_mut().spawn((
        Mind {
            name: "sentry",
            ..Mind::default()
        },
        Behavior::continuous(AgentBrain::of(tree)),
    ));
    app
}

fn main() {
    let seconds: f64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(30.0);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/json_npc.json");
    println!("Edit {} while this runs ({seconds} s).", path.display());
    let mut app = app(path);
    let start = std::time::Instant::now();
    while start.elapsed().as_secs_f64() < seconds {
        app.update();
        std::thread::sleep(std::time::Duration::from_secs_f64(1.0 / 60.0));
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use bevy_time::TimeUpdateStrategy;

    use super::*;

    /// What the sentry said in `updates` updates of 1/60 s.
    fn run(app: &mut App, updates: usize) -> Vec<String> {
        for _ in 0..updates {
            app.update();
        }
        let mut minds = app.world_mut().query::<&mut Mind>();
        let mut mind = minds.single_mut(app.world_mut()).expect("one sentry");
        std::mem::take(&mut mind.said)
    }

    /// `cargo test` runs the example: the sentry keeps watch and raises the
    /// alarm as the file says, then follows the file's edits (a new line,
    /// said at once though the old tree was asleep), and keeps its tree
    /// when the file is broken.
    #[test]
    fn the_sentry_follows_its_file() {
        let path = std::env::temp_dir().join(format!("behaved-json-npc-{}.json", std::process::id()));
        let original =
            std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/json_npc.json"))
                .expect("the example's tree");
        std::fs::write(&path, &original).expect("a temporary file");
        let mut app = app(path.clone());
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 60.0)));
        // 0 to 2.98 s: on watch, a line every 2 s.
        assert_eq!(run(&mut app, 180), ["All quiet.", "All quiet."]);
        // 3 to 6 s: the alarm wakes it at once; a shout every half second.
        let alarmed = run(&mut app, 180);
        assert_eq!(alarmed.len(), 6, "{alarmed:?}");
        assert!(alarmed.iter().all(|s| s == "Intruder! To arms!"), "{alarmed:?}");
        // Back on watch (at 6 s), then the file changes (read at 7 s): said at once.
        assert_eq!(run(&mut app, 50), ["All quiet."]);
        std::fs::write(&path, original.replace("All quiet.", "Quiet as a grave.")).expect("written");
        assert_eq!(run(&mut app, 40), ["Quiet as a grave."]);
        // A broken file: reported, the tree kept (the next line 2 s later).
        std::fs::write(&path, original.replace("\"wait\"", "\"wiat\"")).expect("written");
        assert_eq!(run(&mut app, 120), ["Quiet as a grave."]);
        std::fs::remove_file(&path).ok();
    }
}

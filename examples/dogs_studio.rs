//! A thousand Wild Dogs in behaved-studio: watch any of them think, scrub back
//! through its recent ticks, edit the dogs' tree in the browser and replay
//! the recording against the edit.
//!
//! ```text
//! cargo run --release --example dogs_studio             # then open http://127.0.0.1:7878/
//! cargo run --release --example dogs_studio -- --port 0 # any free port
//! ```
//!
//! 1,000 dogs hunt 250 wandering, dodging players in real time (60 frames a
//! second), each dog ticking the tree of `examples/trees/wild_dog.json`,
//! compiled by `behave!` below. Every ten seconds or so each player recalls
//! 40 hexes away, past the dogs' 30-hex leash, and walks back: a dog running
//! after it then fails its `moveAdjacent` and turns to another player. The
//! live view lists the dogs; follow one, pause, scrub, and jump to its
//! failures (n / p). "Edit & replay" opens the tree editor (at
//! `/edit`) with that dog's window as the recording: edit the tree and
//! Preview replays it, each leaf returning what it returned in the recording,
//! up to the first tick where the edited tree behaves otherwise. Saving
//! writes `examples/trees/wild_dog.json` (or a new file beside it with
//! "Save as"); run the example again and the dogs run the saved tree (the
//! file is compiled in).

use std::time::{Duration, Instant};

use behaved::prelude::*;
use behaved_scenarios::actor::Recall;
use behaved_scenarios::dog::{DogCtx, DogView, FaceTarget, FindOrKeepTarget, MoveAdjacent, UseAbilityIfAdjacent};
use behaved_scenarios::dog_json;
use behaved_scenarios::world::World;

behave! {
    /// The Wild Dog of ADR-012, compiled from `examples/trees/wild_dog.json`
    /// (numbered and labelled as the editor numbers and labels that file).
    pub tree WildDogJson for DogCtx<'w> = json("examples/trees/wild_dog.json") {
        "findOrKeepTarget" => FindOrKeepTarget, "faceTarget" => FaceTarget,
        "moveAdjacent" => MoveAdjacent, "useAbilityIfAdjacent" => UseAbilityIfAdjacent,
    }
}

/// The dogs (four to a player).
const DOGS: usize = 1000;

/// Each player's escape: about every ten seconds, 40 hexes away (past the
/// leash of 30 in `wild_dog.json`).
const RECALL: Recall = Recall::new(10.0, 40);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let port = match port() {
        Ok(port) => port,
        Err(e) => {
            eprintln!("{e}\nusage: dogs_studio [--port N]");
            std::process::exit(2);
        }
    };
    let tree = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dog_json::FILE);
    let editor = behaved_studio::Editor::new(&tree).with_leaves(dog_json::leaf_manifest());
    let studio = behaved_studio::Studio::serve_with_editor(("127.0.0.1", port), editor)?;

    let mut world: World<WildDogJson> = World::arena(DOGS);
    let players: Vec<_> = world.players().iter().map(|p| p.id).collect();
    for player in players {
        world.set_recall(player, Some(RECALL))?;
    }
    let mut agents = Vec::with_capacity(world.dogs().len());
    for dog in world.dogs() {
        agents.push(studio.agent(&format!("dog#{}", dog.id.0), WildDogJson::NODES)?);
    }
    println!(
        "behaved-studio: {} dogs hunt {} players at {}\n  follow a dog, pause and scrub (n / p: its next / previous failure); \"Edit & replay\" opens the tree ({}) in the editor.\n  Ctrl-C ends it.",
        world.dogs().len(),
        world.players().iter().count(),
        studio.url(),
        dog_json::FILE
    );

    let started = Instant::now();
    let mut warned = false;
    loop {
        // A frame, its phases apart: the players act, then the inspector's values beside each followed
        // dog's tree are recorded (made only for a followed dog) as the dog's next tick will find the
        // world, so a run that fails there is explained beside it (a target past the leash), then the
        // dogs think and the server acts.
        world.begin_frame();
        for (agent, dog) in agents.iter_mut().zip(world.dogs()) {
            agent.record_context_with(|| DogView::of(dog, world.players()))?;
        }
        world.think_each_observed(&mut agents);
        world.end_frame();
        world.clear_events();
        if let Some(saved) = studio.take_reload() {
            println!(
                "saved {}: these dogs run the tree compiled in; run the example again to run it",
                saved.name
            );
        }
        let due = started + Duration::from_secs_f64(world.now());
        match due.checked_duration_since(Instant::now()) {
            Some(wait) => std::thread::sleep(wait),
            None if !warned && Instant::now() - due > Duration::from_secs(1) => {
                warned = true;
                println!("the game runs slower than real time (a debug build? add --release)");
            }
            None => {}
        }
    }
}

/// `--port N` (7878 unless told; 0 picks a free port).
fn port() -> Result<u16, String> {
    let mut args = std::env::args().skip(1);
    let mut port = 7878;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--port" => {
                let value = args.next().ok_or("--port needs a number")?;
                port = value
                    .parse()
                    .map_err(|_| format!("--port {value:?} is not a port number"))?;
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(port)
}

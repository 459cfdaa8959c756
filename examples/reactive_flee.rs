//! ClosureBT's reactive example: an NPC walks to the centre and idles, but
//! flees whenever the player comes closer than 2 hexes, until the player is
//! farther than 5; then it walks back. Ticked ten times a second.
//!
//! The tree (`behaved_scenarios::flee::Skittish`, whose tests check it tick by
//! tick) is written the way ClosureBT writes it: a node-local variable
//! updated on every tick, a condition latch, the flee, then the walk:
//!
//! ```text
//! scope {
//!     let distance: u32 = 0;
//!     #[on_pre_tick(|c| *distance = c.player_distance())]
//!     loop {
//!         reactive selector {
//!             latch(|_| *distance < FLEE_BELOW) { Flee::default() },
//!             sequence { WalkToCentre::default(), running },
//!         }
//!     }
//! }
//! ```
//!
//! ```text
//! cargo run --example reactive_flee
//! ```

use behaved_scenarios::flee::{FleeCtx, FleeEvent, Skittish};
use behaved_scenarios::hex::Hex;

/// Where the player is from a given time on.
const PLAYER: [(f64, Hex); 5] = [
    (0.0, Hex::new(9, 9)),
    (2.0, Hex::new(-2, 0)),
    (4.5, Hex::new(2, 8)),
    (12.0, Hex::new(1, 0)),
    (14.0, Hex::new(9, -9)),
];

fn main() {
    let mut scene = FleeCtx::new(Hex::new(-8, 0), PLAYER[0].1, Hex::ORIGIN, 0.5);
    let mut npc = Skittish::new();
    let mut logged = 0;
    println!(
        "The NPC starts at {} and wants the centre {}; it moves a hex every 0.5 s.\n",
        scene.npc, scene.centre
    );
    for tick in 0..=200 {
        let now = f64::from(tick) / 10.0;
        scene.now = now;
        if let Some(&(_, at)) = PLAYER.iter().find(|(t, _)| (*t - now).abs() < 1e-9) {
            scene.player = at;
            println!(
                "[{now:5.1}s] the player moves to {at} ({} hexes from the NPC)",
                scene.player_distance()
            );
        }
        npc.tick(&mut scene);
        for e in &scene.log[logged..] {
            let line = match *e {
                FleeEvent::WalkStarted { .. } => "walks toward the centre".to_string(),
                FleeEvent::Arrived { .. } => "reaches the centre and idles".to_string(),
                FleeEvent::WalkHalted { .. } => "has its walk to the centre halted".to_string(),
                FleeEvent::FleeStarted { .. } => "is scared and flees".to_string(),
                FleeEvent::FleeEnded { .. } => "feels safe (the player is over 5 hexes away)".to_string(),
                FleeEvent::Stepped { loc, .. } => format!("steps to {loc}"),
            };
            println!("[{now:5.1}s]   NPC {line}");
        }
        logged = scene.log.len();
    }
}

//! The guard NPC of ADR-017 over two scripted days. The guard's tree is ticked
//! every game minute (continuous mode: he walks to the guardhouse at night,
//! and the walk halts when day breaks); when the player talks to him, a fresh
//! tree picks his line (on-interaction mode, falling back to his default line).
//!
//! ```text
//! cargo run --example guard_npc
//! ```

use behaved_scenarios::guard::{
    BRIBE, BUILD_RESONANCE, DEFAULT_DIALOGUE, Dialogue, GUARDHOUSE, Guard, GuardCtx, GuardEvent, Npc, StageState,
    TimeOfDay, WorldState, interact,
};
use behaved_scenarios::hex::Hex;

const MINUTE: f64 = 60.0;
const HOUR: f64 = 60.0 * MINUTE;
const DAY: f64 = 24.0 * HOUR;

/// What happens when, from day 1 06:00.
#[derive(Debug, Clone, Copy)]
enum Beat {
    Talk,
    GetBribe,
    Quest(StageState),
    Dusk,
    Dawn,
}

fn main() {
    let world = WorldState {
        locations: vec![(GUARDHOUSE, Hex::new(30, 0))],
        ..WorldState::default()
    };
    let npc = Npc {
        name: "Guard",
        loc: Hex::ORIGIN,
        step_every: 20.0 * MINUTE,
        default_dialogue: DEFAULT_DIALOGUE,
    };
    let mut scene = GuardCtx::new(world, npc);
    let mut guard = Guard::new();

    let script = [
        (day(1, 8, 0), Beat::Talk),
        (day(1, 12, 0), Beat::GetBribe),
        (day(1, 12, 5), Beat::Talk),
        (day(1, 14, 0), Beat::Quest(StageState::Active)),
        (day(1, 14, 5), Beat::Talk),
        (day(1, 18, 0), Beat::Quest(StageState::Complete)),
        (day(1, 20, 0), Beat::Dusk),
        (day(1, 22, 0), Beat::Talk),
        (day(2, 5, 0), Beat::Dawn),
        (day(2, 10, 0), Beat::Talk),
        (day(2, 20, 0), Beat::Dusk),
        (day(2, 21, 30), Beat::Talk),
        (day(3, 5, 0), Beat::Dawn),
    ];
    println!(
        "The guard starts at the market {}; the guardhouse is 30 hexes east,",
        scene.npc.loc
    );
    println!("and he walks one hex every 20 minutes. His tree ticks every game minute.\n");

    let mut next = script.iter().peekable();
    let mut logged = 0;
    let mut t = day(1, 6, 0);
    while t <= day(3, 6, 0) {
        scene.now = t;
        while let Some(&&(at, beat)) = next.peek() {
            if at > t {
                break;
            }
            next.next();
            act(&mut scene, beat);
        }
        guard.tick(&mut scene);
        for e in &scene.log[logged..] {
            if let Some(line) = describe(e) {
                println!("{}  {line}", clock(t));
            }
        }
        logged = scene.log.len();
        t += MINUTE;
    }
}

fn act(scene: &mut GuardCtx, beat: Beat) {
    let t = clock(scene.now);
    match beat {
        Beat::Talk => {
            let said = interact(scene);
            let how = if said.fallback {
                "  (his tree chose no line: default dialogue)"
            } else {
                ""
            };
            println!("{t}  Player talks to the guard: \"{}\"{how}", text(said.dialogue));
        }
        Beat::GetBribe => {
            scene.world.inventory.push(BRIBE);
            println!("{t}  The player picks up a purse of coins (a bribe).");
        }
        Beat::Quest(state) => {
            scene.world.set_stage(BUILD_RESONANCE, state);
            println!("{t}  Quest flying-home / build-resonance is now {state:?}.");
        }
        Beat::Dusk => {
            scene.world.time_of_day = TimeOfDay::Night;
            println!("{t}  Night falls.");
        }
        Beat::Dawn => {
            scene.world.time_of_day = TimeOfDay::Day;
            println!("{t}  Day breaks.");
        }
    }
}

fn describe(e: &GuardEvent) -> Option<String> {
    Some(match *e {
        GuardEvent::WalkStarted { .. } => "The guard sets off for the guardhouse.".to_string(),
        GuardEvent::Stepped { loc, .. } if loc.q % 5 == 0 => format!("The guard walks on, now at {loc}."),
        GuardEvent::Stepped { .. } => return None,
        GuardEvent::Arrived { .. } => "The guard reaches the guardhouse and takes his post.".to_string(),
        GuardEvent::WalkHalted { loc, .. } => format!("The guard's walk is halted; he stays at {loc} for the day."),
        GuardEvent::UnknownLocation { to, .. } => format!("Error: the guard has no way to {}.", to.0),
    })
}

fn text(d: Dialogue) -> &'static str {
    match d.0 {
        "guard.brush-off" => "Not now. Go and see to your resonance.",
        "guard.night" => "Halt! Nobody passes the gate after dark.",
        "guard.bribe" => "Is that a purse I see? Perhaps I saw nothing.",
        "guard.default" => "Move along, citizen.",
        _ => "...",
    }
}

fn day(d: u32, h: u32, m: u32) -> f64 {
    f64::from(d - 1) * DAY + f64::from(h) * HOUR + f64::from(m) * MINUTE
}

fn clock(t: f64) -> String {
    let minutes = (t / MINUTE).round() as u64;
    format!(
        "Day {} {:02}:{:02}",
        minutes / 1440 + 1,
        minutes / 60 % 24,
        minutes % 60
    )
}

//! Villagers with needs choosing what to do by utility (issue 25): hunger,
//! fatigue and loneliness rise over the day; each villager's tree scores eating,
//! sleeping, chatting at the square and working in the field, and does the best
//! one, switching only when another beats it by a margin (hysteresis).
//!
//! ```text
//! loop {
//!     utility(reactive, margin = 0.15) {
//!         logistic(hunger) => sequence { go(kitchen), eat },
//!         polynomial(fatigue) => sequence { go(home), sleep },
//!         all((linear(loneliness), company)) => sequence { go(square), chat },
//!         0.3 => sequence { go(field), work },
//!     }
//! }
//! ```
//!
//! The same tree runs compiled ([`Villager`]) and from JSON ([`FILE`], loaded by
//! [`registry`]); [`Village`] runs a street of villagers with either form, and
//! [`Village::report`] measures the criteria: nobody's need reaches its maximum,
//! no choice is taken up again within [`FLICKER_S`] of being given up (back and
//! forth between two choices), and most of the day goes to work.
//!
//! ```
//! use behaved_scenarios::village::{Village, Villager};
//!
//! let mut village = Village::new(4, |_| Villager::new());
//! village.run_for(600.0);
//! let report = village.report();
//! assert!(report.max_need < 1.0);
//! assert_eq!(report.flickers, 0);
//! ```

use behaved::prelude::*;
use behaved::utility::{Consideration, Curve, all};
use behaved_interp::{Agent, NoParams, Registry};
use serde::Deserialize;

/// The JSON form of [`Villager`], relative to the workspace's root.
pub const FILE: &str = "examples/trees/village.json";
/// A choice taken up again sooner than this after it was given up counts as a flicker.
pub const FLICKER_S: f64 = 2.0;
/// Seconds per cell walked.
pub const STEP_S: f64 = 0.5;
/// Seconds per simulation step (ten ticks a second).
pub const DT: f64 = 0.1;

/// The places along the village's street, by cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Place {
    /// Where villagers sleep (cell 0).
    Home,
    /// Where they eat (cell 4).
    Kitchen,
    /// Where they meet (cell 8).
    Square,
    /// Where they work (cell 14).
    Field,
}

impl Place {
    /// The place's cell on the street.
    pub const fn cell(self) -> i32 {
        match self {
            Place::Home => 0,
            Place::Kitchen => 4,
            Place::Square => 8,
            Place::Field => 14,
        }
    }
}

/// What a villager did, for logs and the report.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum VillageEvent {
    /// Chose to go to `place` (and do what is done there).
    Chose {
        /// Time.
        at: f64,
        /// Where the choice leads.
        place: Place,
    },
    /// The choice was abandoned for another (its branch halted).
    Abandoned {
        /// Time.
        at: f64,
        /// The place of the abandoned choice.
        place: Place,
    },
    /// A need was met (eating, sleeping or chatting done).
    Satisfied {
        /// Time.
        at: f64,
        /// Where.
        place: Place,
    },
}

/// One villager: its needs (0 to 1), where it stands and what it did.
#[derive(Debug, Clone, PartialEq)]
pub struct Folk {
    /// Time in seconds.
    pub now: f64,
    /// Seconds since the last tick.
    pub dt: f64,
    /// The cell it stands on.
    pub at: i32,
    /// Rises by [`HUNGER_RATE`] a second; eating lowers it.
    pub hunger: f32,
    /// Rises by [`FATIGUE_RATE`] a second (twice that at work); sleep lowers it.
    pub fatigue: f32,
    /// Rises by [`LONELINESS_RATE`] a second; chatting lowers it, faster in company.
    pub loneliness: f32,
    /// Other villagers chatting at the square now (the village sets it before each tick).
    pub company: u32,
    /// Whether it is chatting at the square (others' company).
    pub chatting: bool,
    /// Seconds worked.
    pub worked: f64,
    /// Its highest need so far.
    pub peak_need: f32,
    /// What it did.
    pub log: Vec<VillageEvent>,
}

/// Hunger per second (fed to starving in ten minutes).
pub const HUNGER_RATE: f32 = 1.0 / 600.0;
/// Fatigue per second (rested to exhausted in fifteen minutes, half that at work).
pub const FATIGUE_RATE: f32 = 1.0 / 900.0;
/// Loneliness per second.
pub const LONELINESS_RATE: f32 = 1.0 / 480.0;

impl Folk {
    /// A villager at `at` with needs `[hunger, fatigue, loneliness]`.
    pub fn new(at: i32, needs: [f32; 3]) -> Folk {
        Folk {
            now: 0.0,
            dt: 0.0,
            at,
            hunger: needs[0],
            fatigue: needs[1],
            loneliness: needs[2],
            company: 0,
            chatting: false,
            worked: 0.0,
            peak_need: 0.0,
            log: Vec::new(),
        }
    }

    /// Its highest need now.
    pub fn max_need(&self) -> f32 {
        self.hunger.max(self.fatigue).max(self.loneliness)
    }

    /// Needs rise for `dt` seconds.
    fn live(&mut self, dt: f64) {
        let dt = dt as f32;
        self.hunger = (self.hunger + HUNGER_RATE * dt).min(1.0);
        self.fatigue = (self.fatigue + FATIGUE_RATE * dt).min(1.0);
        self.loneliness = (self.loneliness + LONELINESS_RATE * dt).min(1.0);
    }
}

/// Lowers `need` by `rate` per second while at `place`; `Success` once it is
/// below `done`. Each `done` lies between the need at which the tree's margin
/// would abandon the activity for work (so that it ends) and the need at which
/// it would beat work again (so that it is not chosen again at once).
fn satisfy(c: &mut Folk, place: Place, rate: f32, done: f32, need: fn(&mut Folk) -> &mut f32) -> Status {
    let dt = c.dt as f32;
    let value = need(c);
    *value = (*value - rate * dt).max(0.0);
    if *value < done {
        c.log.push(VillageEvent::Satisfied { at: c.now, place });
        Status::Success
    } else {
        Status::Running
    }
}

/// Walks to `place`, a cell every [`STEP_S`]; `Running` until there. Its
/// entry is the choice; its halt (or its activity's) is the abandon.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoTo {
    /// Where to.
    pub place: Place,
    #[serde(skip)]
    next_step_at: f64,
}

impl GoTo {
    /// Walks to `place`.
    pub const fn new(place: Place) -> GoTo {
        GoTo {
            place,
            next_step_at: 0.0,
        }
    }
}

impl Action<Folk> for GoTo {
    fn enter(&mut self, c: &mut Folk) {
        self.next_step_at = c.now;
        c.log.push(VillageEvent::Chose {
            at: c.now,
            place: self.place,
        });
    }

    fn tick(&mut self, c: &mut Folk) -> Status {
        let goal = self.place.cell();
        if c.at != goal && c.now >= self.next_step_at - 1e-9 {
            c.at += (goal - c.at).signum();
            self.next_step_at = c.now + STEP_S;
        }
        if c.at == goal { Status::Success } else { Status::Running }
    }

    fn halt(&mut self, c: &mut Folk) {
        c.log.push(VillageEvent::Abandoned {
            at: c.now,
            place: self.place,
        });
    }
}

/// Logs the abandon of an activity at `place`.
fn abandoned(c: &mut Folk, place: Place) {
    c.log.push(VillageEvent::Abandoned { at: c.now, place });
}

/// Eats at the kitchen: hunger falls by 0.04 a second, to below 0.45.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Eat;

impl Action<Folk> for Eat {
    fn tick(&mut self, c: &mut Folk) -> Status {
        satisfy(c, Place::Kitchen, 0.04, 0.45, |c| &mut c.hunger)
    }
    fn halt(&mut self, c: &mut Folk) {
        abandoned(c, Place::Kitchen);
    }
}

/// Sleeps at home: fatigue falls by 0.02 a second, to below 0.4.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sleep;

impl Action<Folk> for Sleep {
    fn tick(&mut self, c: &mut Folk) -> Status {
        satisfy(c, Place::Home, 0.02, 0.4, |c| &mut c.fatigue)
    }
    fn halt(&mut self, c: &mut Folk) {
        abandoned(c, Place::Home);
    }
}

/// Chats at the square: loneliness falls by 0.05 a second in company (a third of that
/// alone), to below 0.2.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Chat;

impl Action<Folk> for Chat {
    fn enter(&mut self, c: &mut Folk) {
        c.chatting = true;
    }
    fn tick(&mut self, c: &mut Folk) -> Status {
        let rate = if c.company > 0 { 0.05 } else { 0.05 / 3.0 };
        let status = satisfy(c, Place::Square, rate, 0.2, |c| &mut c.loneliness);
        c.chatting = status == Status::Running;
        status
    }
    fn halt(&mut self, c: &mut Folk) {
        c.chatting = false;
        abandoned(c, Place::Square);
    }
}

/// Works in the field for as long as nothing beats it; fatigue rises twice as fast.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Work;

impl Action<Folk> for Work {
    fn tick(&mut self, c: &mut Folk) -> Status {
        c.worked += c.dt;
        c.fatigue = (c.fatigue + FATIGUE_RATE * c.dt as f32).min(1.0);
        Status::Running
    }
    fn halt(&mut self, c: &mut Folk) {
        abandoned(c, Place::Field);
    }
}

/// A need's value, 0 to 1, as a consideration (`{"consider": "need", "need": ..}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Need {
    /// Which need.
    pub need: NeedKind,
}

/// The three needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum NeedKind {
    /// [`Folk::hunger`].
    Hunger,
    /// [`Folk::fatigue`].
    Fatigue,
    /// [`Folk::loneliness`].
    Loneliness,
}

impl Consideration<Folk> for Need {
    fn score(&self, c: &Folk) -> f32 {
        match self.need {
            NeedKind::Hunger => c.hunger,
            NeedKind::Fatigue => c.fatigue,
            NeedKind::Loneliness => c.loneliness,
        }
    }
}

/// 1 when someone is chatting at the square, 0.5 when nobody is.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Company;

impl Consideration<Folk> for Company {
    fn score(&self, c: &Folk) -> f32 {
        if c.company > 0 { 1.0 } else { 0.5 }
    }
}

/// A fixed score: what working is worth when no need presses.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Constant {
    /// The score.
    pub value: f32,
}

impl Consideration<Folk> for Constant {
    fn score(&self, _: &Folk) -> f32 {
        self.value
    }
}

const HUNGER: Need = Need { need: NeedKind::Hunger };
const FATIGUE: Need = Need {
    need: NeedKind::Fatigue,
};
const LONELINESS: Need = Need {
    need: NeedKind::Loneliness,
};

behave! {
    /// A villager's day: the best-scored of eating, sleeping, chatting and
    /// working, re-scored every tick and switched past a margin of 0.15.
    pub tree Villager for Folk {
        loop {
            utility(reactive, margin = 0.15) {
                Curve::Logistic { steepness: 12.0, midpoint: 0.55 }.of(HUNGER) => sequence { GoTo::new(Place::Kitchen), Eat },
                Curve::Polynomial { exponent: 2.0, slope: 1.2, shift: 0.0, intercept: 0.0 }.of(FATIGUE) => sequence { GoTo::new(Place::Home), Sleep },
                all((Curve::Linear { slope: 0.9, intercept: 0.0 }.of(LONELINESS), Company)) => sequence { GoTo::new(Place::Square), Chat },
                Constant { value: 0.3 } => sequence { GoTo::new(Place::Field), Work },
            }
        }
    }

    /// [`Villager`] with no margin: it switches whenever another choice scores
    /// higher, so company coming and going at the square makes it flicker.
    pub tree Fickle for Folk {
        loop {
            utility(reactive) {
                Curve::Logistic { steepness: 12.0, midpoint: 0.55 }.of(HUNGER) => sequence { GoTo::new(Place::Kitchen), Eat },
                Curve::Polynomial { exponent: 2.0, slope: 1.2, shift: 0.0, intercept: 0.0 }.of(FATIGUE) => sequence { GoTo::new(Place::Home), Sleep },
                all((Curve::Linear { slope: 0.9, intercept: 0.0 }.of(LONELINESS), Company)) => sequence { GoTo::new(Place::Square), Chat },
                Constant { value: 0.3 } => sequence { GoTo::new(Place::Field), Work },
            }
        }
    }
}

/// The leaves and considerations [`FILE`] names, for the interpreter.
pub fn registry() -> Registry<Folk> {
    let mut r = Registry::new();
    r.action("goTo", |p: GoTo| p)
        .action("eat", |_: NoParams| Eat)
        .action("sleep", |_: NoParams| Sleep)
        .action("chat", |_: NoParams| Chat)
        .action("work", |_: NoParams| Work)
        .consideration("need", |p: Need| p)
        .consideration("company", |_: NoParams| Company)
        .consideration("constant", |p: Constant| p);
    r
}

/// A street of villagers, each with its brain, ticked every [`DT`].
pub struct Village<B> {
    /// The villagers and their brains.
    pub folk: Vec<(B, Folk)>,
    /// Time in seconds.
    pub now: f64,
}

/// What a run shows, against the criteria.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The highest need any villager reached (criterion: below 1, nobody starves or collapses).
    pub max_need: f32,
    /// Choices taken up again within [`FLICKER_S`] of being given up, back and
    /// forth (criterion: none).
    pub flickers: usize,
    /// Choices made, all villagers.
    pub choices: usize,
    /// Needs met (eating, sleeping, chatting done).
    pub satisfied: usize,
    /// The share of the villagers' time spent working (criterion: at least 40%).
    pub work_share: f64,
}

/// Spread starting needs, so that villagers are not in step.
fn starting_needs(i: usize) -> [f32; 3] {
    let f = |k: usize| ((i * 7 + k * 3) % 10) as f32 / 20.0;
    [f(0), f(1), f(2)]
}

impl Village<Agent<Folk>> {
    /// `n` villagers, each with an agent of the tree in `json` (the interpreter).
    pub fn interpreted(n: usize, json: &str) -> Result<Village<Agent<Folk>>, String> {
        let tree = registry().load(json).map_err(|e| e.to_string())?;
        Ok(Village::new(n, |_| Agent::new(tree.clone())))
    }
}

impl<B: Tree<Folk>> Village<B> {
    /// `n` villagers spread along the street with spread needs, each with
    /// the tree `make(i)` (compiled or interpreted).
    pub fn new(n: usize, make: impl Fn(usize) -> B) -> Village<B> {
        let folk = (0..n)
            .map(|i| (make(i), Folk::new((i as i32 * 3) % 15, starting_needs(i))))
            .collect();
        Village { folk, now: 0.0 }
    }

    /// One step of [`DT`]: needs rise, then every villager thinks, seeing who
    /// was chatting at the square before the step.
    pub fn step(&mut self) {
        self.step_with(|brain, folk, now| {
            brain.tick_at(folk, now);
        });
    }

    /// [`step`](Self::step) with villager `i`'s tick reported to
    /// `observers[i]` (a studio's agents, say: each observer's scores show
    /// why its villager chose what it does).
    pub fn step_observed<O: Observer>(&mut self, observers: &mut [O]) {
        let mut next = observers.iter_mut();
        self.step_with(|brain, folk, now| {
            let observer = next.next().expect("an observer per villager");
            brain.tick_observed(folk, now, observer);
        });
    }

    fn step_with(&mut self, mut think: impl FnMut(&mut B, &mut Folk, f64)) {
        self.now += DT;
        let chatting = self.folk.iter().filter(|(_, f)| f.chatting).count() as u32;
        for (brain, folk) in &mut self.folk {
            folk.live(DT);
            folk.now = self.now;
            folk.dt = DT;
            folk.company = chatting - u32::from(folk.chatting);
            think(brain, folk, self.now);
            folk.peak_need = folk.peak_need.max(folk.max_need());
        }
    }

    /// Steps until `seconds` more have passed.
    pub fn run_for(&mut self, seconds: f64) {
        let steps = (seconds / DT).round() as usize;
        for _ in 0..steps {
            self.step();
        }
    }

    /// The criteria's figures for the run so far.
    pub fn report(&self) -> Report {
        let mut max_need = 0.0f32;
        let (mut flickers, mut choices, mut satisfied, mut worked) = (0, 0, 0, 0.0);
        for (_, folk) in &self.folk {
            worked += folk.worked;
            max_need = max_need.max(folk.peak_need);
            let mut given_up_at = [f64::NEG_INFINITY; 4]; // by place
            for e in &folk.log {
                match *e {
                    VillageEvent::Chose { at, place } => {
                        choices += 1;
                        if at - given_up_at[place as usize] < FLICKER_S {
                            flickers += 1;
                        }
                    }
                    VillageEvent::Abandoned { at, place } => given_up_at[place as usize] = at,
                    VillageEvent::Satisfied { .. } => satisfied += 1,
                }
            }
        }
        Report {
            max_need,
            flickers,
            choices,
            satisfied,
            work_share: worked / (self.now * self.folk.len() as f64),
        }
    }
}

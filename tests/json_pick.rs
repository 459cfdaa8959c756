//! `pick` compiled by `behave!` from a JSON file (`SEMANTICS.md#pick`), tick
//! by tick, each step run beside the interpreter on the same file: the
//! candidates read from the registered list and scored once on entry (at
//! most `max`; each selected in the context, where the considerations read
//! it), the best one selected for the body (the first on ties; none above
//! zero: `Failure` without ticking the body), no re-pick while the body
//! runs, a consideration with parameters, a product and a weight, halting
//! (the body and the exit hook see the chosen candidate), the wake, the
//! work figure, the observer's scores and the choice across save and load.
//! `tests/json_catalogue.rs` compares both forms of `pick` event for event
//! over many seeds, inside every other kind.
use behaved::prelude::*;
use behaved_interp::{Agent, NoParams, Registry};
use behaved_testkit::camp::{Attack, Camp, Health, LoggedTargets, Targets};
use behaved_testkit::script::{Scores, log};
use serde::Deserialize;

use Status::{Failure as F, Running as R, Success as S};

/// A consideration with a parameter: 0 for the target to spare, 1 for the others.
#[derive(Deserialize)]
struct Spare {
    target: u32,
}

impl Consideration<Camp> for Spare {
    fn score(&self, camp: &Camp) -> f32 {
        if camp.target == self.target { 0.0 } else { 1.0 }
    }
}

/// The exit hook: logs the selected candidate.
#[derive(Clone)]
struct Mark;

impl Action<Camp> for Mark {
    fn tick(&mut self, camp: &mut Camp) -> Status {
        camp.log.push(format!("exit {}", camp.target));
        Status::Success
    }
}

behave! {
    /// The weakest target still standing (health through a piecewise curve).
    tree Weakest for Camp = json("tests/trees/pick_weakest.json") {
        "targets" => LoggedTargets,
        "health" => Health,
        "attack" => Attack,
    }
    /// The healthiest but one spared target (a product of a curve and a
    /// consideration with parameters, weighted), waiting before the attack.
    tree Spared for Camp = json("tests/trees/pick_spare.json") {
        "targets" => LoggedTargets,
        "health" => Health,
        "spare" => Spare,
        "attack" => Attack,
        "mark" => Mark,
    }
}

fn registry() -> Registry<Camp> {
    let mut r = Registry::new();
    r.list("targets", |_: NoParams| LoggedTargets)
        .consideration("health", |_: NoParams| Health)
        .consideration("spare", |s: Spare| s)
        .action("attack", |_: NoParams| Attack)
        .action("mark", |_: NoParams| Mark);
    r
}

/// The compiled tree and the interpreted agent of one file, each with its own camp.
struct Both<T> {
    compiled: T,
    agent: Agent<Camp>,
    a: Camp,
    b: Camp,
}

impl<T: Tree<Camp>> Both<T> {
    fn new(compiled: T, file: &str, camp: Camp) -> Both<T> {
        let agent = Agent::new(registry().load(file).unwrap());
        Both {
            compiled,
            agent,
            a: camp.clone(),
            b: camp,
        }
    }

    /// Changes both camps alike.
    fn set(&mut self, f: impl Fn(&mut Camp)) {
        f(&mut self.a);
        f(&mut self.b);
    }

    /// Ticks both at `now`: the same status and the same log, returned (and cleared).
    fn tick(&mut self, now: f64) -> (Status, Vec<String>) {
        let x = self.compiled.tick_at(&mut self.a, now);
        let y = self.agent.tick_at(&mut self.b, now);
        assert_eq!(x, y, "status at {now}");
        assert_eq!(self.a.log, self.b.log, "log at {now}");
        self.b.log.clear();
        (x, std::mem::take(&mut self.a.log))
    }

    /// Resets both: the same log, returned.
    fn reset(&mut self) -> Vec<String> {
        self.compiled.reset(&mut self.a);
        self.agent.reset(&mut self.b);
        assert_eq!(self.a.log, self.b.log, "log at reset");
        assert_eq!(self.compiled.is_running(), self.agent.is_running());
        self.b.log.clear();
        std::mem::take(&mut self.a.log)
    }
}

const WEAKEST: &str = include_str!("trees/pick_weakest.json");
const SPARE: &str = include_str!("trees/pick_spare.json");

#[test]
fn on_entry_every_candidate_is_selected_and_scored_and_the_best_runs_the_first_on_ties() {
    let camp = Camp::with_health(&[5, 2, 7], [0.0, 0.0, 0.6, 0.0, 0.0, 0.2, 0.0, 0.2]);
    let mut t = Both::new(Weakest::new(), WEAKEST, camp);
    assert_eq!(
        t.tick(0.0),
        (R, log(&["select 5", "select 2", "select 7", "select 5", "attack 5"])),
        "5 and 7 score 0.8: the first; selected again for the body"
    );
    t.set(|c| c.health[2] = 0.01);
    assert_eq!(
        t.tick(1.0),
        (R, log(&["select 5", "attack 5"])),
        "not re-picked while the body runs"
    );
    t.set(|c| c.status = S);
    assert_eq!(t.tick(2.0), (S, log(&["select 5", "attack 5"])), "the body's status");
    t.set(|c| c.status = R);
    assert_eq!(
        t.tick(3.0),
        (R, log(&["select 5", "select 2", "select 7", "select 2", "attack 2"])),
        "entered again: picked again"
    );
}

#[test]
fn at_most_max_candidates_are_read() {
    // The fourth target would score best, but a `"max": 3` pick never reads it.
    let camp = Camp::with_health(&[2, 5, 7, 1], [0.0, 0.1, 0.6, 0.0, 0.0, 0.5, 0.0, 0.4]);
    let mut t = Both::new(Weakest::new(), WEAKEST, camp);
    assert_eq!(
        t.tick(0.0),
        (R, log(&["select 2", "select 5", "select 7", "select 7", "attack 7"]))
    );
}

#[test]
fn no_candidate_above_zero_fails_without_ticking_the_body() {
    let camp = Camp::with_health(&[1, 2], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    let mut t = Both::new(Weakest::new(), WEAKEST, camp);
    assert_eq!(
        t.tick(0.0),
        (F, log(&["select 1", "select 2"])),
        "full health (0), down (0)"
    );
    assert!(!t.compiled.is_running() && !t.agent.is_running());
    let mut t = Both::new(Weakest::new(), WEAKEST, Camp::with_health(&[], [0.0; 8]));
    assert_eq!(t.tick(0.0), (F, log(&[])), "no candidates at all");
}

#[test]
fn a_product_with_a_consideration_with_parameters_spares_its_target() {
    // Health through `1 - h`, times `spare` (0 for 4), weighted 2: 4 would be
    // the weakest, but is spared; 3 is the next.
    let camp = Camp::with_health(&[6, 4, 3], [0.0, 0.0, 0.0, 0.4, 0.1, 0.0, 0.9, 0.0]);
    let mut t = Both::new(Spared::new(), SPARE, camp);
    assert_eq!(t.tick(0.0), (R, log(&["select 6", "select 4", "select 3", "select 3"])));
    assert_eq!(t.tick(1.0), (R, log(&["select 3"])), "waiting");
    t.set(|c| c.status = S);
    assert_eq!(
        t.tick(2.0),
        (S, log(&["select 3", "attack 3", "exit 3"])),
        "attacks after the wait; the exit hook sees the chosen one"
    );
}

#[test]
fn halting_selects_the_chosen_one_again_for_the_bodys_halt_and_the_exit_hook() {
    let camp = Camp::with_health(&[3, 4], [0.0, 0.0, 0.0, 0.5, 0.7, 0.0, 0.0, 0.0]);
    let mut t = Both::new(Weakest::new(), WEAKEST, camp);
    t.tick(0.0);
    t.set(|c| c.target = 0);
    assert_eq!(t.reset(), log(&["select 3", "halt 3"]), "3 (0.5 left) is weaker than 4");
    assert!(!t.compiled.is_running());
    let camp = Camp::with_health(&[6, 3], [0.0, 0.0, 0.0, 0.5, 0.7, 0.0, 0.2, 0.0]);
    let mut t = Both::new(Spared::new(), SPARE, camp);
    t.tick(0.0);
    t.set(|c| c.target = 0);
    assert_eq!(
        t.reset(),
        log(&["select 6", "exit 6"]),
        "the wait halted, then the hook"
    );
}

#[test]
fn its_wake_is_its_bodys() {
    let camp = Camp::with_health(&[3, 4], [0.0, 0.0, 0.0, 0.5, 0.7, 0.0, 0.0, 0.0]);
    let mut t = Both::new(Spared::new(), SPARE, camp);
    t.tick(10.0);
    for wake in [t.compiled.next_wake(10.0), t.agent.next_wake(10.0)] {
        assert!(matches!(wake, Wake::At(w) if w > 11.99 && w <= 12.0), "{wake:?}");
    }
}

#[test]
fn the_work_figure_is_reading_one_score_per_candidate_and_the_body() {
    assert_eq!(Weakest::TICK_WORK, 1 + 3 + 1);
    assert_eq!(registry().load(WEAKEST).unwrap().tick_work(), Weakest::TICK_WORK);
}

#[test]
fn each_candidates_score_is_reported_after_the_entry_in_candidate_order() {
    let mut camp = Camp::with_health(&[5, 2], [0.0, 0.0, 0.75, 0.0, 0.0, 0.5, 0.0, 0.0]);
    let (mut compiled, mut agent) = (Weakest::new(), Agent::new(registry().load(WEAKEST).unwrap()));
    let (mut x, mut y) = (Scores::default(), Scores::default());
    compiled.tick_observed(&mut camp, 0.0, &mut x);
    agent.tick_observed(&mut camp, 0.0, &mut y);
    assert_eq!(x.0, y.0, "the same events in both forms");
    assert_eq!(x.0.len(), 4, "{:?}", x.0);
    assert_eq!((x.0[0].as_str(), x.0[3].as_str()), ("enter 0", "enter 1"));
    // 0.75 and 0.5 left, through the piecewise curve (1 at 0.001, 0 at 1).
    assert!(
        x.0[1].starts_with("0 0 0.500") && x.0[2].starts_with("0 1 0.250"),
        "{:?}",
        x.0
    );
    x.0.clear();
    compiled.tick_observed(&mut camp, 1.0, &mut x);
    assert_eq!(x.0, Vec::<String>::new(), "scored only on entry");
}

#[test]
fn saved_mid_body_and_loaded_it_keeps_its_candidates_and_choice() {
    let mut camp = Camp::with_health(&[5, 2], [0.0, 0.0, 0.75, 0.0, 0.0, 0.5, 0.0, 0.0]);
    let mut t = Weakest::new();
    t.tick_at(&mut camp, 0.0);
    let saved = serde_json::to_string(&t).unwrap();
    camp.log.clear();
    camp.targets = vec![1];
    camp.health[2] = 0.01;
    let mut loaded: Weakest = serde_json::from_str(&saved).unwrap();
    assert!(loaded.is_running());
    loaded.tick_at(&mut camp, 1.0);
    assert_eq!(
        camp.log,
        log(&["select 5", "attack 5"]),
        "the loaded tree goes on with its choice"
    );
}

behave! {
    /// The healthiest of the first two: one curved consideration.
    tree Plain for Camp = json("tests/trees/pick_plain.json") {
        "targets" => LoggedTargets,
        "health" => Health,
        "attack" => Attack,
    }
}

#[test]
fn tree_json_writes_a_curved_consideration_as_data() {
    let mut t = Both::new(
        Plain::new(),
        include_str!("trees/pick_plain.json"),
        Camp::with_health(&[1, 2, 3], [0.0, 0.3, 0.6, 0.9, 0.0, 0.0, 0.0, 0.0]),
    );
    assert_eq!(t.tick(0.0), (R, log(&["select 1", "select 2", "select 2", "attack 2"])));
    // As for every tree compiled from a file, names are the mapped Rust's
    // (a product, a weight or a consideration with parameters is written
    // as its code).
    let written: serde_json::Value = serde_json::from_str(Plain::JSON).unwrap();
    assert_eq!(
        written["score"],
        serde_json::json!({"consider": "Health", "curve": {"curve": "linear", "slope": 1.0, "intercept": 0.0}}),
        "{written}"
    );
}

#[global_allocator]
static ALLOCATOR: behaved_testkit::Counting = behaved_testkit::Counting;

/// A camp that changes with the tick and logs nothing: ticking its trees
/// must allocate nothing.
struct Quiet {
    tick: u32,
    targets: [u32; 5],
    target: u32,
    attacks: u64,
    exits: u64,
}

impl ItemList<Quiet> for Targets {
    type Item = u32;
    fn items<'c>(&'c self, q: &'c Quiet) -> impl Iterator<Item = u32> + 'c {
        q.targets[..(q.tick % 6) as usize].iter().copied()
    }
    fn select(&self, q: &mut Quiet, target: &u32) {
        q.target = *target;
    }
}

impl Consideration<Quiet> for Health {
    fn score(&self, q: &Quiet) -> f32 {
        ((q.target * 7 + q.tick) % 10) as f32 / 10.0
    }
}

impl Consideration<Quiet> for Spare {
    fn score(&self, q: &Quiet) -> f32 {
        if q.target == self.target { 0.0 } else { 1.0 }
    }
}

impl Action<Quiet> for Attack {
    fn tick(&mut self, q: &mut Quiet) -> Status {
        q.attacks += 1;
        match (q.tick + q.target) % 3 {
            0 => S,
            1 => F,
            _ => R,
        }
    }
}

impl Action<Quiet> for Mark {
    fn tick(&mut self, q: &mut Quiet) -> Status {
        q.exits += 1;
        S
    }
}

behave! {
    tree QuietWeakest for Quiet = json("tests/trees/pick_weakest.json") {
        "targets" => Targets,
        "health" => Health,
        "attack" => Attack,
    }
    tree QuietSpared for Quiet = json("tests/trees/pick_spare.json") {
        "targets" => Targets,
        "health" => Health,
        "spare" => Spare,
        "attack" => Attack,
        "mark" => Mark,
    }
}

#[test]
fn ten_thousand_ticks_allocate_nothing() {
    let (mut weakest, mut spared) = (QuietWeakest::new(), QuietSpared::new());
    let mut q = Quiet {
        tick: 1,
        targets: [4, 1, 6, 3, 2],
        target: 0,
        attacks: 0,
        exits: 0,
    };
    let allocations = behaved_testkit::allocations_during(|| {
        for tick in 0..10_000 {
            q.tick = tick;
            let now = f64::from(tick) * 0.1;
            let _ = weakest.tick_at(&mut q, now);
            let _ = spared.tick_at(&mut q, now);
            if tick % 97 == 96 {
                weakest.reset(&mut q);
                spared.reset(&mut q);
            }
        }
    });
    assert_eq!(allocations, 0);
    assert!(
        q.attacks > 1_000 && q.exits > 100,
        "the bodies ran, and the exit hook: {} attacks, {} exits",
        q.attacks,
        q.exits
    );
}

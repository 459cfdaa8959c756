//! `pick` (`SEMANTICS.md#pick`), compiled, tick by tick: the candidates read
//! and scored once on entry (at most `max`), the best one bound in the body
//! (the first on ties; none above zero: `Failure` without ticking the body),
//! no re-pick while the body runs, halting, the wake, the work figure, the
//! observer's scores, and the choice across save and load.
use behaved::prelude::*;
use behaved::utility::{CandidateConsideration, Curve};
use behaved_testkit::camp::Camp;
use behaved_testkit::pick;
use behaved_testkit::script::{Parts, Scores, log};

use Status::{Running as R, Success as S};

/// Health as a type that sees the candidate: the healthier, the higher.
struct Healthiest;

impl CandidateConsideration<Camp, u32> for Healthiest {
    fn score(&self, c: &Camp, t: &u32) -> f32 {
        c.health[*t as usize]
    }
}

behave! {
    tree ByType for Camp {
        pick t: u32 in |c| c.targets.iter() max 4 by Healthiest {
            act(|c| c.attack(*t))
        }
    }
    /// A curve from the runtime, called in the closure (a struct literal in
    /// parentheses, as in the head of a Rust `for`).
    tree Curved for Camp {
        pick t: u32 in |c| c.targets.iter() max 4
            by |c, t| (Curve::Step { threshold: 0.5, low: 0.0, high: 1.0 }).eval(c.health[*t as usize]) {
            act(|c| c.attack(*t))
        }
    }
    /// The weakest target still standing: the lower its health, the higher its score.
    tree Weakest for Camp {
        pick t: u32 in |c| c.targets.iter() max 3 by |c, t| {
            let h = c.health[*t as usize];
            if h > 0.0 { 1.0 - h } else { 0.0 }
        } {
            act(|c| c.attack(*t))
        }
    }
    tree Waiting for Camp {
        pick t: u32 in |c| c.targets.iter() max 4 by |c, t| c.health[*t as usize] {
            #[on_exit(|c| c.log.push(format!("exit {t}")))]
            sequence { wait(2.0), act(|c| c.attack(*t)) }
        }
    }
}

#[test]
fn on_entry_every_candidate_is_scored_and_the_best_runs_the_first_on_ties() {
    pick::best_runs_the_first_on_ties(Weakest::new());
}

#[test]
fn at_most_max_candidates_are_read() {
    pick::reads_at_most_max_candidates(Weakest::new());
}

#[test]
fn no_candidate_above_zero_fails_without_ticking_the_body() {
    pick::fails_with_no_candidate_above_zero(Weakest::new);
}

#[test]
fn halting_halts_the_body_which_still_sees_the_candidate() {
    let (mut t, mut c) = (
        Waiting::new(),
        Camp::with_health(&[3, 4], [0.0, 0.0, 0.0, 0.5, 0.7, 0.0, 0.0, 0.0]),
    );
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    t.reset(&mut c);
    assert_eq!(c.take(), log(&["exit 4"]));
    assert!(!t.is_running());
}

#[test]
fn its_wake_is_its_bodys() {
    let (mut t, mut c) = (
        Waiting::new(),
        Camp::with_health(&[3, 4], [0.0, 0.0, 0.0, 0.5, 0.7, 0.0, 0.0, 0.0]),
    );
    t.tick_at(&mut c, 10.0);
    assert!(matches!(t.next_wake(10.0), Wake::At(w) if w > 11.99 && w <= 12.0));
    c.status = S;
    assert_eq!(t.tick_at(&mut c, 12.0), S);
    assert_eq!(c.take(), log(&["attack 4", "exit 4"]));
}

#[test]
fn the_work_figure_is_reading_one_score_per_candidate_and_the_body() {
    assert_eq!(Weakest::TICK_WORK, 1 + 3 + 1);
}

#[test]
fn each_candidates_score_is_reported_after_the_entry_in_candidate_order() {
    let (mut t, mut c) = (
        Weakest::new(),
        Camp::with_health(&[5, 2], [0.0, 0.0, 0.75, 0.0, 0.0, 0.5, 0.0, 0.0]),
    );
    let mut obs = Scores::default();
    t.tick_observed(&mut c, 0.0, &mut obs);
    assert_eq!(obs.0, ["enter 0", "0 0 0.5", "0 1 0.25", "enter 1"]);
    obs.0.clear();
    t.tick_observed(&mut c, 1.0, &mut obs);
    assert_eq!(obs.0, Vec::<String>::new(), "scored only on entry");
}

/// Health times a preference for low ids, reporting the two factors as its parts.
struct HealthyAndFirst;

impl CandidateConsideration<Camp, u32> for HealthyAndFirst {
    fn score(&self, c: &Camp, t: &u32) -> f32 {
        c.health[*t as usize] * (1.0 / (1.0 + *t as f32))
    }
    fn score_parts(&self, c: &Camp, t: &u32, each: &mut dyn FnMut(f32)) -> f32 {
        let (h, f) = (c.health[*t as usize], 1.0 / (1.0 + *t as f32));
        each(h);
        each(f);
        h * f
    }
}

behave! {
    tree Preferring for Camp {
        pick t: u32 in |c| c.targets.iter() max 4 by HealthyAndFirst {
            act(|c| c.attack(*t))
        }
    }
}

/// What a fresh `tree` reports to [`Parts`] on its first tick over targets 3
/// (health 0.75) and 1 (0.5), and what it did.
fn first_tick_parts(mut tree: impl Tree<Camp>) -> (Vec<String>, Vec<String>) {
    let mut c = Camp::with_health(&[3, 1], [0.0, 0.5, 0.0, 0.75, 0.0, 0.0, 0.0, 0.0]);
    let mut obs = Parts::default();
    tree.tick_observed(&mut c, 0.0, &mut obs);
    (obs.0, c.take())
}

#[test]
fn each_candidates_parts_come_before_its_score_one_part_unless_the_value_reports_more() {
    assert_eq!(
        first_tick_parts(Weakest::new()).0,
        [
            "0 0.0 |c, t| { let h = c.health[*t as usize]; if h > 0.0 { 1.0 - h } else { 0.0 } } = 0.25",
            "0 0 0.25",
            "0 1.0 |c, t| { let h = c.health[*t as usize]; if h > 0.0 { 1.0 - h } else { 0.0 } } = 0.5",
            "0 1 0.5"
        ],
        "a closure is one part, labelled by its code"
    );
    assert_eq!(
        first_tick_parts(ByType::new()).0,
        [
            "0 0.0 Healthiest = 0.75",
            "0 0 0.75",
            "0 1.0 Healthiest = 0.5",
            "0 1 0.5"
        ]
    );
    let (parts, did) = first_tick_parts(Preferring::new());
    assert_eq!(
        parts,
        [
            "0 0.0 HealthyAndFirst = 0.75",
            "0 0.1  = 0.25",
            "0 0 0.1875",
            "0 1.0 HealthyAndFirst = 0.5",
            "0 1.1  = 0.5",
            "0 1 0.25"
        ],
        "a value's own parts (past the one label known, unlabelled)"
    );
    assert_eq!(did, log(&["attack 1"]), "the same choice as unobserved");
}

#[test]
fn saved_mid_body_and_loaded_it_keeps_its_candidates_and_choice() {
    pick::keeps_its_choice_when_saved_and_loaded(Weakest::new(), |t| {
        serde_json::from_str(&serde_json::to_string(t).unwrap()).unwrap()
    });
}

#[test]
fn a_consideration_type_scores_the_candidates_and_curves_are_called_in_a_closure() {
    let health = [0.0, 0.0, 0.6, 0.0, 0.0, 0.2, 0.0, 0.9];
    let (mut t, mut c) = (ByType::new(), Camp::with_health(&[5, 2, 7], health));
    t.tick_at(&mut c, 0.0);
    assert_eq!(c.take(), log(&["attack 7"]), "the healthiest");
    let (mut t, mut c) = (Curved::new(), Camp::with_health(&[5, 2, 7], health));
    t.tick_at(&mut c, 0.0);
    assert_eq!(c.take(), log(&["attack 2"]), "2 and 7 step to 1: the first");
    let json: serde_json::Value = serde_json::from_str(ByType::JSON).unwrap();
    assert_eq!(json["score"], serde_json::json!({"consider": "Healthiest"}), "{json}");
}

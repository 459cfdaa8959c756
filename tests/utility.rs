//! `utility` (`SEMANTICS.md#utility`), compiled, tick by tick: which child
//! the scores choose on entry (the highest, the first on ties; none above
//! zero: `Failure`), that the on-entry forms do not re-score while the chosen
//! child runs, the reactive form's switch past its margin (halting the
//! running child first), `weighted`'s draw among the best `k`, considerations
//! and curves, the wake and the work figure; the interval form
//! (`utility(every = d)`): scored at most every `d` seconds, its wake, and
//! its last scoring's time across save and load.
use behaved::prelude::*;
use behaved::utility::{Consideration, Curve, all};
use behaved_testkit::script::{Ctx, Parts, Rec, Score, Scores, log};
use behaved_testkit::utility;

/// Three jobs' scores and statuses, and what the jobs did.
struct Npc {
    score: [f32; 3],
    status: [Status; 3],
    log: Vec<String>,
}

impl Npc {
    fn new(score: [f32; 3]) -> Npc {
        Npc {
            score,
            status: [Status::Running; 3],
            log: Vec::new(),
        }
    }

    fn take(&mut self) -> Vec<String> {
        std::mem::take(&mut self.log)
    }
}

/// Job `i`: logs its enter, tick and halt; its status is `status[i]`.
struct Job(usize);

impl Action<Npc> for Job {
    fn enter(&mut self, c: &mut Npc) {
        c.log.push(format!("enter {}", self.0));
    }
    fn tick(&mut self, c: &mut Npc) -> Status {
        c.log.push(format!("tick {}", self.0));
        c.status[self.0]
    }
    fn halt(&mut self, c: &mut Npc) {
        c.log.push(format!("halt {}", self.0));
    }
}

/// The second score, as a type.
struct Second;

impl Consideration<Npc> for Second {
    fn score(&self, c: &Npc) -> f32 {
        c.score[1]
    }
}

behave! {
    tree OnEntry for Npc {
        utility { |c| c.score[0] => Job(0), Second => Job(1), |c| c.score[2] => Job(2) }
    }
    tree Reactive for Npc {
        utility(reactive, margin = 0.1) { |c| c.score[0] => Job(0), |c| c.score[1] => Job(1), |c| c.score[2] => Job(2) }
    }
    tree Curved for Npc {
        utility {
            all((Curve::Linear { slope: 1.0, intercept: 0.0 }.of(|c: &Npc| c.score[0]), Second)) => Job(0),
            Curve::Step { threshold: 0.5, low: 0.0, high: 0.3 }.of(|c: &Npc| c.score[2]).weight(2.0) => Job(2),
        }
    }
    tree Sleeper for Npc {
        utility { |c| c.score[0] => wait(2.0), |c| c.score[1] => Job(1) }
    }
    tree Interval for Npc {
        utility(every = 1.0, margin = 0.1) { |c| c.score[0] => Job(0), |c| c.score[1] => Job(1), |c| c.score[2] => Job(2) }
    }
    tree IntervalSleeper for Npc {
        utility(every = 0.5) { |c| c.score[0] => wait(2.0), |c| c.score[1] => Job(1) }
    }
    tree SlowIntervalSleeper for Npc {
        utility(every = 5) { |c| c.score[0] => wait(2.0), |c| c.score[1] => Job(1) }
    }
}

behave! {
    /// The trees of the rules both forms keep (`behaved_testkit::utility`):
    /// three scripted actions scored by the script, in each form.
    tree ThreeOnEntry for Ctx {
        utility { Score("s1") => Rec("a"), Score("s2") => Rec("b"), Score("s3") => Rec("c") }
    }
    tree ThreeReactive for Ctx {
        utility(reactive, margin = 0.1) { Score("s1") => Rec("a"), Score("s2") => Rec("b"), Score("s3") => Rec("c") }
    }
    tree ThreeDrawn for Ctx {
        utility(weighted, best = 2) { Score("s1") => Rec("a"), Score("s2") => Rec("b"), Score("s3") => Rec("c") }
    }
}

#[test]
fn on_entry_the_highest_score_runs_the_first_on_ties_and_is_kept_while_it_runs() {
    utility::on_entry_the_highest_runs_and_is_kept(ThreeOnEntry::new());
}

#[test]
fn no_score_above_zero_fails_without_ticking_a_child() {
    utility::nothing_above_zero_fails(ThreeOnEntry::new());
}

#[test]
fn reactive_switches_only_past_the_margin_halting_the_running_child_first() {
    utility::reactive_switches_past_the_margin(ThreeReactive::new());
}

#[test]
fn reactive_leaves_a_child_whose_score_fell_to_zero_for_the_best() {
    utility::reactive_never_keeps_a_zero(ThreeReactive::new());
}

#[test]
fn weighted_draws_among_the_best_k_in_proportion_and_never_a_zero() {
    utility::weighted_draws_among_the_best_in_proportion(ThreeDrawn::with_seed);
}

#[test]
fn considerations_curves_and_compensation_score_as_the_runtime_says() {
    // Child 0: compensated(linear(0.5), 0.5) = 0.625^2 = 0.390625; child 1: step(0.6) * 2 = 0.6.
    let (mut t, mut c) = (Curved::new(), Npc::new([0.5, 0.5, 0.6]));
    t.tick_at(&mut c, 0.0);
    assert_eq!(c.take(), log(&["enter 2", "tick 2"]));
    let (mut t, mut c) = (Curved::new(), Npc::new([0.5, 0.5, 0.4]));
    t.tick_at(&mut c, 0.0);
    assert_eq!(
        c.take(),
        log(&["enter 0", "tick 0"]),
        "the step is 0 below its threshold"
    );
}

#[test]
fn the_on_entry_form_sleeps_with_its_child_and_the_reactive_form_does_not() {
    let (mut t, mut c) = (Sleeper::new(), Npc::new([0.9, 0.1, 0.0]));
    t.tick_at(&mut c, 10.0);
    assert!(matches!(t.next_wake(10.0), Wake::At(w) if w > 11.9 && w <= 12.0));
    let (mut t, mut c) = (Reactive::new(), Npc::new([0.9, 0.1, 0.0]));
    t.tick_at(&mut c, 10.0);
    assert_eq!(t.next_wake(10.0), Wake::NextTick);
}

#[test]
fn the_work_figure_counts_every_score_and_the_largest_child() {
    assert_eq!(OnEntry::TICK_WORK, 3 + 1);
    assert_eq!(Curved::TICK_WORK, 2 + 1);
}

#[test]
fn saved_mid_choice_and_loaded_a_tree_keeps_its_choice() {
    // On entry 1 is chosen; the scores then favour 0, which the on-entry form ignores
    // and the reactive form takes only when 0 beats 1 by more than the margin.
    for reactive in [false, true] {
        let mut c = Npc::new([0.2, 0.7, 0.0]);
        let saved = if reactive {
            let mut t = Reactive::new();
            t.tick_at(&mut c, 0.0);
            serde_json::to_string(&t).unwrap()
        } else {
            let mut t = OnEntry::new();
            t.tick_at(&mut c, 0.0);
            serde_json::to_string(&t).unwrap()
        };
        assert_eq!(c.take(), log(&["enter 1", "tick 1"]));
        c.score = [0.75, 0.7, 0.0];
        if reactive {
            let mut t: Reactive = serde_json::from_str(&saved).unwrap();
            assert!(t.is_running());
            assert_eq!(t.tick_at(&mut c, 1.0), Status::Running);
            assert_eq!(
                c.take(),
                log(&["tick 1"]),
                "0.75 is within the margin of the running 0.7"
            );
            c.score[0] = 0.9;
            t.tick_at(&mut c, 2.0);
            assert_eq!(c.take(), log(&["halt 1", "enter 0", "tick 0"]));
        } else {
            let mut t: OnEntry = serde_json::from_str(&saved).unwrap();
            assert!(t.is_running());
            assert_eq!(t.tick_at(&mut c, 1.0), Status::Running);
            assert_eq!(
                c.take(),
                log(&["tick 1"]),
                "the loaded tree resumes its choice, not entering it again"
            );
        }
    }
}

#[test]
fn every_scoring_is_reported_to_the_observer_after_the_entry_and_before_a_halt() {
    let (mut t, mut c) = (Reactive::new(), Npc::new([0.5, 0.25, 0.0]));
    let mut obs = Scores::default();
    t.tick_observed(&mut c, 0.0, &mut obs);
    assert_eq!(obs.0, ["enter 0", "0 0 0.5", "0 1 0.25", "0 2 0", "enter 1"]);
    obs.0.clear();
    c.score[1] = 0.75;
    t.tick_observed(&mut c, 1.0, &mut obs);
    assert_eq!(
        obs.0,
        ["0 0 0.5", "0 1 0.75", "0 2 0", "halt 1", "enter 2"],
        "the reactive form scores every tick"
    );
    obs.0.clear();
    let (mut t, mut c) = (OnEntry::new(), Npc::new([0.5, 0.25, 0.0]));
    t.tick_observed(&mut c, 0.0, &mut obs);
    obs.0.clear();
    t.tick_observed(&mut c, 1.0, &mut obs);
    assert_eq!(obs.0, Vec::<String>::new(), "the on-entry form scores only on entry");
}

#[test]
fn interval_scores_on_entry_then_at_most_every_d_seconds_switching_past_the_margin() {
    let (mut t, mut c) = (Interval::new(), Npc::new([0.5, 0.2, 0.0]));
    let mut obs = Scores::default();
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut obs), Status::Running);
    assert_eq!(c.take(), log(&["enter 0", "tick 0"]));
    assert_eq!(obs.0, ["enter 0", "0 0 0.5", "0 1 0.2", "0 2 0", "enter 1"]);
    obs.0.clear();
    c.score[1] = 0.9;
    for now in [0.5, 0.99] {
        assert_eq!(t.tick_observed(&mut c, now, &mut obs), Status::Running);
        assert_eq!(
            c.take(),
            log(&["tick 0"]),
            "at {now}: less than 1 s since the last scoring"
        );
        assert_eq!(obs.0, Vec::<String>::new(), "at {now}: nothing scored");
    }
    assert_eq!(t.tick_observed(&mut c, 1.0, &mut obs), Status::Running);
    assert_eq!(
        c.take(),
        log(&["halt 0", "enter 1", "tick 1"]),
        "1 s on: re-scored, 0.9 beats 0.5 past the margin, switched in the same tick"
    );
    assert_eq!(obs.0, ["0 0 0.5", "0 1 0.9", "0 2 0", "halt 1", "enter 2"]);
    c.score[0] = 0.95;
    t.tick_at(&mut c, 2.0);
    assert_eq!(
        c.take(),
        log(&["tick 1"]),
        "0.95 is within the margin of the running 0.9"
    );
    c.score = [0.0, 0.0, 0.0];
    assert_eq!(t.tick_at(&mut c, 2.5), Status::Running);
    assert_eq!(c.take(), log(&["tick 1"]), "scores are not read between scorings");
    assert_eq!(
        t.tick_at(&mut c, 3.0),
        Status::Failure,
        "none above zero at the scoring"
    );
    assert_eq!(c.take(), log(&["halt 1"]));
    c.score = [0.0, 0.0, 0.3];
    assert_eq!(t.tick_at(&mut c, 3.25), Status::Running);
    assert_eq!(
        c.take(),
        log(&["enter 2", "tick 2"]),
        "an entry always scores, however soon after the last scoring"
    );
}

#[test]
fn interval_completes_with_its_child_and_scores_again_on_the_next_entry() {
    let (mut t, mut c) = (Interval::new(), Npc::new([0.5, 0.2, 0.0]));
    t.tick_at(&mut c, 0.0);
    c.status[0] = Status::Success;
    c.score = [0.1, 0.9, 0.0];
    assert_eq!(t.tick_at(&mut c, 0.25), Status::Success, "the chosen child's status");
    assert_eq!(c.take(), log(&["enter 0", "tick 0", "tick 0"]));
    assert_eq!(t.tick_at(&mut c, 0.5), Status::Running);
    assert_eq!(c.take(), log(&["enter 1", "tick 1"]), "entered again: scored again");
}

#[test]
fn interval_wakes_at_the_sooner_of_its_next_scoring_and_its_childs_wake() {
    let (mut t, mut c) = (IntervalSleeper::new(), Npc::new([0.9, 0.1, 0.0]));
    t.tick_at(&mut c, 10.0);
    assert!(
        matches!(t.next_wake(10.0), Wake::At(w) if w > 10.49 && w <= 10.5),
        "the next scoring at 10.5 comes before the wait's end at 12: {:?}",
        t.next_wake(10.0)
    );
    t.tick_at(&mut c, 10.5);
    assert!(matches!(t.next_wake(10.5), Wake::At(w) if w > 10.99 && w <= 11.0));
    let (mut t, mut c) = (SlowIntervalSleeper::new(), Npc::new([0.9, 0.1, 0.0]));
    t.tick_at(&mut c, 10.0);
    assert!(
        matches!(t.next_wake(10.0), Wake::At(w) if w > 11.99 && w <= 12.0),
        "the wait's end at 12 comes before the next scoring at 15"
    );
    let (mut t, mut c) = (IntervalSleeper::new(), Npc::new([0.1, 0.9, 0.0]));
    t.tick_at(&mut c, 10.0);
    assert_eq!(t.next_wake(10.0), Wake::NextTick, "an action runs: its wake");
}

#[test]
fn interval_keeps_its_last_scoring_time_across_save_and_load() {
    let (mut t, mut c) = (Interval::new(), Npc::new([0.5, 0.2, 0.0]));
    t.tick_at(&mut c, 10.0);
    t.tick_at(&mut c, 10.5);
    assert_eq!(c.take(), log(&["enter 0", "tick 0", "tick 0"]));
    let saved = serde_json::to_string(&t).unwrap();
    c.score[1] = 0.9;
    let mut loaded: Interval = serde_json::from_str(&saved).unwrap();
    loaded.tick_at(&mut c, 10.75);
    assert_eq!(c.take(), log(&["tick 0"]), "last scored at 10, as saved: not due");
    loaded.tick_at(&mut c, 11.0);
    assert_eq!(c.take(), log(&["halt 0", "enter 1", "tick 1"]), "due at 11");
    // A clock that restarted: the time moves with the others.
    let mut resumed: Interval = serde_json::from_str(&saved).unwrap();
    resumed.resume_at(100.0);
    resumed.tick_at(&mut c, 100.25);
    assert_eq!(
        c.take(),
        log(&["tick 0"]),
        "saved at 10.5, last scored at 10: due at 100.5"
    );
    resumed.tick_at(&mut c, 100.5);
    assert_eq!(c.take(), log(&["halt 0", "enter 1", "tick 1"]));
}

/// A linear curve that halves its input.
const HALF: Curve = Curve::Linear {
    slope: 0.5,
    intercept: 0.0,
};

behave! {
    tree Considered for Npc {
        utility(reactive) {
            all((HALF.of(|c: &Npc| c.score[0]), Second.weight(2.0))).weight(3.0) => Job(0),
            Second.weight(0.5) => Job(1),
            |c| c.score[2] => Job(2),
        }
    }
}

#[test]
fn each_scores_parts_come_before_its_score_labelled_as_written_only_when_considered() {
    let (mut t, mut c) = (Considered::new(), Npc::new([0.5, 0.25, 0.125]));
    let mut obs = Parts::default();
    t.tick_observed(&mut c, 0.0, &mut obs);
    let product = behaved::utility::compensated(&[0.25, 0.5]) * 3.0;
    assert_eq!(
        obs.0,
        [
            "0 0.0 HALF.of(|c: &Npc| c.score[0]) = 0.25".to_string(),
            "0 0.1 Second × 2 = 0.5".into(),
            format!("0 0 {product}"),
            "0 1.0 Second × 0.5 = 0.125".into(),
            "0 1 0.125".into(),
            "0 2.0 |c| c.score[2] = 0.125".into(),
            "0 2 0.125".into(),
        ],
        "a product's factors after their own curve and weight (its weight scales the product), \
         anything else one part, each child's parts just before its score"
    );
    obs.0.clear();
    c.score[1] = 0.5;
    t.tick_observed(&mut c, 1.0, &mut obs);
    assert_eq!(obs.0[1], "0 0.1 Second × 2 = 1", "re-scored: the parts again");
    let mut quiet = Scores::default();
    t.tick_observed(&mut c, 2.0, &mut quiet);
    assert_eq!(
        quiet.0.len(),
        3,
        "an observer that does not consider gets scores only: {:?}",
        quiet.0
    );
}

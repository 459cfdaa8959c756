//! `utility` interpreted (`SEMANTICS.md#utility`), tick by tick, with the
//! same rules as the compiled form's `tests/utility.rs`: the highest score on
//! entry (the first on ties; none above zero: `Failure`), no re-scoring while
//! the on-entry choice runs, the reactive switch past the margin (the running
//! child halted first), `weighted`'s draw among the best `k`, curves and the
//! compensated product, the wake, the work figure and the load errors at
//! their JSON paths; the interval form (`"every": d`): scored at most every
//! `d` seconds, its wake, and its last scoring's time across save and load.
mod support;

use behaved_interp::Agent;
use behaved_runtime::Wake;
use behaved_testkit::script::Parts;
use behaved_testkit::utility;
use serde_json::{Value, json};
use support::*;

fn utility(extra: Value, scores: Vec<Value>, children: Vec<Value>) -> Value {
    let mut node = json!({"type": "utility", "scores": scores, "children": children});
    if let (Value::Object(n), Value::Object(e)) = (&mut node, extra) {
        n.extend(e);
    }
    node
}

fn consider(name: &str) -> Value {
    json!({"consider": name})
}

fn three(extra: Value) -> Value {
    utility(
        extra,
        vec![consider("s1"), consider("s2"), consider("s3")],
        vec![act("a"), act("b"), act("c")],
    )
}

#[test]
fn on_entry_the_highest_score_runs_the_first_on_ties_and_is_kept_while_it_runs() {
    utility::on_entry_the_highest_runs_and_is_kept(agent(three(json!({}))));
}

#[test]
fn no_score_above_zero_fails_without_ticking_a_child() {
    utility::nothing_above_zero_fails(agent(three(json!({}))));
}

#[test]
fn reactive_switches_only_past_the_margin_halting_the_running_child_first() {
    utility::reactive_switches_past_the_margin(agent(three(json!({"choose": "reactive", "margin": 0.1}))));
}

#[test]
fn reactive_leaves_a_child_whose_score_fell_to_zero_for_the_best() {
    utility::reactive_never_keeps_a_zero(agent(three(json!({"choose": "reactive", "margin": 0.1}))));
}

#[test]
fn weighted_draws_among_the_best_k_in_proportion_and_never_a_zero() {
    let def = load(three(json!({"choose": "weighted", "best": 2})));
    utility::weighted_draws_among_the_best_in_proportion(|seed| Agent::with_seed(def.clone(), seed));
}

#[test]
fn curves_weights_and_compensation_score_as_the_runtime_says() {
    // Child a: compensated(linear(s1), s2) = 0.625^2 = 0.390625 at 0.5 and 0.5;
    // child c: step(s3) * 2: 0.6 at and above 0.5, 0 below.
    let tree = utility(
        json!({}),
        vec![
            json!({"all": [{"consider": "s1", "curve": {"curve": "linear", "slope": 1, "intercept": 0}}, {"consider": "s2"}]}),
            json!({"consider": "s3", "curve": {"curve": "step", "threshold": 0.5, "low": 0, "high": 0.3}, "weight": 2}),
        ],
        vec![act("a"), act("c")],
    );
    let (mut t, mut c) = (agent(tree.clone()), Ctx::new());
    c.score("s1", 0.5).score("s2", 0.5).score("s3", 0.6);
    t.tick_at(&mut c, 0.0);
    assert_eq!(c.take(), log(&["enter c", "c"]));
    let (mut t, mut c) = (agent(tree), Ctx::new());
    c.score("s1", 0.5).score("s2", 0.5).score("s3", 0.4);
    t.tick_at(&mut c, 0.0);
    assert_eq!(c.take(), log(&["enter a", "a"]), "the step is 0 below its threshold");
}

#[test]
fn the_on_entry_form_sleeps_with_its_child_and_the_reactive_form_does_not() {
    let sleeper = utility(
        json!({}),
        vec![consider("s1"), consider("s2")],
        vec![json!({"type": "wait", "seconds": 2.0}), act("b")],
    );
    let (mut t, mut c) = (agent(sleeper), Ctx::new());
    c.score("s1", 0.9);
    t.tick_at(&mut c, 10.0);
    assert!(matches!(t.next_wake(10.0), Wake::At(w) if w > 11.9 && w <= 12.0));
    let (mut t, mut c) = (agent(three(json!({"choose": "reactive"}))), Ctx::new());
    c.score("s1", 0.9).set("a", R);
    t.tick_at(&mut c, 10.0);
    assert_eq!(t.next_wake(10.0), Wake::NextTick);
}

#[test]
fn the_work_figure_counts_every_score_and_the_largest_child() {
    assert_eq!(load(three(json!({}))).tick_work(), 3 + 1);
}

#[test]
fn load_errors_name_the_json_path() {
    let bad = |extra: Value, scores: Value| {
        let mut node = json!({"type": "utility", "scores": scores, "children": [act("a")]});
        if let (Value::Object(n), Value::Object(e)) = (&mut node, extra) {
            n.extend(e);
        }
        errors(&node.to_string())
    };
    let e = bad(
        json!({}),
        json!([{"consider": "s1", "curve": {"curve": "logistic", "steepness": 0, "midpoint": 1}}]),
    );
    assert_eq!(
        e,
        ["at `scores[0].curve`: a logistic curve's `steepness` must not be 0"],
        "{e:?}"
    );
    let e = bad(json!({}), json!([{"consider": "nope"}]));
    assert!(
        e[0].starts_with("at `scores[0].consider`: unknown consideration type \"nope\""),
        "{e:?}"
    );
    let e = bad(
        json!({"choose": "weighted", "margin": 0.1}),
        json!([{"consider": "s1"}]),
    );
    assert_eq!(
        e,
        ["at `margin`: \"margin\" applies to re-scoring: it needs \"choose\": \"reactive\" or \"every\": <seconds>"],
        "{e:?}"
    );
    let e = bad(json!({}), json!([{"consider": "s1"}, {"consider": "s2"}]));
    assert_eq!(
        e,
        ["at `scores`: 2 scores for 1 children: give one score per child"],
        "{e:?}"
    );
    let e = bad(
        json!({}),
        json!([{"consider": "s1", "curve": {"curve": "piecewise", "points": [[1, 0], [0, 1]]}}]),
    );
    assert_eq!(
        e,
        [
            "at `scores[0].curve`: a piecewise curve's points must be in strictly increasing x: point 1 is not after point 0"
        ],
        "{e:?}"
    );
}

#[test]
fn saved_mid_choice_and_loaded_an_agent_keeps_its_choice() {
    let def = load(three(json!({"choose": "reactive", "margin": 0.1})));
    let (mut t, mut c) = (Agent::new(def.clone()), Ctx::new());
    c.score("s1", 0.2).score("s2", 0.7);
    c.set("a", R).set("b", R).set("c", R);
    t.tick_at(&mut c, 0.0);
    assert_eq!(c.take(), log(&["enter b", "b"]));
    let saved = serde_json::to_string(&t).unwrap();
    let mut loaded = Agent::load(def, &mut serde_json::Deserializer::from_str(&saved)).unwrap();
    c.score("s1", 0.75);
    assert_eq!(loaded.tick_at(&mut c, 1.0), R);
    assert_eq!(c.take(), log(&["b"]), "0.75 is within the margin of the running 0.7");
    c.score("s1", 0.9);
    loaded.tick_at(&mut c, 2.0);
    assert_eq!(c.take(), log(&["halt b", "enter a", "a"]));
}

#[test]
fn every_scoring_is_reported_to_the_observer_after_the_entry_and_before_a_halt() {
    let (mut t, mut c) = (agent(three(json!({"choose": "reactive"}))), Ctx::new());
    c.score("s1", 0.5).score("s2", 0.25);
    c.set("a", R).set("b", R).set("c", R);
    let mut obs = Scores::default();
    t.tick_observed(&mut c, 0.0, &mut obs);
    assert_eq!(obs.0, ["enter 0", "0 0 0.5", "0 1 0.25", "0 2 0", "enter 1"]);
    obs.0.clear();
    c.score("s2", 0.75);
    t.tick_observed(&mut c, 1.0, &mut obs);
    assert_eq!(
        obs.0,
        ["0 0 0.5", "0 1 0.75", "0 2 0", "halt 1", "enter 2"],
        "the reactive form scores every tick"
    );
}

#[test]
fn interval_scores_on_entry_then_at_most_every_d_seconds_switching_past_the_margin() {
    let (mut t, mut c) = (agent(three(json!({"every": 1.0, "margin": 0.1}))), Ctx::new());
    c.score("s1", 0.5).score("s2", 0.2);
    c.set("a", R).set("b", R).set("c", R);
    let mut obs = Scores::default();
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut obs), R);
    assert_eq!(c.take(), log(&["enter a", "a"]));
    assert_eq!(obs.0, ["enter 0", "0 0 0.5", "0 1 0.2", "0 2 0", "enter 1"]);
    obs.0.clear();
    c.score("s2", 0.9);
    for now in [0.5, 0.99] {
        assert_eq!(t.tick_observed(&mut c, now, &mut obs), R);
        assert_eq!(c.take(), log(&["a"]), "at {now}: less than 1 s since the last scoring");
        assert_eq!(obs.0, Vec::<String>::new(), "at {now}: nothing scored");
    }
    assert_eq!(t.tick_observed(&mut c, 1.0, &mut obs), R);
    assert_eq!(
        c.take(),
        log(&["halt a", "enter b", "b"]),
        "1 s on: re-scored, 0.9 beats 0.5 past the margin, switched in the same tick"
    );
    assert_eq!(obs.0, ["0 0 0.5", "0 1 0.9", "0 2 0", "halt 1", "enter 2"]);
    c.score("s1", 0.95);
    t.tick_at(&mut c, 2.0);
    assert_eq!(c.take(), log(&["b"]), "0.95 is within the margin of the running 0.9");
    c.score("s1", 0.0).score("s2", 0.0);
    assert_eq!(t.tick_at(&mut c, 2.5), R);
    assert_eq!(c.take(), log(&["b"]), "scores are not read between scorings");
    assert_eq!(t.tick_at(&mut c, 3.0), F, "none above zero at the scoring");
    assert_eq!(c.take(), log(&["halt b"]));
    c.score("s3", 0.3);
    assert_eq!(t.tick_at(&mut c, 3.25), R);
    assert_eq!(
        c.take(),
        log(&["enter c", "c"]),
        "an entry always scores, however soon after the last scoring"
    );
}

#[test]
fn interval_completes_with_its_child_and_scores_again_on_the_next_entry() {
    let (mut t, mut c) = (agent(three(json!({"every": 1.0, "margin": 0.1}))), Ctx::new());
    c.score("s1", 0.5).score("s2", 0.2);
    c.set("a", R).set("b", R).set("c", R);
    t.tick_at(&mut c, 0.0);
    c.set("a", S);
    c.score("s1", 0.1).score("s2", 0.9);
    assert_eq!(t.tick_at(&mut c, 0.25), S, "the chosen child's status");
    assert_eq!(c.take(), log(&["enter a", "a", "a"]));
    assert_eq!(t.tick_at(&mut c, 0.5), R);
    assert_eq!(c.take(), log(&["enter b", "b"]), "entered again: scored again");
}

#[test]
fn interval_wakes_at_the_sooner_of_its_next_scoring_and_its_childs_wake() {
    let sleeper = |every: f64| {
        utility(
            json!({"every": every}),
            vec![consider("s1"), consider("s2")],
            vec![json!({"type": "wait", "seconds": 2.0}), act("b")],
        )
    };
    let (mut t, mut c) = (agent(sleeper(0.5)), Ctx::new());
    c.score("s1", 0.9).score("s2", 0.1).set("b", R);
    t.tick_at(&mut c, 10.0);
    assert!(
        matches!(t.next_wake(10.0), Wake::At(w) if w > 10.49 && w <= 10.5),
        "the next scoring at 10.5 comes before the wait's end at 12: {:?}",
        t.next_wake(10.0)
    );
    t.tick_at(&mut c, 10.5);
    assert!(matches!(t.next_wake(10.5), Wake::At(w) if w > 10.99 && w <= 11.0));
    let (mut t, mut c) = (agent(sleeper(5.0)), Ctx::new());
    c.score("s1", 0.9).score("s2", 0.1);
    t.tick_at(&mut c, 10.0);
    assert!(
        matches!(t.next_wake(10.0), Wake::At(w) if w > 11.99 && w <= 12.0),
        "the wait's end at 12 comes before the next scoring at 15"
    );
    let (mut t, mut c) = (agent(sleeper(0.5)), Ctx::new());
    c.score("s1", 0.1).score("s2", 0.9).set("b", R);
    t.tick_at(&mut c, 10.0);
    assert_eq!(t.next_wake(10.0), Wake::NextTick, "an action runs: its wake");
}

#[test]
fn interval_keeps_its_last_scoring_time_across_save_and_load() {
    let def = load(three(json!({"every": 1.0, "margin": 0.1})));
    let (mut t, mut c) = (Agent::new(def.clone()), Ctx::new());
    c.score("s1", 0.5).score("s2", 0.2);
    c.set("a", R).set("b", R).set("c", R);
    t.tick_at(&mut c, 10.0);
    t.tick_at(&mut c, 10.5);
    assert_eq!(c.take(), log(&["enter a", "a", "a"]));
    let saved = serde_json::to_string(&t).unwrap();
    c.score("s2", 0.9);
    let mut loaded = Agent::load(def.clone(), &mut serde_json::Deserializer::from_str(&saved)).unwrap();
    loaded.tick_at(&mut c, 10.75);
    assert_eq!(c.take(), log(&["a"]), "last scored at 10, as saved: not due");
    loaded.tick_at(&mut c, 11.0);
    assert_eq!(c.take(), log(&["halt a", "enter b", "b"]), "due at 11");
    // A clock that restarted: the time moves with the others.
    let mut resumed = serde::de::DeserializeSeed::deserialize(
        behaved_interp::AgentSeed::new(def.clone()).resume_at(100.0),
        &mut serde_json::Deserializer::from_str(&saved),
    )
    .unwrap();
    resumed.tick_at(&mut c, 100.25);
    assert_eq!(c.take(), log(&["a"]), "saved at 10.5, last scored at 10: due at 100.5");
    resumed.tick_at(&mut c, 100.5);
    assert_eq!(c.take(), log(&["halt a", "enter b", "b"]));
    // A last scoring after the save is an impossible state, refused at load.
    let after = saved.replace("10.0", "10.75");
    assert_ne!(after, saved);
    let e = Agent::load(def, &mut serde_json::Deserializer::from_str(&after))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("started at 10.75, after the state was saved"), "{e}");
}

#[test]
fn interval_load_errors_name_the_json_path() {
    for (every, why) in [
        (
            json!(0),
            "at `every`: \"every\" must be a number of seconds > 0, found the number 0",
        ),
        (
            json!(-1.5),
            "at `every`: \"every\" must be a number of seconds > 0, found the number -1.5",
        ),
        (
            json!("1"),
            "at `every`: \"every\" must be a number of seconds > 0, found ",
        ),
    ] {
        let e = errors(&three(json!({"every": every})).to_string());
        assert!(e[0].starts_with(why), "{e:?}");
    }
    let e = errors(&three(json!({"choose": "reactive", "every": 1.0})).to_string());
    assert!(
        e[0].starts_with("at `every`: \"every\" is a way of choosing of its own"),
        "{e:?}"
    );
}

#[test]
fn each_scores_parts_come_before_its_score_labelled_by_name_and_curve() {
    let tree = utility(
        json!({"choose": "reactive"}),
        vec![
            json!({"all": [{"consider": "s1", "curve": {"curve": "linear", "slope": 0.5, "intercept": 0}}, {"consider": "s2", "weight": 2}], "weight": 3}),
            json!({"consider": "s2", "weight": 0.5}),
            consider("s3"),
        ],
        vec![act("a"), act("b"), act("c")],
    );
    let (mut t, mut c) = (agent(tree), Ctx::new());
    c.score("s1", 0.5).score("s2", 0.25).score("s3", 0.125);
    c.set("a", R).set("b", R).set("c", R);
    let mut obs = Parts::default();
    t.tick_observed(&mut c, 0.0, &mut obs);
    let product = behaved_runtime::utility::compensated(&[0.25, 0.5]) * 3.0;
    assert_eq!(
        obs.0,
        [
            "0 0.0 s1 (linear) = 0.25".to_string(),
            "0 0.1 s2 × 2 = 0.5".into(),
            format!("0 0 {product}"),
            "0 1.0 s2 × 0.5 = 0.125".into(),
            "0 1 0.125".into(),
            "0 2.0 s3 = 0.125".into(),
            "0 2 0.125".into(),
        ],
        "as the compiled form's tests/utility.rs reports them: a product's factors after their own \
         curve and weight, anything else one part, each child's parts just before its score"
    );
    obs.0.clear();
    c.score("s2", 0.5);
    t.tick_observed(&mut c, 1.0, &mut obs);
    assert_eq!(obs.0[1], "0 0.1 s2 × 2 = 1", "re-scored: the parts again");
    let mut quiet = Scores::default();
    t.tick_observed(&mut c, 2.0, &mut quiet);
    assert_eq!(
        quiet.0.len(),
        3,
        "an observer that does not consider gets scores only: {:?}",
        quiet.0
    );
}

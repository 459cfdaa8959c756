//! `pick` interpreted (`SEMANTICS.md#pick`), tick by tick, with the same
//! rules as the compiled form's `tests/pick.rs`: candidates from a
//! registered list read and scored once on entry (at most `max`; each
//! selected in the context, where the considerations read it), the best one
//! selected for the body (the first on ties; none above zero: `Failure`
//! without ticking the body), no re-pick while the body runs, halting, the
//! wake, the work figure, the observer's scores, save and load, and the
//! loader's errors at their JSON paths.
use behaved_interp::{Agent, NoParams, Registry};
use behaved_runtime::{Status, Wake};
use behaved_testkit::camp::{Attack, Camp, Health, Targets};
use behaved_testkit::pick;
use behaved_testkit::script::{Parts, Scores, log};
use serde_json::json;

use Status::Success as S;

fn registry() -> Registry<Camp> {
    let mut r = Registry::new();
    r.list("targets", |_: NoParams| Targets)
        .consideration("health", |_: NoParams| Health)
        .action("attack", |_: NoParams| Attack);
    r
}

/// The weakest target still standing: health through a piecewise curve
/// (0 at 0, 1 just above 0, falling to 0 at full health).
fn weakest(max: u32, child: serde_json::Value) -> serde_json::Value {
    json!({"type": "pick", "items": "targets", "max": max,
           "score": {"consider": "health", "curve": {"curve": "piecewise", "points": [[0, 0], [0.001, 1], [1, 0]]}},
           "child": child})
}

fn attack() -> serde_json::Value {
    json!({"type": "action", "action": "attack"})
}

fn agent(tree: serde_json::Value) -> Agent<Camp> {
    Agent::new(registry().load(&tree.to_string()).unwrap())
}

#[test]
fn on_entry_every_candidate_is_scored_and_the_best_runs_the_first_on_ties() {
    pick::best_runs_the_first_on_ties(agent(weakest(3, attack())));
}

#[test]
fn at_most_max_candidates_are_read() {
    pick::reads_at_most_max_candidates(agent(weakest(3, attack())));
}

#[test]
fn no_candidate_above_zero_fails_without_ticking_the_body() {
    pick::fails_with_no_candidate_above_zero(|| agent(weakest(3, attack())));
}

#[test]
fn halting_halts_the_body_with_the_candidate_selected_and_the_wake_is_the_bodys() {
    let waiting = json!({"type": "sequence", "children": [{"type": "wait", "seconds": 2.0}, attack()]});
    let (mut t, mut c) = (
        agent(weakest(4, waiting.clone())),
        Camp::with_health(&[3, 4], [0.0, 0.0, 0.0, 0.5, 0.7, 0.0, 0.0, 0.0]),
    );
    t.tick_at(&mut c, 10.0);
    assert!(matches!(t.next_wake(10.0), Wake::At(w) if w > 11.99 && w <= 12.0));
    c.status = S;
    assert_eq!(t.tick_at(&mut c, 12.0), S);
    assert_eq!(c.take(), log(&["attack 3"]), "3 (0.5 left) is weaker than 4 (0.7)");
    let (mut t, mut c) = (
        agent(weakest(4, attack())),
        Camp::with_health(&[3, 4], [0.0, 0.0, 0.0, 0.5, 0.7, 0.0, 0.0, 0.0]),
    );
    t.tick_at(&mut c, 0.0);
    c.target = 0;
    t.reset(&mut c);
    assert_eq!(
        c.take(),
        log(&["attack 3", "halt 3"]),
        "the halt sees the chosen candidate"
    );
    assert!(!t.is_running());
}

#[test]
fn the_work_figure_is_reading_one_score_per_candidate_and_the_body() {
    assert_eq!(
        registry().load(&weakest(3, attack()).to_string()).unwrap().tick_work(),
        1 + 3 + 1
    );
}

#[test]
fn each_candidates_parts_come_before_its_score_a_products_factors_by_name_and_curve() {
    let tree = json!({"type": "pick", "items": "targets", "max": 4,
        "score": {"all": [{"consider": "health", "curve": {"curve": "linear", "slope": 1, "intercept": 0}},
                          {"consider": "health", "weight": 0.5}], "weight": 2},
        "child": attack()});
    let (mut t, mut c) = (
        agent(tree),
        Camp::with_health(&[5, 2], [0.0, 0.0, 0.75, 0.0, 0.0, 0.5, 0.0, 0.0]),
    );
    let mut obs = Parts(Vec::new());
    t.tick_observed(&mut c, 0.0, &mut obs);
    let score = |h: f32| behaved_runtime::utility::compensated(&[h, h * 0.5]) * 2.0;
    assert_eq!(
        obs.0,
        [
            "0 0.0 health (linear) = 0.5".to_string(),
            "0 0.1 health × 0.5 = 0.25".into(),
            format!("0 0 {}", score(0.5)),
            "0 1.0 health (linear) = 0.75".into(),
            "0 1.1 health × 0.5 = 0.375".into(),
            format!("0 1 {}", score(0.75)),
        ],
        "as utility's children's parts, each candidate's just before its score"
    );
    assert_eq!(c.take(), ["attack 2"]);
    let (mut t, mut c) = (
        agent(weakest(3, attack())),
        Camp::with_health(&[5], [0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0]),
    );
    let mut obs = Parts(Vec::new());
    t.tick_observed(&mut c, 0.0, &mut obs);
    assert_eq!(obs.0.len(), 2, "{:?}", obs.0);
    assert_eq!(
        obs.0[0], "0 0.0 health (piecewise) = 0.5005005",
        "one consideration: one part"
    );
}

#[test]
fn each_candidates_score_is_reported_after_the_entry_in_candidate_order() {
    let (mut t, mut c) = (
        agent(weakest(3, attack())),
        Camp::with_health(&[5, 2], [0.0, 0.0, 0.75, 0.0, 0.0, 0.5, 0.0, 0.0]),
    );
    let mut obs = Scores::default();
    t.tick_observed(&mut c, 0.0, &mut obs);
    assert_eq!(obs.0.len(), 4, "{:?}", obs.0);
    assert_eq!((obs.0[0].as_str(), obs.0[3].as_str()), ("enter 0", "enter 1"));
    assert!(
        obs.0[1].starts_with("0 0 0.50") && obs.0[2].starts_with("0 1 0.25"),
        "{:?}",
        obs.0
    );
    obs.0.clear();
    t.tick_observed(&mut c, 1.0, &mut obs);
    assert_eq!(obs.0, Vec::<String>::new(), "scored only on entry");
}

#[test]
fn saved_mid_body_and_loaded_it_keeps_its_candidates_and_choice() {
    let def = registry().load(&weakest(3, attack()).to_string()).unwrap();
    pick::keeps_its_choice_when_saved_and_loaded(Agent::new(def.clone()), |t| {
        let saved = serde_json::to_string(t).unwrap();
        Agent::load(def, &mut serde_json::Deserializer::from_str(&saved)).unwrap()
    });
}

#[test]
fn load_errors_name_the_json_path() {
    let errors = |tree: serde_json::Value| match registry().load(&tree.to_string()) {
        Ok(_) => panic!("{tree} loaded"),
        Err(e) => e.to_string(),
    };
    let e = errors(json!({"type": "pick", "items": "targets", "max": 3, "child": attack()}));
    assert!(e.contains("\"pick\" needs \"score\""), "{e}");
    let e = errors(json!({"type": "pick", "items": "targets", "score": {"consider": "health"}, "child": attack()}));
    assert!(e.contains("\"pick\" needs \"max\""), "{e}");
    let e =
        errors(json!({"type": "pick", "items": "nope", "max": 3, "score": {"consider": "health"}, "child": attack()}));
    assert!(e.contains("at `items`") && e.contains("nope"), "{e}");
    let e =
        errors(json!({"type": "pick", "items": "targets", "max": 3, "score": {"consider": "nope"}, "child": attack()}));
    assert!(
        e.contains("at `score.consider`") && e.contains("unknown consideration type \"nope\""),
        "{e}"
    );
    let e = errors(json!({"type": "pick", "items": "targets", "max": 3, "score": 1.5, "child": attack()}));
    assert!(e.contains("at `score`") && e.contains("expected a score"), "{e}");
}

//! A JSON tree compiled by `behave!` and loaded by the interpreter, with the
//! leaves where the two forms used to differ (issue 14, item 11): hook actions
//! that keep state, and leaves whose parameters are a nested object
//! (ADR-017's `moveTo` target `{x, y, z}`), an enum, and a serde default.
//! Both forms must give the same statuses, observer events and leaf events on
//! every tick of the standard script, reset included (`SEMANTICS.md#hooks`:
//! one hook value per tree instance).
#![allow(missing_docs)]

use behaved::prelude::*;
use behaved_interp::Registry;
use difftest::{Ctx, Step, run_compiled, run_interpreted};
use serde::Deserialize;

/// A hook action with state: it counts its calls and logs the count, so a
/// hook rebuilt on every call (always 1) differs from one kept for the life
/// of the tree (1, 2, 3, ..).
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Tally {
    id: u32,
    #[serde(skip)]
    calls: u32,
}

impl Action<Ctx> for Tally {
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        self.calls += 1;
        ctx.log.push(format!("tally{}:{}", self.id, self.calls));
        Status::Success
    }
}

/// A condition driven by the context's script.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Gate {
    id: u32,
}

impl Condition<Ctx> for Gate {
    fn check(&self, ctx: &Ctx) -> bool {
        ctx.inline_check(self.id)
    }
}

#[derive(Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
struct Point {
    x: i32,
    y: i32,
    z: i32,
}

#[derive(Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase")]
enum Gait {
    Walk,
    Run,
    Crawl { speed: u32 },
}

fn two() -> u32 {
    2
}

/// ADR-017's `moveTo`, with a nested target and an enum: walks `steps` ticks
/// (2 unless the file says), logging where it goes and how.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveTo {
    id: u32,
    target: Point,
    gait: Gait,
    #[serde(default = "two")]
    steps: u32,
    #[serde(skip)]
    walked: u32,
}

impl Action<Ctx> for MoveTo {
    fn enter(&mut self, ctx: &mut Ctx) {
        self.walked = 0;
        ctx.log.push(format!("e{}", self.id));
    }
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        self.walked += 1;
        let Point { x, y, z } = self.target;
        let gait = match self.gait {
            Gait::Walk => String::from("walk"),
            Gait::Run => String::from("run"),
            Gait::Crawl { speed } => format!("crawl at {speed}"),
        };
        ctx.log
            .push(format!("t{} {gait} to ({x}, {y}, {z}), step {}", self.id, self.walked));
        if self.walked >= self.steps {
            Status::Success
        } else {
            Status::Running
        }
    }
    fn halt(&mut self, ctx: &mut Ctx) {
        ctx.log.push(format!("h{}", self.id));
    }
}

/// A patrol with an optional speed, and no `deny_unknown_fields`: serde
/// alone would ignore a misspelt `speed`.
#[derive(Clone, Deserialize)]
struct Patrol {
    route: u32,
    #[serde(default)]
    speed: u32,
}

impl Action<Ctx> for Patrol {
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        ctx.log.push(format!("patrol {} at {}", self.route, self.speed));
        Status::Success
    }
}

/// Takes any other field into `rest` (`#[serde(flatten)]`): it opts out of
/// the check of unknown parameters.
#[derive(Clone, Deserialize)]
struct Notes {
    route: u32,
    #[serde(flatten)]
    rest: serde_json::Map<String, serde_json::Value>,
}

impl Action<Ctx> for Notes {
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        let keys: Vec<&String> = self.rest.keys().collect();
        ctx.log.push(format!("notes {} {keys:?}", self.route));
        Status::Success
    }
}

behave! {
    tree Misspelt for Ctx = json("tests/trees/misspelt_parameter.json") {
        "patrol" => Patrol,
    }

    tree Extra for Ctx = json("tests/trees/extra_parameters.json") {
        "notes" => Notes,
    }

    tree Compiled for Ctx = json("tests/trees/json_leaves.json") {
        "tally" => Tally,
        "gate" => Gate,
        "moveTo" => MoveTo,
    }

    tree BadParameter for Ctx = json("tests/trees/bad_parameter.json") {
        "moveTo" => MoveTo,
    }
}

fn registry() -> Registry<Ctx> {
    let mut r = Registry::new();
    r.action("tally", |t: Tally| t)
        .condition("gate", |g: Gate| g)
        .action("moveTo", |m: MoveTo| m);
    r
}

fn interpreted(seed: u64) -> Vec<Step> {
    let def = registry().load(include_str!("trees/json_leaves.json")).unwrap();
    assert_eq!(def.tick_work(), Compiled::TICK_WORK, "work per tick");
    let rows: Vec<_> = def.nodes().iter().map(|r| (r.id, r.parent, r.kind)).collect();
    let compiled: Vec<_> = Compiled::NODES.iter().map(|r| (r.id, r.parent, r.kind)).collect();
    assert_eq!(compiled, rows, "node tables");
    run_interpreted(&def, seed)
}

#[test]
fn stateful_hooks_and_structured_parameters_agree_tick_by_tick() {
    let mut logs = Vec::new();
    for seed in 0..40 {
        let (compiled, interpreted) = (run_compiled::<Compiled>(seed), interpreted(seed));
        assert_eq!(compiled.len(), interpreted.len());
        for (i, (c, t)) in compiled.iter().zip(&interpreted).enumerate() {
            assert_eq!(c, t, "seed {seed}, step {i}");
        }
        logs.extend(compiled.into_iter().flat_map(|s| s.log));
    }
    // The script reaches what the test is about: hooks called again and
    // again, and both walks with the parameters of the file.
    for needle in [
        "tally0:2",
        "tally4:3",
        "tally5:3",
        "tally6:2",
        "t1 run to (1, -2, 3), step 2",
        "t2 crawl at 2 to (0, 0, -7), step 2",
    ] {
        assert!(logs.iter().any(|l| l == needle), "`{needle}` never logged");
    }
}

#[test]
fn a_hook_action_lives_as_long_as_its_tree() {
    let (mut tree, mut ctx) = (Compiled::new(), Ctx::default());
    for t in 0..6 {
        ctx.tick = t;
        tree.tick_at(&mut ctx, t as f64);
        tree.reset(&mut ctx);
    }
    let entered: Vec<_> = ctx.log.iter().filter(|l| l.starts_with("tally0:")).collect();
    assert_eq!(
        entered,
        ["tally0:1", "tally0:2", "tally0:3", "tally0:4", "tally0:5", "tally0:6"]
    );
    // A new tree has new hooks, as a new agent has.
    let mut ctx = Ctx::default();
    Compiled::new().tick_at(&mut ctx, 0.0);
    assert_eq!(ctx.log.first().map(String::as_str), Some("tally0:1"));
}

#[test]
#[should_panic(
    expected = "tests/trees/bad_parameter.json: children[0].action: the parameters do not make a `json_leaves::MoveTo`: missing field `z`"
)]
fn parameters_that_do_not_fit_their_type_name_the_file_and_path() {
    let _ = BadParameter::new();
}

#[test]
fn the_interpreter_rejects_the_same_parameters() {
    let Err(err) = registry().load(include_str!("trees/bad_parameter.json")) else {
        panic!("a load error");
    };
    let err = err.to_string();
    assert!(
        err.contains("children[0].action") && err.contains("missing field `z`"),
        "{err}"
    );
}

/// The message both forms give for a misspelt optional parameter.
const MISSPELT: &str = "unknown parameter `spped` of leaf `patrol`, did you mean `speed`? \
                        (its parameters: `route`, `speed`)";

#[test]
fn a_misspelt_optional_parameter_is_an_error_in_the_compiled_form() {
    let Err(panic) = std::panic::catch_unwind(Misspelt::new) else {
        panic!("a misspelt parameter must not build");
    };
    let message = panic.downcast_ref::<String>().expect("a formatted panic");
    assert_eq!(
        message,
        &format!(
            "tests/trees/misspelt_parameter.json: children[0].action: the parameters do not make a \
             `json_leaves::Patrol`: {MISSPELT}"
        )
    );
}

#[test]
fn a_misspelt_optional_parameter_is_an_error_in_the_interpreter() {
    let mut r = Registry::<Ctx>::new();
    r.action("patrol", |p: Patrol| p);
    let err = r.load(include_str!("trees/misspelt_parameter.json")).unwrap_err();
    assert_eq!(
        err.messages(),
        [format!(
            "at `children[0].action`: bad parameters for action \"patrol\": {MISSPELT}"
        )]
    );
    assert_eq!(
        err.to_string(),
        format!("at `children[0].action` (line 4, column 25): bad parameters for action \"patrol\": {MISSPELT}")
    );
}

#[test]
fn a_leaf_that_takes_the_rest_accepts_any_parameter_in_both_forms() {
    let mut ctx = Ctx::default();
    assert_eq!(Extra::new().tick_at(&mut ctx, 0.0), Status::Success);
    let mut r = Registry::<Ctx>::new();
    r.action("notes", |n: Notes| n);
    let def = r.load(include_str!("trees/extra_parameters.json")).unwrap();
    let mut interp_ctx = Ctx::default();
    assert_eq!(
        behaved_interp::Agent::new(def).tick_at(&mut interp_ctx, 0.0),
        Status::Success
    );
    assert_eq!(ctx.log, ["notes 2 [\"comment\"]"]);
    assert_eq!(interp_ctx.log, ctx.log);
}

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

behave! {
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

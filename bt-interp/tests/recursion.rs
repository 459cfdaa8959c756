//! Recursive subtrees, tick by tick: a subtree that refers to itself is
//! inlined up to `Registry::max_recursion` levels inside itself; the
//! reference one level deeper fails when reached. Rules:
//! `SEMANTICS.md#recursion`.
use behaved_interp::Library;
use behaved_interp::{Agent, NoParams, Registry};
use behaved_runtime::{Action, Condition, NodeKind, Status};
use serde_json::json;

/// A count to bring down to zero, one recursion level per unit.
#[derive(Default)]
struct Ctx {
    count: u32,
    log: Vec<String>,
}

struct Zero;
impl Condition<Ctx> for Zero {
    fn check(&self, c: &Ctx) -> bool {
        c.count == 0
    }
}

/// Takes one tick: `Running` on entry, then takes one off the count.
#[derive(Clone, Default)]
struct Dec(bool);
impl Action<Ctx> for Dec {
    fn enter(&mut self, _: &mut Ctx) {
        self.0 = false;
    }
    fn tick(&mut self, c: &mut Ctx) -> Status {
        if !self.0 {
            self.0 = true;
            return Status::Running;
        }
        c.count -= 1;
        c.log.push(format!("dec to {}", c.count));
        Status::Success
    }
}

#[derive(Clone)]
struct Note(&'static str);
impl Action<Ctx> for Note {
    fn tick(&mut self, c: &mut Ctx) -> Status {
        c.log.push(self.0.to_string());
        Status::Success
    }
}

fn registry(max_recursion: usize) -> Registry<Ctx> {
    let mut r = Registry::new();
    r.condition("zero", |_: NoParams| Zero)
        .action("dec", |_: NoParams| Dec::default())
        .action("back", |_: NoParams| Note("back"))
        .max_recursion(max_recursion);
    r
}

/// `down`: done at zero, else take one off and go `down` again.
fn library() -> Library {
    let mut lib = Library::new();
    lib.insert_json(
        "down",
        &json!({"type": "selector", "children": [
            {"type": "condition", "condition": "zero"},
            {"type": "sequence", "children": [
                {"type": "action", "action": "dec"},
                {"type": "subtree", "subtreeId": "down", "onExit": "back"}]}]})
        .to_string(),
    )
    .unwrap();
    lib
}

const ROOT: &str = r#"{"type": "subtree", "subtreeId": "down"}"#;

#[test]
fn without_a_bound_recursion_is_a_cycle_error() {
    let e = registry(0).load_with(ROOT, &library()).unwrap_err();
    assert_eq!(
        e.messages(),
        [
            "at `subtrees[\"down\"].children[1].children[1].subtreeId`: subtree cycle: \"down\" -> \"down\"; \
             a recursive subtree needs a depth bound: `Registry::max_recursion(n)` lets a subtree nest inside itself n times"
        ]
    );
}

#[test]
fn a_recursive_subtree_is_inlined_up_to_the_bound_then_cut() {
    let def = registry(3).load_with(ROOT, &library()).unwrap();
    let subtrees: Vec<&str> = def
        .nodes()
        .iter()
        .filter(|r| r.kind == NodeKind::Subtree)
        .map(|r| r.label.as_str())
        .collect();
    // The root reference and three levels inside itself, then the cut.
    assert_eq!(subtrees.len(), 5, "{subtrees:?}");
    assert!(subtrees[..4].iter().all(|l| !l.contains("recursion limit")));
    assert!(subtrees[4].ends_with("(recursion limit: fails)"), "{}", subtrees[4]);
    // Still a fixed table with a bounded work per tick.
    assert!(def.tick_work() < 100);
}

/// The root tree, loaded with at most `max_recursion` levels inside itself,
/// and a context whose count is `count`.
fn root_agent(max_recursion: usize, count: u32) -> (Agent<Ctx>, Ctx) {
    let def = registry(max_recursion).load_with(ROOT, &library()).unwrap();
    let ctx = Ctx { count, log: Vec::new() };
    (Agent::new(def), ctx)
}

/// Each level runs one `dec` (two ticks) and recurses; the way back runs
/// each level's exit hook, innermost first.
#[test]
fn recursion_within_the_bound_runs_level_by_level() {
    let (mut agent, mut ctx) = root_agent(3, 3);
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(agent.tick_at(&mut ctx, 0.0));
    }
    use Status::{Running, Success};
    // Each `dec` is Running on entry, and the next level's starts in the
    // same tick as the previous one ends; at zero the root succeeds at once.
    assert_eq!(statuses, [Running, Running, Running, Success, Success]);
    assert_eq!(
        ctx.log,
        ["dec to 2", "dec to 1", "dec to 0", "back", "back", "back"],
        "three levels down, then back up through each level's exit hook"
    );
}

/// Deeper than the bound, the cut reference fails, and the failure comes
/// back up through every level.
#[test]
fn recursion_past_the_bound_fails_at_the_cut() {
    let (mut agent, mut ctx) = root_agent(2, 5);
    let mut last = Status::Running;
    for _ in 0..10 {
        last = agent.tick_at(&mut ctx, 0.0);
        if last != Status::Running {
            break;
        }
    }
    assert_eq!(last, Status::Failure);
    assert_eq!(
        ctx.count, 2,
        "three levels ran (the root's and two nested), the fourth was cut"
    );
    // The cut reference keeps its exit hook: three levels' hooks run.
    assert_eq!(ctx.log, ["dec to 4", "dec to 3", "dec to 2", "back", "back", "back"]);
}

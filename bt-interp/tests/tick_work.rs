//! The work bound (SEMANTICS.md#work-per-tick): the loader's figure for each
//! kind of node, that it is an upper bound a tick can reach, and that a tree
//! above the limit does not load, with the figure at the node's path.
mod support;

use behaved_interp::Registry;
use behaved_runtime::catalog::{Slots, Work};
use behaved_runtime::{NodeKind, Status};
use serde_json::{Value, json};
use support::*;

fn work(tree: Value) -> u64 {
    load(tree).tick_work()
}

fn repeat(n: u64, child: Value) -> Value {
    json!({"type": "repeater", "count": n, "child": child})
}

/// Leaf ticks in the log since the last call (not enters or halts).
fn leaf_ticks(ctx: &mut Ctx) -> usize {
    ctx.take()
        .iter()
        .filter(|e| !e.starts_with("enter ") && !e.starts_with("halt "))
        .count()
}

#[test]
fn each_kind_adds_or_multiplies_its_children() {
    assert_eq!(work(act("a")), 1);
    assert_eq!(work(many("sequence", vec![act("a"), cond("c1"), act("b")])), 3);
    assert_eq!(work(many("reactiveSelector", vec![act("a"), act("b")])), 2);
    assert_eq!(
        work(json!({"type": "parallel", "policy": "requireAll", "children": [act("a"), act("b")]})),
        2
    );
    // One child is chosen.
    assert_eq!(
        work(many(
            "random",
            vec![act("a"), many("sequence", vec![act("a"), act("b")])]
        )),
        2
    );
    // Every condition, and the largest branch.
    let iff = json!({"type": "if", "branches": [
        {"if": cond("c1"), "then": many("sequence", vec![act("a"), act("b"), act("c")])},
        {"if": cond("c2"), "then": act("d")}
    ], "else": many("sequence", vec![act("e"), act("f")])});
    assert_eq!(work(iff), 2 + 3);
    let matched = json!({"type": "match", "value": "mode", "cases": [
        {"when": "x", "child": many("sequence", vec![act("a"), act("b")])}
    ], "default": act("c")});
    assert_eq!(work(matched), 1 + 2);
    // Bounded loops multiply; unbounded ones run at most two iterations.
    assert_eq!(work(repeat(3, many("sequence", vec![act("a"), act("b")]))), 6);
    assert_eq!(work(repeat(4, repeat(5, act("a")))), 20);
    assert_eq!(work(json!({"type": "loop", "child": repeat(3, act("a"))})), 6);
    assert_eq!(
        work(json!({"type": "while", "condition": cond("c1"), "child": act("a")})),
        4
    );
    assert_eq!(
        work(json!({"type": "abortIf", "condition": cond("c1"), "child": act("a")})),
        2
    );
    assert_eq!(
        work(json!({"type": "latch", "condition": cond("c1"), "child": repeat(2, act("a"))})),
        3
    );
    assert_eq!(
        work(many(
            "sequenceAlways",
            vec![act("a"), json!({"type": "waitUntil", "condition": "c1"})]
        )),
        2
    );
    // Decorators pass the child's figure on; hooks add one each.
    assert_eq!(work(json!({"type": "inverter", "child": repeat(7, act("a"))})), 7);
    assert_eq!(
        work(json!({"type": "succeeder", "onEnter": {"type": "log", "msg": "in"},
                    "onExit": {"type": "log", "msg": "out"}, "child": act("a")})),
        3
    );
}

#[test]
fn a_subtree_counts_as_its_body() {
    let mut lib = behaved_interp::Library::new();
    lib.insert_json("twice", &repeat(2, act("a")).to_string()).unwrap();
    let tree = repeat(3, json!({"type": "subtree", "subtreeId": "twice"}));
    assert_eq!(load_with(tree, &lib).tick_work(), 6);
}

#[test]
fn a_tick_reaches_the_figure_and_never_more() {
    // repeater(3) of two leaves that succeed at once: six leaf ticks in one tick.
    let tree = repeat(3, many("sequence", vec![act("a"), act("b")]));
    assert_eq!(work(tree.clone()), 6);
    let mut npc = agent(tree);
    let mut ctx = Ctx::new();
    assert_eq!(npc.tick_at(&mut ctx, 0.0), Status::Success);
    assert_eq!(leaf_ticks(&mut ctx), 6);

    // A loop finishes the iteration it resumes and starts one more.
    let tree = json!({"type": "loop", "child": repeat(2, act("a"))});
    assert_eq!(work(tree.clone()), 4);
    let mut npc = agent(tree);
    let mut ctx = Ctx::new();
    ctx.set("a", Status::Running);
    assert_eq!(npc.tick_at(&mut ctx, 0.0), Status::Running);
    assert_eq!(leaf_ticks(&mut ctx), 1);
    ctx.set("a", Status::Success);
    assert_eq!(npc.tick_at(&mut ctx, 1.0), Status::Running);
    assert_eq!(
        leaf_ticks(&mut ctx),
        4,
        "the resumed repeater ends, a new one runs twice"
    );
    for t in 2..6 {
        npc.tick_at(&mut ctx, f64::from(t));
        assert!(leaf_ticks(&mut ctx) <= 4);
    }
}

#[test]
fn a_tree_above_the_limit_names_the_node_and_the_figure() {
    // The 160-byte file of the issue: three repeaters of 65,536.
    let tree = repeat(65_536, repeat(65_536, repeat(65_536, act("a"))));
    assert_eq!(
        errors(&tree.to_string()),
        [
            "at `child`: one tick can tick leaves up to 4294967296 times here (bounded loops' counts multiply), \
             above the limit of 16777216 (`Registry::max_tick_work`); lower a \"count\" or raise the limit"
        ]
    );
    // Each independent offender at its own path.
    let two = many(
        "sequence",
        vec![repeat(5_000, repeat(5_000, act("a"))), repeat(1 << 25, act("b"))],
    );
    let e = errors(&two.to_string());
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(
        e[0].starts_with("at `children[0]`: one tick can tick leaves up to 25000000 times"),
        "{e:?}"
    );
    assert!(
        e[1].starts_with("at `children[1]`: one tick can tick leaves up to 33554432 times"),
        "{e:?}"
    );
    // Many small parts that only add up to too much: the node where they meet.
    let wide = many(
        "sequence",
        vec![repeat(10_000_000, act("a")), repeat(10_000_000, act("b"))],
    );
    let e = errors(&wide.to_string());
    assert!(
        e[0].starts_with("at the root: one tick can tick leaves up to 20000000 times"),
        "{e:?}"
    );
}

#[test]
fn the_limit_is_the_registrys() {
    let tree = repeat(65_536, repeat(65_536, act("a"))).to_string();
    let mut reg = registry();
    reg.max_tick_work(1 << 32);
    let def = reg.load(&tree).unwrap();
    assert_eq!(def.tick_work(), 1 << 32);
    reg.max_tick_work(10);
    let e = reg.load(&repeat(11, act("a")).to_string()).unwrap_err();
    assert!(e.messages()[0].contains("up to 11 times here"), "{e}");
    assert!(e.messages()[0].contains("the limit of 10 "), "{e}");
    assert!(reg.load(&repeat(10, act("a")).to_string()).is_ok());
    assert_eq!(Registry::<Ctx>::DEFAULT_MAX_TICK_WORK, 1 << 24);
}

#[test]
fn the_figure_saturates_instead_of_overflowing() {
    let max = u64::from(u32::MAX);
    let tree = repeat(max, repeat(max, repeat(max, act("a"))));
    let mut reg = registry();
    reg.max_tick_work(u64::MAX - 1);
    let e = reg.load(&tree.to_string()).unwrap_err();
    assert_eq!(
        e.messages(),
        [format!(
            "at the root: one tick can tick leaves up to {} or more times here (bounded loops' counts multiply), \
             above the limit of {} (`Registry::max_tick_work`); lower a \"count\" or raise the limit",
            u64::MAX,
            u64::MAX - 1
        )]
    );
}

/// A list for `forEach`: none (the figure does not depend on the items).
struct NoItems;
impl behaved_interp::ItemList<Ctx> for NoItems {
    type Item = u32;
    fn items<'c>(&'c self, _: &'c Ctx) -> impl Iterator<Item = u32> + 'c {
        std::iter::empty()
    }
    fn select(&self, _: &mut Ctx, _: &u32) {}
}

/// A tree whose root is of `kind`, built from its catalogue facts
/// ([`sample`]) over children of known figures (3, then 1; conditions 1),
/// and the figure its work rule gives: a kind of a known shape needs no case
/// of its own here, and a new `Work` variant does not compile until it has
/// its figure.
fn case(kind: NodeKind) -> (Value, u64) {
    let parts = Parts {
        child: |i| if i == 0 { repeat(3, act("a")) } else { act("b") },
        condition: cond("c1"),
        condition_leaf: json!("c1"),
        action_leaf: json!("a"),
        list: json!("none"),
        value: json!("mode"),
        score: |_| json!({"consider": "s1"}),
        subtree: "three",
    };
    let node = sample(kind, &parts);
    let children: Vec<u64> = match kind.slots() {
        // A subtree counts as its body.
        Slots::None if kind == NodeKind::Subtree => vec![3],
        Slots::None => vec![],
        Slots::Child | Slots::ConditionChild => vec![3],
        Slots::Children | Slots::Branches | Slots::Cases => vec![3, 1],
    };
    // Conditions checked before the children: `while`'s, `abortIf`'s, an `if`'s.
    let conditions = u64::from(matches!(kind.slots(), Slots::ConditionChild | Slots::Branches));
    let (sum, largest) = (
        children.iter().sum::<u64>(),
        children.iter().copied().max().unwrap_or(0),
    );
    let figure = match kind.work() {
        Work::One => 1,
        Work::Sum => conditions + sum,
        Work::Largest => largest,
        Work::Branches => conditions + largest,
        // Reading the value, then the largest case.
        Work::Match => 1 + largest,
        Work::Times => SAMPLE_COUNT * sum,
        // Reading the items, then `max` iterations.
        Work::TimesAndRead => 1 + SAMPLE_MAX * sum,
        Work::Twice => 2 * (conditions + sum),
        // One score per child, then the largest child.
        Work::ScoresAndLargest => children.len() as u64 + largest,
        // Reading the candidates, one score each, then the body once.
        Work::ReadScoresAndBody => 1 + SAMPLE_MAX + sum,
    };
    // `break` and `continue` stand inside a `loop`: twice their figure.
    let figure = if node["type"] == "loop" && kind != NodeKind::Loop {
        2 * figure
    } else {
        figure
    };
    (node, figure)
}

/// Every kind of the catalogue has a figure here, built from its facts, and
/// each is the one its work rule gives.
#[test]
fn every_kind_of_the_catalogue_has_its_figure() {
    let mut registry = registry();
    registry.list("none", |_: behaved_interp::NoParams| NoItems);
    let mut library = behaved_interp::Library::new();
    library.insert_json("three", &repeat(3, act("a")).to_string()).unwrap();
    for &kind in NodeKind::ALL {
        let (tree, figure) = case(kind);
        let def = match registry.load_with(&tree.to_string(), &library) {
            Ok(def) => def,
            Err(e) => panic!("`{}`: {e}", kind.json_name()),
        };
        assert_eq!(def.tick_work(), figure, "the work figure of `{}`", kind.json_name());
    }
}

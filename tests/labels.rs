//! A node reads the same in both forms of a tree (`SEMANTICS.md#labels`):
//! every node kind written in the DSL and compiled by `behave!` has, row for
//! row, the label the interpreter gives the same node when it loads the
//! tree's own `Tree::JSON`: async actions, counts, durations in any unit,
//! parallel policies, `for`, `match`, `wait_until`, `weighted`, leaf
//! parameters with negative and float values, closures, loop labels.
use behaved::prelude::*;
use behaved_interp::{KeyRef, Library, MatchValue, Registry};
use serde::de::IgnoredAny;

/// The context; the tree is only loaded and listed, never ticked.
#[derive(Default)]
struct World {
    now: f64,
    hp: i32,
    stage: u8,
    cells: Vec<u8>,
}

impl Clock for World {
    fn now(&self) -> f64 {
        self.now
    }
}

/// Any action: succeeds.
#[derive(Clone)]
struct Done;
impl Action<World> for Done {
    fn tick(&mut self, _: &mut World) -> Status {
        Status::Success
    }
}

/// Any condition: holds.
struct Holds;
impl Condition<World> for Holds {
    fn check(&self, _: &World) -> bool {
        true
    }
}

/// A unit action.
struct Chase;
impl Action<World> for Chase {
    fn tick(&mut self, _: &mut World) -> Status {
        Status::Success
    }
}

/// An action with parameters of every JSON kind.
#[allow(dead_code)]
struct Move {
    dx: i32,
    dy: f64,
    speed: f32,
    name: &'static str,
    on: bool,
}
impl Action<World> for Move {
    fn tick(&mut self, _: &mut World) -> Status {
        Status::Success
    }
}

/// An action built by a constructor: its JSON form keeps the code.
struct Patrol(#[allow(dead_code)] u32);
impl Patrol {
    fn new(stops: u32) -> Patrol {
        Patrol(stops)
    }
}
impl Action<World> for Patrol {
    fn tick(&mut self, _: &mut World) -> Status {
        Status::Success
    }
}

/// An async action.
struct Fetch;

/// An async action with a negative parameter.
struct FetchFrom {
    #[allow(dead_code)]
    depot: i32,
}

/// Async actions whose future is ready at once: they succeed.
macro_rules! ready_async_actions {
    ($($action:ty),*) => {$(
        impl Task for $action {
            type Future = core::future::Ready<bool>;
        }
        impl AsyncAction<World> for $action {
            fn start(&mut self, _: &mut World) -> Self::Future {
                core::future::ready(true)
            }
            fn finish(&mut self, _: &mut World, ok: bool) -> Status {
                Status::from(ok)
            }
        }
    )*};
}

ready_async_actions!(Fetch, FetchFrom);

/// A unit condition.
struct Hungry;
impl Condition<World> for Hungry {
    fn check(&self, w: &World) -> bool {
        w.hp < 5
    }
}

/// A condition with a float parameter.
struct Near {
    radius: f64,
}
impl Condition<World> for Near {
    fn check(&self, w: &World) -> bool {
        f64::from(w.hp) < self.radius
    }
}

/// The interpreter's `match` value.
struct Stage;
impl MatchValue<World> for Stage {
    fn get<'c>(&self, w: &'c World) -> KeyRef<'c> {
        KeyRef::Int(i64::from(w.stage))
    }
}

/// The interpreter's `forEach` list.
struct Cells;
impl ItemList<World> for Cells {
    type Item = u8;
    fn items<'c>(&'c self, w: &'c World) -> impl Iterator<Item = u8> + 'c {
        w.cells.iter().copied()
    }
    fn select(&self, _: &mut World, _: &u8) {}
}

behave! {
    /// A subtree.
    tree Rest for World { wait(1.0) }

    /// Every node kind of the DSL, each in the forms a label could differ in.
    tree Everything for World {
        sequence {
            selector { cond(Hungry), fallback { failure } },
            reactive sequence { cond(|w| w.hp > 0), success },
            reactive selector { failure, success },
            sequence_always { success },
            parallel(all) { success, running },
            parallel(any) { success, running },
            parallel(success = 2, failure = 2) { success, running, failure },
            parallel(main) { wait(1.0), running },
            random { success, failure },
            weighted { 3 => success, 1 => failure },
            shuffle { success },
            if |w| w.hp > 0 { success } else if |w| w.hp < -5 { failure } else { running },
            reactive if |w| w.hp > 1 { running },
            match |w| w.stage { 1 | 2 => success, _ => failure },
            reactive match |w| w.stage { 0 => running, _ => success },
            'outer: loop { break 'outer },
            forever { break },
            repeat(3) { success },
            retry(2) { failure },
            'again: while |w| w.hp > 5 { continue 'again },
            until_fail { failure },
            until_success { success },
            'cells: for c: u8 in |w| w.cells.iter() max 4 { act(|w| w.hp += i32::from(*c)) },
            invert { success },
            force_success { failure },
            force_failure { success },
            timeout(2s) { running },
            delay(500ms) { success },
            cooldown(1.5min) { success },
            limit(2) { success },
            run_once { success },
            abort_if(|w| w.hp < 0) { running },
            latch(Hungry) { success },
            scope { let n: u32 = 0; act(|_| *n += 1) },
            wait(1.5),
            wait(2),
            wait_until(Near { radius: 2.5 }),
            wait_until(|w| w.hp > 3),
            cond(Near { radius: -1.5 }),
            Chase,
            Chase {},
            Move { dx: -10, dy: 2.5, speed: -0.25, name: "gate", on: true },
            Patrol::new(3),
            act(async Fetch),
            act(async FetchFrom { depot: -2 }),
            act(|w| w.hp -= 1),
            subtree(Rest),
            running,
        }
    }
}

/// `Everything`'s `Tree::JSON`, loaded by the interpreter.
fn interpreted() -> std::sync::Arc<behaved_interp::Definition<World>> {
    let mut r = Registry::new();
    for action in ["Chase", "Move", "Patrol", "Fetch", "FetchFrom", "inline"] {
        r.action(action, |_: IgnoredAny| Done);
    }
    for condition in ["Hungry", "Near", "inline"] {
        r.condition(condition, |_: IgnoredAny| Holds);
    }
    r.value("inline", |_: IgnoredAny| Stage)
        .list("inline", |_: IgnoredAny| Cells);
    let mut library = Library::new();
    library.insert_json("Rest", Rest::JSON).unwrap();
    r.load_with(Everything::JSON, &library)
        .unwrap_or_else(|e| panic!("{e}\n{}", Everything::JSON))
}

#[test]
fn every_node_reads_the_same_in_both_forms() {
    let def = interpreted();
    let compiled: Vec<_> = Everything::NODES
        .iter()
        .map(|n| (n.id.0, n.parent.map(|p| p.0), n.kind, n.label.to_string()))
        .collect();
    let loaded: Vec<_> = def
        .nodes()
        .iter()
        .map(|n| (n.id.0, n.parent.map(|p| p.0), n.kind, n.label.clone()))
        .collect();
    assert_eq!(compiled.len(), loaded.len(), "node count");
    let differ: Vec<String> = compiled
        .iter()
        .zip(&loaded)
        .filter(|(c, l)| c != l)
        .map(|(c, l)| format!("#{}: compiled {:?}, interpreted {:?}", c.0, c.3, l.3))
        .collect();
    assert!(
        differ.is_empty(),
        "{} nodes differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

/// The labels themselves, as `SEMANTICS.md#labels` writes them.
#[test]
fn labels_follow_the_documented_rule() {
    let labels: Vec<&str> = Everything::NODES.iter().map(|n| n.label).collect();
    let expected = [
        "sequence",
        "selector",
        "Hungry",
        "selector",
        "failure",
        "reactive sequence",
        "cond(|w| w.hp > 0)",
        "success",
        "reactive selector",
        "failure",
        "success",
        "sequence_always",
        "success",
        "parallel(all)",
        "success",
        "running",
        "parallel(any)",
        "success",
        "running",
        "parallel(success = 2, failure = 2)",
        "success",
        "running",
        "failure",
        "parallel(main)",
        "wait(1.0)",
        "running",
        "random",
        "success",
        "failure",
        "weighted(3, 1)",
        "success",
        "failure",
        "shuffle",
        "success",
        "if",
        "cond(|w| w.hp > 0)",
        "success",
        "cond(|w| w.hp < -5)",
        "failure",
        "running",
        "reactive if",
        "cond(|w| w.hp > 1)",
        "running",
        "match(|w| w.stage)",
        "success",
        "failure",
        "reactive match(|w| w.stage)",
        "running",
        "success",
        "'outer: loop",
        "break 'outer",
        "loop",
        "break",
        "repeat(3)",
        "success",
        "retry(2)",
        "failure",
        "'again: while",
        "cond(|w| w.hp > 5)",
        "continue 'again",
        "until_fail",
        "failure",
        "until_success",
        "success",
        "'cells: for(|w| w.cells.iter(), max 4)",
        "act(|w| w.hp += i32::from(*c))",
        "invert",
        "success",
        "force_success",
        "failure",
        "force_failure",
        "success",
        "timeout(2.0)",
        "running",
        "delay(0.5)",
        "success",
        "cooldown(90.0)",
        "success",
        "limit(2)",
        "success",
        "run_once",
        "success",
        "abort_if",
        "cond(|w| w.hp < 0)",
        "running",
        "latch",
        "Hungry",
        "success",
        "scope",
        "act(|_| *n += 1)",
        "wait(1.5)",
        "wait(2.0)",
        "wait_until(Near(radius: 2.5))",
        "wait_until(|w| w.hp > 3)",
        "Near(radius: -1.5)",
        "Chase",
        "Chase",
        r#"Move(dx: -10, dy: 2.5, name: "gate", on: true, speed: -0.25)"#,
        "Patrol::new(3)",
        "Fetch",
        "FetchFrom(depot: -2)",
        "act(|w| w.hp -= 1)",
        "subtree(Rest)",
        "wait(1.0)",
        "running",
    ];
    assert_eq!(labels, expected);
}

//! The differential test: every generated tree, compiled by `behave!` and
//! interpreted from JSON, must give the same status, the same observer events
//! and the same leaf events on every tick of the same script (`SEMANTICS.md`: one set of rules for both forms).
#![allow(missing_docs)]

use behaved::NodeInfo;
use behaved_interp::Library;
use difftest::*;

/// One generated tree: its forms and how to run the compiled one.
struct Case {
    name: &'static str,
    seed: u64,
    dsl: &'static str,
    json: &'static str,
    library: &'static str,
    run: fn(u64) -> Vec<Step>,
    /// Runs the compiled form, ticking only at its reported wake times.
    sleep: fn(u64) -> Vec<Option<Step>>,
    /// Runs the compiled form, saving and loading it before some ticks.
    saving: fn(u64) -> Result<Vec<Step>, String>,
    nodes: &'static [NodeInfo],
    /// `Tree::JSON` of the compiled tree, and of its subtrees by name.
    exported: &'static str,
    exported_library: &'static [(&'static str, &'static str)],
    /// `Tree::TICK_WORK` of the compiled tree.
    tick_work: u64,
}

include!(concat!(env!("OUT_DIR"), "/trees.rs"));

/// The first difference between the two runs, described for a person.
/// Fails with how many of the generated trees `failed` (each a message) and
/// the first one, if any did.
fn assert_none_failed(failures: &[String], what: &str) {
    assert!(
        failures.is_empty(),
        "{} of {} trees {what}; first:\n{}",
        failures.len(),
        CASES.len(),
        failures[0]
    );
}

fn compare(case: &Case) -> Result<(), String> {
    compare_with(case, &registry(), case.json, case.library, false)
}

/// The first difference between the compiled tree and the interpreted `json`;
/// with `labels`, the node tables' labels too (a generated JSON form names
/// its leaves differently from the DSL form; `Tree::JSON` names them alike).
fn compare_with(
    case: &Case,
    registry: &behaved_interp::Registry<Ctx>,
    json: &str,
    library: &str,
    labels: bool,
) -> Result<(), String> {
    let library = Library::from_json(library).map_err(|e| format!("library: {e}"))?;
    let def = registry.load_with(json, &library).map_err(|e| format!("load: {e}"))?;
    if def.tick_work() != case.tick_work {
        return Err(format!(
            "work per tick differs: compiled {}, interpreted {}",
            case.tick_work,
            def.tick_work()
        ));
    }
    let label = |l: &str| if labels { l.to_owned() } else { String::new() };
    let rows: Vec<_> = def
        .nodes()
        .iter()
        .map(|r| (r.id, r.parent, r.kind, label(&r.label)))
        .collect();
    let compiled_rows: Vec<_> = case
        .nodes
        .iter()
        .map(|r| (r.id, r.parent, r.kind, label(r.label)))
        .collect();
    if rows != compiled_rows {
        let first = rows.iter().zip(&compiled_rows).position(|(a, b)| a != b);
        let row = |r: &[_], i: Option<usize>| i.and_then(|i| r.get(i)).map(|r| format!("{r:?}"));
        return Err(format!(
            "node tables differ, first at row {first:?}: compiled {:?}, interpreted {:?}\n  compiled:    {compiled_rows:?}\n  interpreted: {rows:?}",
            row(&compiled_rows, first),
            row(&rows, first)
        ));
    }
    let compiled = (case.run)(case.seed);
    let interpreted = run_interpreted(&def, case.seed);
    for (i, (c, t)) in compiled.iter().zip(&interpreted).enumerate() {
        if c != t {
            return Err(format!(
                "step {i} (status {:?}) differs:\n  compiled:    {:?} {:?} {:?}\n  interpreted: {:?} {:?} {:?}",
                c.status, c.status, c.events, c.log, t.status, t.events, t.log
            ));
        }
    }
    Ok(())
}

#[test]
fn compiled_and_interpreted_trees_agree_tick_by_tick() {
    assert!(CASES.len() >= 200, "at least 200 trees");
    let mut failures = Vec::new();
    for case in CASES {
        if let Err(e) = compare(case) {
            failures.push(format!(
                "{} (seed {}):\n{}\n  dsl: {}\n  json: {}\n  library: {}",
                case.name, case.seed, e, case.dsl, case.json, case.library
            ));
        }
    }
    assert_none_failed(&failures, "disagree");
}

/// `Tree::JSON` round-trips: the compiled tree's own JSON (and its
/// subtrees') loads in the interpreter as the same tree (node table with
/// every node's label (`SEMANTICS.md#labels`), work per tick, every
/// parameter: durations, counts, weights, thresholds, loop labels, `match`
/// keys, hooks) and runs tick by tick exactly as the compiled tree.
#[test]
fn the_json_of_every_compiled_tree_loads_as_the_same_tree() {
    let registry = export_registry();
    let mut failures = Vec::new();
    for case in CASES {
        let entries: Vec<String> = case
            .exported_library
            .iter()
            .map(|(name, json)| format!("{name:?}: {json}"))
            .collect();
        let library = format!("{{\"subtrees\": {{{}}}}}", entries.join(", "));
        if let Err(e) = compare_with(case, &registry, case.exported, &library, true) {
            failures.push(format!(
                "{} (seed {}):\n{}\n  dsl: {}\n  exported: {}\n  library: {}",
                case.name, case.seed, e, case.dsl, case.exported, library
            ));
        }
    }
    assert_none_failed(&failures, "do not round-trip");
}

#[test]
fn the_generated_trees_are_varied() {
    let mut seen = std::collections::BTreeSet::new();
    let mut deepest = 0;
    let mut ticks_with_halts = 0;
    let mut reached = std::collections::BTreeSet::new();
    let mut hook_calls = 0;
    for case in CASES {
        for row in case.nodes {
            seen.insert(row.kind);
            deepest = deepest.max(behaved::node::depth(case.nodes, row.id));
        }
        let steps = (case.run)(case.seed);
        ticks_with_halts += steps
            .iter()
            .filter(|s| s.events.iter().any(|e| matches!(e, Event::Halt(_))))
            .count();
        for step in &steps {
            for e in &step.events {
                if let Event::Tick(id, _) = e {
                    reached.insert(case.nodes[*id as usize].kind);
                }
            }
            hook_calls += step.log.iter().filter(|l| l.starts_with("on_")).count();
        }
    }
    let unreached = treegen::kinds_missing(treegen::MACRO_KINDS, &reached);
    assert!(unreached.is_empty(), "kinds never ticked: {unreached:?}");
    assert!(
        !treegen::MACRO_HOOKS || hook_calls > 100,
        "hooks are exercised ({hook_calls} calls)"
    );
    let missing = treegen::kinds_missing(treegen::MACRO_KINDS, &seen);
    assert!(missing.is_empty(), "kinds never generated: {missing:?}");
    assert_eq!(
        deepest,
        treegen::MAX_DEPTH,
        "nesting reaches depth {}",
        treegen::MAX_DEPTH
    );
    assert!(ticks_with_halts > 500, "halts are exercised ({ticks_with_halts} steps)");
    assert!(
        CASES.iter().all(|c| times(c.seed).len() >= 50),
        "at least 50 ticks per tree"
    );
}

/// The wake rule (`behaved::Wake`, `SEMANTICS.md` "Sleeping" and "Sleeping
/// on inputs"): ticking only when a tree's reported wake is due, or when a
/// marked change of the inputs meets its watch, gives exactly the statuses
/// and events of ticking every time, compiled and interpreted; every tick
/// slept through would have changed nothing or repeated the tick before.
/// Half of the trees' conditions read inputs (`cond(|c| c.in1)`) that the
/// script changes and marks.
#[test]
fn sleeping_until_the_reported_wake_changes_nothing() {
    assert!(CASES.len() >= 200, "at least 200 trees");
    let mut failures = Vec::new();
    let (mut slept_compiled, mut slept_interpreted, mut trees_that_slept) = (0, 0, 0);
    let (mut watched_compiled, mut watched_interpreted, mut trees_that_watched) = (0, 0, 0);
    for case in CASES {
        let every = (case.run)(case.seed);
        let library = Library::from_json(case.library).expect("the library loads");
        let def = registry().load_with(case.json, &library).expect("the tree loads");
        let before = WATCH_SLEEPS.with(std::cell::Cell::get);
        let compiled = compare_sleeping(&every, &(case.sleep)(case.seed));
        let middle = WATCH_SLEEPS.with(std::cell::Cell::get);
        let interpreted = compare_sleeping(&every, &run_interpreted_sleeping(&def, case.seed));
        let (wc, wi) = (middle - before, WATCH_SLEEPS.with(std::cell::Cell::get) - middle);
        watched_compiled += wc;
        watched_interpreted += wi;
        trees_that_watched += usize::from(wc > 0);
        match (compiled, interpreted) {
            (Ok(c), Ok(i)) => {
                slept_compiled += c;
                slept_interpreted += i;
                trees_that_slept += usize::from(c > 0);
                if c != i {
                    failures.push(format!("{}: compiled slept {c} ticks, interpreted {i}", case.name));
                }
            }
            (c, i) => failures.push(format!(
                "{} (seed {}):\n  compiled: {c:?}\n  interpreted: {i:?}\n  dsl: {}",
                case.name, case.seed, case.dsl
            )),
        }
    }
    assert_none_failed(&failures, "differ when ticked only at their wakes");
    // Not vacuous: many trees sleep, and for many ticks. (The generator's tick
    // hooks and async leaves without a waker need every tick, so fewer trees
    // sleep than before they existed: 857 ticks in 2026-11.)
    assert!(trees_that_slept >= 40, "{trees_that_slept} trees slept");
    assert!(slept_compiled >= 500, "{slept_compiled} ticks slept");
    assert_eq!(slept_compiled, slept_interpreted);
    // Not vacuous either: many trees slept on a watch of their inputs.
    println!("{trees_that_watched} trees slept through {watched_compiled} ticks on a watch");
    assert_eq!(watched_compiled, watched_interpreted);
    assert!(trees_that_watched >= 10, "{trees_that_watched} trees slept on a watch");
    assert!(watched_compiled >= 100, "{watched_compiled} ticks slept on a watch");
    println!(
        "{trees_that_slept} of {} trees slept through {slept_compiled} ticks; {trees_that_watched} of them through {watched_compiled} ticks on a watch of their inputs",
        CASES.len()
    );
}

/// Saving and loading (`SEMANTICS.md#async`, README "Saving a running tree"):
/// every tree, compiled (serde) and interpreted (`Agent` saving), is saved
/// and loaded before every fourth tick. Both forms give the same statuses,
/// observer events and leaf events on every tick; where no async action was
/// running at a save, that is also exactly the run without saves. A running
/// async action cannot be saved (its future is lost): it is restarted after
/// the load, in both forms alike, which these trees exercise.
#[test]
fn saved_and_loaded_trees_go_on_alike_in_both_forms() {
    let mut failures = Vec::new();
    let (mut restarted, mut unchanged) = (0, 0);
    for case in CASES {
        let library = Library::from_json(case.library).expect("the library loads");
        let def = registry().load_with(case.json, &library).expect("the tree loads");
        let describe = |e: String| {
            format!(
                "{} (seed {}):\n{e}\n  dsl: {}\n  json: {}",
                case.name, case.seed, case.dsl, case.json
            )
        };
        let (compiled, interpreted) = match ((case.saving)(case.seed), run_interpreted_saving(&def, case.seed)) {
            (Ok(c), Ok(i)) => (c, i),
            (c, i) => {
                failures.push(describe(format!(
                    "compiled: {:?}\n  interpreted: {:?}",
                    c.err(),
                    i.err()
                )));
                continue;
            }
        };
        let every = (case.run)(case.seed);
        let expected = if async_running_at_a_save(case.seed, &every) {
            restarted += 1;
            ("the interpreted run with saves", &interpreted)
        } else {
            unchanged += 1;
            ("the run without saves", &every)
        };
        for (form, run) in [("compiled", &compiled), ("interpreted", &interpreted)] {
            if let Some(i) = (0..run.len()).find(|&i| run.get(i) != expected.1.get(i)) {
                failures.push(describe(format!(
                    "step {i} of the {form} run with saves differs from {}:\n  expected: {:?}\n  got:      {:?}",
                    expected.0,
                    expected.1.get(i),
                    run.get(i)
                )));
                break;
            }
        }
    }
    assert_none_failed(&failures, "go on differently after a save and load");
    // Not vacuous: many trees save a running async action, most save none.
    assert!(restarted >= 10, "{restarted} trees restarted an async action");
    assert!(unchanged >= 100, "{unchanged} trees went on as without saves");
    println!("{restarted} trees restarted an async action after a load, {unchanged} went on unchanged");
}

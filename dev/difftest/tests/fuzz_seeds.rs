//! Replays the fuzz targets' checked-in seeds (`fuzz/seeds/`) on stable, with
//! the same checks as `cargo fuzz` (`difftest::fuzzing`). The saved-state
//! seeds are states of the fuzzing tree after 0 to 5 ticks, rewritten by
//! `BEHAVED_REGENERATE=1 cargo test -p difftest --test fuzz_seeds` when the saved
//! format or the tree changes.
#![allow(missing_docs)]

use std::path::{Path, PathBuf};

use difftest::fuzzing;

// What a load costs is counted: `fuzzing::bounded_load`.
#[global_allocator]
static ALLOCATOR: behaved_testkit::Counting = behaved_testkit::Counting;

fn seeds(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/seeds")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
        .collect()
}

/// The names of `target`'s seeds that `check` (a fuzz target's checks)
/// accepts, in name order.
fn accepted(target: &str, check: fn(&[u8]) -> bool) -> Vec<String> {
    seeds(target)
        .into_iter()
        .filter(|(_, data)| check(data))
        .map(|(p, _)| p.file_name().unwrap().to_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_load_seeds_replay() {
    // The valid trees load and run; the rest are rejected without a panic.
    assert_eq!(
        accepted("load", fuzzing::load_tick_save),
        [
            "for_each.json",
            "hooks_and_loops.json",
            "parallel_and_choices.json",
            "shuffle_limit_runonce.json",
            "subtrees.json"
        ]
    );
}

/// `n` copies of `unit`, joined by commas.
fn many(unit: &str, n: usize) -> String {
    vec![unit; n].join(",")
}

/// Inputs just under 64 KB of the shapes that cost the most per byte
/// (benches/NOTES.md, "Peak heap per MB of input, every shape"), and a small library that
/// inlines to just under the fuzzing node limit (a tree, a NUL byte and a
/// library).
fn worst_cases() -> Vec<(&'static str, String)> {
    let near = fuzzing::FUZZ_MAX_INPUT - 1024;
    let fill = |unit: &str, wrap: &dyn Fn(String) -> String| {
        let n = (near - wrap(String::new()).len()) / (unit.len() + 1);
        wrap(many(unit, n))
    };
    // A library whose subtrees each use the next twice, repeated, and a
    // tree that uses the first of each.
    let (mut lib, mut uses, mut b) = (String::new(), Vec::new(), 0);
    while lib.len() < near - 8192 {
        for i in 0..30 {
            let sub = format!(r#"{{"type": "subtree", "subtreeId": "b{b}s{}"}}"#, i + 1);
            lib += &format!(r#""b{b}s{i}": {{"type": "sequence", "children": [{sub}, {sub}]}},"#);
        }
        lib += &format!(r#""b{b}s30": {{"type": "success"}},"#);
        uses.push(format!(r#"{{"type": "subtree", "subtreeId": "b{b}s0"}}"#));
        b += 1;
    }
    let bomb = format!(
        r#"{{"type": "sequence", "children": [{}]}}{}{{"subtrees": {{{}}}}}"#,
        uses.join(","),
        '\0',
        lib.trim_end_matches(',')
    );
    // Just under the inlined limit: 15 levels, each subtree twice, 2^17 nodes
    // were it 16.
    let mut lib = String::new();
    for i in 0..14 {
        let sub = format!(r#"{{"type": "subtree", "subtreeId": "s{}"}}"#, i + 1);
        lib += &format!(r#""s{i}": {{"type": "sequence", "children": [{sub}, {sub}]}},"#);
    }
    lib += r#""s14": {"type": "success"}"#;
    let inlined = format!(
        r#"{{"type": "subtree", "subtreeId": "s0"}}{}{{"subtrees": {{{lib}}}}}"#,
        '\0'
    );
    let nested = format!(
        r#"{}{{"type":"success"}}{}"#,
        r#"{"type":"inverter","child":"#.repeat(60),
        "}".repeat(60)
    );
    let sequence = |units: String| format!(r#"{{"type":"sequence","children":[{units}]}}"#);
    vec![
        ("terse", fill(r#"{"type":"success"}"#, &sequence)),
        ("deep", fill(&nested, &sequence)),
        (
            "repeat",
            fill(
                r#"{"type":"repeater","count":1000,"child":{"type":"repeater","count":1000,"child":{"type":"success"}}}"#,
                &sequence,
            ),
        ),
        (
            "unknown subtrees",
            fill(r#"{"type":"subtree","subtreeId":"x"}"#, &sequence),
        ),
        ("bombs", bomb),
        ("inlined", inlined),
    ]
}

#[test]
fn loads_of_small_inputs_cost_bounded_memory_and_work() {
    for (_, data) in seeds("load") {
        fuzzing::bounded_load(&data);
    }
    for (shape, input) in worst_cases() {
        assert!(input.len() < fuzzing::FUZZ_MAX_INPUT, "{shape}: {} bytes", input.len());
        let cost = fuzzing::bounded_load(input.as_bytes());
        println!("{shape}: {} bytes, {cost:?}", input.len());
        assert!(
            cost.allocations > 0,
            "{shape}: nothing counted (the counting allocator is off)"
        );
    }
}

#[test]
fn the_load_xml_seeds_replay() {
    // The valid tree loads and runs; the rest are rejected without a panic.
    assert_eq!(accepted("load_xml", fuzzing::load_xml), ["every_node.xml"]);
}

#[test]
fn the_saved_state_seeds_replay() {
    let states = fuzzing::saved_states(6);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/agent_state");
    if std::env::var_os("BEHAVED_REGENERATE").is_some() {
        for (i, s) in states.iter().enumerate() {
            std::fs::write(dir.join(format!("after_{i}_ticks.json")), s).unwrap();
        }
    }
    let seeds = seeds("agent_state");
    let written: Vec<String> = seeds
        .iter()
        .map(|(_, d)| String::from_utf8(d.clone()).unwrap())
        .collect();
    assert_eq!(
        written, states,
        "the saved-state seeds are stale: run `BEHAVED_REGENERATE=1 cargo test -p difftest --test fuzz_seeds`"
    );
    for (path, data) in &seeds {
        assert!(fuzzing::saved_state(data), "{} does not load", path.display());
    }
    // A damaged state is an error, not a panic: a resume point past the
    // root's children, a forEach past its items, a state cut short.
    let root_past_its_children = written[3].replacen(r#""ints":[1,"#, r#""ints":[7,"#, 1);
    let past_the_items = written[3].replacen(r#""items":[[8,8,3]]"#, r#""items":[[]]"#, 1);
    let cut = &written[3][..written[3].len() / 2];
    for damaged in [&root_past_its_children, &past_the_items, cut] {
        assert_ne!(damaged, &written[3]);
        assert!(!fuzzing::saved_state(damaged.as_bytes()), "{damaged}");
    }
}

#[test]
fn the_seeds_are_few_and_small() {
    let all: Vec<(PathBuf, Vec<u8>)> = ["load", "agent_state"].iter().flat_map(|t| seeds(t)).collect();
    assert!(
        all.len() <= 30,
        "{} seed files: keep the checked-in seeds few",
        all.len()
    );
    for (path, data) in &all {
        assert!(data.len() <= 8 * 1024, "{} is {} bytes", path.display(), data.len());
    }
}

//! Writes the generated trees' `behave!` source into `OUT_DIR/trees.rs`, with
//! a table of cases (name, seed, JSON form, runner of the compiled form) that
//! `tests/differential.rs` includes.
//! `DIFFTEST_SEED` changes the base seed and `DIFFTEST_TREES` the number of trees.

#[path = "src/treegen.rs"]
#[allow(dead_code)]
mod treegen;

use std::fmt::Write;

fn main() {
    println!("cargo::rerun-if-changed=src/treegen.rs");
    println!("cargo::rerun-if-env-changed=DIFFTEST_SEED");
    println!("cargo::rerun-if-env-changed=DIFFTEST_TREES");
    let base: u64 = std::env::var("DIFFTEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2026);
    let count: usize = std::env::var("DIFFTEST_TREES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(240);
    let mut out = String::new();
    let mut cases = String::new();
    for i in 0..count {
        let seed = base.wrapping_mul(0x9E37_79B9).wrapping_add(i as u64 * 7919);
        let g = treegen::generate(i, seed, treegen::MACRO_KINDS, treegen::MACRO_HOOKS);
        writeln!(out, "behaved::behave! {{\n{}}}\n", g.dsl).unwrap();
        // The subtrees' names, from their `tree NAME for Ctx` lines (all but the last).
        let names: Vec<&str> = g
            .dsl
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("tree ")?.split_whitespace().next())
            .collect();
        let exported_library: Vec<String> = names[..names.len() - 1]
            .iter()
            .map(|n| format!("({n:?}, {n}::JSON)"))
            .collect();
        writeln!(
            cases,
            "    Case {{ name: {:?}, seed: {seed}, dsl: r##\"{}\"##, json: r##\"{}\"##, library: r##\"{}\"##, run: run_compiled::<{}>, sleep: run_compiled_sleeping::<{}>, saving: run_compiled_saving::<{}>, nodes: {}::NODES, \
             exported: {}::JSON, exported_library: &[{}], tick_work: {}::TICK_WORK }},",
            g.name,
            g.dsl,
            g.json,
            g.library,
            g.name,
            g.name,
            g.name,
            g.name,
            g.name,
            exported_library.join(", "),
            g.name
        )
        .unwrap();
    }
    writeln!(out, "/// Every generated tree.\nconst CASES: &[Case] = &[\n{cases}];").unwrap();
    let path = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("trees.rs");
    std::fs::write(path, out).unwrap();
}

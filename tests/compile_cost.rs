//! The compile cost of a large tree: a generated 1,000-node tree (T3's shape
//! cut to 1,000 nodes) in a crate of its own, built three ways: with the tree
//! in `behave!`, with its hand-written twin, and with neither (the fixed cost).
//! Each crate has a `pub fn tick` that ticks its tree once, so that the tree's
//! code is generated (a library's generic and `#[inline]` code is otherwise
//! left to its users). For each: macro expansion time (rustc's `-Z time-passes`, `macro_expand_crate`),
//! `cargo check` and `cargo build` of that crate alone (dependencies built first).
//!
//! Ignored by default (it runs cargo and takes a minute or two); run with
//! `cargo test --release --test compile_cost -- --ignored --nocapture`.
//! No thresholds: it prints the table in BENCHMARKS.md.
use behaved_bench_trees::synthetic_gen;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The context and leaf of the generated tree (as in `dev/bench-trees/synthetic.rs`).
const PRELUDE: &str = r#"
#![allow(dead_code)]
use behaved::prelude::*;
#[derive(Default)]
pub struct SynCtx { pub tick: u32 }
impl SynCtx {
    #[inline(always)]
    pub fn leaf(&mut self, id: u32) -> Status {
        let h = (id.wrapping_mul(0x9E37_79B9) ^ self.tick).wrapping_mul(0x85EB_CA6B);
        match h >> 26 { 0..=15 => Status::Success, 16 => Status::Running, _ => Status::Failure }
    }
}
"#;

/// Writes a crate with `body` after the prelude; returns its directory.
fn write_crate(root: &Path, name: &str, body: &str) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
         [dependencies]\nbt = {{ path = {:?} }}\n\n[workspace]\n",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("src/lib.rs"), format!("{PRELUDE}\n{body}")).unwrap();
    dir
}

/// Runs cargo in `dir` with a target directory shared by the three crates;
/// returns the wall time and the output.
fn cargo(dir: &Path, target: &Path, args: &[&str]) -> (f64, String) {
    let start = Instant::now();
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env("CARGO_INCREMENTAL", "0")
        .env("RUSTC_BOOTSTRAP", "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "cargo {args:?} in {}:\n{text}", dir.display());
    (start.elapsed().as_secs_f64(), text)
}

/// Seconds of `macro_expand_crate` reported by `-Z time-passes`.
fn expansion_seconds(time_passes: &str) -> f64 {
    time_passes
        .lines()
        .find(|l| l.ends_with("macro_expand_crate"))
        .and_then(|l| l.strip_prefix("time:"))
        .and_then(|l| l.split(';').next())
        .and_then(|s| s.trim().parse().ok())
        .expect("rustc -Z time-passes reports macro_expand_crate")
}

/// Median of five runs of `run`.
fn median(mut run: impl FnMut() -> f64) -> f64 {
    let mut v = [run(), run(), run(), run(), run()];
    v.sort_by(f64::total_cmp);
    v[2]
}

#[test]
#[ignore = "runs cargo twenty times per crate; run by hand for BENCHMARKS.md"]
fn compile_cost_of_a_thousand_node_tree() {
    let tree = synthetic_gen::tree(5, 4, 1000);
    assert_eq!(tree.count(), 1000);
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("compile_cost");
    let target = root.join("target");
    let crates = [
        (
            "with_behave",
            format!(
                "behave! {{\n{}}}\n{}",
                synthetic_gen::behave_tree("Big", &tree),
                "pub fn tick(t: &mut Big, c: &mut SynCtx) -> Status { behaved::Tree::tick_at(t, c, 0.0) }\n"
            ),
        ),
        (
            "by_hand",
            format!(
                "{}{}",
                synthetic_gen::by_hand("BigByHand", &tree),
                "pub fn tick(t: &mut BigByHand, c: &mut SynCtx) -> Status { t.tick(c) }\n"
            ),
        ),
        ("neither", String::new()),
    ];
    println!("| crate | macro expansion (s) | cargo check (s) | cargo build, dev (s) | cargo build --release (s) |");
    println!("|---|---:|---:|---:|---:|");
    for (name, body) in &crates {
        let dir = write_crate(&root, name, body);
        // Dependencies first, so the timings below are this crate alone.
        for args in [
            &["check", "--quiet"][..],
            &["build", "--quiet"],
            &["build", "--quiet", "--release"],
        ] {
            cargo(&dir, &target, args);
        }
        let lib = dir.join("src/lib.rs");
        let touch = || std::fs::write(&lib, std::fs::read(&lib).unwrap()).unwrap();
        let expand = median(|| {
            touch();
            let (_, out) = cargo(&dir, &target, &["rustc", "--quiet", "--lib", "--", "-Z", "time-passes"]);
            expansion_seconds(&out)
        });
        let timed = |args: &[&str]| {
            median(|| {
                touch();
                cargo(&dir, &target, args).0
            })
        };
        let check = timed(&["check", "--quiet"]);
        let build = timed(&["build", "--quiet"]);
        let release = timed(&["build", "--quiet", "--release"]);
        println!("| {name} | {expand:.3} | {check:.2} | {build:.2} | {release:.2} |");
    }
}

/// Wall time, CPU time (user + sys, which the load of other processes
/// inflates less) and peak memory (the largest process's resident set) of
/// one `cargo build` of the crate in `dir` after touching it, from GNU
/// `time`. Not incremental, so that every run does the same work.
fn build_with_memory(dir: &Path, target: &Path, release: bool) -> (f64, f64, f64) {
    let lib = dir.join("src/lib.rs");
    std::fs::write(&lib, std::fs::read(&lib).unwrap()).unwrap();
    let mut args = vec!["-f", "%e %U %S %M", "cargo", "build", "--quiet"];
    if release {
        args.push("--release");
    }
    let out = Command::new("/usr/bin/time")
        .args(&args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env("CARGO_INCREMENTAL", "0")
        .output()
        .expect("GNU time at /usr/bin/time");
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "cargo build in {}:\n{text}", dir.display());
    let last = text.lines().last().unwrap_or_default();
    let mut fields = last.split_whitespace().map(|f| f.parse::<f64>().unwrap());
    let seconds = fields.next().unwrap();
    let cpu = fields.next().unwrap() + fields.next().unwrap();
    let kib = fields.next().unwrap();
    (seconds, cpu, kib / 1024.0)
}

/// Median by CPU time of `COMPILE_COST_RUNS` builds (3 unless set): (wall
/// seconds, CPU seconds, MiB).
fn median_build(dir: &Path, target: &Path, release: bool) -> (f64, f64, f64) {
    let n: usize = std::env::var("COMPILE_COST_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let mut runs: Vec<(f64, f64, f64)> = (0..n.max(1)).map(|_| build_with_memory(dir, target, release)).collect();
    runs.sort_by(|a, b| a.1.total_cmp(&b.1));
    runs[runs.len() / 2]
}

#[test]
#[ignore = "builds 2,000- and 10,000-node trees several times (minutes); run by hand for BENCHMARKS.md"]
fn compile_time_and_memory_of_large_trees() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("compile_cost_large");
    let target = root.join("target");
    // The dependencies, built once for all the crates (they share `target`),
    // so that each figure below is its crate alone.
    let deps = write_crate(&root, "dependencies", "");
    cargo(&deps, &target, &["build", "--quiet"]);
    cargo(&deps, &target, &["build", "--quiet", "--release"]);
    println!("| nodes | crate | dev: wall s | CPU s | MiB | release: wall s | CPU s | MiB |");
    println!("|---:|---|---:|---:|---:|---:|---:|---:|");
    for nodes in [2_000, 10_000] {
        // Depth 7, fan-out 4: 21,845 nodes before the cut, so both sizes are cut from it.
        let tree = synthetic_gen::tree(7, 4, nodes);
        assert_eq!(tree.count(), nodes);
        let crates = [
            (
                format!("behave_{nodes}"),
                format!(
                    "behave! {{\n{}}}\n{}",
                    synthetic_gen::behave_tree("Big", &tree),
                    "pub fn tick(t: &mut Big, c: &mut SynCtx) -> Status { behaved::Tree::tick_at(t, c, 0.0) }\n"
                ),
            ),
            (
                format!("by_hand_{nodes}"),
                format!(
                    "{}{}",
                    synthetic_gen::by_hand("BigByHand", &tree),
                    "pub fn tick(t: &mut BigByHand, c: &mut SynCtx) -> Status { t.tick(c) }\n"
                ),
            ),
        ];
        for (name, body) in &crates {
            let dir = write_crate(&root, name, body);
            let (dev, dev_cpu, dev_mib) = median_build(&dir, &target, false);
            let (release, release_cpu, release_mib) = median_build(&dir, &target, true);
            println!(
                "| {nodes} | {name} | {dev:.1} | {dev_cpu:.1} | {dev_mib:.0} | {release:.1} | {release_cpu:.1} | {release_mib:.0} |"
            );
        }
    }
}

#[test]
#[ignore = "expands 2,000- and 10,000-node trees with the macro built two ways (minutes); run by hand for BENCHMARKS.md"]
fn macro_expansion_of_large_trees() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("compile_cost_expansion");
    let target = root.join("target");
    // Each build of the macro: its profile (cargo's defaults, then the
    // build-override of README.md's "Compile time of big trees").
    let builds: [(&str, &[(&str, &str)]); 2] = [
        ("default (the macro unoptimised)", &[]),
        (
            "[profile.dev.build-override] opt-level = 3",
            &[("CARGO_PROFILE_DEV_BUILD_OVERRIDE_OPT_LEVEL", "3")],
        ),
    ];
    println!("| nodes | macro built | macro expansion: s |");
    println!("|---:|---|---:|");
    for nodes in [2_000, 10_000] {
        let tree = synthetic_gen::tree(7, 4, nodes);
        let body = format!("behave! {{\n{}}}\n", synthetic_gen::behave_tree("Big", &tree));
        let dir = write_crate(&root, &format!("behave_{nodes}"), &body);
        let rustc = |env: &[(&str, &str)], args: &[&str]| {
            let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                .args(["rustc", "--quiet", "--lib", "--"])
                .args(args)
                .current_dir(&dir)
                .env("CARGO_TARGET_DIR", &target)
                .env("RUSTC_BOOTSTRAP", "1")
                .envs(env.iter().copied())
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stderr).into_owned();
            assert!(out.status.success(), "cargo rustc in {}:\n{text}", dir.display());
            text
        };
        // The dependencies and the macro of each build first; then rustc
        // stops after expansion (`-Z unpretty=expanded` prints the expanded
        // crate). The builds take turns, so that a change in the machine's
        // load falls on both.
        for (_, env) in builds {
            rustc(env, &["-Z", "unpretty=expanded"]);
        }
        let mut seconds = [Vec::new(), Vec::new()];
        for _ in 0..3 {
            for (runs, (_, env)) in seconds.iter_mut().zip(builds) {
                runs.push(expansion_seconds(&rustc(
                    env,
                    &["-Z", "unpretty=expanded", "-Z", "time-passes"],
                )));
            }
        }
        for ((build, _), mut runs) in builds.iter().zip(seconds) {
            runs.sort_by(f64::total_cmp);
            println!("| {nodes} | {build} | {:.2} |", runs[1]);
        }
    }
}

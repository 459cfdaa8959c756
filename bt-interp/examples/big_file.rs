//! Loads a tree file of about 50 MB, generated at run time, and prints how
//! long loading took; run under `/usr/bin/time -v` for the peak memory
//! (BENCHMARKS.md, "Loading big files"):
//!
//! ```sh
//! cargo build --release -p behaved-interp --example big_file
//! /usr/bin/time -v target/release/examples/big_file ids
//! ```
//!
//! Shapes: `ids` (sequences of 100 named actions, each with a unique id; it
//! loads), `plain` (the same without ids), `duplicate-ids` (every id the
//! same), `unknown` (every node of an unknown type), `unknown-leaves` (every
//! action of an unknown action type), `for-each` (every action inside a
//! `forEach` of 8 items: rejected past `Registry::max_items`). An optional
//! second argument is the size in MB (default 50).

use std::fmt::Write;
use std::time::Instant;

use behaved_interp::{ItemList, NoParams, Registry};
use behaved_runtime::{Action, Status};

/// The list of the `for-each` shape: no items.
struct Targets;

impl ItemList<()> for Targets {
    type Item = u32;
    fn items<'c>(&'c self, _: &'c ()) -> impl Iterator<Item = u32> + 'c {
        std::iter::empty()
    }
    fn select(&self, _: &mut (), _: &u32) {}
}

#[derive(Clone)]
struct Noop;

impl Action<()> for Noop {
    fn tick(&mut self, _: &mut ()) -> Status {
        Status::Success
    }
}

/// A tree of about `bytes` bytes: a sequence of sequences of 100 leaves.
fn generate(shape: &str, bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 4096);
    out.push_str(r#"{"type": "sequence", "children": ["#);
    let mut n = 0usize;
    while out.len() < bytes {
        if n > 0 {
            out.push(',');
        }
        out.push_str("\n {\"type\": \"sequence\", \"children\": [");
        for k in 0..100 {
            if k > 0 {
                out.push(',');
            }
            let id = match shape {
                "ids" | "unknown" | "unknown-leaves" => format!(r#", "id": "node-{n}""#),
                "duplicate-ids" => r#", "id": "same""#.to_string(),
                _ => String::new(),
            };
            let (kind, leaf) = match shape {
                "unknown" => (format!("kind{n}"), "a".to_string()),
                "unknown-leaves" => ("action".to_string(), format!("leaf{n}")),
                _ => ("action".to_string(), "a".to_string()),
            };
            let node = format!(
                r#"{{"type": "{kind}", "action": "{leaf}"{id}, "name": "a step of the patrol route, number {n}"}}"#
            );
            if shape == "for-each" {
                write!(
                    out,
                    r#"{{"type": "forEach", "items": "targets", "max": 8, "child": {node}}}"#
                )
                .unwrap();
            } else {
                out.push_str(&node);
            }
            n += 1;
        }
        out.push_str("]}");
    }
    out.push_str("\n]}");
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let shape = args.next().unwrap_or_else(|| "ids".to_string());
    let mb: usize = args.next().map_or(50, |s| s.parse().expect("a size in MB"));
    let json = generate(&shape, mb << 20);
    let mut leaves = Registry::<()>::new();
    leaves
        .action("a", |_: NoParams| Noop)
        .list("targets", |_: NoParams| Targets);
    let start = Instant::now();
    let result = leaves.load(&json);
    let secs = start.elapsed().as_secs_f64();
    let outcome = match &result {
        Ok(def) => format!("loaded, {} nodes", def.len()),
        Err(e) => {
            let first = e.problems().first().map(ToString::to_string).unwrap_or_default();
            format!("rejected, {} problems listed; first: {first:.120}", e.problems().len())
        }
    };
    println!(
        "{shape}: {:.1} MB in {secs:.2} s: {outcome}",
        json.len() as f64 / (1 << 20) as f64
    );
}

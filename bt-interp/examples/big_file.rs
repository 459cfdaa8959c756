//! Loads a tree file of about 50 MB, generated at run time, and prints how
//! long loading took and the most heap memory it held at once, per byte of
//! the file (BENCHMARKS.md, "Loading big files"; `/usr/bin/time -v` gives the
//! process's peak, the text included):
//!
//! ```sh
//! cargo build --release -p behaved-interp --example big_file
//! target/release/examples/big_file ids
//! ```
//!
//! Shapes, one for each limit of FORMAT.md's table "Loading a stranger's
//! file": `terse` (sequences of 100 `{"type":"success"}`, the fewest bytes
//! a node can take), `ids` (sequences of 100 named actions, each with a unique id; it
//! loads), `plain` (the same without ids), `duplicate-ids` (every id the
//! same), `unknown` (every node of an unknown type: problems listed),
//! `unknown-leaves` (every action of an unknown action type), `for-each`
//! (every action inside a `forEach` of 8 items: rejected past
//! `Registry::max_items`), `deep` (the sequences of 100 leaves each under 60
//! nested inverters: nesting), `repeat` (each leaf under three repeaters of
//! 1,000: rejected past `Registry::max_tick_work`), `long-names` (every
//! action of an unknown type named by 64 KB: text quoted in messages),
//! `subtrees` (the sequences are a library's subtrees, the tree uses each
//! once: nodes inlined) and `bombs` (a library of 30-level subtree bombs,
//! each subtree using the next twice, the tree using every bomb: rejected
//! past `Registry::max_nodes`), `inlined` (one 18-level bomb, 3 KB that
//! inline to 2^20 - 2 nodes, just under the limit: what the limit lets a
//! small file cost). An optional second argument is the size in
//! MB (default 50).

use std::fmt::Write;
use std::time::Instant;

use behaved_interp::{ItemList, Library, NoParams, Registry};
use behaved_runtime::{Action, Status};

#[global_allocator]
static ALLOCATOR: behaved_testkit::Counting = behaved_testkit::Counting;

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

/// A tree of about `bytes` bytes: a sequence of sequences of 100 leaves;
/// for the library shapes, the library and the tree that uses it.
fn generate(shape: &str, bytes: usize) -> (String, Option<String>) {
    match shape {
        "bombs" => return bombs(30, bytes),
        "inlined" => return bombs(18, 0),
        _ => {}
    }
    let mut out = String::with_capacity(bytes + 4096);
    let mut uses = Vec::new();
    out.push_str(if shape == "subtrees" {
        r#"{"subtrees": {"#
    } else {
        r#"{"type": "sequence", "children": ["#
    });
    let mut n = 0usize;
    while out.len() < bytes {
        if n > 0 {
            out.push(',');
        }
        match shape {
            "subtrees" => {
                write!(out, "\n \"s{n}\": ").unwrap();
                uses.push(format!(r#"{{"type": "subtree", "subtreeId": "s{n}"}}"#));
            }
            "deep" => out.push_str(&r#"{"type": "inverter", "child": "#.repeat(60)),
            _ => {}
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
                "long-names" => ("action".to_string(), format!("{n}{}", "x".repeat(64 << 10))),
                _ => ("action".to_string(), "a".to_string()),
            };
            let node = format!(
                r#"{{"type": "{kind}", "action": "{leaf}"{id}, "name": "a step of the patrol route, number {n}"}}"#
            );
            match shape {
                "terse" => out.push_str(r#"{"type":"success"}"#),
                "for-each" => write!(
                    out,
                    r#"{{"type": "forEach", "items": "targets", "max": 8, "child": {node}}}"#
                )
                .unwrap(),
                "repeat" => write!(
                    out,
                    r#"{{"type": "repeater", "count": 1000, "child": {{"type": "repeater", "count": 1000, "child": {{"type": "repeater", "count": 1000, "child": {node}}}}}}}"#
                )
                .unwrap(),
                _ => out.push_str(&node),
            }
            n += 1;
        }
        out.push_str("]}");
        if shape == "deep" {
            out.push_str(&"}".repeat(60));
        }
    }
    if shape == "subtrees" {
        out.push_str("\n}}");
        let tree = format!(r#"{{"type": "sequence", "children": [{}]}}"#, uses.join(","));
        return (out, Some(tree));
    }
    out.push_str("\n]}");
    (out, None)
}

/// A library of about `bytes` bytes (at least one) of subtree bombs of
/// `levels` levels, and a tree that uses the first subtree of each.
fn bombs(levels: usize, bytes: usize) -> (String, Option<String>) {
    let mut out = String::from(r#"{"subtrees": {"#);
    let mut uses = Vec::new();
    let mut b = 0;
    loop {
        for i in 0..levels {
            let sub = format!(r#"{{"type": "subtree", "subtreeId": "b{b}s{}"}}"#, i + 1);
            write!(
                out,
                "{}\n \"b{b}s{i}\": {{\"type\": \"sequence\", \"children\": [{sub}, {sub}]}}",
                if b == 0 && i == 0 { "" } else { "," }
            )
            .unwrap();
        }
        write!(
            out,
            ",\n \"b{b}s{levels}\": {{\"type\": \"action\", \"action\": \"a\"}}"
        )
        .unwrap();
        uses.push(format!(r#"{{"type": "subtree", "subtreeId": "b{b}s0"}}"#));
        b += 1;
        if out.len() >= bytes {
            break;
        }
    }
    out.push_str("\n}}");
    let tree = format!(r#"{{"type": "sequence", "children": [{}]}}"#, uses.join(","));
    (out, Some(tree))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let shape = args.next().unwrap_or_else(|| "ids".to_string());
    let mb: usize = args.next().map_or(50, |s| s.parse().expect("a size in MB"));
    let (json, tree) = generate(&shape, mb << 20);
    let mut leaves = Registry::<()>::new();
    leaves
        .action("a", |_: NoParams| Noop)
        .list("targets", |_: NoParams| Targets);
    let start = Instant::now();
    let mut result = None;
    let peak = behaved_testkit::usage_during(|| {
        result = Some(match &tree {
            None => leaves.load(&json),
            Some(tree) => Library::from_json(&json).and_then(|lib| leaves.load_with(tree, &lib)),
        });
    })
    .peak_bytes;
    let secs = start.elapsed().as_secs_f64();
    let outcome = match result.expect("loaded") {
        Ok(def) => format!("loaded, {} nodes", def.len()),
        Err(e) => {
            let first = e.problems().first().map(ToString::to_string).unwrap_or_default();
            format!("rejected, {} problems listed; first: {first:.120}", e.problems().len())
        }
    };
    let input = json.len() + tree.as_ref().map_or(0, String::len);
    println!(
        "{shape}: {:.1} MB in {secs:.2} s, peak heap {:.1} MB ({:.1} bytes per byte of input): {outcome}",
        input as f64 / (1 << 20) as f64,
        peak as f64 / (1 << 20) as f64,
        peak as f64 / input as f64
    );
}

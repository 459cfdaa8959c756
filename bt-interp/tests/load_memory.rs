//! Loading a small file that inlines to a huge tree costs memory in
//! proportion to the file, not to the tree it would make: the loader counts
//! the nodes from the library before building any (FORMAT.md, "Loading a
//! stranger's file"). Counted by a global allocator, never timed.

use behaved_interp::{Library, NoParams, Registry};
use behaved_runtime::{Action, Status};
use behaved_testkit::usage_during;

#[global_allocator]
static ALLOCATOR: behaved_testkit::Counting = behaved_testkit::Counting;

#[derive(Clone)]
struct Noop;

impl Action<()> for Noop {
    fn tick(&mut self, _: &mut ()) -> Status {
        Status::Success
    }
}

/// A library of `levels` subtrees, each using the next one twice: about
/// 130 bytes a level, 2^(levels + 2) nodes inlined.
fn bomb(levels: usize) -> String {
    let subtrees: Vec<String> = (0..levels)
        .map(|i| {
            let sub = format!(r#"{{"type": "subtree", "subtreeId": "s{}"}}"#, i + 1);
            format!(r#""s{i}": {{"type": "sequence", "children": [{sub}, {sub}]}}"#)
        })
        .chain([format!(r#""s{levels}": {{"type": "action", "action": "a"}}"#)])
        .collect();
    format!(r#"{{"subtrees": {{{}}}}}"#, subtrees.join(",\n"))
}

fn registry() -> Registry<()> {
    let mut r = Registry::new();
    r.action("a", |_: NoParams| Noop);
    r
}

#[test]
fn a_subtree_bomb_is_refused_before_it_is_built() {
    let text = bomb(30);
    assert!(text.len() < 4096, "{}", text.len());
    let r = registry();
    let mut messages = Vec::new();
    let peak = usage_during(|| {
        let lib = Library::from_json(&text).unwrap();
        let e = r
            .load_with(r#"{"type": "subtree", "subtreeId": "s0"}"#, &lib)
            .unwrap_err();
        messages = e.messages();
    })
    .peak_bytes;
    assert_eq!(
        messages,
        [
            "at `subtreeId`: the tree has 4294967294 nodes once its subtrees are inlined, above the limit of \
             1048576 (`Registry::max_nodes`); the largest subtree it uses inlines to 4294967293 nodes: \
             \"s0\" -> \"s1\" -> \"s2\" -> \"s3\" -> \"s4\" -> \"s5\" -> \"s6\" -> .. (23 more) -> \"s30\" \
             (each use is a copy)"
        ]
    );
    // Before the count, the loader built a million nodes first: 280 MB.
    assert!(peak < 256 << 10, "peak {peak} bytes for a file of {} bytes", text.len());
}

#[test]
fn checking_a_bomb_library_builds_nothing_either() {
    let text = bomb(30);
    let r = registry();
    let mut problems = 0;
    let peak = usage_during(|| {
        let lib = Library::from_json(&text).unwrap();
        problems = r.check_library(&lib).unwrap_err().problems().len();
    })
    .peak_bytes;
    // s0 to s11 inline to more than 2^20 nodes each; s12 (2^20 - 3) is under it.
    assert_eq!(problems, 12);
    assert!(peak < 256 << 10, "peak {peak} bytes for a file of {} bytes", text.len());
}

#[test]
fn with_recursion_allowed_the_count_stops_past_the_limit() {
    // A subtree that uses itself twice doubles per level of recursion.
    let lib = Library::from_json(
        r#"{"subtrees": {"r": {"type": "sequence", "children": [
            {"type": "subtree", "subtreeId": "r"}, {"type": "subtree", "subtreeId": "r"}]}}}"#,
    )
    .unwrap();
    let mut r = registry();
    r.max_recursion(40);
    let mut messages = Vec::new();
    let peak = usage_during(|| {
        messages = r
            .load_with(r#"{"type": "subtree", "subtreeId": "r"}"#, &lib)
            .unwrap_err()
            .messages();
    })
    .peak_bytes;
    assert_eq!(
        messages,
        [
            "at `subtreeId`: the tree has more than 1048576 nodes once its subtrees are inlined, above the limit of \
             1048576 (`Registry::max_nodes`); the largest subtree it uses inlines to 3 nodes: \"r\" (each use is a copy)"
        ]
    );
    assert!(peak < 64 << 10, "peak {peak} bytes");
    // Within the limit, it loads: 2^(n + 2) - 1 nodes for n levels.
    r.max_recursion(3);
    let def = r.load_with(r#"{"type": "subtree", "subtreeId": "r"}"#, &lib).unwrap();
    assert_eq!(def.len(), 46);
}

#[test]
fn remaps_that_multiply_are_checked_within_a_bound() {
    // 2,000 trees use `big` (1,000 leaves), each with renames of its own:
    // two million nodes to check through them, refused past a million
    // (`max_nodes`), in bounded memory; each tree alone is small.
    let leaves = vec![r#"{"type": "action", "action": "a"}"#; 1000].join(", ");
    let mut subtrees = vec![format!(r#""big": {{"type": "sequence", "children": [{leaves}]}}"#)];
    for i in 0..2000 {
        subtrees.push(format!(
            r#""t{i:04}": {{"type": "subtree", "subtreeId": "big", "remap": {{"k{i}": "x"}}}}"#
        ));
    }
    let text = format!(r#"{{"subtrees": {{{}}}}}"#, subtrees.join(",\n"));
    let lib = Library::from_json(&text).unwrap();
    let r = registry();
    let mut messages = Vec::new();
    let peak = usage_during(|| messages = r.check_library(&lib).unwrap_err().messages()).peak_bytes;
    assert_eq!(
        messages,
        [
            "at `subtrees[\"big\"]`: the library's subtrees, each checked through the remaps of the places that use \
             it, have more than 1048576 nodes and renamed keys to check in all (the library's size or \
             `Registry::max_nodes`, the larger): remaps through nested subtrees multiply; load the trees that use \
             them instead"
        ]
    );
    assert!(peak < 4 << 20, "peak {peak} bytes for a file of {} bytes", text.len());
}

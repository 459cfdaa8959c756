//! The macro-compiled synthetic tree (T3, 1,365 nodes) and its hand-written
//! twin behave identically, tick by tick; and the generator writes T3 in every form.
use behaved_bench_trees::forms::{self, T3, identical};
use behaved_bench_trees::synthetic;
use behaved_bench_trees::synthetic_gen;

use synthetic::*;

#[test]
fn compiled_and_hand_written_agree_for_ten_thousand_ticks() {
    let (a, seen) = identical::<T3, _, _>(forms::compiled_t3(), SyntheticByHand::default(), 10_000);
    assert!(seen.iter().all(|&n| n > 1000), "every root status is common: {seen:?}");
    assert!(
        a.visits > 300_000,
        "some 45 leaves per tick: {} leaves ticked",
        a.visits
    );
}

#[test]
fn the_generated_trees_have_the_shape_of_t3() {
    let root = synthetic_gen::tree(5, 4, usize::MAX);
    assert_eq!((root.count(), root.composites()), (1365, 341));
    assert_eq!(Synthetic::NODES.len(), 1365);
    let cut = synthetic_gen::tree(5, 4, 1000);
    assert_eq!(cut.count(), 1000);
}

/// The generator writes T3 (into `OUT_DIR`, by `dev/bench-trees/build.rs`):
/// the tree, its twin with one resume byte per composite, and the JSON form
/// with the same leaves in the same order.
#[test]
fn the_generator_writes_t3_in_every_form() {
    let file = synthetic_gen::t3_file();
    assert!(file.starts_with("// @generated"), "{}", &file[..80]);
    assert!(file.contains("pub tree Synthetic for SynCtx {"));
    assert!(file.contains("pub struct SyntheticByHand {\n    resume: [u8; 341],\n}"));
    assert_eq!(file.matches("act(|c| c.leaf(").count(), 1024);

    fn leaves(node: &serde_json::Value, out: &mut Vec<u64>) -> usize {
        match node["children"].as_array() {
            Some(kids) => 1 + kids.iter().map(|k| leaves(k, out)).sum::<usize>(),
            None => {
                out.push(node["action"]["id"].as_u64().unwrap());
                1
            }
        }
    }
    let json: serde_json::Value = serde_json::from_str(&synthetic_gen::t3_json()).unwrap();
    let mut ids = Vec::new();
    assert_eq!(leaves(&json, &mut ids), 1365);
    assert_eq!(ids, (0..1024).collect::<Vec<u64>>(), "leaf ids in pre-order");
    assert_eq!(synthetic_gen::t3_file(), file, "the same text every time");
}

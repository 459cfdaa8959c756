//! The macro-compiled synthetic tree (T3, 1,365 nodes) and its hand-written
//! twin behave identically, tick by tick; and both are what the generator writes.
use behaved_bench_trees::synthetic;
use behaved_bench_trees::synthetic_gen;

use behaved::prelude::*;
use synthetic::*;

#[test]
fn compiled_and_hand_written_agree_for_ten_thousand_ticks() {
    let (mut compiled, mut by_hand) = (Synthetic::new(), SyntheticByHand::default());
    let (mut a, mut b) = (SynCtx::default(), SynCtx::default());
    let mut seen = [0u32; 3];
    for tick in 0..10_000 {
        a.tick = tick;
        b.tick = tick;
        let (x, y) = (compiled.tick_at(&mut a, 0.0), by_hand.tick(&mut b));
        assert_eq!(x, y, "status at tick {tick}");
        assert_eq!(a, b, "leaves ticked, in order, up to tick {tick}");
        seen[x as usize] += 1;
    }
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
    assert_eq!(<Synthetic as Tree<SynCtx>>::NODES.len(), 1365);
    let cut = synthetic_gen::tree(5, 4, 1000);
    assert_eq!(cut.count(), 1000);
}

#[test]
fn the_checked_in_files_are_what_the_generator_writes() {
    for (file, fresh) in [
        ("synthetic_generated.rs", synthetic_gen::t3_file()),
        ("t3_synthetic.json", synthetic_gen::t3_json()),
    ] {
        let path = format!("{}/benches/trees/{file}", env!("CARGO_MANIFEST_DIR"));
        if std::env::var_os("BEHAVED_REGENERATE").is_some() {
            std::fs::write(&path, &fresh).unwrap();
        }
        let on_disk = std::fs::read_to_string(&path).unwrap();
        assert!(
            on_disk == fresh,
            "{path} is stale: run `BEHAVED_REGENERATE=1 cargo test --test twin_synthetic`"
        );
    }
}

//! `random`, `weighted` and `shuffle` draw from the tree's own seeded RNG:
//! the same seed and inputs give the same choices, other seeds give other
//! choices, and `weighted` follows its weights (`SEMANTICS.md#randomness`,
//! `SEMANTICS.md#random`, `SEMANTICS.md#weighted`, `SEMANTICS.md#shuffle`).
use behaved::prelude::*;

/// Records which child each tick chose.
#[derive(Default)]
struct Picks {
    chosen: Vec<u8>,
}

behave! {
    tree Uniform for Picks {
        random { act(|p| p.chosen.push(0)), act(|p| p.chosen.push(1)), act(|p| p.chosen.push(2)) }
    }
    tree Weighted for Picks {
        weighted { 6 => act(|p| p.chosen.push(0)), 3 => act(|p| p.chosen.push(1)), 1 => act(|p| p.chosen.push(2)) }
    }
    tree WeightedByConsts for Picks {
        weighted { SIX => act(|p| p.chosen.push(0)), THREE => act(|p| p.chosen.push(1)), 1 => act(|p| p.chosen.push(2)) }
    }
    tree Shuffled for Picks {
        shuffle {
            act(|p| { p.chosen.push(0); false }),
            act(|p| { p.chosen.push(1); false }),
            act(|p| { p.chosen.push(2); false }),
            act(|p| { p.chosen.push(3); false }),
        }
    }
    tree ShuffleStops for Picks {
        shuffle { act(|p| { p.chosen.push(0); false }), act(|p| { p.chosen.push(1); true }), act(|p| { p.chosen.push(2); false }) }
    }
}

const SIX: u32 = 6;
const THREE: u32 = 2 + 1;

fn run<T: Tree<Picks>>(mut tree: T, ticks: usize) -> Vec<u8> {
    let mut picks = Picks::default();
    for _ in 0..ticks {
        tree.tick_at(&mut picks, 0.0);
    }
    picks.chosen
}

#[test]
fn same_seed_same_choices_over_ten_thousand_ticks_other_seeds_differ() {
    for (a, b, c) in [
        (
            run(Uniform::with_seed(7), 10_000),
            run(Uniform::with_seed(7), 10_000),
            run(Uniform::with_seed(8), 10_000),
        ),
        (
            run(Weighted::with_seed(7), 10_000),
            run(Weighted::with_seed(7), 10_000),
            run(Weighted::with_seed(8), 10_000),
        ),
        (
            run(Shuffled::with_seed(7), 2_500),
            run(Shuffled::with_seed(7), 2_500),
            run(Shuffled::with_seed(8), 2_500),
        ),
    ] {
        assert_eq!(a.len(), 10_000);
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
    assert_eq!(
        run(Uniform::new(), 100),
        run(Uniform::with_seed(behaved::Rng::DEFAULT_SEED), 100)
    );
}

/// Counts of each child over `draws` ticks.
fn histogram(chosen: &[u8], n: usize) -> Vec<usize> {
    (0..n)
        .map(|k| chosen.iter().filter(|&&c| usize::from(c) == k).count())
        .collect()
}

#[test]
fn weighted_follows_its_weights_and_random_is_uniform() {
    // 60,000 draws: each count is within 5 standard deviations of its expectation.
    let draws = 60_000.0_f64;
    for (counts, weights) in [
        (histogram(&run(Weighted::with_seed(1), 60_000), 3), [0.6, 0.3, 0.1]),
        (histogram(&run(Uniform::with_seed(1), 60_000), 3), [1.0 / 3.0; 3]),
    ] {
        for (count, p) in counts.iter().zip(weights) {
            let (expected, sd) = (draws * p, (draws * p * (1.0 - p)).sqrt());
            assert!((*count as f64 - expected).abs() < 5.0 * sd, "{counts:?} vs {weights:?}");
        }
    }
}

#[test]
fn shuffle_tries_every_child_once_in_a_drawn_order_and_stops_at_the_first_success() {
    let chosen = run(Shuffled::with_seed(3), 1_000);
    let mut orders = std::collections::BTreeSet::new();
    for order in chosen.chunks(4) {
        let mut sorted = order.to_vec();
        sorted.sort();
        assert_eq!(sorted, [0, 1, 2, 3], "each child exactly once per activation");
        orders.insert(order.to_vec());
    }
    assert_eq!(orders.len(), 24, "all 4! orders appear");
    // Each activation tries distinct children and stops at child 1, the only success.
    let stops = run(ShuffleStops::with_seed(3), 300);
    let activations: Vec<&[u8]> = stops.split_inclusive(|&c| c == 1).collect();
    assert_eq!(activations.len(), 300);
    let mut first_picks = [0; 3];
    for a in activations {
        assert!(a.len() <= 3 && a.last() == Some(&1), "{a:?}");
        assert!(a.iter().filter(|&&c| c == a[0]).count() == 1, "{a:?}");
        first_picks[usize::from(a[0])] += 1;
    }
    assert!(
        first_picks.iter().all(|&n| n > 60),
        "each child is sometimes tried first: {first_picks:?}"
    );
}

#[test]
fn constant_weights_choose_exactly_as_the_same_literal_weights() {
    for seed in [1, 7, 12345] {
        assert_eq!(
            run(WeightedByConsts::with_seed(seed), 500),
            run(Weighted::with_seed(seed), 500),
            "seed {seed}"
        );
    }
}

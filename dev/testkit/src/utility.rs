//! `utility`'s rules that both forms keep, as scripts over any tree of the
//! scripted [`Ctx`]: `tests/utility.rs` runs them on compiled trees and
//! `bt-interp/tests/utility.rs` on interpreted agents. Each tree given is a
//! `utility` over the actions `Rec("a")`, `Rec("b")` and `Rec("c")`, scored
//! by `Score("s1")`, `Score("s2")` and `Score("s3")`, in the form each
//! script names.

use std::collections::BTreeMap;

use behaved_runtime::Tree;

use crate::script::{Ctx, F, R, log};

/// A context where the three actions run until told otherwise.
fn running() -> Ctx {
    let mut c = Ctx::new();
    c.set("a", R).set("b", R).set("c", R);
    c
}

/// The on-entry form: the highest score runs, the first on ties, and is
/// kept while it runs (no re-scoring); the next entry scores again.
pub fn on_entry_the_highest_runs_and_is_kept(mut t: impl Tree<Ctx>) {
    let mut c = running();
    c.score("s1", 0.2).score("s2", 0.7).score("s3", 0.7);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter b", "b"]), "0.7 twice: the first");
    c.score("s1", 0.9).score("s2", 0.0).score("s3", 0.0);
    assert_eq!(t.tick_at(&mut c, 1.0), R);
    assert_eq!(c.take(), log(&["b"]), "not re-scored while the choice runs");
    c.set("b", F);
    assert_eq!(t.tick_at(&mut c, 2.0), F, "the chosen child's status");
    assert_eq!(c.take(), log(&["b"]));
    assert_eq!(t.tick_at(&mut c, 3.0), R);
    assert_eq!(c.take(), log(&["enter a", "a"]), "re-scored on the next entry");
}

/// The on-entry form: with no score above zero (0, negative, NaN) it fails
/// without ticking a child.
pub fn nothing_above_zero_fails(mut t: impl Tree<Ctx>) {
    let mut c = running();
    c.score("s2", -1.0).score("s3", f32::NAN);
    assert_eq!(t.tick_at(&mut c, 0.0), F);
    assert_eq!(c.take(), log(&[]));
    assert!(!t.is_running());
}

/// The reactive form with margin 0.1: it switches only past the margin,
/// halting the running child first, and fails (halting it) when no score
/// is above zero.
pub fn reactive_switches_past_the_margin(mut t: impl Tree<Ctx>) {
    let mut c = running();
    c.score("s1", 0.5).score("s2", 0.2);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter a", "a"]));
    c.score("s2", 0.6);
    assert_eq!(t.tick_at(&mut c, 1.0), R);
    assert_eq!(c.take(), log(&["a"]), "0.6 beats 0.5 by less than the margin 0.1");
    c.score("s2", 0.61);
    assert_eq!(t.tick_at(&mut c, 2.0), R);
    assert_eq!(
        c.take(),
        log(&["halt a", "enter b", "b"]),
        "by more: switched in the same tick"
    );
    c.score("s1", 0.0).score("s2", 0.0);
    assert_eq!(
        t.tick_at(&mut c, 3.0),
        F,
        "no score above zero: the running child is halted"
    );
    assert_eq!(c.take(), log(&["halt b"]));
    assert!(!t.is_running());
}

/// The reactive form with margin 0.1: a child whose score fell to zero is
/// left for the best, even one within the margin.
pub fn reactive_never_keeps_a_zero(mut t: impl Tree<Ctx>) {
    let mut c = running();
    c.score("s1", 0.5).score("s3", 0.05);
    t.tick_at(&mut c, 0.0);
    c.take();
    c.score("s1", 0.0);
    assert_eq!(t.tick_at(&mut c, 1.0), R);
    assert_eq!(
        c.take(),
        log(&["halt a", "enter c", "c"]),
        "0.05 is below the margin, but 0 is never kept"
    );
}

/// The weighted form with `best = 2` (`seeded` makes one with a seed):
/// it draws among the best two in proportion to their scores, never the
/// third, and the same seed draws the same.
pub fn weighted_draws_among_the_best_in_proportion<T: Tree<Ctx>>(seeded: impl Fn(u64) -> T) {
    let mut c = Ctx::new();
    c.score("s1", 3.0).score("s2", 1.0).score("s3", 0.5);
    let mut t = seeded(11);
    let mut counts = BTreeMap::<String, usize>::new();
    for i in 0..8_000 {
        t.tick_at(&mut c, f64::from(i));
        for e in c.take() {
            if !e.starts_with("enter") {
                *counts.entry(e).or_default() += 1;
            }
        }
    }
    assert_eq!(counts.get("c"), None, "third best is outside `best`: {counts:?}");
    assert!(
        (5_700..6_300).contains(&counts["a"]),
        "3 : 1 between the best two: {counts:?}"
    );
    let picks = |seed| {
        let (mut t, mut c) = (seeded(seed), Ctx::new());
        c.score("s1", 1.0).score("s2", 1.0).score("s3", 1.0);
        (0..50)
            .flat_map(|i| {
                t.tick_at(&mut c, f64::from(i));
                c.take()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(picks(5), picks(5));
    assert_ne!(picks(5), picks(6));
}

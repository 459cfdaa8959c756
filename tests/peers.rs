//! The other forms of the benchmark trees do the same work as the compiled
//! form, so the benches compare like with like: our interpreter exactly (same
//! statuses, same context, enter and halt hooks included, after every tick);
//! the peer crates (bonsai-bt, behavior-tree-lite) the same leaves ticked in
//! the same order and the same context after every tick.
use behaved_bench_trees as trees;

use trees::forms::{self, Form, T1, T2, T3, T4, Workload, identical};
use trees::{bonsai_forms, btlite_forms, guard::GuardCtx, interp_forms};

/// Ticks `reference` and `other` side by side; `same` compares the contexts.
fn agree<W: Workload, R: Form<W::Ctx>, O: Form<W::Ctx>>(
    mut reference: R,
    mut other: O,
    ticks: u32,
    same: impl Fn(&W::Ctx, &W::Ctx) -> bool,
) -> W::Ctx
where
    W::Ctx: std::fmt::Debug,
{
    let (mut a, mut b) = (W::context(), W::context());
    for tick in 0..ticks {
        let (now_a, now_b) = (W::step(tick, &mut a), W::step(tick, &mut b));
        reference.tick(&mut a, now_a);
        other.tick(&mut b, now_b);
        assert!(same(&a, &b), "{} at tick {tick}:\n{a:?}\n{b:?}", W::NAME);
    }
    a
}

#[test]
fn the_interpreter_does_exactly_what_the_compiled_trees_do() {
    identical::<T1, _, _>(forms::compiled_t1(), interp_forms::t1(), 10_000);
    let (_, t2) = identical::<T2, _, _>(forms::compiled_t2(), interp_forms::t2(), 10_000);
    let (_, t3) = identical::<T3, _, _>(forms::compiled_t3(), interp_forms::t3(), 10_000);
    // T4: its hooks and its subtree (from the library) included, node for node.
    let nodes = interp_forms::definition_t4().nodes().len();
    assert_eq!(nodes, trees::squad::Squad::NODE_COUNT as usize);
    let (_, t4) = identical::<T4, _, _>(forms::compiled_t4(), interp_forms::t4(), 20_000);
    assert!(t2[2] > 1000 && t3.iter().all(|&n| n > 1000), "{t2:?} {t3:?}");
    assert!(t4[0] > 500 && t4[2] > 10_000, "{t4:?}");
}

#[test]
fn t1_peers_do_what_the_compiled_tree_does() {
    let end = agree::<T1, _, _>(forms::compiled_t1(), bonsai_forms::t1(), 10_000, PartialEq::eq);
    assert!(end.attacks > 500, "{} attacks", end.attacks);
    agree::<T1, _, _>(forms::compiled_t1(), btlite_forms::t1(), 10_000, PartialEq::eq);
}

/// The peers have no enter and halt hooks: compare all but the walk counters.
fn same_guard(a: &GuardCtx, b: &GuardCtx) -> bool {
    (a.quest_active, a.night, a.has_bribe, a.dist_to_post, a.said)
        == (b.quest_active, b.night, b.has_bribe, b.dist_to_post, b.said)
}

#[test]
fn t2_peers_do_what_the_compiled_tree_does() {
    let end = agree::<T2, _, _>(forms::compiled_t2(), bonsai_forms::t2(), 10_000, same_guard);
    assert!(end.said.iter().all(|&n| n > 100), "{:?}", end.said);
    agree::<T2, _, _>(forms::compiled_t2(), btlite_forms::t2(), 10_000, same_guard);
}

#[test]
fn t3_peers_do_what_the_compiled_tree_does() {
    let end = agree::<T3, _, _>(forms::compiled_t3(), bonsai_forms::t3(), 3_000, PartialEq::eq);
    assert!(end.visits > 30_000, "{} leaves ticked", end.visits);
    agree::<T3, _, _>(forms::compiled_t3(), btlite_forms::t3(), 3_000, PartialEq::eq);
}

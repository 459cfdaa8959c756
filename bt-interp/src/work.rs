//! The most work one tick of a tree can do, worked out at load time, so that
//! a tree file cannot hang the thread that ticks it (`repeater` nodes of
//! 65,536 nested three deep would tick a leaf 2^48 times in one tick).
//!
//! The figure counts leaf ticks (conditions, actions, waits, constant
//! leaves, jumps, `match` value reads, hooks); the rule per node kind is
//! SEMANTICS.md's "Work per tick": sums over children ticked in turn, the
//! largest of those chosen from, `n` times a bounded loop's body, twice an
//! unbounded loop's. Each kind's rule is the catalogue's
//! ([`NodeKind::work`](behaved_runtime::NodeKind::work)).

use behaved_runtime::catalog::Work;

use crate::definition::{Definition, NO_HOOK};

/// The work figure of every node, by id (saturating at `u64::MAX`).
pub(crate) fn per_node<C>(def: &Definition<C>) -> Vec<u64> {
    let mut work = vec![0u64; def.cold.len()];
    // Pre-order: every child has a larger id than its parent.
    for id in (0..def.cold.len()).rev() {
        let f = &def.cold[id];
        let kids = &def.kids[f.kids as usize..(f.kids + f.n) as usize];
        let w = |i: usize| work[kids[i] as usize];
        let sum = |r: core::ops::Range<usize>| r.map(w).fold(0u64, u64::saturating_add);
        let max = |r: core::ops::Range<usize>| r.map(w).max().unwrap_or(0);
        let all = 0..kids.len();
        let own = match f.op.work() {
            Work::One => 1,
            Work::Sum => sum(all),
            Work::Largest => max(all),
            // One score per child, then the chosen child.
            Work::ScoresAndLargest => max(all.clone()).saturating_add(kids.len() as u64),
            Work::Branches => {
                // Conditions at even positions below 2 * branches; the branches and the else after.
                let conditions = (0..2 * f.a as usize).step_by(2).map(w).fold(0u64, u64::saturating_add);
                let branches = all.filter(|i| *i >= 2 * f.a as usize || i % 2 == 1).map(w).max();
                conditions.saturating_add(branches.unwrap_or(0))
            }
            Work::Match => max(all).saturating_add(1),
            Work::Times => sum(all).saturating_mul(u64::from(f.a)),
            // Reading the items, then up to `max` iterations in the tick.
            Work::TimesAndRead => sum(all).saturating_mul(u64::from(f.a)).saturating_add(1),
            Work::Twice => sum(all).saturating_mul(2),
            // Reading the candidates, one score each, then the body once.
            Work::ReadScoresAndBody => sum(all).saturating_add(u64::from(f.a)).saturating_add(1),
        };
        let hooks = match f.hooks {
            NO_HOOK => 0,
            // `onReset` (the last) never runs in a tick.
            h => def.hooks[h as usize][..6]
                .iter()
                .filter(|(col, _)| *col != NO_HOOK)
                .count() as u64,
        };
        work[id] = own.saturating_add(hooks);
    }
    work
}

/// The nodes whose figure is above `limit` while none of their children's
/// is: each is where the work first grows too large, on its own path.
pub(crate) fn over_limit<C>(def: &Definition<C>, work: &[u64], limit: u64) -> Vec<u32> {
    (0..def.cold.len())
        .filter(|&id| {
            let f = &def.cold[id];
            work[id] > limit
                && def.kids[f.kids as usize..(f.kids + f.n) as usize]
                    .iter()
                    .all(|&k| work[k as usize] <= limit)
        })
        .map(|id| id as u32)
        .collect()
}

//! The invariants of an agent's running state, checked when a saved agent is
//! loaded (so that a damaged or hand-edited state is an error, not a panic or
//! a silent misreading) and by the tests after every tick.
//!
//! Walking down from the root, a node is *active* (it returned `Running` and
//! has not been halted since) when its parent's state says so. An active
//! node's state must name an active child where its kind keeps one; an idle
//! node's activation state must be idle; lifetime counters must be in range.

use behaved_runtime::NodeKind;

use crate::compile::{keeps_choice, state_words};
use crate::definition::{Definition, UNKNOWN_KIND};

/// A parallel child that has not run in this activation, is running, is done.
const IDLE: u32 = 0;
const RUNNING: u32 = 1;
const DONE: u32 = 2;

/// Checks `ints` (and whether the root is `running`) against `def`; the error
/// names the first node whose state is impossible.
pub(crate) fn check_state<C>(def: &Definition<C>, ints: &[u32], running: bool) -> Result<(), String> {
    if ints.len() != def.ints {
        return Err(format!("{} state words, but this tree has {}", ints.len(), def.ints));
    }
    let mut active = vec![false; def.cold.len()];
    active[0] = running;
    for (id, f) in def.cold.iter().enumerate() {
        let a = active[id];
        let s = f.slot as usize;
        let n = f.n as usize;
        let kid = |i: usize| def.kids[f.kids as usize + i] as usize;
        let fail = |what: String| {
            let row = &def.table[id];
            Err(format!(
                "node {id} ({}{}) {what}",
                behaved_format::clipped(&row.label),
                if row.path.is_empty() {
                    String::new()
                } else {
                    format!(" at `{}`", row.path)
                }
            ))
        };
        let v = || ints[s];
        // The resume point `r` of a sequence or selector: a child while it runs, 0 when idle.
        let resumes = |r: usize, active: &mut [bool]| {
            if a {
                if !(0..n).any(|i| kid(i) == r) {
                    return fail(format!(
                        "is running but resumes at node {r}, which is not one of its children"
                    ));
                }
                active[r] = true;
            } else if r != 0 {
                return fail(format!("is idle but resumes at node {r}"));
            }
            Ok(())
        };
        match f.op {
            NodeKind::Sequence | NodeKind::Selector | NodeKind::ReactiveSequence | NodeKind::ReactiveSelector => {
                resumes(v() as usize, &mut active)?;
            }
            NodeKind::SequenceAlways => {
                let (r, failed) = (v() as usize, ints[s + 1]);
                if failed > 1 || (!a && failed != 0) {
                    return fail(format!("has failure flag {failed} (0 or 1, and 0 when idle)"));
                }
                resumes(r, &mut active)?;
            }
            NodeKind::Parallel | NodeKind::ParallelMain => {
                let first = if f.op == NodeKind::Parallel { s + 2 } else { s };
                let states = &ints[first..first + n];
                if let Some(x) = states.iter().find(|&&x| x > DONE) {
                    return fail(format!("has a child in state {x} (0 idle, 1 running, 2 done)"));
                }
                if !a {
                    if ints[s..first + n].iter().any(|&x| x != IDLE) {
                        return fail("is idle but has children that ran".into());
                    }
                } else if f.op == NodeKind::Parallel && (ints[s] >= f.a || ints[s + 1] >= f.b) {
                    return fail("is running but has already met a threshold".into());
                } else if f.op == NodeKind::ParallelMain && ints[s] != RUNNING {
                    return fail("is running but its main child is not".into());
                }
                for (i, &x) in states.iter().enumerate() {
                    if a && x == RUNNING {
                        active[kid(i)] = true;
                    }
                }
            }
            // The chosen child's index + 1 while running.
            op if keeps_choice(op) => {
                let c = v() as usize;
                if a {
                    let branches = f.a as usize;
                    let ok = match f.op {
                        // A branch (2k + 2) or the else child.
                        NodeKind::If | NodeKind::ReactiveIf => {
                            (c >= 2 && c <= 2 * branches && c.is_multiple_of(2)) || (f.b == 1 && c == n)
                        }
                        _ => (1..=n).contains(&c),
                    };
                    if !ok {
                        return fail(format!("is running child {c} (1-based), which it cannot have chosen"));
                    }
                    active[kid(c - 1)] = true;
                } else if c != 0 {
                    return fail(format!("is idle but has chosen child {c}"));
                }
            }
            NodeKind::Shuffle => {
                let r = v() as usize;
                if a {
                    let order = &ints[s + 1..s + 1 + n];
                    let mut seen = vec![false; n];
                    for &o in order {
                        if o as usize >= n || std::mem::replace(&mut seen[o as usize], true) {
                            return fail("has an order that is not a permutation of its children".into());
                        }
                    }
                    if !(1..=n).contains(&r) {
                        return fail(format!("is running but at position {r} of {n}"));
                    }
                    active[kid(order[r - 1] as usize)] = true;
                } else if r != 0 {
                    return fail(format!("is idle but at position {r}"));
                }
            }
            NodeKind::Loop | NodeKind::UntilFail | NodeKind::UntilSuccess | NodeKind::While | NodeKind::Delay => {
                match (a, v()) {
                    (_, 0) => {}
                    (true, 1) => active[kid(n - 1)] = true,
                    (true, x) => return fail(format!("has state {x} (0 or 1)")),
                    (false, x) => return fail(format!("is idle but has state {x}")),
                }
            }
            NodeKind::Repeat | NodeKind::Retry => {
                if a {
                    if v() >= f.a {
                        return fail(format!("has counted {} of {}", v(), f.a));
                    }
                    active[kid(0)] = true;
                } else if v() != 0 {
                    return fail(format!("is idle but has counted {}", v()));
                }
            }
            // 1 + the current item's position while running.
            // `pick`: 1 + the chosen candidate's position while running.
            NodeKind::ForEach | NodeKind::Pick => {
                if a {
                    if v() == 0 || v() > f.a {
                        return fail(format!("is running at item {} of at most {}", v(), f.a));
                    }
                    active[kid(0)] = true;
                } else if v() != 0 {
                    return fail(format!("is idle but at item {}", v()));
                }
            }
            NodeKind::Limit => {
                if v() > f.a || (a && v() == f.a) {
                    return fail(format!("has completed {} times, limit {}", v(), f.a));
                }
                if a {
                    active[kid(0)] = true;
                }
            }
            NodeKind::RunOnce => {
                if v() > 2 || (a && v() != 0) {
                    return fail(format!("has state {} (0 not yet, 1 succeeded, 2 failed)", v()));
                }
                if a {
                    active[kid(0)] = true;
                }
            }
            NodeKind::Condition | NodeKind::Success | NodeKind::Failure | NodeKind::Break | NodeKind::Continue => {
                if a {
                    return fail("is running, which a node of its kind never is".into());
                }
            }
            // A kind with no state words of its own (an action's and a
            // wait's are elsewhere): while it runs, so does its body, by its
            // shape (`Slots::body`: a decorator's one child, a guard's after
            // its condition; a subtree's inlined body, child 0); a leaf has
            // none. So a stateless kind of a known shape needs no line here.
            op if state_words(op, n) == 0 => {
                if a && n > 0 {
                    active[kid(op.slots().body().unwrap_or(0) as usize)] = true;
                }
            }
            // A kind with state words and no line above.
            _ => unreachable!("{UNKNOWN_KIND}"),
        }
    }
    Ok(())
}

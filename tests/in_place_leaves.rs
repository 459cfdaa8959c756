//! Leaf closures are written in place when that is the same program
//! (`bt-macros/src/codegen/in_place.rs`) and keep their closure otherwise:
//! either way a leaf does what its closure says, tick by tick.
#![deny(warnings)]
use behaved::prelude::*;

#[derive(Default, Debug, PartialEq)]
struct Pos {
    x: i32,
    y: i32,
}

#[derive(Default)]
struct Ctx {
    at: Pos,
    n: u32,
    after: u32,
    seen: Vec<u32>,
}

behave! {
    // A struct literal in a condition's body, a typed argument and `_`.
    tree Literal for Ctx {
        sequence {
            cond(|c| c.at == Pos { x: 1, y: 2 }),
            act(|c: &mut Ctx| c.n += 1),
            cond(|_| true),
        }
    }
    // `return` leaves the closure, not the tree: the closure is kept.
    tree Returns for Ctx {
        selector {
            sequence {
                act(|c| {
                    if c.n > 0 {
                        return Status::Failure;
                    }
                    c.n += 1;
                    Status::Success
                }),
                act(|c| c.after += 1),
            },
            act(|c| c.seen.push(0)),
        }
    }
    // `break` in the body's own loop, inside the tree's loop (`repeat`).
    tree Breaks for Ctx {
        repeat(3) {
            act(|c| loop {
                c.n += 1;
                if c.n.is_multiple_of(2) {
                    break Status::Success;
                }
            })
        }
    }
    // A node-local variable, a macro in the body, and bodies in braces
    // that are one expression (no lint: `#![deny(warnings)]` above).
    tree Local for Ctx {
        scope {
            let k: u32 = 10;
            sequence {
                act(|c| { *k += 1; c.seen.push(*k) }),
                cond(|c| matches!(c.seen.last(), Some(&11))),
                act(|c| { c.after += 1 }),
                cond(|c| { let last = c.seen.last(); last.is_some() }),
            }
        }
    }
}

/// A tree whose leaves come from a `macro_rules!` (its hygiene) are written
/// in place as well.
macro_rules! counting_tree {
    ($name:ident, $c:ident) => {
        behave! {
            tree $name for Ctx {
                sequence { act(|$c| $c.n += 1), cond(|$c| $c.n % 2 == 1) }
            }
        }
    };
}
counting_tree!(FromMacro, c);

#[test]
fn a_struct_literal_a_typed_argument_and_a_wildcard() {
    let (mut t, mut c) = (Literal::new(), Ctx::default());
    assert_eq!(t.tick(&mut c), Status::Failure);
    assert_eq!(c.n, 0, "the condition failed first");
    c.at = Pos { x: 1, y: 2 };
    assert_eq!(t.tick(&mut c), Status::Success);
    assert_eq!(c.n, 1);
}

#[test]
fn return_leaves_the_leaf_only() {
    let (mut t, mut c) = (Returns::new(), Ctx::default());
    assert_eq!(t.tick(&mut c), Status::Success);
    assert_eq!((c.n, c.after, c.seen.len()), (1, 1, 0));
    assert_eq!(t.tick(&mut c), Status::Success, "the selector's second child succeeded");
    assert_eq!(
        (c.n, c.after),
        (1, 1),
        "the early return failed the leaf, so the sequence"
    );
    assert_eq!(c.seen, [0], "and the selector went on");
}

#[test]
fn break_in_the_body_ends_the_body_loop_not_the_tree_loop() {
    let (mut t, mut c) = (Breaks::new(), Ctx::default());
    assert_eq!(t.tick(&mut c), Status::Success);
    assert_eq!(
        c.n, 6,
        "three iterations in one tick, each counting to the next even number"
    );
}

#[test]
fn node_local_variables_and_macros_in_bodies() {
    let (mut t, mut c) = (Local::new(), Ctx::default());
    assert_eq!(t.tick(&mut c), Status::Success);
    assert_eq!(c.seen, [11]);
    assert_eq!(t.tick(&mut c), Status::Success, "the scope starts again at 10");
    assert_eq!(c.seen, [11, 11]);
}

#[test]
fn leaves_from_a_macro_rules() {
    let (mut t, mut c) = (FromMacro::new(), Ctx::default());
    assert_eq!(t.tick(&mut c), Status::Success);
    assert_eq!(t.tick(&mut c), Status::Failure);
    assert_eq!(c.n, 2);
}

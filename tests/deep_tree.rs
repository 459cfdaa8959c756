//! A tree nested 1,000 deep (999 decorators and composites around one
//! leaf) compiles and ticks: the macro does not overflow its stack, and the
//! generated code is fine with it. The tree is built by `macro_rules!` from a
//! list of wrapper letters, so no generated file is checked in.
#![recursion_limit = "2048"]

use behaved::prelude::*;

#[derive(Default)]
struct Ctx {
    ticks: u32,
}

/// Wraps `{ body }` once per letter, the innermost wrapper first: `s` a
/// sequence after a `success`, `f` a selector after a `failure`, `i` an
/// `invert`. Then hands the tree to `behave!`.
macro_rules! nest {
    ([] $body:tt) => {
        behave! { tree Deep for Ctx $body }
    };
    ([s $($rest:ident)*] { $($body:tt)* }) => { nest!([$($rest)*] { sequence { success, $($body)* } }); };
    ([f $($rest:ident)*] { $($body:tt)* }) => { nest!([$($rest)*] { selector { failure, $($body)* } }); };
    ([i $($rest:ident)*] { $($body:tt)* }) => { nest!([$($rest)*] { invert { $($body)* } }); };
}

nest!([
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i
    s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s i f i s f s
] {
    act(|c| {
        c.ticks += 1;
        if c.ticks < 3 { Status::Running } else { Status::Success }
    })
});

#[test]
fn a_tree_nested_a_thousand_deep_compiles_and_ticks() {
    // 999 wrappers (498 of them `invert`), a `success` or `failure` beside each
    // of the 501 sequences and selectors, the leaf.
    assert_eq!(Deep::NODE_COUNT, 999 + 501 + 1);
    let leaf = &Deep::NODES[Deep::NODES.len() - 1];
    let mut depth = 1;
    let mut at = leaf.parent;
    while let Some(parent) = at {
        depth += 1;
        at = Deep::NODES[parent.0 as usize].parent;
    }
    assert_eq!(depth, 1000, "the leaf is 1,000 nodes down");
    let (mut tree, mut ctx) = (Deep::new(), Ctx::default());
    assert_eq!(tree.tick(&mut ctx), Status::Running);
    assert_eq!(tree.tick(&mut ctx), Status::Running);
    assert_eq!(tree.tick(&mut ctx), Status::Success, "an even number of inverts");
    assert_eq!(ctx.ticks, 3);
}

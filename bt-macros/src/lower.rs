//! Stage 4: the checked tree as a flat table in depth-first pre-order: each
//! node's id, parent and children, and the state it needs in the generated
//! struct (a resume point per composite, a timestamp per timing node, the leaf
//! value itself, and nothing for stateless nodes).

use syn::Type;

use crate::model::{Count, Kind, Leaf, Node, Tree};

/// One tree, flattened.
pub struct Lowered<'a> {
    /// The tree it came from.
    pub tree: &'a Tree,
    /// Nodes in pre-order; a node's index is its local id.
    pub slots: Vec<Slot<'a>>,
    /// Local ids of subtree nodes, in pre-order.
    pub subtrees: Vec<usize>,
    /// Whether ticking needs the time (timing nodes or subtrees).
    pub uses_time: bool,
    /// Whether the tree needs an RNG (random nodes or subtrees).
    pub uses_rng: bool,
}

/// One node of the flat table.
pub struct Slot<'a> {
    /// Local pre-order id (subtree nodes count as one).
    pub id: usize,
    /// Local id of the parent.
    pub parent: Option<usize>,
    /// Local ids of the children, in order.
    pub children: Vec<usize>,
    /// The node.
    pub node: &'a Node,
    /// What the generated struct stores for it.
    pub state: State,
}

/// The field a node needs in the generated struct.
#[derive(Debug, Clone, PartialEq)]
pub enum State {
    /// Nothing: the node's parent knows all there is to know.
    None,
    /// Running child + 1, or 0 when idle.
    Resume(UInt),
    /// Per-child bit masks: running, succeeded, failed (parallel) or running, done (parallel(main)).
    Masks(UInt, usize),
    /// Completed iterations of a bounded loop.
    Counter(UInt),
    /// Whether the body of an unbounded loop is running.
    Flag,
    /// The time the node entered.
    Time,
    /// A leaf value of this type.
    Leaf(Type),
    /// A subtree of this type.
    Subtree(Type),
}

/// The smallest unsigned integer that holds a node's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum UInt {
    /// `u8`
    U8,
    /// `u16`
    U16,
    /// `u32`
    U32,
    /// `u64`
    U64,
    /// `u128`
    U128,
}

impl UInt {
    /// The smallest type that holds `max`.
    pub fn holding(max: u128) -> UInt {
        match max {
            0..=0xFF => UInt::U8,
            0x100..=0xFFFF => UInt::U16,
            0x1_0000..=0xFFFF_FFFF => UInt::U32,
            0x1_0000_0000..=0xFFFF_FFFF_FFFF_FFFF => UInt::U64,
            _ => UInt::U128,
        }
    }

    /// The smallest type with at least `bits` bits.
    pub fn with_bits(bits: usize) -> UInt {
        match bits {
            0..=8 => UInt::U8,
            9..=16 => UInt::U16,
            17..=32 => UInt::U32,
            33..=64 => UInt::U64,
            _ => UInt::U128,
        }
    }

    /// The type's name.
    pub fn name(self) -> &'static str {
        match self {
            UInt::U8 => "u8",
            UInt::U16 => "u16",
            UInt::U32 => "u32",
            UInt::U64 => "u64",
            UInt::U128 => "u128",
        }
    }
}

/// Flattens a checked tree (it must have exactly one root).
pub fn lower(tree: &Tree) -> Lowered<'_> {
    let mut lowered = Lowered {
        tree,
        slots: Vec::new(),
        subtrees: Vec::new(),
        uses_time: false,
        uses_rng: false,
    };
    visit(&tree.roots[0], None, &mut lowered);
    lowered
}

fn visit<'a>(node: &'a Node, parent: Option<usize>, out: &mut Lowered<'a>) -> usize {
    let id = out.slots.len();
    let n = node.children.len();
    let state = match &node.kind {
        Kind::Sequence | Kind::Selector | Kind::ReactiveSequence | Kind::ReactiveSelector => {
            State::Resume(UInt::holding(n as u128))
        }
        Kind::Parallel { .. } => State::Masks(UInt::with_bits(n), 3),
        Kind::ParallelMain => State::Masks(UInt::with_bits(n), 2),
        Kind::Repeat(c) | Kind::Retry(c) => State::Counter(match c {
            Count::Literal(k) => UInt::holding(u128::from(*k)),
            Count::Expr(_) => UInt::U32,
        }),
        Kind::Loop | Kind::UntilFail | Kind::UntilSuccess => State::Flag,
        Kind::Wait(_) => State::Time,
        Kind::Cond(Leaf::Value { ty, .. }) | Kind::Act(Leaf::Value { ty, .. }) => State::Leaf(ty.clone()),
        Kind::Subtree { ty, .. } => State::Subtree(ty.clone()),
        Kind::Invert
        | Kind::ForceSuccess
        | Kind::ForceFailure
        | Kind::Success
        | Kind::Failure
        | Kind::Running
        | Kind::Cond(Leaf::Inline(_))
        | Kind::Act(Leaf::Inline(_)) => State::None,
        Kind::Invalid => unreachable!("trees with errors are not lowered"),
    };
    match &node.kind {
        Kind::Wait(_) => out.uses_time = true,
        Kind::Subtree { .. } => {
            out.subtrees.push(id);
            out.uses_time = true;
            out.uses_rng = true;
        }
        _ => {}
    }
    out.slots.push(Slot {
        id,
        parent,
        children: Vec::new(),
        node,
        state,
    });
    for child in &node.children {
        let child_id = visit(child, Some(id), out);
        out.slots[id].children.push(child_id);
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::Errors;
    use crate::model;

    /// (id, parent, state) per slot.
    type Rows = Vec<(usize, Option<usize>, State)>;

    fn lowered_states(src: &str) -> (Rows, bool, bool) {
        let mut errors = Errors::default();
        let trees = model::build(syn::parse_str(src).unwrap(), &mut errors);
        assert!(errors.is_empty());
        let l = lower(&trees[0]);
        let rows = l.slots.iter().map(|s| (s.id, s.parent, s.state.clone())).collect();
        (rows, l.uses_time, l.uses_rng)
    }

    #[test]
    fn preorder_ids_parents_and_minimal_state() {
        let (rows, time, rng) = lowered_states(
            "tree T for C { loop { sequence { cond(|c| c.ok), Face, wait(1.0), repeat(300) { success } } } }",
        );
        let face: Type = syn::parse_str("Face").unwrap();
        assert_eq!(
            rows,
            [
                (0, None, State::Flag),
                (1, Some(0), State::Resume(UInt::U8)),
                (2, Some(1), State::None),
                (3, Some(1), State::Leaf(face)),
                (4, Some(1), State::Time),
                (5, Some(1), State::Counter(UInt::U16)),
                (6, Some(5), State::None),
            ]
        );
        assert!(time && !rng);
    }

    #[test]
    fn parallel_masks_fit_the_children() {
        let kids = ["success"; 9].join(", ");
        let (rows, ..) = lowered_states(&format!("tree T for C {{ parallel(all) {{ {kids} }} }}"));
        assert_eq!(rows[0].2, State::Masks(UInt::U16, 3));
    }
}

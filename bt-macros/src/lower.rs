//! Stage 4: the checked tree as a flat table in depth-first pre-order: each
//! node's id, parent and children, and the state it needs in the generated
//! struct (a resume point per composite, a timestamp per timing node, the leaf
//! value itself, and nothing for stateless nodes).

use std::collections::HashSet;

use syn::Type;

use behaved_runtime::NodeKind as K;

use crate::model::{Count, Kind, Leaf, Node, Tree};

/// One tree, flattened.
pub struct Lowered<'a> {
    /// The tree it came from.
    pub tree: &'a Tree,
    /// Nodes in pre-order; a node's index is its local id.
    pub slots: Vec<Slot<'a>>,
    /// Local ids of subtree nodes, in pre-order.
    pub subtrees: Vec<usize>,
    /// The codes that some `break` or `continue` signals ([`break_code`],
    /// [`continue_code`]), so that a loop looks its own up instead of
    /// scanning every node.
    pub jumps: HashSet<u32>,
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
    /// For `break`/`continue`: the code it signals to its loop.
    pub jump: Option<u32>,
    /// Whether a `break`/`continue` below this node targets a loop above it:
    /// the node then checks for the signal after ticking its children.
    pub passes_jump: bool,
    /// Nodes in this node's subtree, itself included (a subtree node counts as one).
    pub size: usize,
}

impl Slot<'_> {
    /// Whether ticking this node may leave a jump signal for its parent.
    pub fn may_jump(&self) -> bool {
        self.jump.is_some() || self.passes_jump
    }
}

/// The signal `break` leaves for the loop with local id `target`.
pub fn break_code(target: usize) -> u32 {
    target as u32 * 2 + 1
}

/// The signal `continue` leaves for the loop with local id `target`.
pub fn continue_code(target: usize) -> u32 {
    target as u32 * 2 + 2
}

/// The field a node needs in the generated struct.
#[derive(Debug, Clone, PartialEq)]
pub enum State {
    /// Nothing: the node's parent knows all there is to know.
    None,
    /// Running child + 1, or 0 when idle.
    Resume(UInt),
    /// Running child + 1 (0 when idle) and whether a child has failed in this activation (`sequence_always`).
    ResumeFailed(UInt),
    /// Per-child bit masks: running, succeeded, failed (parallel) or running, done (parallel(main)).
    Masks(UInt, usize),
    /// Completed iterations of a bounded loop.
    Counter(UInt),
    /// Whether the body of an unbounded loop is running.
    Flag,
    /// The time the node entered (`wait`, `timeout`).
    Time,
    /// The time of the last completion, for the tree's whole life (`cooldown`).
    LastTime,
    /// The entry time and whether the child has started (`delay`).
    Delay,
    /// The drawn order of the children and the position + 1 in it (`shuffle`).
    Shuffle(usize),
    /// Node-local variables (`scope`).
    Vars,
    /// The items of a `for` loop and the current one's position (`ForEachItems`).
    Items,
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
        UInt::with_bits((u128::BITS - max.leading_zeros()) as usize)
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

impl Lowered<'_> {
    /// A hash of the tree's shape (kinds, labels, parents, state types): saved
    /// running state carries it so that state from another tree, or another
    /// version of this one, is rejected instead of misread. Subtrees mix in
    /// their own fingerprints at compile time.
    pub fn fingerprint(&self) -> u64 {
        let mut hash: u64 = 0xCBF2_9CE4_8422_2325;
        let mut eat = |text: &str| {
            for byte in text.bytes().chain([0xFF]) {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0000_0100_0000_01B3);
            }
        };
        for s in &self.slots {
            eat(s.node.kind.catalog().dsl_name());
            eat(&s.node.label);
            eat(&s.parent.map_or(String::new(), |p| p.to_string()));
            eat(&match &s.state {
                State::Leaf(ty) | State::Subtree(ty) => quote::ToTokens::to_token_stream(ty).to_string(),
                other => format!("{other:?}"),
            });
            eat(if s.node.persist { "persist" } else { "" });
        }
        hash
    }
}

/// Flattens a checked tree (it must have exactly one root).
pub fn lower(tree: &Tree) -> Lowered<'_> {
    let mut lowered = Lowered {
        tree,
        slots: Vec::new(),
        subtrees: Vec::new(),
        jumps: HashSet::new(),
        uses_time: false,
        uses_rng: false,
    };
    visit(&tree.roots[0], None, &mut Vec::new(), &mut lowered);
    lowered
}

/// The enclosing loops of a node: label and local id, innermost last.
type Loops = Vec<(Option<String>, usize)>;

fn visit<'a>(node: &'a Node, parent: Option<usize>, loops: &mut Loops, out: &mut Lowered<'a>) -> usize {
    crate::depth::grow(|| visit_here(node, parent, loops, out))
}

fn visit_here<'a>(node: &'a Node, parent: Option<usize>, loops: &mut Loops, out: &mut Lowered<'a>) -> usize {
    let id = out.slots.len();
    let n = node.children.len();
    let resume = || State::Resume(UInt::holding(n as u128));
    let state = match &node.kind {
        Kind::Plain(K::Sequence | K::Selector | K::ReactiveSequence | K::ReactiveSelector | K::Random)
        | Kind::Weighted(_)
        | Kind::Utility { .. }
        | Kind::If { .. }
        | Kind::Match { .. } => resume(),
        Kind::Plain(K::Shuffle) => State::Shuffle(n),
        Kind::Plain(K::SequenceAlways) => State::ResumeFailed(UInt::holding(n as u128)),
        Kind::Parallel { .. } => State::Masks(UInt::with_bits(n), 3),
        Kind::Plain(K::ParallelMain) => State::Masks(UInt::with_bits(n), 2),
        Kind::Repeat(c) | Kind::Retry(c) | Kind::Limit(c) => State::Counter(match c {
            Count::Literal(k) => UInt::holding(u128::from(*k)),
            Count::Expr(_) => UInt::U32,
        }),
        Kind::Plain(K::RunOnce) => State::Counter(UInt::U8),
        Kind::Plain(K::Loop | K::While | K::UntilFail | K::UntilSuccess) => State::Flag,
        Kind::Wait(_) | Kind::Timeout(_) => State::Time,
        Kind::Cooldown(_) => State::LastTime,
        Kind::Delay(_) => State::Delay,
        Kind::Scope(_) => State::Vars,
        Kind::ForEach { .. } | Kind::Pick { .. } => State::Items,
        Kind::Cond(Leaf::Value { ty, .. })
        | Kind::Act(Leaf::Value { ty, .. })
        | Kind::WaitUntil(Leaf::Value { ty, .. }) => State::Leaf(ty.clone()),
        Kind::Subtree { ty, .. } => State::Subtree(ty.clone()),
        // The other kinds that hold nothing but their children keep no
        // state (`invert`, `abort_if`, `success`): a new one with state has
        // its line above, or its code's `self.__nN` names no field and the
        // tests that build every kind (`tests/alloc.rs`,
        // `tests/json_catalogue.rs`) do not compile.
        Kind::Plain(_)
        | Kind::WaitUntil(Leaf::Inline(_))
        | Kind::Break(_)
        | Kind::Continue(_)
        | Kind::Cond(Leaf::Inline(_))
        | Kind::Act(Leaf::Inline(_)) => State::None,
        Kind::Invalid => unreachable!("trees with errors are not lowered"),
    };
    match &node.kind {
        kind if kind.catalog().is_timed() => out.uses_time = true,
        Kind::Plain(K::Random | K::Shuffle) | Kind::Weighted(_) => out.uses_rng = true,
        Kind::Utility { choose, .. } if choose.draws() => out.uses_rng = true,
        Kind::Utility { choose, .. } if choose.every().is_some() => out.uses_time = true,
        Kind::Subtree { .. } => {
            out.subtrees.push(id);
            out.uses_time = true;
            out.uses_rng = true;
        }
        _ => {}
    }
    let jump = match &node.kind {
        Kind::Break(label) | Kind::Continue(label) => {
            let target = match label {
                None => loops.last(),
                Some(l) => loops
                    .iter()
                    .rev()
                    .find(|(name, _)| name.as_deref() == Some(&l.to_string())),
            }
            .expect("checked: every break/continue has a loop")
            .1;
            mark_path(out, parent, target);
            Some(if matches!(node.kind, Kind::Break(_)) {
                break_code(target)
            } else {
                continue_code(target)
            })
        }
        _ => None,
    };
    out.jumps.extend(jump);
    out.slots.push(Slot {
        id,
        parent,
        children: Vec::new(),
        node,
        state,
        jump,
        passes_jump: false,
        size: 1,
    });
    let conditions = node.kind.condition_children();
    for (i, child) in node.children.iter().enumerate() {
        let body = node.kind.is_loop() && i >= conditions;
        if body {
            loops.push((node.loop_label.as_ref().map(ToString::to_string), id));
        }
        let child_id = visit(child, Some(id), loops, out);
        if body {
            loops.pop();
        }
        out.slots[id].children.push(child_id);
        out.slots[id].size += out.slots[child_id].size;
    }
    id
}

/// Marks the nodes from `from` up to (not including) the loop `target` as
/// passing a jump signal upwards.
fn mark_path(out: &mut Lowered, from: Option<usize>, target: usize) {
    let mut at = from;
    while let Some(id) = at {
        if id == target {
            return;
        }
        out.slots[id].passes_jump = true;
        at = out.slots[id].parent;
    }
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
    fn jumps_mark_the_path_to_their_loop() {
        let mut errors = Errors::default();
        let trees = model::build(
            syn::parse_str(
                "tree T for C { 'a: loop { sequence { while |c| c.x { selector { break 'a, continue } }, success } } }",
            )
            .unwrap(),
            &mut errors,
        );
        let l = lower(&trees[0]);
        let rows: Vec<(usize, bool, Option<u32>)> = l.slots.iter().map(|s| (s.id, s.passes_jump, s.jump)).collect();
        assert_eq!(
            rows,
            [
                (0, false, None),
                (1, true, None),
                (2, true, None),
                (3, false, None),
                (4, true, None),
                (5, false, Some(break_code(0))),
                (6, false, Some(continue_code(2))),
                (7, false, None),
            ],
            "loop 0 > sequence 1 > while 2 (cond 3) > selector 4 > break 'a 5, continue 6; success 7"
        );
        assert_eq!(l.jumps, HashSet::from([break_code(0), continue_code(2)]));
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
    fn the_fingerprint_follows_the_shape() {
        let fingerprint = |src: &str| {
            let mut errors = Errors::default();
            let trees = model::build(syn::parse_str(src).unwrap(), &mut errors);
            lower(&trees[0]).fingerprint()
        };
        let a = fingerprint("tree T for C { sequence { Face, wait(1.0) } }");
        assert_eq!(
            a,
            fingerprint("tree Renamed for Other { sequence { Face, wait(1.0) } }")
        );
        assert_ne!(a, fingerprint("tree T for C { sequence { Face, wait(2.0) } }"));
        assert_ne!(a, fingerprint("tree T for C { selector { Face, wait(1.0) } }"));
        assert_ne!(
            a,
            fingerprint("tree T for C { sequence { #[persist] Face, wait(1.0) } }")
        );
    }

    #[test]
    fn parallel_masks_fit_the_children() {
        let kids = ["success"; 9].join(", ");
        let (rows, ..) = lowered_states(&format!("tree T for C {{ parallel(all) {{ {kids} }} }}"));
        assert_eq!(rows[0].2, State::Masks(UInt::U16, 3));
    }
}

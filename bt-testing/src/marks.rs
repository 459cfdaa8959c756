//! The checking mode of sleeping on inputs (`SEMANTICS.md`, "Sleeping on
//! inputs"): a tree that sleeps on a watch is ticked anyway, and a
//! condition whose result changed with no mark of what it reads is reported.
//! It catches a game that changes a watched field without marking it.

use behaved_runtime::{NodeId, NodeKind, NodeRow, Observer, Reads, Status, Tree, Wake};

/// A condition whose result changed while its tree slept on a watch that
/// no mark met: the game changed an input without marking it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnmarkedChange {
    /// The condition's node id.
    pub node: u32,
    /// The condition's label (as written: `cond(|c| c.night)`).
    pub condition: String,
    /// The inputs the sleeping tree watched, by the names given to
    /// [`MarkCheck::new`] whose bit they have (all the fields the condition
    /// may have read; none was marked).
    pub unmarked: Vec<String>,
    /// The condition's result before, and now.
    pub was: Status,
    /// Its result on the checking tick.
    pub now: Status,
}

impl std::fmt::Display for UnmarkedChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "condition {} (node {}) changed from {:?} to {:?} with no mark of its inputs ({}): the game changed one without marking it",
            self.condition,
            self.node,
            self.was,
            self.now,
            self.unmarked.join(", ")
        )
    }
}

/// Ticks a tree as a scheduler would (at its wake, or on a marked change
/// that meets its watch) and, in between, ticks it anyway to check that
/// nothing it watches changed unmarked (a skipped tick repeats the one
/// before, so the extra ticks change nothing when the game keeps its promise).
///
/// ```
/// use behaved::prelude::*;
/// use behaved_testing::MarkCheck;
///
/// struct Ctx { night: bool }
/// behave! {
///     tree Guard for Ctx { reactive if |c| c.night { running } else { running } }
/// }
/// let (mut tree, mut ctx) = (Guard::new(), Ctx { night: false });
/// let mut check = MarkCheck::new(&["night"]);
/// check.frame(&mut tree, &mut ctx, 0.0, Reads::NONE).unwrap();
/// ctx.night = true; // changed, and not marked
/// let err = check.frame(&mut tree, &mut ctx, 1.0, Reads::NONE).unwrap_err();
/// assert_eq!(err.unmarked, ["night"]);
/// ```
#[derive(Debug)]
pub struct MarkCheck {
    fields: Vec<(String, Reads)>,
    wake: Wake,
    /// The last status of each condition ticked, by node id.
    last: Vec<Option<Status>>,
    /// The conditions ticked in this tick.
    seen: Vec<(u32, Status)>,
}

impl MarkCheck {
    /// A check for a context whose fields (those conditions may read) are `fields`.
    pub fn new(fields: &[&str]) -> MarkCheck {
        MarkCheck {
            fields: fields.iter().map(|f| (f.to_string(), Reads::field(f))).collect(),
            wake: Wake::NextTick,
            last: Vec::new(),
            seen: Vec::new(),
        }
    }

    /// One frame at `now`, on which the game marked `changed`: ticks the
    /// tree, and returns whether it needed the tick (due, or woken by the
    /// marks), or the condition that changed unmarked while it slept.
    pub fn frame<C: ?Sized, T: Tree<C>>(
        &mut self,
        tree: &mut T,
        ctx: &mut C,
        now: f64,
        changed: Reads,
    ) -> Result<bool, UnmarkedChange> {
        let needed = self.wake.is_due(now) || self.wake.wakes_on(changed);
        self.seen.clear();
        tree.tick_observed(ctx, now, &mut Seen(&mut self.seen));
        let watched = match self.wake {
            Wake::Watch { reads, .. } if !needed => Some(reads),
            _ => None,
        };
        self.wake = tree.next_wake(now);
        for &(node, status) in &self.seen {
            let i = node as usize;
            if self.last.len() <= i {
                self.last.resize(i + 1, None);
            }
            let was = self.last[i].replace(status);
            let row = &tree.nodes()[i];
            if let (Some(reads), Some(was)) = (watched, was)
                && was != status
                && matches!(row.kind(), NodeKind::Condition)
            {
                return Err(UnmarkedChange {
                    node,
                    condition: row.label().to_string(),
                    unmarked: self
                        .fields
                        .iter()
                        .filter(|(_, r)| r.meets(reads))
                        .map(|(f, _)| f.clone())
                        .collect(),
                    was,
                    now: status,
                });
            }
        }
        Ok(needed)
    }
}

/// Records the statuses of the nodes a tick completed.
struct Seen<'a>(&'a mut Vec<(u32, Status)>);

impl Observer for Seen<'_> {
    fn ticked(&mut self, node: NodeId, status: Status) {
        if status != Status::Running {
            self.0.push((node.0, status));
        }
    }
}

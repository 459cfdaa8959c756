//! Data flow: what each node of a tree reads of the context (the inputs a
//! sleeping tree watches, `SEMANTICS.md` "Sleeping on inputs"), and why a
//! live agent woke. What the studio's data-flow view draws.

use std::collections::BTreeSet;

use behaved_runtime::catalog::Parameters;
use behaved_runtime::{NodeKind, Reads, Wake};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::NodeRow;

/// The key of a tick's context values under which the wake that started
/// the tick is recorded ([`Woke::value`]): a trace's readers that do not
/// know it see one more context value, and the studio draws it.
pub const WOKE_KEY: &str = "behaved.woke";

/// What one node reads of the context when it runs its own code (a
/// condition, an action, a `match` value, a `for` list, utility scores).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeFlow {
    /// The context fields it reads, sorted (empty for a node that runs no
    /// code of the user's); `None` when they are unknown (an action, a
    /// condition that declares nothing), which a reactive node re-checks on
    /// every tick.
    pub reads: Option<Vec<String>>,
    /// The blackboard entries its ports read (`{key}` parameters: `Port`
    /// and `OutPort`), where known; absent in JSON when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries_read: Vec<String>,
    /// Those of `entries_read` that its output ports write (`OutPort`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries_written: Vec<String>,
}

/// What every node of a tree reads, one [`NodeFlow`] per node table row.
///
/// ```
/// use behaved::prelude::*;
/// use behaved_observe::DataFlow;
/// struct Ctx { night: bool, hp: u32 }
/// behave! { tree Guard for Ctx { reactive selector { cond(|c| c.night), act(|c: &mut Ctx| { c.hp += 1; Status::Running }) } } }
/// let flow = DataFlow::compiled(Guard::NODES, Guard::READS);
/// assert_eq!(flow.nodes[1].reads, Some(vec!["night".to_string()]));
/// assert_eq!(flow.nodes[2].reads, None, "an action's reads are unknown");
/// assert_eq!(flow.readers("night").collect::<Vec<_>>(), [1]);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataFlow {
    /// One entry per node, by id.
    pub nodes: Vec<NodeFlow>,
}

/// Whether nodes of `kind` run code of the user's (whose reads must be
/// declared or found); the others read nothing of their own.
pub fn runs_user_code(kind: NodeKind) -> bool {
    matches!(
        kind.params(),
        Parameters::Leaf | Parameters::Cases | Parameters::ForEach | Parameters::Utility
    )
}

impl DataFlow {
    /// The data flow of the tree whose node table is `nodes`: each node that
    /// runs the user's code reads `reads(id)` (`None`: unknown); the others
    /// read nothing.
    pub fn new<R: NodeRow>(nodes: &[R], mut reads: impl FnMut(u32) -> Option<Vec<String>>) -> DataFlow {
        let nodes = nodes
            .iter()
            .map(|row| NodeFlow {
                reads: if runs_user_code(row.kind()) {
                    reads(row.id()).map(|mut f| {
                        f.sort();
                        f.dedup();
                        f
                    })
                } else {
                    Some(Vec::new())
                },
                entries_read: Vec::new(),
                entries_written: Vec::new(),
            })
            .collect();
        DataFlow { nodes }
    }

    /// The data flow of a tree `behave!` compiled, from its `NODES` and
    /// `READS` (the nodes whose reads the macro found; the others unknown).
    pub fn compiled<R: NodeRow>(nodes: &[R], reads: &[(u32, &[&str])]) -> DataFlow {
        DataFlow::new(nodes, |id| {
            reads
                .iter()
                .find(|(node, _)| *node == id)
                .map(|(_, fields)| fields.iter().map(|f| (*f).to_owned()).collect())
        })
    }

    /// The data flow of a tree that answers what each node reads by its
    /// `read_fields(id)` (a compiled tree's method, which adds its condition
    /// values' declarations to `READS`; an interpreted definition's).
    pub fn from_read_fields<'a, R: NodeRow>(
        nodes: &[R],
        mut read_fields: impl FnMut(u32) -> Option<&'a [&'a str]>,
    ) -> DataFlow {
        DataFlow::new(nodes, |id| {
            read_fields(id).map(|fields| fields.iter().map(|f| (*f).to_owned()).collect())
        })
    }

    /// This data flow with the blackboard entries each node's ports read
    /// and write, `entries(id)` (an interpreted definition's `entries`).
    #[must_use]
    pub fn with_entries<'a>(mut self, mut entries: impl FnMut(u32) -> (&'a [String], &'a [String])) -> DataFlow {
        for (id, node) in self.nodes.iter_mut().enumerate() {
            let (read, written) = entries(id as u32);
            node.entries_read = read.to_vec();
            node.entries_written = written.to_vec();
        }
        self
    }

    /// The nodes that read `field`, in id order.
    pub fn readers<'a>(&'a self, field: &'a str) -> impl Iterator<Item = u32> + 'a {
        self.nodes
            .iter()
            .enumerate()
            .filter(move |(_, n)| n.reads.as_ref().is_some_and(|r| r.iter().any(|f| f == field)))
            .map(|(id, _)| id as u32)
    }

    /// Every field some node reads, sorted.
    pub fn fields(&self) -> BTreeSet<&str> {
        self.nodes
            .iter()
            .flat_map(|n| n.reads.iter().flatten())
            .map(String::as_str)
            .collect()
    }

    /// The fields some node reads whose input is in `changed`: the names of
    /// a change, as far as this tree knows them.
    pub fn names_of(&self, changed: Reads) -> Vec<&str> {
        self.fields()
            .into_iter()
            .filter(|f| Reads::field(f).meets(changed))
            .collect()
    }
}

/// Why a tree was ticked: what its last wake ([`Tree::next_wake`](behaved_runtime::Tree::next_wake)
/// after its last tick) said, against the time and the marked changes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Woke {
    /// Its first tick (or the first since it finished): nothing to wait for.
    Start,
    /// Its last wake was the next tick: something it runs has unknown
    /// inputs or runs every tick.
    EveryTick,
    /// The time its last wake named came.
    Timer,
    /// A marked change of inputs it watches (these, the change's inputs
    /// among the watched ones).
    Changed(Reads),
    /// Ticked before its wake was due, with no change it watches (the
    /// game's own call: an explicit wake, or a loop that ticks every frame).
    Asked,
}

impl Woke {
    /// Why a tree whose last wake was `last` (`None` before its first tick,
    /// or after it finished) is ticked at `now`, with the changes marked
    /// since its last tick `changed`.
    pub fn of(last: Option<Wake>, now: f64, changed: Reads) -> Woke {
        match last {
            None => Woke::Start,
            Some(Wake::NextTick) => Woke::EveryTick,
            Some(Wake::Watch { reads, .. }) if reads.meets(changed) => Woke::Changed(Reads(reads.0 & changed.0)),
            Some(w) if w.is_due(now) => Woke::Timer,
            Some(_) => Woke::Asked,
        }
    }

    /// The wake's name in traces and the studio: `start`, `every_tick`,
    /// `timer`, `changed`, `asked`.
    pub fn name(self) -> &'static str {
        match self {
            Woke::Start => "start",
            Woke::EveryTick => "every_tick",
            Woke::Timer => "timer",
            Woke::Changed(_) => "changed",
            Woke::Asked => "asked",
        }
    }

    /// The wake as recorded under [`WOKE_KEY`]: `{"cause": name}`, and for a
    /// change `"inputs"`, the names of its inputs that `flow`'s nodes read
    /// (sorted), with `"unnamed": true` when some of its inputs are none of
    /// those names.
    pub fn value(self, flow: Option<&DataFlow>) -> Value {
        match self {
            Woke::Changed(bits) => {
                let names: Vec<&str> = flow.map(|f| f.names_of(bits)).unwrap_or_default();
                let named = Reads::fields(&names);
                let unnamed = bits.0 & !named.0 != 0;
                let mut v = json!({ "cause": self.name(), "inputs": names });
                if unnamed {
                    v["unnamed"] = Value::Bool(true);
                }
                v
            }
            _ => json!({ "cause": self.name() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TraceNode;

    fn row(id: u32, parent: Option<u32>, kind: NodeKind) -> TraceNode {
        TraceNode {
            id,
            parent,
            kind,
            label: format!("n{id}"),
            line: 0,
        }
    }

    #[test]
    fn nodes_of_user_code_read_what_is_declared_and_the_others_nothing() {
        let table = [
            row(0, None, NodeKind::ReactiveSelector),
            row(1, Some(0), NodeKind::Condition),
            row(2, Some(0), NodeKind::Condition),
            row(3, Some(0), NodeKind::Action),
        ];
        let flow = DataFlow::compiled(&table, &[(1, &["pos", "night", "pos"]), (2, &[])]);
        let reads: Vec<_> = flow.nodes.iter().map(|n| n.reads.clone()).collect();
        assert_eq!(
            reads,
            [
                Some(vec![]),
                Some(vec!["night".to_owned(), "pos".to_owned()]),
                Some(vec![]),
                None
            ]
        );
        assert_eq!(flow.readers("pos").collect::<Vec<_>>(), [1]);
        assert_eq!(flow.names_of(Reads::field("night") | Reads::field("hp")), ["night"]);
    }

    #[test]
    fn a_wake_is_named_by_the_last_wake_the_time_and_the_marks() {
        let night = Reads::field("night");
        let watch = Wake::Watch { reads: night, at: 5.0 };
        assert_eq!(Woke::of(None, 0.0, Reads::NONE), Woke::Start);
        assert_eq!(Woke::of(Some(Wake::NextTick), 1.0, night), Woke::EveryTick);
        assert_eq!(
            Woke::of(Some(watch), 1.0, night | Reads::field("hp")),
            Woke::Changed(night)
        );
        assert_eq!(Woke::of(Some(watch), 5.0, Reads::field("hp")), Woke::Timer);
        assert_eq!(Woke::of(Some(watch), 1.0, Reads::NONE), Woke::Asked);
        assert_eq!(Woke::of(Some(Wake::At(2.0)), 2.0, night), Woke::Timer);
        assert_eq!(Woke::of(Some(Wake::Never), 2.0, night), Woke::Asked);
    }

    #[test]
    fn a_change_is_recorded_by_the_names_the_tree_reads() {
        let table = [row(0, None, NodeKind::Condition)];
        let flow = DataFlow::compiled(&table, &[(0, &["night"])]);
        let change = Woke::Changed(Reads::field("night"));
        assert_eq!(
            change.value(Some(&flow)),
            json!({"cause": "changed", "inputs": ["night"]})
        );
        // A bit no name of the tree has: said so.
        let night = Reads::field("night");
        let other = ["hp", "pos", "seen", "alarm"]
            .into_iter()
            .map(Reads::field)
            .find(|r| *r != night)
            .expect("not all on one bit");
        assert_eq!(
            Woke::Changed(night | other).value(Some(&flow)),
            json!({"cause": "changed", "inputs": ["night"], "unnamed": true})
        );
        assert_eq!(Woke::Timer.value(None), json!({"cause": "timer"}));
    }
}

//! BT.CPP's built-in nodes: which of ours each one is, with the ports it
//! takes, or why it is refused (SEMANTICS.md, "BehaviorTree.CPP XML").

use behaved_runtime::NodeKind;

/// What a BT.CPP built-in element becomes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Builtin {
    /// One of our kinds, with the BT.CPP ports it reads (other attributes
    /// are errors).
    Ours(NodeKind, &'static [&'static str]),
    /// No counterpart: the message's reason and what to write instead.
    Refused(&'static str),
}

/// Ports of `Parallel`.
pub(crate) const PARALLEL_PORTS: &[&str] = &["success_count", "failure_count"];

/// Our kind for each BT.CPP built-in that has one, with its ports, in the
/// order the writer prefers (the first name of a kind is the one written).
const OURS: &[(&str, NodeKind, &[&str])] = &[
    ("Sequence", NodeKind::Sequence, &[]),
    ("ReactiveSequence", NodeKind::ReactiveSequence, &[]),
    ("Fallback", NodeKind::Selector, &[]),
    ("ReactiveFallback", NodeKind::ReactiveSelector, &[]),
    ("Parallel", NodeKind::Parallel, PARALLEL_PORTS),
    ("IfThenElse", NodeKind::If, &[]),
    ("WhileDoElse", NodeKind::ReactiveIf, &[]),
    ("Inverter", NodeKind::Invert, &[]),
    ("ForceSuccess", NodeKind::ForceSuccess, &[]),
    ("ForceFailure", NodeKind::ForceFailure, &[]),
    ("Repeat", NodeKind::Repeat, &["num_cycles"]),
    ("RetryUntilSuccessful", NodeKind::Retry, &["num_attempts"]),
    ("Timeout", NodeKind::Timeout, &["msec"]),
    ("Delay", NodeKind::Delay, &["delay_msec"]),
    ("RunOnce", NodeKind::RunOnce, &["then_skip"]),
    ("Sleep", NodeKind::Wait, &["msec"]),
    ("AlwaysSuccess", NodeKind::Success, &[]),
    ("AlwaysFailure", NodeKind::Failure, &[]),
];

/// BT.CPP built-ins with no counterpart, with why and what to write instead.
const REFUSED: &[(&str, &str)] = &[
    (
        "SequenceWithMemory",
        "after a failure it resumes at the failed child, where our sequence starts again from the first; write `Sequence` if that is meant",
    ),
    (
        "AsyncSequence",
        "it returns RUNNING after each child's success and BT.CPP ticks the tree again from its root, where ours goes on in the same tick; write `Sequence`",
    ),
    (
        "AsyncFallback",
        "it returns RUNNING after each child's failure and BT.CPP ticks the tree again from its root, where ours goes on in the same tick; write `Fallback`",
    ),
    (
        "ParallelAll",
        "it runs every child to completion and then counts failures; write `Parallel` with `success_count` and `failure_count`",
    ),
    (
        "KeepRunningUntilFailure",
        "it fails when its child fails and waits a tick after each success, where our `untilFail` succeeds and goes on at once; write a `Repeat` or an `untilFail` in JSON",
    ),
    ("TryCatch", "write a `Fallback` whose second child does the cleanup"),
    (
        "ManualSelector",
        "it asks a person which child to run; choose in a registered condition under an `IfThenElse`",
    ),
    (
        "Switch2",
        "it reads the blackboard; read the value in a leaf, or write a `reactiveMatch` in JSON",
    ),
    (
        "Switch3",
        "it reads the blackboard; read the value in a leaf, or write a `reactiveMatch` in JSON",
    ),
    (
        "Switch4",
        "it reads the blackboard; read the value in a leaf, or write a `reactiveMatch` in JSON",
    ),
    (
        "Switch5",
        "it reads the blackboard; read the value in a leaf, or write a `reactiveMatch` in JSON",
    ),
    (
        "Switch6",
        "it reads the blackboard; read the value in a leaf, or write a `reactiveMatch` in JSON",
    ),
    (
        "LoopInt",
        "it pops a blackboard queue; write a `forEach` over a registered list in JSON",
    ),
    (
        "LoopDouble",
        "it pops a blackboard queue; write a `forEach` over a registered list in JSON",
    ),
    (
        "LoopString",
        "it pops a blackboard queue; write a `forEach` over a registered list in JSON",
    ),
    (
        "LoopBool",
        "it pops a blackboard queue; write a `forEach` over a registered list in JSON",
    ),
    (
        "PopFromQueue",
        "it pops a blackboard queue; write a `forEach` over a registered list in JSON",
    ),
    ("SetBlackboard", "it writes the blackboard; write a registered action"),
    ("UnsetBlackboard", "it writes the blackboard; write a registered action"),
    (
        "WasEntryUpdated",
        "it reads the blackboard; write a registered condition",
    ),
    (
        "SkipUnlessUpdated",
        "it reads the blackboard and returns SKIPPED; write a registered condition",
    ),
    (
        "WaitValueUpdate",
        "it reads the blackboard; write a registered condition",
    ),
    (
        "Script",
        "it runs a script of BT.CPP's language; write a registered action",
    ),
    (
        "ScriptCondition",
        "it runs a script of BT.CPP's language; write a registered condition",
    ),
    (
        "Precondition",
        "it runs a script of BT.CPP's language; write an `IfThenElse` with a registered condition",
    ),
];

/// The pre- and post-condition attributes BT.CPP gives every node.
const SCRIPT_ATTRIBUTES: &[&str] = &[
    "_skipIf",
    "_successIf",
    "_failureIf",
    "_while",
    "_onSuccess",
    "_onFailure",
    "_onHalted",
    "_post",
];

/// What the BT.CPP element or `ID` `name` is, if it is a built-in.
pub(crate) fn builtin(name: &str) -> Option<Builtin> {
    OURS.iter()
        .find(|(n, _, _)| *n == name)
        .map(|&(_, kind, ports)| Builtin::Ours(kind, ports))
        .or_else(|| {
            REFUSED
                .iter()
                .find(|(n, _)| *n == name)
                .map(|&(_, why)| Builtin::Refused(why))
        })
}

/// The BT.CPP name that writes `kind`, if it has one.
pub(crate) fn btcpp_name(kind: NodeKind) -> Option<&'static str> {
    OURS.iter().find(|(_, k, _)| *k == kind).map(|(n, _, _)| *n)
}

/// Why the attribute `name` (which starts with `_`) is refused.
pub(crate) fn underscore_refusal(name: &str) -> String {
    if SCRIPT_ATTRIBUTES.contains(&name) {
        format!(
            "the attribute `{name}` is one of BT.CPP's pre- and post-conditions, scripts with no counterpart here; wrap the node in an `IfThenElse` with a registered condition, or call a registered action after it"
        )
    } else {
        format!(
            "unknown attribute `{name}`; BT.CPP's special attributes other than `_description` and `_autoremap` on a `SubTree` have no counterpart"
        )
    }
}

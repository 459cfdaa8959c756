//! One tree, one meaning: every rule `behave!` enforces on a tree's shape
//! (its `check.rs` and the `tests/ui/{arity,args,control}` cases) is a rule
//! of the JSON model too, so the JSON loader refuses the same trees.

mod support;

use behaved_format::model::{MAX_PARALLEL, Node, Params, Policy};
use behaved_runtime::NodeKind;
use support::{A, refusal};

/// `n` copies of the action, as a JSON array's items.
fn actions(n: usize) -> String {
    vec![A; n].join(", ")
}

#[test]
fn every_shape_error_of_the_macro_is_refused_by_the_json_loader() {
    // (the macro's UI test, the same tree in JSON, the JSON loader's message)
    let table: Vec<(&str, String, &str)> = vec![
        (
            "control/label_shadows_label",
            r#"{"type": "loop", "label": "a", "child": {"type": "repeater", "count": 3, "label": "a",
                "child": {"type": "break", "label": "a"}}}"#
                .into(),
            "at `child.label`: label \"a\" shadows the label of an enclosing loop: a \"break\" or \"continue\" naming it could mean either loop",
        ),
        (
            "control/break_outside_loop",
            r#"{"type": "sequence", "children": [{"type": "break"}]}"#.into(),
            "at `children[0]`: \"break\" is not inside a loop (\"loop\", \"repeater\", \"retry\", \"while\", \"untilFail\", \"untilSuccess\", \"forEach\")",
        ),
        (
            "control/continue_outside_loop",
            r#"{"type": "continue"}"#.into(),
            "at ``: \"continue\" is not inside a loop (\"loop\", \"repeater\", \"retry\", \"while\", \"untilFail\", \"untilSuccess\", \"forEach\")",
        ),
        (
            "control/unknown_label",
            r#"{"type": "loop", "label": "outer", "child": {"type": "break", "label": "outr"}}"#.into(),
            "at `child.label`: no enclosing loop is labelled \"outr\"; did you mean \"outer\"?",
        ),
        (
            "control/label_on_non_loop",
            format!(r#"{{"type": "sequence", "label": "a", "children": [{A}]}}"#),
            "at `label`: unknown field \"label\" for \"sequence\"; its fields are \"type\", \"id\", \"name\", \"children\", \"onEnter\", \"onSuccess\", \"onFailure\", \"onExit\", \"onPreTick\", \"onTick\" or \"onReset\"",
        ),
        (
            "arity/leaf_with_children",
            format!(r#"{{"type": "wait", "seconds": 1, "children": [{A}]}}"#),
            "at `children`: \"wait\" is a leaf and takes no children",
        ),
        (
            "arity/decorator_without_child",
            r#"{"type": "inverter"}"#.into(),
            "at ``: \"inverter\" needs exactly one child in \"child\": a node",
        ),
        (
            "arity/decorator_with_two_children",
            format!(r#"{{"type": "inverter", "child": [{A}, {A}]}}"#),
            "at `child`: \"inverter\" takes exactly one child, found an array; wrap the nodes in a \"sequence\" or \"selector\"",
        ),
        (
            "arity/empty_composite",
            r#"{"type": "selector", "children": []}"#.into(),
            "at `children`: \"selector\" needs at least one child, found an empty array",
        ),
        (
            "arity/parallel_threshold_too_large",
            format!(r#"{{"type": "parallel", "success": 3, "failure": 1, "children": [{A}, {A}]}}"#),
            "at `success`: \"success\": 3 can never be met: the parallel has 2 children",
        ),
        (
            "check.rs: a parallel of more than 128 children",
            format!(
                r#"{{"type": "parallel", "policy": "requireAll", "children": [{}]}}"#,
                actions(129)
            ),
            "at `children`: \"parallel\" can have at most 128 children, found 129",
        ),
        (
            "check.rs: a parallelMain of more than 128 children",
            format!(r#"{{"type": "parallelMain", "children": [{}]}}"#, actions(129)),
            "at `children`: \"parallelMain\" can have at most 128 children, found 129",
        ),
        (
            "check.rs: a shuffle of more than 128 children",
            format!(r#"{{"type": "shuffle", "children": [{}]}}"#, actions(129)),
            "at `children`: \"shuffle\" can have at most 128 children, found 129",
        ),
        (
            "args/repeat_zero",
            format!(r#"{{"type": "repeater", "count": 0, "child": {A}}}"#),
            "at `count`: \"count\" must be a positive integer, found the number 0",
        ),
        (
            "args/repeat_negative",
            format!(r#"{{"type": "repeater", "count": -2, "child": {A}}}"#),
            "at `count`: \"count\" must be a positive integer, found the number -2",
        ),
        (
            "args/limit_zero",
            format!(r#"{{"type": "limit", "count": 0, "child": {A}}}"#),
            "at `count`: \"count\" must be a positive integer, found the number 0",
        ),
        (
            "args/zero_weight",
            format!(r#"{{"type": "weighted", "weights": [1, 0], "children": [{A}, {A}]}}"#),
            "at `weights[1]`: a weight must be a positive integer, found the number 0",
        ),
        (
            "args/negative_weight",
            format!(r#"{{"type": "weighted", "weights": [1, -1], "children": [{A}, {A}]}}"#),
            "at `weights[1]`: a weight must be a positive integer, found the number -1",
        ),
        (
            "args/duration_nan_const (negative)",
            format!(r#"{{"type": "timeout", "seconds": -1, "child": {A}}}"#),
            "at `seconds`: \"seconds\" must be a number >= 0, found the number -1",
        ),
        (
            "args/duration_nan_const (not a number)",
            r#"{"type": "wait", "seconds": "NaN"}"#.into(),
            "at `seconds`: \"seconds\" must be a number >= 0, found a string \"NaN\"",
        ),
        (
            "args/parallel_without_policy",
            format!(r#"{{"type": "parallel", "children": [{A}]}}"#),
            "at ``: \"parallel\" needs \"policy\": \"requireAll\" or \"requireOne\", or thresholds \"success\": S and/or \"failure\": F",
        ),
        (
            "control/match_without_arms",
            r#"{"type": "match", "value": {"type": "v"}, "cases": []}"#.into(),
            "at ``: \"match\" needs \"default\": the node run when no case matches (the loader cannot know every value)",
        ),
    ];
    let mut wrong = Vec::new();
    for (case, json, expected) in &table {
        let got = refusal(json);
        if got != [*expected] {
            wrong.push(format!("{case}: {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_parallel_built_in_code_has_at_most_128_children_too() {
    let leaf = || Node::new(NodeKind::Success, Params::None, vec![]).unwrap();
    let node = |kind, params, n| Node::new(kind, params, (0..n).map(|_| leaf()).collect());
    for (kind, params) in [
        (NodeKind::Parallel, Params::Parallel(Policy::RequireAll)),
        (NodeKind::ParallelMain, Params::None),
        (NodeKind::Shuffle, Params::None),
    ] {
        assert!(node(kind, params.clone(), MAX_PARALLEL).is_ok(), "{kind:?}");
        assert!(node(kind, params, MAX_PARALLEL + 1).is_err(), "{kind:?}");
    }
    assert!(node(NodeKind::Sequence, Params::None, MAX_PARALLEL + 1).is_ok());
}

//! Load-time checks: every problem is reported, each at its JSON path with
//! what was expected there; malformed input is an error, never a panic.
mod support;

use behaved_interp::{Library, Registry};
use serde_json::json;
use support::*;

fn errs(v: serde_json::Value) -> Vec<String> {
    errors(&v.to_string())
}

#[test]
fn unknown_node_types_get_a_suggestion() {
    assert_eq!(
        errs(json!({"type": "sequnce", "children": [act("a")]})),
        ["at `type`: unknown node type \"sequnce\"; did you mean \"sequence\"?"]
    );
    assert_eq!(
        errs(many(
            "sequence",
            vec![act("a"), json!({"type": "force_success", "child": act("a")})]
        )),
        ["at `children[1].type`: unknown node type \"force_success\"; did you mean \"succeeder\"?"],
        "a DSL keyword points to its JSON name"
    );
    let msg = &errs(json!({"type": "banana"}))[0];
    assert!(
        msg.starts_with("at `type`: unknown node type \"banana\"; expected one of \"sequence\", \"selector\""),
        "{msg}"
    );
}

#[test]
fn the_catalogue_of_node_types_is_listed_once_per_report() {
    let tree = many(
        "sequence",
        vec![
            json!({"type": "banana"}),
            json!({"type": "sequnce", "children": []}),
            json!({"type": ""}),
            json!({"type": "kiwi"}),
        ],
    );
    let msgs = errs(tree);
    assert!(
        msgs[0].starts_with(
            "at `children[0].type`: unknown node type \"banana\"; expected one of \"sequence\", \"selector\""
        ),
        "{msgs:?}"
    );
    assert_eq!(
        msgs[1..],
        [
            "at `children[1].type`: unknown node type \"sequnce\"; did you mean \"sequence\"?",
            "at `children[2].type`: the node type is empty; expected one of the node types listed at `children[0].type`",
            "at `children[3].type`: unknown node type \"kiwi\"; expected one of the node types listed at `children[0].type`",
        ]
    );
    // A library's subtrees make one report: the catalogue is listed once in it.
    let lib = json!({"subtrees": {"a": {"type": "banana"}, "b": {"type": "kiwi"}}});
    let msgs = Library::from_json(&lib.to_string()).unwrap_err().messages();
    assert!(
        msgs[0].starts_with("at `subtrees[\"a\"].type`: unknown node type \"banana\"; expected one of \"sequence\""),
        "{msgs:?}"
    );
    assert_eq!(
        msgs[1],
        "at `subtrees[\"b\"].type`: unknown node type \"kiwi\"; expected one of the node types listed at `subtrees[\"a\"].type`"
    );
}

/// A misspelt parameter is an error even where serde would ignore it (a
/// type without `deny_unknown_fields`, an optional parameter), unless the
/// parameter type takes the other fields itself (FORMAT.md, "Leaf values").
#[test]
fn a_parameter_the_leaf_does_not_take_is_an_error_with_a_hint() {
    #[derive(serde::Deserialize)]
    #[allow(dead_code)] // only deserialized
    struct MoveParams {
        target: String,
        #[serde(default)]
        speed: Option<f64>,
    }
    #[derive(serde::Deserialize)]
    struct Open {
        #[serde(flatten)]
        _rest: serde_json::Map<String, serde_json::Value>,
    }
    let mut r = registry();
    r.action("MoveTo", |_: MoveParams| Rec("move"))
        .action("open", |_: Open| Rec("open"));
    let tree = many(
        "sequence",
        vec![
            json!({"type": "action", "action": {"type": "MoveTo", "target": "gate", "spped": 2}}),
            json!({"type": "action", "action": {"type": "MoveTo", "target": "gate", "colour": "red", "sped": 1}}),
            json!({"type": "action", "action": {"type": "open", "anything": 1}}),
        ],
    );
    assert_eq!(
        r.load(&tree.to_string()).unwrap_err().messages(),
        [
            "at `children[0].action`: bad parameters for action \"MoveTo\": unknown parameter `spped` \
             of leaf `MoveTo`, did you mean `speed`? (its parameters: `target`, `speed`)",
            "at `children[1].action`: bad parameters for action \"MoveTo\": unknown parameters `colour` and \
             `sped` (did you mean `speed`?) of leaf `MoveTo` (its parameters: `target`, `speed`)",
        ],
        "`open` takes the rest of its parameters: no error"
    );
    let fine = json!({"type": "action", "action": {"type": "MoveTo", "target": "gate", "speed": 2}});
    assert!(r.load(&fine.to_string()).is_ok());
}

#[test]
fn unknown_leaf_types_and_bad_parameters() {
    let tree = many(
        "sequence",
        vec![
            cond("c5"),
            act("x"),
            json!({"type": "action", "action": "c1"}),
            json!({"type": "action", "action": {"type": "log"}}),
            json!({"type": "action", "action": {"type": "a", "speed": 2}}),
        ],
    );
    assert_eq!(
        errs(tree),
        [
            "at `children[0].condition`: unknown condition type \"c5\"; did you mean \"c1\"?",
            "at `children[1].action`: unknown action type \"x\"; did you mean \"a\"?",
            "at `children[2].action`: \"c1\" is registered as a condition type, not as an action type",
            "at `children[3].action`: bad parameters for action \"log\": missing field `msg`",
            "at `children[4].action`: bad parameters for action \"a\": unknown parameter `speed` of leaf `a` (it takes none)",
        ]
    );
    let empty = Registry::<Ctx>::new();
    let e = empty.load(&act("walk").to_string()).unwrap_err();
    assert_eq!(
        e.messages(),
        ["at `action`: unknown action type \"walk\"; no action types are registered"]
    );
}

#[test]
fn children_counts_and_fields() {
    assert_eq!(
        errs(json!({"type": "sequence", "children": []})),
        ["at `children`: \"sequence\" needs at least one child, found an empty array"]
    );
    assert_eq!(
        errs(json!({"type": "selector"})),
        ["at the root: \"selector\" needs \"children\": an array of at least one node"]
    );
    assert_eq!(
        errs(json!({"type": "inverter", "children": [act("a")]})),
        [
            "at `children`: \"inverter\" takes exactly one child, in \"child\" (not \"children\")",
            "at the root: \"inverter\" needs exactly one child in \"child\""
        ]
    );
    assert_eq!(
        errs(json!({"type": "inverter", "child": [act("a"), act("b")]})),
        [
            "at `child`: \"inverter\" takes exactly one child, found an array; wrap the nodes in a \"sequence\" or \"selector\""
        ]
    );
    assert_eq!(
        errs(json!({"type": "wait", "seconds": 1, "child": act("a")})),
        ["at `child`: \"wait\" is a leaf and takes no children"]
    );
    assert_eq!(
        errs(json!({"type": "sequence", "chidlren": [act("a")], "children": [act("a")]})),
        ["at `chidlren`: unknown field \"chidlren\" for \"sequence\"; did you mean \"children\"?"]
    );
    assert_eq!(
        errs(json!({"type": "succeeder", "kid": act("a"), "child": act("a")})),
        [
            "at `kid`: unknown field \"kid\" for \"succeeder\"; its fields are \"type\", \"id\", \"name\", \"child\", \"onEnter\", \"onSuccess\", \"onFailure\", \"onExit\", \"onPreTick\", \"onTick\" or \"onReset\""
        ]
    );
    assert_eq!(
        errs(json!([act("a")])),
        ["at the root: expected a node (an object with a \"type\"), found an array"]
    );
    assert_eq!(
        errs(json!({"children": []})),
        ["at the root: a node needs a \"type\", e.g. \"sequence\""]
    );
}

#[test]
fn bad_parameters_name_their_path() {
    let tree = json!({"type": "sequence", "children": [
        {"type": "repeater", "child": act("a")},
        {"type": "retry", "count": 0, "child": act("a")},
        {"type": "inverter", "child": {"type": "repeater", "count": 2.5, "child": act("a")}},
        {"type": "wait", "seconds": -1},
        {"type": "timeout", "seconds": "1s", "child": act("a")},
        {"type": "parallel", "policy": "requireSome", "children": [act("a")]},
        {"type": "weighted", "weights": [1], "children": [act("a"), act("b")]},
        {"type": "sequence", "name": 3, "children": [act("a")]}
    ]});
    assert_eq!(
        errs(tree),
        [
            "at `children[0]`: \"repeater\" needs \"count\": a positive integer (for an endless loop use \"loop\")",
            "at `children[1].count`: \"count\" must be a positive integer, found the number 0",
            "at `children[2].child.count`: \"count\" must be a positive integer, found the number 2.5",
            "at `children[3].seconds`: \"seconds\" must be a number >= 0, found the number -1",
            "at `children[4].seconds`: \"seconds\" must be a number >= 0, found a string \"1s\"",
            "at `children[5].policy`: expected \"requireAll\" or \"requireOne\", found a string \"requireSome\"; did you mean \"requireOne\"?",
            "at `children[6].weights`: expected one weight per child: 2 children, 1 weights",
            "at `children[7].name`: \"name\" must be a non-empty string, found the number 3",
        ]
    );
}

#[test]
fn thresholds_that_cannot_be_met() {
    assert_eq!(
        errs(json!({"type": "parallel", "success": 3, "failure": 4, "children": [act("a"), act("b")]})),
        [
            "at `success`: \"success\": 3 can never be met: the parallel has 2 children",
            "at `failure`: \"failure\": 4 can never be met: the parallel has 2 children"
        ]
    );
    assert_eq!(
        errs(json!({"type": "parallel", "policy": "requireAll", "success": 1, "children": [act("a")]})),
        ["at the root: a parallel has either a \"policy\" or \"success\"/\"failure\" thresholds, not both"]
    );
}

#[test]
fn break_and_continue_need_an_enclosing_loop() {
    assert_eq!(
        errs(many("sequence", vec![json!({"type": "break"})])),
        [
            "at `children[0]`: \"break\" is not inside a loop (\"loop\", \"repeater\", \"retry\", \"while\", \"untilFail\", \"untilSuccess\", \"forEach\")"
        ]
    );
    let tree = json!({"type": "loop", "label": "outer", "child": {"type": "untilFail", "child":
        many("sequence", vec![json!({"type": "continue", "label": "outr"}), json!({"type": "break", "label": "inner"})])}});
    assert_eq!(
        errs(tree),
        [
            "at `child.child.children[0].label`: no enclosing loop is labelled \"outr\"; did you mean \"outer\"?",
            "at `child.child.children[1].label`: no enclosing loop is labelled \"inner\"; enclosing labels: \"outer\""
        ]
    );
}

#[test]
fn if_and_match_shapes() {
    assert_eq!(
        errs(json!({"type": "if", "branches": [{"if": act("a"), "then": act("b")}, {"then": act("b")}]})),
        [
            "at `branches[0].if.type`: \"if\" must be a condition node ({\"type\": \"condition\", ..}), found \"action\"",
            "at `branches[1]`: a branch needs \"if\": a condition node, e.g. {\"type\": \"condition\", \"condition\": {..}}"
        ]
    );
    assert_eq!(
        errs(json!({"type": "match", "value": "mode", "cases": [{"when": [], "child": act("a")}]})),
        [
            "at `cases[0].when`: expected a key (string, integer or boolean) or a non-empty array of keys, found an array",
            "at the root: \"match\" needs \"default\": the node run when no case matches (the loader cannot know every value)"
        ]
    );
    assert_eq!(
        errs(json!({"type": "match", "value": "mood", "cases": [], "default": act("a")})),
        ["at `value`: unknown value type \"mood\"; did you mean \"mode\"?"]
    );
}

#[test]
fn subtrees_unknown_cyclic_and_too_deep() {
    let mut lib = Library::new();
    lib.insert_json(
        "patrol",
        &many(
            "sequence",
            vec![act("a"), json!({"type": "subtree", "subtreeId": "guard"})],
        )
        .to_string(),
    )
    .unwrap();
    lib.insert_json(
        "guard",
        &one("inverter", json!({"type": "subtree", "subtreeId": "patrol"})).to_string(),
    )
    .unwrap();
    let r = registry();
    let subtree_errors = |id: &str| {
        r.load_with(&json!({"type": "subtree", "subtreeId": id}).to_string(), &lib)
            .unwrap_err()
            .messages()
    };
    let cycle = "at `subtrees[\"patrol\"].children[1].subtreeId`: subtree cycle: \"guard\" -> \"patrol\" -> \"guard\"; \
                 a recursive subtree needs a depth bound: `Registry::max_recursion(n)` lets a subtree nest inside itself n times";
    assert_eq!(
        subtree_errors("patrl"),
        [
            cycle,
            "at `subtreeId`: unknown subtree \"patrl\"; did you mean \"patrol\"?"
        ],
        "a cycle no tree uses is an error too"
    );
    assert_eq!(subtree_errors("patrol"), [cycle]);
    assert_eq!(
        r.check_library(&lib).unwrap_err().problems().len(),
        1,
        "one cycle, reported once"
    );

    let mut deep = act("a");
    for _ in 0..70 {
        deep = one("inverter", deep);
    }
    assert_eq!(
        errs(deep),
        [format!(
            "at `{}`: the tree is nested deeper than 64 levels, subtrees included (the loader's `max_depth`)",
            vec!["child"; 65].join(".")
        )]
    );

    // A small library that would expand to 2^30 nodes.
    let mut lib = Library::new();
    for i in 0..30 {
        let sub = |_| json!({"type": "subtree", "subtreeId": format!("s{}", i + 1)});
        lib.insert_json(&format!("s{i}"), &many("sequence", vec![sub(0), sub(1)]).to_string())
            .unwrap();
    }
    lib.insert_json("s30", &act("a").to_string()).unwrap();
    let mut r = registry();
    r.max_depth(1000).max_nodes(10_000);
    let e = r
        .load_with(&json!({"type": "subtree", "subtreeId": "s0"}).to_string(), &lib)
        .unwrap_err();
    assert_eq!(
        e.messages(),
        [
            "at `subtreeId`: the tree has 4294967294 nodes once its subtrees are inlined, above the limit of 10000 \
          (`Registry::max_nodes`); the largest subtree it uses inlines to 4294967293 nodes: \
          \"s0\" -> \"s1\" -> \"s2\" -> \"s3\" -> \"s4\" -> \"s5\" -> \"s6\" -> .. (23 more) -> \"s30\" (each use is a copy)"
        ]
    );
}

#[test]
fn duplicate_ids_and_every_problem_at_once() {
    let tree = json!({"type": "sequence", "id": "n1", "children": [
        {"type": "action", "id": "n1", "action": "a"},
        {"type": "selectr", "children": [{"type": "wait"}]},
        {"type": "subtree"}
    ]});
    assert_eq!(
        errs(tree),
        [
            "at `children[0].id`: duplicate node id \"n1\" (first used at the root)",
            "at `children[1].type`: unknown node type \"selectr\"; did you mean \"selector\"?",
            "at `children[1].children[0]`: \"wait\" needs \"seconds\": a duration (a number >= 0)",
            "at `children[2]`: \"subtree\" needs \"subtreeId\": the id of a subtree in the library",
        ]
    );
}

#[test]
fn malformed_json_never_panics() {
    let good = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/trees/guard.json")).unwrap();
    let r = registry();
    // Every truncation of a real file is an error (or, for the whole file, a
    // tree with unknown leaves for this registry), never a panic.
    for end in (0..good.len()).filter(|&i| good.is_char_boundary(i)) {
        assert!(r.load(&good[..end]).is_err());
    }
    let e = r.load("{\"type\": \"sequence\", \"children\": [").unwrap_err();
    assert_eq!(
        e.messages(),
        ["at `children[0]`: unexpected end of the JSON text at line 1 column 34: EOF while parsing a list"]
    );
    let e = r.load("{\"type\": sequence}").unwrap_err();
    assert_eq!(
        e.messages(),
        ["at `type`: malformed JSON at line 1 column 10: expected value"]
    );
    // Garbage: random bytes, deep nesting, odd values.
    let mut seed = 0x1234_5678_u64;
    for _ in 0..2000 {
        let len = (seed % 64) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                b"{}[]\":,0123456789.-eEtrufalsn \\typechildrenx"[(seed >> 33) as usize % 44]
            })
            .collect();
        let _ = r.load(&String::from_utf8_lossy(&bytes));
    }
    assert!(r.load(&"[".repeat(100_000)).is_err());
    assert!(
        r.load(&format!("{}{}", "{\"type\":\"inverter\",\"child\":".repeat(200), "1"))
            .is_err()
    );
    assert!(
        r.load("{\"type\": \"repeater\", \"count\": 1e400, \"child\": 1}")
            .is_err()
    );
    assert!(r.load("{\"type\": \"wait\", \"seconds\": 1e308}").is_ok());
    assert!(Library::from_json("{\"subtrees\": [1]}").is_err());
}

#[test]
fn hand_built_models_are_checked_too() {
    use behaved_interp::model::{Node, Params};
    use behaved_runtime::NodeKind;
    let bare = |kind, children| Node::new(kind, Params::None, children);
    let leaf = |kind| bare(kind, vec![]).unwrap();
    // A node whose kind, parameters and children disagree cannot be built.
    let e = bare(NodeKind::Sequence, vec![]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "malformed \"sequence\" node: wrong children (0) or parameters for its kind"
    );
    assert!(bare(NodeKind::While, vec![leaf(NodeKind::Success), leaf(NodeKind::Success)]).is_err());
    assert!(Node::new(NodeKind::Repeat, Params::Count(0), vec![leaf(NodeKind::Success)]).is_err());
    assert!(Node::new(NodeKind::Wait, Params::Count(1), vec![]).is_err());
    assert!(leaf(NodeKind::Success).with_loop_label("outer").is_err());
    // What the tree around a node decides is checked when it is built into an agent.
    let r = registry();
    let lib = Library::new();
    let ok = bare(NodeKind::Loop, vec![leaf(NodeKind::Break)]).unwrap();
    assert!(r.build(&ok, &lib).is_ok(), "a break inside a loop is fine");
    let outside = bare(NodeKind::Invert, vec![leaf(NodeKind::Continue)]).unwrap();
    let e = r.build(&outside, &lib).unwrap_err();
    assert_eq!(e.messages(), ["at `child`: \"continue\" is not inside a loop"]);
}

#[test]
fn repeated_keys_are_errors_at_their_path() {
    let text =
        r#"{"type": "sequence", "children": [{"type": "action", "action": "a", "action": "b"}], "type": "selector"}"#;
    assert_eq!(
        errors(text),
        [
            "at `children[0].action`: the key \"action\" appears twice in this object; keep one",
            "at `type`: the key \"type\" appears twice in this object; keep one",
        ]
    );
    // In a library too, at the subtree's path; and a repeated subtree id.
    let lib = r#"{"subtrees": {"p": {"type": "wait", "seconds": 1, "seconds": 2}, "p": {"type": "success"}}}"#;
    assert_eq!(
        Library::from_json(lib).unwrap_err().messages(),
        [
            "at `subtrees[\"p\"].seconds`: the key \"seconds\" appears twice in this object; keep one",
            "at `subtrees[\"p\"]`: the key \"p\" appears twice in this object; keep one",
        ]
    );
}

#[test]
fn repeated_match_keys_are_errors() {
    let tree = json!({"type": "match", "value": "mode", "cases": [
        {"when": ["x", "x"], "child": act("a")},
        {"when": "x", "child": act("b")}
    ], "default": act("c")});
    assert_eq!(
        errs(tree),
        [
            "at `cases[0].when[1]`: the key \"x\" is already matched by case 0",
            "at `cases[1].when`: the key \"x\" is already matched by case 0",
        ]
    );
}

#[test]
fn one_nesting_limit_with_one_message() {
    let nested = |levels: usize| {
        let mut t = act("a");
        for _ in 0..levels {
            t = many("sequence", vec![t]);
        }
        t.to_string()
    };
    let mut r = registry();
    // serde_json alone stops at 128 JSON levels: 70 sequences are 141.
    r.max_depth(200);
    assert!(r.load(&nested(70)).is_ok());
    assert!(r.load(&nested(200)).is_ok());
    let too_deep = "the tree is nested deeper than 200 levels, subtrees included (the loader's `max_depth`)";
    let e = r.load(&nested(201)).unwrap_err();
    assert_eq!(e.problems().len(), 1);
    assert_eq!(e.problems()[0].message, too_deep);
    // Deep JSON that is not a tree stops reading, with the same message.
    for text in ["[".repeat(100_000), "{\"a\":".repeat(100_000)] {
        let e = r.load(&text).unwrap_err();
        assert_eq!(e.problems()[0].message, too_deep);
    }
    // The default is 64.
    let e = registry().load(&nested(65)).unwrap_err();
    assert_eq!(
        e.problems()[0].message,
        "the tree is nested deeper than 64 levels, subtrees included (the loader's `max_depth`)"
    );
}

#[test]
fn numbers_out_of_range_and_byte_order_marks_have_a_position() {
    assert_eq!(
        errors(r#"{"type": "wait", "seconds": 1e400}"#),
        ["at `seconds`: a number too large for a 64-bit float at line 1 column 33"]
    );
    assert_eq!(
        errors(&format!("\u{feff}{}", act("a"))),
        [
            "at the root: the text starts with a byte-order mark (U+FEFF) at line 1 column 1: save the file as UTF-8 without one"
        ]
    );
    // Durations: negative, infinite and out-of-range ones at their path.
    assert_eq!(
        errs(json!({"type": "timeout", "seconds": -0.5, "child": act("a")})),
        ["at `seconds`: \"seconds\" must be a number >= 0, found the number -0.5"]
    );
}

#[test]
fn empty_types_hooks_and_articles() {
    let msg = &errs(many("sequence", vec![json!({"type": ""})]))[0];
    assert!(
        msg.starts_with("at `children[0].type`: the node type is empty; expected one of \"sequence\""),
        "{msg}"
    );
    assert!(!msg.contains("did you mean"), "{msg}");
    assert_eq!(
        errs(json!({"type": "succeeder", "onEnterr": {"type": "log", "msg": "x"}, "child": act("a")})),
        ["at `onEnterr`: unknown field \"onEnterr\" for \"succeeder\"; did you mean \"onEnter\"?"]
    );
    assert_eq!(
        errs(json!({"type": "succeeder", "kid": act("a"), "child": act("a")})),
        [
            "at `kid`: unknown field \"kid\" for \"succeeder\"; its fields are \"type\", \"id\", \"name\", \"child\", \"onEnter\", \"onSuccess\", \"onFailure\", \"onExit\", \"onPreTick\", \"onTick\" or \"onReset\""
        ]
    );
    assert_eq!(
        errs(json!({"type": "action", "action": {"name": "x"}})),
        ["at `action`: an action needs a \"type\": the name of a registered action type"]
    );
    assert_eq!(
        errs(json!({"type": "action", "action": 3})),
        ["at `action`: expected an action: {\"type\": <registered name>, ..parameters} or a name, found the number 3"]
    );
}

#[test]
fn independent_problems_are_all_reported() {
    // An unknown leaf next to a structural error.
    let tree = many(
        "sequence",
        vec![json!({"type": "repeater", "child": act("a")}), act("zzz")],
    );
    assert_eq!(
        errs(tree),
        [
            "at `children[0]`: \"repeater\" needs \"count\": a positive integer (for an endless loop use \"loop\")",
            "at `children[1].action`: unknown action type \"zzz\"; registered action types: \"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\" or \"log\"",
        ]
    );
    // Every bad weight and threshold.
    let tree = many(
        "sequence",
        vec![
            json!({"type": "weighted", "weights": [0, -1, 2], "children": [act("a"), act("b"), act("c")]}),
            json!({"type": "parallel", "success": 0, "failure": "all", "children": [act("a")]}),
        ],
    );
    assert_eq!(
        errs(tree),
        [
            "at `children[0].weights[0]`: a weight must be a positive integer, found the number 0",
            "at `children[0].weights[1]`: a weight must be a positive integer, found the number -1",
            "at `children[1].success`: \"success\" must be a positive integer, found the number 0",
            "at `children[1].failure`: \"failure\" must be a positive integer, found a string \"all\"",
        ]
    );
}

#[test]
fn problems_are_capped_and_long_names_cut() {
    let kids: Vec<_> = (0..500).map(|i| json!({"type": format!("kind{i}")})).collect();
    let e = registry().load(&many("sequence", kids).to_string()).unwrap_err();
    assert_eq!(e.problems().len(), 100);
    assert_eq!(e.omitted(), 400);
    assert!(e.to_string().ends_with("\n  .. and 400 more problems"), "{e}");
    let long = "x".repeat(100_000);
    let e = registry()
        .load(&many("sequence", vec![json!({"type": long}), act(&long)]).to_string())
        .unwrap_err();
    for m in e.messages() {
        assert!(m.len() < 1000, "{} bytes: {:.200}", m.len(), m);
        assert!(m.contains("(100000 bytes)"), "{m:.200}");
    }
}

#[test]
fn the_deepest_limit_loads_on_a_small_stack() {
    // Reading, checking and building recurse once per level, on a stack that
    // grows: a tree at the cap on `max_depth` loads on a thread with 2 MiB.
    let deep = |levels: usize| {
        let mut t = act("a").to_string();
        for i in 0..levels {
            t = match i % 3 {
                0 => format!(r#"{{"type": "sequence", "children": [{t}]}}"#),
                1 => format!(
                    r#"{{"type": "if", "branches": [{{"if": {}, "then": {t}}}]}}"#,
                    cond("c1")
                ),
                _ => format!(r#"{{"type": "inverter", "child": {t}}}"#),
            };
        }
        t
    };
    let cap = Registry::<Ctx>::MAX_DEPTH_CAP;
    let (ok, too_deep) = (deep(cap), deep(cap + 1));
    let on_stack = |bytes: usize, f: Box<dyn FnOnce() + Send>| {
        std::thread::Builder::new()
            .stack_size(bytes)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap()
    };
    let mut r = registry();
    r.max_depth(usize::MAX);
    let r = std::sync::Arc::new(r);
    let (r1, ok1) = (r.clone(), ok.clone());
    on_stack(
        2 << 20,
        Box::new(move || {
            let def = r1.load(&ok1).unwrap();
            // Every level a node, and every `if` a condition too.
            assert_eq!(def.len(), 1 + cap + cap.div_ceil(3) - 1);
            let e = r1.load(&too_deep).unwrap_err();
            assert_eq!(
                e.problems()[0].message,
                "the tree is nested deeper than 1000 levels, subtrees included (the loader's `max_depth`)"
            );
            assert!(r1.load(&"[".repeat(1 << 20)).is_err());
        }),
    );
    // Ticking recurses once per level too, on the caller's stack: at the cap
    // that is about 14 MiB in a debug build (under 256 KiB optimised).
    on_stack(
        32 << 20,
        Box::new(move || {
            let mut agent = behaved_interp::Agent::new(r.load(&ok).unwrap());
            let mut ctx = Ctx::new();
            agent.tick_at(&mut ctx, 0.0);
            assert_eq!(
                ctx.take(),
                ["enter a", "a"],
                "every condition held: the leaf at the bottom ran"
            );
        }),
    );
}

#[test]
fn a_leaf_refuses_its_own_parameters_at_its_path() {
    // What the loader cannot know (a speed too high for the game) is the
    // leaf constructor's to refuse: a load error like the loader's own.
    #[derive(serde::Deserialize)]
    struct Speed {
        speed: f64,
    }
    let mut registry = registry();
    registry.try_action("run", |p: Speed| {
        if p.speed <= 10.0 {
            Ok(Rec("run"))
        } else {
            Err(format!("\"speed\" must be at most 10, found {:e}", p.speed))
        }
    });
    let tree = many(
        "sequence",
        vec![json!({"type": "action", "action": {"type": "run", "speed": 1e300}})],
    );
    assert_eq!(
        registry.load(&tree.to_string()).unwrap_err().messages(),
        ["at `children[0].action`: bad parameters for action \"run\": \"speed\" must be at most 10, found 1e300"]
    );
}

/// A subtree `levels` deep whose innermost node uses subtree `next`.
fn deep_use(levels: usize, next: &str) -> String {
    let mut t = json!({"type": "subtree", "subtreeId": next});
    for _ in 0..levels {
        t = one("inverter", t);
    }
    t.to_string()
}

const NEEDS_BOUND: &str =
    "a recursive subtree needs a depth bound: `Registry::max_recursion(n)` lets a subtree nest inside itself n times";

#[test]
fn a_cycle_of_deep_subtrees_is_named_as_a_cycle_at_any_depth_limit() {
    let mut lib = Library::new();
    lib.insert_json("a", &deep_use(40, "b")).unwrap();
    lib.insert_json("b", &deep_use(40, "a")).unwrap();
    let inner = vec!["child"; 40].join(".");
    let expected = [format!(
        "at `subtrees[\"b\"].{inner}.subtreeId`: subtree cycle: \"a\" -> \"b\" -> \"a\"; {NEEDS_BOUND}"
    )];
    for depth in [64, 100, 1000] {
        let mut r = registry();
        r.max_depth(depth);
        let e = r
            .load_with(&json!({"type": "subtree", "subtreeId": "a"}).to_string(), &lib)
            .unwrap_err();
        assert_eq!(e.messages(), expected, "max_depth {depth}");
    }
}

#[test]
fn every_cycle_of_a_library_is_reported_used_or_not() {
    let mut lib = Library::new();
    lib.insert_json("self", &deep_use(1, "self")).unwrap();
    lib.insert_json("x", &deep_use(0, "y")).unwrap();
    lib.insert_json("y", &deep_use(0, "z")).unwrap();
    lib.insert_json("z", &deep_use(0, "x")).unwrap();
    lib.insert_json("fine", &act("a").to_string()).unwrap();
    let e = registry()
        .load_with(&json!({"type": "subtree", "subtreeId": "fine"}).to_string(), &lib)
        .unwrap_err();
    assert_eq!(
        e.messages(),
        [
            format!("at `subtrees[\"self\"].child.subtreeId`: subtree cycle: \"self\" -> \"self\"; {NEEDS_BOUND}"),
            format!("at `subtrees[\"z\"].subtreeId`: subtree cycle: \"x\" -> \"y\" -> \"z\" -> \"x\"; {NEEDS_BOUND}"),
        ]
    );
    // With recursion allowed, a cycle is a bounded recursion, not an error.
    let mut r = registry();
    r.max_recursion(2);
    assert!(
        r.load_with(&json!({"type": "subtree", "subtreeId": "fine"}).to_string(), &lib)
            .is_ok()
    );
}

#[test]
fn a_long_cycle_is_shown_cut_with_a_count() {
    let mut lib = Library::new();
    for i in 0..20 {
        lib.insert_json(&format!("s{i:02}"), &deep_use(0, &format!("s{:02}", (i + 1) % 20)))
            .unwrap();
    }
    let long = "n".repeat(100);
    lib.insert_json(&long, &deep_use(0, &long)).unwrap();
    let e = registry().check_library(&lib).unwrap_err();
    assert_eq!(
        e.messages(),
        [
            format!(
                "at `subtrees[\"{}\"..].subtreeId`: subtree cycle: {:?}.. (100 bytes) -> {:?}.. (100 bytes); {NEEDS_BOUND}",
                "n".repeat(64),
                "n".repeat(64),
                "n".repeat(64)
            ),
            format!(
                "at `subtrees[\"s19\"].subtreeId`: subtree cycle: \"s00\" -> \"s01\" -> \"s02\" -> \"s03\" -> \"s04\" -> \
                 \"s05\" -> \"s06\" -> .. (13 more) -> \"s00\"; {NEEDS_BOUND}"
            ),
        ]
    );
}

#[test]
fn a_tree_built_in_code_cannot_shadow_a_loop_label() {
    use behaved_format::model::{Node, Params};
    use behaved_runtime::NodeKind;
    let jump = Node::new(NodeKind::Break, Params::None, vec![])
        .unwrap()
        .with_loop_label("a")
        .unwrap();
    let inner = Node::new(NodeKind::Repeat, Params::Count(3), vec![jump])
        .unwrap()
        .with_loop_label("a")
        .unwrap();
    let outer = Node::new(NodeKind::Loop, Params::None, vec![inner])
        .unwrap()
        .with_loop_label("a")
        .unwrap();
    let e = registry().build(&outer, &Library::new()).unwrap_err();
    assert_eq!(
        e.messages(),
        ["at `child.label`: label \"a\" shadows the label of an enclosing loop: \
          a \"break\" or \"continue\" naming it could mean either loop"]
    );
    // The same tree as JSON text is refused by the decoder, with the same words.
    let e = registry().load(&outer.to_json().to_string()).unwrap_err();
    assert_eq!(
        e.messages(),
        ["at `child.label`: label \"a\" shadows the label of an enclosing loop: \
          a \"break\" or \"continue\" naming it could mean either loop"]
    );
}

#[test]
fn a_library_of_many_long_cycles_is_reported_in_bounded_time_and_text() {
    // s0 -> s1 -> .. -> s4999, and each of them -> s0: 5,000 cycles, the
    // longest of 5,000 subtrees.
    let n = 5_000;
    let mut lib = Library::new();
    for i in 0..n {
        let mut uses = vec![json!({"type": "subtree", "subtreeId": "s00000"})];
        if i + 1 < n {
            uses.insert(0, json!({"type": "subtree", "subtreeId": format!("s{:05}", i + 1)}));
        }
        lib.insert_json(&format!("s{i:05}"), &many("sequence", uses).to_string())
            .unwrap();
    }
    let e = registry().check_library(&lib).unwrap_err();
    assert_eq!(e.problems().len(), Library::MAX_CYCLES);
    let chain = |n: usize| {
        format!(
            "subtree cycle: \"s00000\" -> \"s00001\" -> \"s00002\" -> \"s00003\" -> \"s00004\" -> \"s00005\" -> \
             \"s00006\" -> .. ({n} more) -> \"s00000\"; {NEEDS_BOUND}"
        )
    };
    // Found from the deepest subtree back, each cut to 8 ids.
    assert_eq!(
        e.messages()[0],
        format!("at `subtrees[\"s04999\"].children[0].subtreeId`: {}", chain(4993))
    );
    assert_eq!(
        e.messages()[99],
        format!("at `subtrees[\"s04900\"].children[1].subtreeId`: {}", chain(4894))
    );
}

//! BehaviorTree.CPP v4 XML (SEMANTICS.md, "BehaviorTree.CPP XML"): the files
//! in `tests/xml/` read into the same model as their JSON twins, every
//! refused construct is an error at its line and column, and the round
//! trips XML -> model -> XML and JSON -> XML -> JSON keep the tree.

use behaved_format::model::Node;
use behaved_format::xml::{LeafKind, LeafModel, PortType, XmlReader, XmlTrees, nodes_model, to_xml};
use behaved_format::{Library, LoadError};

fn file(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/xml/{name}", env!("CARGO_MANIFEST_DIR"))).expect("a test file")
}

fn read(xml: &str) -> Result<XmlTrees, LoadError> {
    XmlReader::new().read(xml)
}

/// Reads `written`, the XML that `first` was written as: the same trees
/// come back, and writing them again gives `written` (XML -> model -> XML
/// is then a fixed point). Returns what was read.
fn read_back(first: &XmlTrees, written: &str) -> XmlTrees {
    let second = read(written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(second.main(), first.main());
    assert_eq!(second.library(), first.library());
    assert_eq!(
        to_xml(first.main_id(), second.main(), second.library()).expect("writes"),
        written
    );
    second
}

/// JSON -> XML -> JSON: `tree` (as tree `main_id`) and `library` written as
/// XML and read back give the same JSON, for the main tree and `subtree`.
fn json_round_trip(main_id: &str, tree: &Node, library: &Library, subtree: &str) {
    let xml = to_xml(main_id, tree, library).expect("writes");
    let back = read(&xml).expect("the written file loads");
    assert_eq!(back.main().to_json(), tree.to_json());
    assert_eq!(
        back.library().get(subtree).map(Node::to_json),
        library.get(subtree).map(Node::to_json)
    );
}

fn error(xml: &str) -> String {
    match read(xml) {
        Ok(_) => panic!("expected an error for {xml}"),
        Err(e) => e.to_string(),
    }
}

/// A document of one tree holding `node`.
fn doc(node: &str) -> String {
    format!("<root BTCPP_format=\"4\">\n  <BehaviorTree ID=\"Main\">\n    {node}\n  </BehaviorTree>\n</root>")
}

#[test]
fn every_mapped_node_reads_as_its_json_twin() {
    let trees = read(&file("every_node.xml")).expect("loads");
    assert_eq!(trees.main_id(), "Main");
    let json = Node::parse(&file("every_node.json")).expect("the twin loads");
    assert_eq!(trees.main(), &json);
    let patrol = Node::parse(&file("patrol.json")).expect("the twin loads");
    assert_eq!(trees.library().get("Patrol"), Some(&patrol));
    assert_eq!(trees.library().get("Main"), Some(&json));
    assert_eq!(trees.library().ids().collect::<Vec<_>>(), ["Main", "Patrol"]);
}

/// `refused.xml` holds one refused construct per line, from line 4; each is
/// reported at its element (or its attribute) on that line.
#[test]
fn every_refused_construct_is_an_error_at_its_line_and_column() {
    assert_eq!(error(&file("refused.xml")), file("refused.txt").trim_end());
}

#[test]
fn xml_to_model_to_xml_keeps_the_tree() {
    let first = read(&file("every_node.xml")).expect("loads");
    let written = to_xml(first.main_id(), first.main(), first.library()).expect("writes");
    let second = read_back(&first, &written);
    assert_eq!(second.main_id(), "Main");
}

#[test]
fn json_to_xml_to_json_is_identical() {
    let tree = Node::parse(&file("every_node.json")).expect("loads");
    let mut library = Library::new();
    library.insert("Patrol", Node::parse(&file("patrol.json")).expect("loads"));
    json_round_trip("Main", &tree, &library, "Patrol");
}

#[test]
fn the_written_file_is_plain_btcpp() {
    let tree = Node::parse(
        r#"{"type": "sequence", "name": "a \"quoted\" <name>", "children": [
            {"type": "if", "branches": [{"if": {"type": "condition", "condition": {"type": "Ready"}}, "then": {"type": "success"}}]},
            {"type": "action", "action": {"type": "Say", "text": "line 1\nline 2", "n": 2, "x": 0.5, "tags": ["a"]}},
            {"type": "parallel", "success": 1, "failure": 1, "children": [{"type": "wait", "seconds": 0.001}]}]}"#,
    )
    .expect("loads");
    let xml = to_xml("Main", &tree, &Library::new()).expect("writes");
    assert_eq!(
        xml,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence name="a &quot;quoted&quot; &lt;name&gt;">
      <IfThenElse>
        <Condition ID="Ready"/>
        <AlwaysSuccess/>
        <AlwaysSuccess/>
      </IfThenElse>
      <Action ID="Say" n="2" tags="[&quot;a&quot;]" text="line 1&#10;line 2" x="0.5"/>
      <Parallel success_count="1" failure_count="1">
        <Sleep msec="1"/>
      </Parallel>
    </Sequence>
  </BehaviorTree>
  <TreeNodesModel>
    <Condition ID="Ready"/>
    <Action ID="Say">
      <input_port name="n" type="int"/>
      <input_port name="tags" type="json"/>
      <input_port name="text" type="std::string"/>
      <input_port name="x" type="double"/>
    </Action>
  </TreeNodesModel>
</root>
"#
    );
    // The `if` without `else` reads back with BT.CPP's third child: the same tree.
    let back = read(&xml).expect("loads");
    let kids = back.main().children();
    assert_eq!(kids[0].children()[2].label(), "success");
    assert_eq!(kids[1], tree.children()[1]);
}

#[test]
fn nodes_without_a_btcpp_counterpart_are_not_written() {
    let tree = Node::parse(
        r#"{"type": "sequence", "id": "root", "children": [
            {"type": "loop", "label": "outer", "child": {"type": "break"}},
            {"type": "wait", "seconds": 0.0005},
            {"type": "if", "branches": [
                {"if": {"type": "condition", "condition": {"type": "A"}}, "then": {"type": "success"}},
                {"if": {"type": "condition", "condition": {"type": "B"}}, "then": {"type": "success"}}]},
            {"type": "action", "action": {"type": "Go", "to": "{goal}"}},
            {"type": "action", "action": {"type": "Go", "to": 3}},
            {"type": "action", "action": {"type": "Say", "name": "Rex"}},
            {"type": "subtree", "subtreeId": "Main", "remap": {"name": "who"}}]}"#,
    )
    .expect("loads");
    let err = to_xml("Main", &tree, &Library::new()).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"9 problems:
  at the root: a node id has no BT.CPP counterpart; remove the "id" to write this tree as XML
  at `children[0]`: a loop label has no BT.CPP counterpart; remove it to write this tree as XML
  at `children[0]`: `loop` has no BehaviorTree.CPP counterpart (SEMANTICS.md, "BehaviorTree.CPP XML")
  at `children[1].seconds`: BT.CPP's durations are whole milliseconds, at least 1; 0.0005 seconds is not
  at `children[2]`: BT.CPP's `IfThenElse` and `WhileDoElse` have one condition; write each `else if` as an `if` in the `else`
  at `children[3].action.to`: the string "{goal}" would read as a BT.CPP blackboard port
  at `children[4]`: the port "to" of "Go" is int here and std::string elsewhere; a BT.CPP port has one type
  at `children[5].action.name`: a parameter named "name" is a BT.CPP attribute of its own (BT.CPP allows no port named `name` or `ID`, or starting with `_`: `name` is the node's name); rename the leaf's parameter (a serde rename keeps its field)
  at `children[6].remap.name`: an entry named "name" is a BT.CPP attribute of its own (BT.CPP allows no port named `name` or `ID`, or starting with `_`); rename the entry"#
    );
}

#[test]
fn compact_leaves_take_their_kind_and_port_types_from_the_caller() {
    let lookup = |name: &str| match name {
        "FindTarget" => Some(LeafModel {
            kind: LeafKind::Action,
            ports: vec![("radius".into(), PortType::Number), ("max".into(), PortType::Integer)],
            outputs: vec![],
        }),
        "Ready" => Some(LeafModel {
            kind: LeafKind::Condition,
            ports: vec![],
            outputs: vec![],
        }),
        _ => None,
    };
    let xml = doc(r#"<Sequence><Ready/><FindTarget radius="2.5" max="4" note="7"/></Sequence>"#);
    let trees = XmlReader::new().leaves(&lookup).read(&xml).expect("loads");
    let json = Node::parse(
        r#"{"type": "sequence", "children": [{"type": "condition", "condition": {"type": "Ready"}},
            {"type": "action", "action": {"type": "FindTarget", "radius": 2.5, "max": 4, "note": "7"}}]}"#,
    )
    .expect("loads");
    assert_eq!(trees.main(), &json);
    // A port that is not what its type says is an error at the attribute.
    let xml = doc(r#"<FindTarget radius="far" max="4.5"/>"#);
    let err = XmlReader::new().leaves(&lookup).read(&xml).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"2 problems:
  at `action.radius` (line 3, column 17): the port `radius` of "FindTarget": expected a number, found "far"
  at `action.max` (line 3, column 30): the port `max` of "FindTarget": expected an integer, found "4.5""#
    );
}

#[test]
fn problems_of_the_document_itself() {
    assert_eq!(
        error(
            "<root BTCPP_format=\"4\">\n  <BehaviorTree ID=\"A\"><AlwaysSuccess/></BehaviorTree>\n  <BehaviorTree ID=\"A\"><AlwaysFailure/></BehaviorTree>\n</root>"
        ),
        "at the root (line 3, column 3): a second `<BehaviorTree>` with ID \"A\""
    );
    assert_eq!(
        error(
            "<root BTCPP_format=\"4\">\n  <BehaviorTree ID=\"A\"><AlwaysSuccess/></BehaviorTree>\n  <BehaviorTree ID=\"B\"><AlwaysSuccess/></BehaviorTree>\n</root>"
        ),
        "at the root (line 1, column 1): the document has several `<BehaviorTree>`s: say which one runs with `main_tree_to_execute`"
    );
    assert_eq!(
        error("<root>\n  <BehaviorTree ID=\"A\"><AlwaysSuccess/></BehaviorTree>\n</root>"),
        "at the root (line 1, column 1): the `<root>` needs `BTCPP_format=\"4\"`"
    );
    assert_eq!(
        error(
            "<root BTCPP_format=\"4\" main_tree_to_execute=\"B\">\n  <BehaviorTree ID=\"A\"><AlwaysSuccess/></BehaviorTree>\n</root>"
        ),
        "at the root (line 1, column 1): `main_tree_to_execute` is \"B\", which no `<BehaviorTree>` has as its ID"
    );
    assert_eq!(
        error(&doc("<Sequence>\n      <AlwaysSuccess>\n    </Sequence>")),
        "at the root (line 5, column 5): malformed XML: expected 'AlwaysSuccess' tag, not 'Sequence'"
    );
    assert_eq!(
        error(&doc("<Inverter><AlwaysSuccess/><AlwaysFailure/></Inverter>")),
        "at the root (line 3, column 5): `Inverter` takes exactly one child, found 2"
    );
    assert_eq!(
        error(&doc("<Repeat num_cycles=\"2\" count=\"3\"><AlwaysSuccess/></Repeat>")),
        "at the root (line 3, column 28): `Repeat` has no port `count`; its ports: `num_cycles`"
    );
    assert_eq!(
        error(&doc(
            "<Parallel success_count=\"3\"><AlwaysSuccess/><AlwaysSuccess/></Parallel>"
        )),
        "at `success` (line 3, column 15): `success_count` of `Parallel`: must be from 1 to the 2 children, or from -1 (all) to -2, found 3"
    );
    assert_eq!(
        error(
            "<root BTCPP_format=\"4\">\n  <include path=\"other.xml\"/>\n  <BehaviorTree ID=\"A\"><AlwaysSuccess/></BehaviorTree>\n</root>"
        ),
        "at the root (line 2, column 3): cannot include \"other.xml\": the reader was given no way to read files (`XmlReader::includes`)"
    );
}

#[test]
fn problems_found_by_the_json_checks_are_at_their_xml_place() {
    // The JSON decoder's own checks (here: at most 128 children in a
    // parallel) report JSON paths, placed at the XML element they came from,
    // in the main tree and in the other trees of the file.
    let wide = format!("<Parallel>{}</Parallel>", "<AlwaysSuccess/>".repeat(129));
    let xml = format!(
        "<root BTCPP_format=\"4\" main_tree_to_execute=\"Main\">
  <BehaviorTree ID=\"Main\">
    <Sequence>
      <AlwaysSuccess/>
      {wide}
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID=\"Other\">
    <Inverter>
      {wide}
    </Inverter>
  </BehaviorTree>
</root>"
    );
    assert_eq!(
        error(&xml),
        r#"2 problems:
  at `children[1].children` (line 5, column 7): "parallel" can have at most 128 children, found 129
  at `subtrees["Other"].child.children` (line 10, column 7): "parallel" can have at most 128 children, found 129"#
    );
}

#[test]
fn dtds_and_entities_are_refused() {
    let bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE root [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]>\n<root BTCPP_format=\"4\"><BehaviorTree ID=\"A\"><Action ID=\"&b;\"/></BehaviorTree></root>";
    assert_eq!(
        error(bomb),
        "at the root (line 2, column 1): a DTD (`<!DOCTYPE ..>` with declarations) is refused: its entities could make a small file expand without bound"
    );
}

#[test]
fn nesting_has_the_json_limit() {
    let deep = |n: usize| {
        doc(&format!(
            "{}<AlwaysSuccess/>{}",
            "<Inverter>".repeat(n),
            "</Inverter>".repeat(n)
        ))
    };
    assert!(read(&deep(64)).is_ok());
    assert_eq!(
        error(&deep(65)),
        format!(
            "at `{}` (line 3, column {}): the tree is nested deeper than 64 levels, subtrees included (the loader's `max_depth`)",
            vec!["child"; 65].join("."),
            5 + 65 * 10
        )
    );
    assert!(XmlReader::new().max_depth(100).read(&deep(100)).is_ok());
    // Far deeper than the limit: one error, no stack overflow.
    assert!(error(&deep(100_000)).contains("nested deeper than 64 levels"));
}

#[test]
fn a_nodes_model_lists_the_leaves_for_groot2() {
    let leaves = vec![
        (
            "Ready".to_string(),
            LeafModel {
                kind: LeafKind::Condition,
                ports: vec![],
                outputs: vec![],
            },
        ),
        (
            "MoveTo".to_string(),
            LeafModel {
                kind: LeafKind::Action,
                ports: vec![("x".into(), PortType::Integer), ("gait".into(), PortType::String)],
                outputs: vec![],
            },
        ),
    ];
    let xml = nodes_model(&leaves);
    assert_eq!(
        xml,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<root BTCPP_format="4">
  <TreeNodesModel>
    <Condition ID="Ready"/>
    <Action ID="MoveTo">
      <input_port name="x" type="int"/>
      <input_port name="gait" type="std::string"/>
    </Action>
  </TreeNodesModel>
</root>
"#
    );
    // A file using those leaves in compact form reads with the model pasted in.
    let with_tree = xml.replace(
        "<root BTCPP_format=\"4\">\n",
        "<root BTCPP_format=\"4\">\n  <BehaviorTree ID=\"A\"><Sequence><Ready/><MoveTo x=\"3\" gait=\"run\"/></Sequence></BehaviorTree>\n",
    );
    let trees = read(&with_tree).expect("loads");
    assert_eq!(trees.main().children()[1].label(), "MoveTo(gait: \"run\", x: 3)");
}

/// The files of the include tests, by the paths `<include>`s name.
fn included(path: &str) -> Result<String, String> {
    let doc = |body: &str| format!("<root BTCPP_format=\"4\">\n{body}\n</root>");
    match path {
        "patrol.xml" => Ok(doc(r#"  <include path="model.xml"/>
  <include path="again.xml"/>
  <BehaviorTree ID="Patrol"><Sequence><Walk/><SubTree ID="Look"/></Sequence></BehaviorTree>"#)),
        // Includes patrol.xml back: each file is read once, so the cycle ends.
        "again.xml" => Ok(doc(r#"  <include path="patrol.xml"/>
  <BehaviorTree ID="Look"><Condition ID="Seen"/></BehaviorTree>"#)),
        "model.xml" => Ok(doc(r#"  <TreeNodesModel><Action ID="Walk"/></TreeNodesModel>"#)),
        "bad.xml" => Ok(doc(r#"  <BehaviorTree ID="Bad">
    <Sequence><Script code="x := 1"/></Sequence>
  </BehaviorTree>"#)),
        deep if deep.starts_with("deep") => {
            let n: usize = deep[4..]
                .trim_end_matches(".xml")
                .parse()
                .map_err(|_| "no such file".to_string())?;
            Ok(doc(&format!("  <include path=\"deep{}.xml\"/>", n + 1)))
        }
        _ => Err("no such file".into()),
    }
}

#[test]
fn included_files_add_their_trees() {
    let xml = "<root BTCPP_format=\"4\" main_tree_to_execute=\"Main\">
  <include path=\"patrol.xml\"/>
  <BehaviorTree ID=\"Main\"><Inverter><SubTree ID=\"Patrol\"/></Inverter></BehaviorTree>
</root>";
    let trees = XmlReader::new().includes(&included).read(xml).expect("loads");
    assert_eq!(trees.library().ids().collect::<Vec<_>>(), ["Look", "Main", "Patrol"]);
    let patrol = Node::parse(
        r#"{"type": "sequence", "children": [{"type": "action", "action": {"type": "Walk"}},
            {"type": "subtree", "subtreeId": "Look"}]}"#,
    )
    .expect("loads");
    assert_eq!(trees.library().get("Patrol"), Some(&patrol));
    // Written back, the included trees are in the one file.
    let written = to_xml(trees.main_id(), trees.main(), trees.library()).expect("writes");
    assert_eq!(read(&written).expect("loads").library(), trees.library());
}

#[test]
fn problems_in_included_files_name_the_file() {
    let xml = "<root BTCPP_format=\"4\" main_tree_to_execute=\"Main\">
  <include path=\"bad.xml\"/>
  <include path=\"missing.xml\"/>
  <include/>
  <BehaviorTree ID=\"Main\"><SubTree ID=\"Bad\"/></BehaviorTree>
</root>";
    let err = XmlReader::new().includes(&included).read(xml).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"3 problems:
  at the root (line 3, column 3): cannot read the included file "missing.xml": no such file
  at the root (line 4, column 3): an `<include>` needs a `path`
  at `subtrees["Bad"].children[0]` (line 3, column 15): in the included file "bad.xml": `Script` has no counterpart: it runs a script of BT.CPP's language; write a registered action"#
    );
    let deep = "<root BTCPP_format=\"4\"><include path=\"deep1.xml\"/><BehaviorTree ID=\"A\"><AlwaysSuccess/></BehaviorTree></root>";
    assert_eq!(
        XmlReader::new().includes(&included).read(deep).unwrap_err().to_string(),
        r#"at the root (line 2, column 3): in the included file "deep8.xml": cannot include "deep9.xml": includes nest deeper than 8 files"#
    );
}

/// BT.CPP's `Repeat` and `RetryUntilSuccessful` return RUNNING after an
/// iteration that completed at once, and `tickOnce` ticks again from the
/// root: below a reactive node or a `Parallel` that ticks other children
/// between iterations, so such a loop is refused, in the file's trees and
/// in the subtrees they use; and not written either.
#[test]
fn loops_below_reactive_nodes_are_refused() {
    let xml = r#"<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence>
      <Repeat num_cycles="2"><AlwaysSuccess/></Repeat>
      <ReactiveFallback>
        <AlwaysFailure/>
        <Inverter><RetryUntilSuccessful num_attempts="2"><AlwaysFailure/></RetryUntilSuccessful></Inverter>
      </ReactiveFallback>
      <Parallel><SubTree ID="Patrol"/><AlwaysSuccess/></Parallel>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Patrol">
    <Repeat num_cycles="3"><AlwaysSuccess/></Repeat>
  </BehaviorTree>
</root>"#;
    assert_eq!(
        error(xml),
        r#"2 problems:
  at `children[1].children[1].child` (line 7, column 19): `RetryUntilSuccessful` below the `ReactiveFallback` at `children[1]`: BT.CPP's loop returns RUNNING after an iteration whose child completes at once and ticks the tree again from its root, so the `ReactiveFallback` ticks its other children between iterations, where ours goes on within the tick; move the loop out from under it
  at `subtrees["Patrol"]` (line 13, column 5): `Repeat` below the `Parallel` at `children[2]`: BT.CPP's loop returns RUNNING after an iteration whose child completes at once and ticks the tree again from its root, so the `Parallel` ticks its other children between iterations, where ours goes on within the tick; move the loop out from under it"#
    );
    let json = Node::parse(
        r#"{"type": "reactiveSequence", "children": [{"type": "repeater", "count": 2, "child": {"type": "success"}}]}"#,
    )
    .expect("loads");
    let err = to_xml("Main", &json, &Library::new()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("at `children[0]`: `Repeat` below the `ReactiveSequence` at the root:"),
        "{err}"
    );
}

/// Problems found after the reader went past them (here, a condition checked
/// once its branches were read) are placed in one pass: a file of many such
/// mistakes on one line is read in time in proportion to its size.
#[test]
fn many_late_problems_are_placed_in_one_pass() {
    let n = 20_000;
    let body = "<IfThenElse><AlwaysSuccess/><AlwaysFailure/></IfThenElse>".repeat(n);
    let err = read(&doc(&format!("<Sequence>{body}</Sequence>"))).unwrap_err();
    assert_eq!(err.problems().len() + err.omitted(), n);
    let last = &err.problems()[LoadError::MAX_LISTED - 1];
    assert_eq!(
        last.to_string(),
        format!(
            "at `children[99].branches[0].if` (line 3, column {}): the first child of `IfThenElse` must be a condition: ours evaluate only conditions there",
            5 + "<Sequence>".len() + 99 * 57 + "<IfThenElse>".len()
        )
    );
}

/// Blackboard ports (SEMANTICS.md, "BehaviorTree.CPP XML"): `{key}` is the
/// JSON reference `{"$entry": "key"}`, `{=}` the entry named as the port,
/// and a `<SubTree>` that remaps its entries to themselves (or autoremaps)
/// is our `subtree`.
#[test]
fn blackboard_ports_read_as_json_references() {
    let trees = read(&file("ports.xml")).expect("loads");
    assert_eq!(trees.main(), &Node::parse(&file("ports.json")).expect("the twin loads"));
    assert_eq!(
        trees.library().get("Approach"),
        Some(&Node::parse(&file("ports_approach.json")).expect("the twin loads"))
    );
}

#[test]
fn blackboard_ports_round_trip() {
    // XML -> model -> XML keeps the tree, and writing is then a fixed point.
    let first = read(&file("ports.xml")).expect("loads");
    let written = to_xml(first.main_id(), first.main(), first.library()).expect("writes");
    assert!(
        written.contains(r#"<Action ID="Step" speed="{speed}" to="{goal}"/>"#),
        "{written}"
    );
    // The port used only as an entry is listed; `bonus` keeps its literal's type.
    assert!(
        written.contains(r#"<input_port name="power" type="std::string"/>"#),
        "{written}"
    );
    assert!(
        written.contains(r#"<input_port name="bonus" type="int"/>"#),
        "{written}"
    );
    read_back(&first, &written);
    // JSON -> XML -> JSON is identical.
    let tree = Node::parse(&file("ports.json")).expect("loads");
    let mut library = Library::new();
    library.insert("Approach", Node::parse(&file("ports_approach.json")).expect("loads"));
    library.insert("Rest", first.library().get("Rest").expect("read").clone());
    json_round_trip("Hunt", &tree, &library, "Approach");
}

#[test]
fn blackboard_ports_bt_cpp_would_read_differently_are_refused_at_their_place() {
    let xml = r#"<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence>
      <SubTree ID="Chase"/>
      <SubTree ID="Chase" goal="{goal}"/>
      <SubTree ID="Chase" goal="{goal}" speed="3"/>
      <Repeat num_cycles="{n}"><AlwaysSuccess/></Repeat>
      <Action ID="Go" to="{ }"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Chase">
    <Action ID="Go" to="{goal}" speed="{speed}"/>
  </BehaviorTree>
</root>"#;
    assert_eq!(
        error(xml),
        r#"5 problems:
  at `children[2]` (line 6, column 41): the `SubTree` port `speed` is "3": a value for the subtree's own blackboard entry, which ours does not have; give the subtree's leaves their values, or remap the entry (`speed="{speed}"`)
  at `children[3]` (line 7, column 15): the port `num_cycles` of `Repeat` is the blackboard entry "{n}": ours are fixed when the tree loads; write the value
  at `children[4].action.to` (line 8, column 23): the port `to` is "{ }", which names no blackboard entry
  at `children[0]` (line 4, column 7): the subtree "Chase" uses the blackboard entries `goal`, `speed`, which BT.CPP keeps in the subtree's own blackboard unless the `<SubTree>` remaps them; ours has one blackboard, the context: write `_autoremap="true"` or goal="{goal}" speed="{speed}"
  at `children[1]` (line 5, column 7): the subtree "Chase" uses the blackboard entries `speed`, which BT.CPP keeps in the subtree's own blackboard unless the `<SubTree>` remaps them; ours has one blackboard, the context: write `_autoremap="true"` or goal="{goal}" speed="{speed}""#
    );
}

#[test]
fn a_malformed_json_reference_is_an_error_at_its_parameter() {
    let err =
        Node::parse(r#"{"type": "action", "action": {"type": "Go", "to": {"$entry": "goal", "x": 1}}}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"at `action.to` (line 1, column 45): a blackboard reference is {"$entry": "key"}: that field alone, with the entry's name"#
    );
}

/// A `<SubTree>` port remapped to an entry of another name is the node's
/// `"remap"` (the subtree's key to the parent's); nested remaps pass the
/// parent-side names up, so the outer `<SubTree>` must share those; the
/// round trips keep it.
#[test]
fn subtree_ports_remapped_to_another_entry() {
    let xml = r#"<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence>
      <SubTree ID="Chase" goal="{prey}" speed="{=}"/>
      <SubTree ID="Relay" target="{home}" speed="{pace}"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Relay">
    <SubTree ID="Chase" goal="{target}" _autoremap="true"/>
  </BehaviorTree>
  <BehaviorTree ID="Chase">
    <Action ID="Go" to="{goal}" speed="{speed}"/>
  </BehaviorTree>
</root>"#;
    let trees = read(xml).unwrap_or_else(|e| panic!("{e}"));
    let json = Node::parse(
        r#"{"type": "sequence", "children": [
            {"type": "subtree", "subtreeId": "Chase", "remap": {"goal": "prey"}},
            {"type": "subtree", "subtreeId": "Relay", "remap": {"speed": "pace", "target": "home"}}]}"#,
    )
    .expect("the twin loads");
    assert_eq!(trees.main(), &json);
    let relay = trees.library().get("Relay").expect("read");
    assert_eq!(relay.to_json()["remap"], serde_json::json!({"goal": "target"}));

    // XML -> model -> XML keeps the remaps; writing is then a fixed point.
    let written = to_xml(trees.main_id(), trees.main(), trees.library()).expect("writes");
    assert!(
        written.contains(r#"<SubTree ID="Chase" _autoremap="true" goal="{prey}"/>"#),
        "{written}"
    );
    assert!(
        written.contains(r#"<SubTree ID="Relay" _autoremap="true" speed="{pace}" target="{home}"/>"#),
        "{written}"
    );
    let again = read(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(again.main(), trees.main());
    assert_eq!(again.library(), trees.library());
    assert_eq!(to_xml("Main", again.main(), again.library()).expect("writes"), written);
    // JSON -> XML -> JSON is identical.
    let back = read(&to_xml("Main", &json, trees.library()).expect("writes")).expect("loads");
    assert_eq!(back.main().to_json(), json.to_json());

    // The outer `<SubTree>` shares what the inner one remaps to (`target`),
    // not the subtree's own name for it (`goal`).
    let unshared = xml.replace(r#" target="{home}""#, "");
    assert_eq!(
        error(&unshared),
        r#"at `children[1]` (line 5, column 7): the subtree "Relay" uses the blackboard entries `target`, which BT.CPP keeps in the subtree's own blackboard unless the `<SubTree>` remaps them; ours has one blackboard, the context: write `_autoremap="true"` or speed="{speed}" target="{target}""#
    );
}

#[test]
fn a_bad_json_remap_is_an_error_at_its_path() {
    let err = Node::parse(r#"{"type": "subtree", "subtreeId": "A", "remap": {"goal": 3}}"#).unwrap_err();
    assert_eq!(
        err.to_string(),
        "at `remap.goal` (line 1, column 49): expected the key of this tree's entry (a non-empty string), found the number 3"
    );
    let err = Node::parse(r#"{"type": "sequence", "remap": {}, "children": [{"type": "success"}]}"#).unwrap_err();
    assert!(err.to_string().contains("unknown field \"remap\""), "{err}");
}

/// BT.CPP v4's `_description`, a comment on any node, is read and left out.
#[test]
fn descriptions_are_read_and_left_out() {
    let xml = doc(
        r#"<Sequence _description="the patrol"><Action ID="Go" _description="walk" to="a"/><SubTree ID="Main" _description="x"/></Sequence>"#,
    );
    // (A tree using itself is the loader's problem, not the reader's.)
    let trees = read(&xml).unwrap_or_else(|e| panic!("{e}"));
    let plain = read(&doc(
        r#"<Sequence><Action ID="Go" to="a"/><SubTree ID="Main"/></Sequence>"#,
    ))
    .expect("loads");
    assert_eq!(trees.main(), plain.main());
}

/// A document past `XmlReader::max_bytes` (8 MiB unless set), with its
/// includes, is refused before it is parsed.
#[test]
fn documents_past_the_byte_limit_are_refused_before_parsing() {
    assert_eq!(behaved_format::xml::DEFAULT_MAX_BYTES, 8 << 20);
    // Not even well formed: the size is checked first.
    let big = format!("<root>{}", " ".repeat(100));
    let err = XmlReader::new().max_bytes(100).read(&big).unwrap_err();
    assert_eq!(
        err.to_string(),
        "at the root: the document is 106 bytes, above the reader's limit of 100 (`XmlReader::max_bytes`): reading XML takes about 90 bytes of memory per byte"
    );
    let over = format!("<root>{}", " ".repeat(8 << 20));
    assert!(
        read(&over)
            .unwrap_err()
            .to_string()
            .contains("above the reader's limit of 8388608")
    );
    // The includes count toward it.
    let main = r#"<root BTCPP_format="4" main_tree_to_execute="Main">
  <include path="a.xml"/>
  <BehaviorTree ID="Main"><SubTree ID="A"/></BehaviorTree>
</root>"#;
    let included = r#"<root BTCPP_format="4"><BehaviorTree ID="A"><AlwaysSuccess/></BehaviorTree></root>"#;
    let load = |_: &str| Ok(included.to_string());
    let limit = main.len() + included.len();
    assert!(XmlReader::new().includes(&load).max_bytes(limit).read(main).is_ok());
    let err = XmlReader::new()
        .includes(&load)
        .max_bytes(limit - 1)
        .read(main)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "at the root (line 2, column 3): cannot include \"a.xml\": its {} bytes take the document past the reader's limit of {} bytes in all (`XmlReader::max_bytes`)",
            included.len(),
            limit - 1
        )
    );
}

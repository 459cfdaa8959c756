//! The editor's server with BehaviorTree.CPP (Groot2) `.xml` files: opened
//! as their main tree with their other trees as library subtrees, checked,
//! saved back as XML, and their load errors at XML line and column.

mod common;

use common::editing::{GUARD_XML, folder_with, guard_manifest, serve_editor};
use common::{get, post};
use serde_json::{Value, json};

/// The main tree of `GUARD_XML` as the page edits it.
fn guard_doc() -> Value {
    json!({"type": "selector", "children": [
        {"type": "sequence", "children": [
            {"type": "condition", "condition": {"type": "timeOfDay", "value": "night"}},
            {"type": "subtree", "subtreeId": "Patrol"}]},
        {"type": "action", "action": {"type": "dialogue", "dialogueId": "guard-default"}}]})
}

#[test]
fn an_xml_file_opens_as_its_main_tree_with_its_other_trees_as_the_library() {
    for leaves in [false, true] {
        let dir = folder_with(&format!("open-{leaves}"), "guard.xml", GUARD_XML);
        let mut editor = behaved_studio::Editor::new(dir.join("guard.xml"));
        if leaves {
            editor = editor.with_leaves(guard_manifest());
        }
        let addr = serve_editor(editor);
        let open: Value = serde_json::from_str(&get(addr, "/api/edit/open").body).unwrap();
        assert_eq!(open["name"], "guard.xml");
        assert_eq!(open["error"], Value::Null);
        assert_eq!(open["doc"], guard_doc());
        assert_eq!(
            open["library"],
            json!({"Patrol": {"type": "action", "action": {"type": "moveTo", "target": "gate"}}})
        );
        // The check knows the file's other trees and their leaves.
        assert_eq!(
            post(addr, "/api/edit/check", &guard_doc()),
            (200, json!({ "problems": [] }))
        );
        let mut doc = guard_doc();
        doc["children"][0]["children"][1]["subtreeId"] = json!("Patrl");
        let (status, bad) = post(addr, "/api/edit/check", &doc);
        assert_eq!(status, 200);
        assert_eq!(bad["problems"][0]["path"], "children[0].children[1].subtreeId", "{bad}");
        assert_eq!(
            bad["problems"][0]["message"], "unknown subtree \"Patrl\"; did you mean \"Patrol\"?",
            "{bad}"
        );
    }
}

#[test]
fn an_xml_file_saves_back_as_xml_with_its_other_trees() {
    let dir = folder_with("save", "guard.xml", GUARD_XML);
    let addr = serve_editor(behaved_studio::Editor::new(dir.join("guard.xml")).with_leaves(guard_manifest()));
    let mut doc = guard_doc();
    doc["children"][1]["action"]["dialogueId"] = json!("guard-night");
    let (status, saved) = post(addr, "/api/edit/save", &json!({"name": "guard.xml", "doc": doc}));
    assert_eq!(status, 200, "{saved}");
    let text = std::fs::read_to_string(dir.join("guard.xml")).unwrap();
    assert_eq!(saved["text"], text);
    assert!(
        text.contains(r#"<root BTCPP_format="4" main_tree_to_execute="Guard">"#),
        "{text}"
    );
    assert!(
        text.contains(r#"<Action ID="dialogue" dialogueId="guard-night"/>"#),
        "{text}"
    );
    assert!(
        text.contains("<BehaviorTree ID=\"Patrol\">\n    <Action ID=\"moveTo\" target=\"gate\"/>"),
        "{text}"
    );
    // It reads back as what was saved.
    let open: Value = serde_json::from_str(&get(addr, "/api/edit/open").body).unwrap();
    assert_eq!(open["doc"], doc);
    assert_eq!(open["library"]["Patrol"]["action"]["target"], "gate");
    // A new .xml file beside it: the same trees.
    let (status, _) = post(addr, "/api/edit/save", &json!({"name": "copy.xml", "doc": doc}));
    assert_eq!(status, 200);
    assert_eq!(std::fs::read_to_string(dir.join("copy.xml")).unwrap(), text);
}

#[test]
fn a_tree_bt_cpp_cannot_express_is_not_written_as_xml() {
    let dir = folder_with("unwritable", "guard.xml", GUARD_XML);
    let addr = serve_editor(behaved_studio::Editor::new(dir.join("guard.xml")));
    let mut doc = guard_doc();
    doc["children"][0]["id"] = json!("night");
    // The loader accepts a node id; BT.CPP has none, and the file is not written.
    assert_eq!(post(addr, "/api/edit/check", &doc), (200, json!({ "problems": [] })));
    let (status, answer) = post(
        addr,
        "/api/edit/save",
        &json!({"name": "guard.xml", "doc": doc, "force": true}),
    );
    assert_eq!(status, 422);
    assert_eq!(
        answer,
        json!({
            "error": "cannot save guard.xml as BehaviorTree.CPP XML: at `children[0]`: a node id has no BT.CPP counterpart; remove the \"id\" to write this tree as XML",
            "problems": [{"path": "children[0]", "message": "a node id has no BT.CPP counterpart; remove the \"id\" to write this tree as XML"}],
        })
    );
    assert_eq!(std::fs::read_to_string(dir.join("guard.xml")).unwrap(), GUARD_XML);
}

#[test]
fn an_xml_file_that_does_not_load_is_shown_at_its_line_and_column() {
    let cases = [
        (
            GUARD_XML
                .replace("<Sequence>", "<SequenceWithMemory>")
                .replace("</Sequence>", "</SequenceWithMemory>"),
            "guard.xml does not load: at `children[0]` (line 4, column 7): `SequenceWithMemory` has no counterpart: after a failure it resumes at the failed child, where our sequence starts again from the first; write `Sequence` if that is meant",
        ),
        (
            GUARD_XML.replace("      </Sequence>\n", ""),
            "guard.xml does not load: at the root (line 8, column 5): malformed XML: expected 'Sequence' tag, not 'Fallback'",
        ),
    ];
    for (i, (text, error)) in cases.into_iter().enumerate() {
        let dir = folder_with(&format!("broken-{i}"), "guard.xml", &text);
        let addr = serve_editor(behaved_studio::Editor::new(dir.join("guard.xml")));
        let open: Value = serde_json::from_str(&get(addr, "/api/edit/open").body).unwrap();
        assert_eq!(open["doc"], Value::Null);
        assert_eq!(open["error"], error);
        // Nothing is saved over a file whose other trees cannot be read.
        let (status, answer) = post(
            addr,
            "/api/edit/save",
            &json!({"name": "guard.xml", "doc": guard_doc(), "force": true}),
        );
        assert_eq!(status, 422, "{answer}");
        assert!(
            answer["error"]
                .as_str()
                .unwrap()
                .starts_with("cannot save guard.xml: guard.xml no longer reads, so its other trees would be lost: at "),
            "{answer}"
        );
        assert_eq!(std::fs::read_to_string(dir.join("guard.xml")).unwrap(), text);
    }
}

#[test]
fn the_binary_edits_an_xml_file() {
    let dir = folder_with("binary", "guard.xml", GUARD_XML);
    let path = dir.join("guard.xml");
    let (_child, line, addr) = common::start_binary(&["edit", path.to_str().unwrap(), "--port", "0"]);
    assert!(line.starts_with("behaved-studio: editing "), "{line}");
    let open: Value = serde_json::from_str(&get(addr, "/api/edit/open").body).unwrap();
    assert_eq!(open["doc"], guard_doc());
}

#[test]
fn a_new_xml_file_starts_as_an_empty_sequence_and_saves_under_its_stem() {
    let dir = folder_with("new", "guard.xml", GUARD_XML);
    let addr = serve_editor(behaved_studio::Editor::new(dir.join("patrol.xml")));
    let open: Value = serde_json::from_str(&get(addr, "/api/edit/open").body).unwrap();
    assert_eq!(open["new"], true);
    assert_eq!(open["doc"], json!({"type": "sequence", "children": []}));
    let doc = json!({"type": "sequence", "children": [{"type": "success"}]});
    let (status, saved) = post(addr, "/api/edit/save", &json!({"name": "patrol.xml", "doc": doc}));
    assert_eq!(status, 200, "{saved}");
    let text = std::fs::read_to_string(dir.join("patrol.xml")).unwrap();
    assert!(
        text.contains(r#"<root BTCPP_format="4" main_tree_to_execute="patrol">"#),
        "{text}"
    );
    assert!(
        text.contains("<BehaviorTree ID=\"patrol\">\n    <Sequence>\n      <AlwaysSuccess/>"),
        "{text}"
    );
    let open: Value = serde_json::from_str(&get(addr, "/api/edit/open").body).unwrap();
    assert_eq!((&open["new"], &open["doc"]), (&json!(false), &doc));
}

/// Runs `behaved-studio check` on `file` in `dir` (with `args` after it):
/// its exit code, what it printed and what it said on stderr.
fn check(dir: &std::path::Path, file: &str, args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_behaved-studio"))
        .current_dir(dir)
        .arg("check")
        .arg(file)
        .args(args)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn the_cli_checks_xml_and_json_files_with_problems_at_their_line_and_column() {
    let dir = folder_with("cli-check", "guard.xml", GUARD_XML);
    let none = String::new();
    assert_eq!(
        check(&dir, "guard.xml", &[]),
        (0, "guard.xml: the loader accepts it\n".into(), none.clone())
    );
    // Found by the loader after the XML reads: placed in the XML file.
    std::fs::write(
        dir.join("typo.xml"),
        GUARD_XML.replace(r#"ID="Patrol"/>"#, r#"ID="Patrl"/>"#),
    )
    .unwrap();
    assert_eq!(
        check(&dir, "typo.xml", &[]),
        (
            1,
            "typo.xml: at `children[0].children[1].subtreeId` (line 6, column 9): unknown subtree \"Patrl\"; did you mean \"Patrol\"?\n".into(),
            none.clone()
        )
    );
    // Found by the XML reader; with the game's leaves, a leaf it lacks.
    std::fs::write(
        dir.join("memory.xml"),
        GUARD_XML.replace("Sequence>", "SequenceWithMemory>"),
    )
    .unwrap();
    let (code, out, _) = check(&dir, "memory.xml", &[]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("memory.xml: at `children[0]` (line 4, column 7): `SequenceWithMemory` has no counterpart"),
        "{out}"
    );
    std::fs::write(dir.join("leaves.json"), guard_manifest().to_json_pretty()).unwrap();
    std::fs::write(
        dir.join("leaf.xml"),
        GUARD_XML.replace(r#"ID="moveTo""#, r#"ID="moveTp""#),
    )
    .unwrap();
    let (code, out, _) = check(&dir, "leaf.xml", &["--leaves", "leaves.json"]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with(
            "leaf.xml: at `subtrees[\"Patrol\"].action` (line 12, column 5): unknown action type \"moveTp\""
        ),
        "{out}"
    );
    // JSON as the editor checks it, placed in the file.
    std::fs::write(
        dir.join("wait.json"),
        "{\n  \"type\": \"sequence\",\n  \"children\": [\n    {\"type\": \"wait\"}\n  ]\n}\n",
    )
    .unwrap();
    assert_eq!(
        check(&dir, "wait.json", &[]),
        (
            1,
            "wait.json: at `children[0]` (line 4, column 5): \"wait\" needs \"seconds\": a duration (a number >= 0)\n"
                .into(),
            none
        )
    );
    let (code, out, err) = check(&dir, "missing.xml", &[]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.starts_with("behaved-studio: cannot read missing.xml: "), "{err}");
}

//! The editor's server without a browser: checks by the loader, the save
//! rules (the opened file or new files beside it, a rejected tree only when
//! forced) and the what-if replay.

mod common;

use common::editing::{guard_folder, guard_json, guard_manifest, guard_recording, serve_editor};
use common::{binary_fails, get, post, send, start_binary};
use serde_json::{Value, json};
use std::net::SocketAddr;

#[test]
fn a_post_without_a_json_content_type_is_refused() {
    // A page elsewhere cannot send JSON without a CORS preflight, which the editor does not answer.
    let dir = guard_folder("csrf");
    let addr = serve_editor(behaved_studio::Editor::new(dir.join("guard.json")));
    let body = json!({"name": "guard.json", "doc": {"type": "success"}}).to_string();
    assert_eq!(send(addr, "POST", "/api/edit/save", &[], &body).status, 415);
    assert_eq!(std::fs::read_to_string(dir.join("guard.json")).unwrap(), guard_json());
}

fn guard() -> Value {
    serde_json::from_str(&guard_json()).unwrap()
}

/// Serves the editor of the guard in a new folder named after `name`, with
/// its leaves and a recording of it.
fn serve_guard_with_its_recording(name: &str) -> SocketAddr {
    let dir = guard_folder(name);
    let trace = common::temp_file("guard.trace.json", &guard_recording().to_json().unwrap());
    let editor = behaved_studio::Editor::new(dir.join("guard.json"))
        .with_leaves(guard_manifest())
        .with_trace(&trace);
    serve_editor(editor)
}

#[test]
fn open_gives_the_document_palette_leaves_and_recording() {
    let addr = serve_guard_with_its_recording("open");
    let open: Value = serde_json::from_str(&get(addr, "/api/edit/open").body).unwrap();
    assert_eq!(open["name"], "guard.json");
    assert_eq!(open["doc"], guard());
    let groups: Vec<&str> = open["palette"]["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_str().unwrap())
        .collect();
    assert_eq!(groups, ["composites", "decorators", "loops", "timing", "leaves"]);
    let kind = |t: &str| {
        open["palette"]["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["type"] == t)
            .unwrap()
            .clone()
    };
    assert_eq!(kind("sequence")["group"], "composites");
    assert_eq!(kind("inverter")["group"], "decorators");
    assert_eq!(kind("repeater")["group"], "loops");
    assert_eq!(kind("timeout")["group"], "timing");
    assert_eq!(kind("action")["group"], "leaves");
    assert_eq!(open["leaves"]["actions"]["moveTo"]["params"][0]["name"], "target");
    assert_eq!(open["recorded"]["trace"]["format"], "bt-trace");
    assert!(get(addr, "/").body.contains("editor.js"));
}

#[test]
fn every_problem_comes_with_its_path_and_the_loaders_hint() {
    let dir = guard_folder("check");
    let addr = serve_editor(behaved_studio::Editor::new(dir.join("guard.json")).with_leaves(guard_manifest()));
    let (status, ok) = post(addr, "/api/edit/check", &guard());
    assert_eq!((status, ok), (200, json!({ "problems": [] })));
    let mut doc = guard();
    doc["children"][2]["children"][0]["condition"]["type"] = json!("hasItme");
    doc["children"][3]["action"]["dialogId"] = json!("x");
    let (_, bad) = post(addr, "/api/edit/check", &doc);
    assert_eq!(
        bad["problems"],
        json!([
            {"path": "children[2].children[0].condition", "message": "unknown condition type \"hasItme\"; did you mean \"hasItem\"?"},
            {"path": "children[3].action", "message": "bad parameters for action \"dialogue\": unknown parameter \"dialogId\"; did you mean \"dialogueId\"?"},
        ])
    );
    // A node of the wrong shape: the loader reports it before it looks at parameters.
    doc["children"].as_array_mut().unwrap().push(json!({"type": "wait"}));
    let (_, shape) = post(addr, "/api/edit/check", &doc);
    assert_eq!(
        shape["problems"],
        json!([
            {"path": "children[2].children[0].condition", "message": "unknown condition type \"hasItme\"; did you mean \"hasItem\"?"},
            {"path": "children[4]", "message": "\"wait\" needs \"seconds\": a duration (a number >= 0)"},
        ])
    );
}

#[test]
fn saves_go_to_the_opened_file_or_new_files_beside_it_and_nowhere_else() {
    let dir = guard_folder("save");
    std::fs::write(dir.join("other.json"), "{}").unwrap();
    let addr = serve_editor(behaved_studio::Editor::new(dir.join("guard.json")).with_leaves(guard_manifest()));
    let save = |name: &str, doc: &Value, force: bool| {
        post(
            addr,
            "/api/edit/save",
            &json!({"name": name, "doc": doc, "force": force}),
        )
    };
    for outside in [
        "../outside.json",
        "/tmp/outside.json",
        "sub/x.json",
        "..",
        "other.json",
        "notes.txt",
        ".hidden.json",
    ] {
        let (status, answer) = save(outside, &guard(), false);
        assert_eq!(status, 403, "{outside}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().starts_with("cannot save as"),
            "{answer}"
        );
    }
    assert!(!dir.parent().unwrap().join("outside.json").exists());
    assert_eq!(std::fs::read_to_string(dir.join("other.json")).unwrap(), "{}");
    // A new file, then the same new file again.
    assert_eq!(save("copy.json", &guard(), false).0, 200);
    assert_eq!(save("copy.json", &guard(), false).0, 200);
    let written = std::fs::read_to_string(dir.join("copy.json")).unwrap();
    assert_eq!(serde_json::from_str::<Value>(&written).unwrap(), guard());
    // A tree the loader rejects: refused with the problems, written when forced.
    let mut bad = guard();
    bad["children"].as_array_mut().unwrap().push(json!({"type": "wait"}));
    let (status, answer) = save("guard.json", &bad, false);
    assert_eq!(status, 409);
    assert_eq!(answer["problems"][0]["path"], "children[4]");
    assert_eq!(std::fs::read_to_string(dir.join("guard.json")).unwrap(), guard_json());
    assert_eq!(save("guard.json", &bad, true).0, 200);
    let forced: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("guard.json")).unwrap()).unwrap();
    assert_eq!(forced, bad);
}

#[test]
fn a_what_if_replay_finds_the_first_divergence() {
    let addr = serve_guard_with_its_recording("preview");
    // Unchanged, the tree does what the recording did.
    let (status, same) = post(addr, "/api/edit/preview", &json!({"doc": guard()}));
    assert_eq!(status, 200, "{same}");
    assert_eq!(same["divergence"], Value::Null);
    assert_eq!(same["unknown"], json!([]));
    // The night condition now asks for the evening: unknown to the recording, so it fails,
    // and at the first night tick (4) the guard no longer walks to the guardhouse.
    let mut doc = guard();
    doc["children"][1]["children"][0]["condition"]["value"] = json!("evening");
    let (_, preview) = post(addr, "/api/edit/preview", &json!({"doc": doc}));
    assert_eq!(preview["divergence"]["tick"], 4, "{preview}");
    assert_eq!(preview["divergence"]["path"], "children[1].children[0]");
    assert_eq!(
        preview["divergence"]["text"],
        "tick 4: the edited tree ran timeOfDay(value: \"evening\") (failure) where the recording ran timeOfDay(value: \"night\") (success)"
    );
    // Unknown to the recording: the new condition, and leaves that now run more often than recorded.
    assert_eq!(
        preview["unknown"],
        json!([
            "dialogue(dialogueId: \"guard-default\")",
            "hasItem(itemId: \"bribe-purse\")",
            "questStage(questId: \"flying-home\", stageId: \"build-resonance\", state: \"active\")",
            "timeOfDay(value: \"evening\")"
        ])
    );
    // Picked to succeed, it already changes the first day tick.
    let picks = json!({"timeOfDay(value: \"evening\")": "success"});
    let (_, picked) = post(addr, "/api/edit/preview", &json!({"doc": doc, "picks": picks}));
    assert_eq!(picked["divergence"]["tick"], 1, "{picked}");
    // A tree that does not load is not replayed.
    doc["children"].as_array_mut().unwrap().push(json!({"type": "wait"}));
    let (status, refused) = post(addr, "/api/edit/preview", &json!({"doc": doc}));
    assert_eq!(status, 422);
    assert_eq!(refused["problems"][0]["path"], "children[4]");
}

#[test]
fn a_for_each_is_checked_against_the_manifests_lists_and_its_preview_says_it_had_no_items() {
    let dir = guard_folder("for-each");
    let trace = common::temp_file("guard.trace.json", &guard_recording().to_json().unwrap());
    let mut leaves = guard_manifest();
    leaves.lists.insert(
        "targets".into(),
        behaved_interp::ListDoc {
            params: Some(vec![]),
            item: None,
        },
    );
    let editor = behaved_studio::Editor::new(dir.join("guard.json"))
        .with_leaves(leaves)
        .with_trace(&trace);
    let addr = serve_editor(editor);
    // The default dialogue, for each target.
    let mut doc = guard();
    let default = doc["children"][3].take();
    doc["children"][3] = json!({"type": "forEach", "items": "targetz", "max": 4, "child": default});
    let (status, refused) = post(addr, "/api/edit/preview", &json!({"doc": doc}));
    assert_eq!(status, 422, "{refused}");
    assert_eq!(refused["problems"][0]["path"], "children[3].items");
    assert_eq!(
        refused["problems"][0]["message"],
        "unknown list type \"targetz\"; did you mean \"targets\"?"
    );
    doc["children"][3]["items"] = json!("targets");
    let (status, preview) = post(addr, "/api/edit/preview", &json!({"doc": doc}));
    assert_eq!(status, 200, "{preview}");
    // A recording keeps no items: the loop ran none, and the preview says so at the loop.
    assert_eq!(
        preview["notes"],
        json!([{"path": "children[3]", "text": "for(targets, max 4): the preview ran this loop with no items (a recording does not keep a list's items), so its child never ran"}])
    );
    // By day the guard no longer says its default line.
    assert_eq!(preview["divergence"]["tick"], 1, "{preview}");
    // Without a manifest, every list the document names is accepted, and nothing else.
    let bare = serve_editor(behaved_studio::Editor::new(dir.join("guard.json")));
    let (status, checked) = post(bare, "/api/edit/check", &doc);
    assert_eq!((status, &checked["problems"]), (200, &json!([])), "{checked}");
}

#[test]
fn the_binary_edits_a_tree_with_its_leaves_and_refuses_a_broken_manifest() {
    let dir = guard_folder("binary");
    let leaves = dir.join("guard.leaves.json");
    std::fs::write(&leaves, guard_manifest().to_json_pretty()).unwrap();
    let tree = dir.join("guard.json");
    let args = [
        "edit",
        tree.to_str().unwrap(),
        "--leaves",
        leaves.to_str().unwrap(),
        "--port",
        "0",
    ];
    let (_child, line, addr) = start_binary(&args);
    assert!(line.starts_with("behaved-studio: editing "), "{line}");
    let open: Value = serde_json::from_str(&get(addr, "/api/edit/open").body).unwrap();
    assert_eq!(open["leaves"], serde_json::to_value(guard_manifest()).unwrap());

    std::fs::write(&leaves, r#"{"format": "bt-trace", "version": 1}"#).unwrap();
    let said = binary_fails(&args);
    assert!(
        said.starts_with(&format!("behaved-studio: {}: not a leaf manifest", leaves.display())),
        "{said}"
    );
}

#[test]
fn the_catalogue_of_node_types_is_listed_once_per_check() {
    // The library's files and the tree are loaded apart: one check still lists it once.
    let dir = guard_folder("catalogue");
    let library = dir.join("subtrees");
    std::fs::create_dir_all(&library).unwrap();
    std::fs::write(library.join("patrol.json"), r#"{"type": "banana"}"#).unwrap();
    let editor = behaved_studio::Editor::new(dir.join("guard.json")).with_library(&library);
    let addr = serve_editor(editor);
    let (_, checked) = post(addr, "/api/edit/check", &json!({"type": "kiwi"}));
    let problems = checked["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 2, "{checked}");
    assert_eq!(problems[0]["path"], "subtrees[\"patrol\"].type");
    let first = problems[0]["message"].as_str().unwrap();
    assert!(
        first.starts_with("unknown node type \"banana\"; expected one of \"sequence\", \"selector\""),
        "{first}"
    );
    assert_eq!(
        problems[1],
        json!({"path": "type", "message": "unknown node type \"kiwi\"; expected one of the node types listed at `subtrees[\"patrol\"].type`"})
    );
}

#[test]
fn a_tree_past_the_studios_limit_is_not_opened_and_the_page_is_told_why() {
    let leaves = behaved_studio::limits::MAX_TREE_NODES;
    let children = vec![json!({"type": "action", "name": "x"}); leaves];
    let tree = json!({"type": "sequence", "children": children}).to_string();
    let addr = serve_editor(behaved_studio::Editor::new(common::temp_file("wide.json", &tree)));
    let open: Value = serde_json::from_str(&get(addr, "/api/edit/open").body).unwrap();
    assert_eq!(
        (&open["doc"], &open["error"]),
        (
            &Value::Null,
            &json!("wide.json cannot be edited: a tree of 50001 nodes is past the studio's limit of 50000 nodes")
        )
    );
}

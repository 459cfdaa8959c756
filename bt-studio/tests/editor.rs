//! The tree editor in a real headless Chromium, driven over WebDriver:
//! adding from the palette, the loader's problems at their nodes, saving,
//! undo and redo, moving and wrapping, and the what-if replay.
//!
//! Needs `chromium` and `chromium-driver` (Debian); without them every test
//! here prints that it was skipped, unless `BEHAVED_STUDIO_REQUIRE_BROWSER=1`.

mod common;

use std::time::{Duration, Instant};

use common::browser::{PATIENCE, choose, click, eval, off_centre, open, screenshot, type_into, with_browser};
use common::editing::{
    GUARD_XML, folder_with, guard_folder, guard_json, guard_manifest, guard_recording, serve_editor, until,
};
use fantoccini::key::Key;
use fantoccini::{Client, Locator};
use serde_json::Value;

/// Serves the editor on guard.json in a fresh folder; returns the URL and the folder.
fn edit_guard(name: &str, with_trace: bool) -> (String, std::path::PathBuf) {
    let dir = guard_folder(name);
    let mut editor = behaved_studio::Editor::new(dir.join("guard.json")).with_leaves(guard_manifest());
    if with_trace {
        let trace = dir.join("guard.trace.json");
        std::fs::write(&trace, guard_recording().to_json().unwrap()).unwrap();
        editor = editor.with_trace(trace);
    }
    (format!("http://{}/", serve_editor(editor)), dir)
}

/// Waits until the edited document (`doc`, as JSON) satisfies `test`
/// (`".action.speed === 2"`, the JavaScript that follows `doc`).
async fn doc_satisfies(client: &Client, test: &str) {
    until(client, &format!("return JSON.parse(window.btEditor.docText()){test};")).await;
}

/// Waits until the editor's selection is the node at `path`.
async fn selected_is(client: &Client, path: &str) {
    until(client, &format!("return window.btEditor.selected() === '{path}';")).await;
}

/// Presses Save and waits until the page says it saved.
async fn save_and_wait(client: &Client) {
    click(client, "#save").await;
    until(
        client,
        "return document.querySelector('#status').textContent.startsWith('saved');",
    )
    .await;
}

/// Waits until the loader accepts the edited tree.
async fn until_accepted(client: &Client) {
    until(
        client,
        "return document.querySelector('#problem-count').textContent.startsWith('✓');",
    )
    .await;
}

/// Waits until the status line says something went wrong, and returns what.
async fn until_refused(client: &Client) -> Value {
    until(
        client,
        "return document.querySelector('#status').classList.contains('bad');",
    )
    .await;
    status_text(client).await
}

/// What the status line says.
async fn status_text(client: &Client) -> Value {
    eval(client, "return document.querySelector('#status').textContent;").await
}

/// The document as the page holds it.
async fn doc_text(client: &Client) -> String {
    eval(client, "return window.btEditor.docText();")
        .await
        .as_str()
        .unwrap()
        .to_string()
}

async fn select(client: &Client, path: &str) {
    click(client, &format!("#viewport .node[data-path='{path}']")).await;
}

/// Replaces the selected node with `json` through its JSON box, and applies it.
async fn set_node_json(client: &Client, json: &str) {
    let area = client
        .find(Locator::Css("#properties textarea[data-field='json']"))
        .await
        .unwrap();
    area.clear().await.unwrap();
    area.send_keys(json).await.unwrap();
    click(client, "#properties button:last-of-type").await;
}

/// Waits until the node at `path` is marked with an error, and returns the loader's message.
async fn error_at(client: &Client, path: &str) -> Value {
    until(
        client,
        &format!("return !!document.querySelector(\"#viewport .node.error[data-path='{path}']\");"),
    )
    .await;
    eval(
        client,
        &format!("return document.querySelector(\"#viewport .node[data-path='{path}']\").dataset.error;"),
    )
    .await
}

/// guard.json with a `wait` of two seconds added as the root's last child,
/// in the editor's stable layout (lines of at most 100 columns).
const GUARD_WITH_WAIT: &str = r#"{
  "type": "selector",
  "name": "Guard",
  "children": [
    {
      "type": "sequence",
      "name": "Quest: Flying Home - Build Resonance",
      "children": [
        {
          "type": "condition",
          "condition": {
            "type": "questStage",
            "questId": "flying-home",
            "stageId": "build-resonance",
            "state": "active"
          }
        },
        { "type": "action", "action": { "type": "dialogue", "dialogueId": "guard-brush-off" } }
      ]
    },
    {
      "type": "sequence",
      "name": "Night behavior",
      "children": [
        { "type": "condition", "condition": { "type": "timeOfDay", "value": "night" } },
        {
          "type": "selector",
          "children": [
            {
              "type": "sequence",
              "name": "At post?",
              "children": [
                {
                  "type": "condition",
                  "condition": { "type": "atLocation", "locationId": "guardhouse" }
                },
                { "type": "action", "action": { "type": "dialogue", "dialogueId": "guard-night" } }
              ]
            },
            { "type": "action", "action": { "type": "moveTo", "target": "guardhouse" } }
          ]
        }
      ]
    },
    {
      "type": "sequence",
      "name": "Player has bribe",
      "children": [
        { "type": "condition", "condition": { "type": "hasItem", "itemId": "bribe-purse" } },
        { "type": "action", "action": { "type": "dialogue", "dialogueId": "guard-bribe" } }
      ]
    },
    {
      "type": "action",
      "name": "Default",
      "action": { "type": "dialogue", "dialogueId": "guard-default" }
    },
    { "type": "wait", "seconds": 2 }
  ]
}
"#;

#[test]
fn add_from_the_palette_see_the_loaders_error_at_the_node_fix_it_and_save() {
    let (url, dir) = edit_guard("add", false);
    with_browser("editor_add", |client| async move {
        open(&client, &url).await;
        until_accepted(&client).await;
        assert_eq!(
            eval(&client, "return document.querySelectorAll('#viewport .node').length;").await,
            15
        );
        // The root is selected: a wait from the palette becomes its last child.
        click(&client, "#palette button[data-kind='wait']").await;
        let error = error_at(&client, "children[4]").await;
        assert_eq!(error, "\"wait\" needs \"seconds\": a duration (a number >= 0)");
        let listed = eval(
            &client,
            "return [...document.querySelectorAll('#problems li')].map(li => li.dataset.path);",
        )
        .await;
        assert_eq!(listed, serde_json::json!(["children[4]"]));
        assert_eq!(eval(&client, "return window.btEditor.selected();").await, "children[4]");
        screenshot(&client, "editor-problem").await;
        // Saving a rejected tree asks first; cancelled, the file is untouched.
        click(&client, "#save").await;
        until(&client, "return !document.querySelector('#force').hidden;").await;
        click(&client, "#force-cancel").await;
        assert_eq!(std::fs::read_to_string(dir.join("guard.json")).unwrap(), guard_json());
        // Fixed in the property panel: the error goes.
        type_into(&client, "#properties input[data-field='seconds']", "2").await;
        until(&client, "return document.querySelectorAll('#viewport .node.error').length === 0 && document.querySelector('#problem-count').textContent.startsWith('✓');").await;
        save_and_wait(&client).await;
        assert_eq!(
            std::fs::read_to_string(dir.join("guard.json")).unwrap(),
            GUARD_WITH_WAIT
        );
        screenshot(&client, "editor-saved").await;
    });
}

#[test]
fn a_leaf_of_the_manifest_with_a_typo_in_its_parameter_shows_the_loaders_hint() {
    let (url, _dir) = edit_guard("leaf", false);
    with_browser("editor_leaf", |client| async move {
        open(&client, &url).await;
        select(&client, "children[3]").await;
        // A registered action from the palette goes after the selected leaf, its parameter present and empty.
        click(&client, "#palette button[data-leaf='moveTo']").await;
        selected_is(&client, "children[4]").await;
        let doc: Value = serde_json::from_str(&doc_text(&client).await).unwrap();
        assert_eq!(
            doc["children"][4],
            serde_json::json!({"type": "action", "action": {"type": "moveTo", "target": ""}})
        );
        // The leaf's type, with a did-you-mean from the loader, via the node's JSON.
        set_node_json(
            &client,
            r#"{"type": "action", "action": {"type": "moveTo", "taget": "gate"}}"#,
        )
        .await;
        let error = error_at(&client, "children[4]").await;
        assert_eq!(
            error,
            "bad parameters for action \"moveTo\": unknown parameter \"taget\"; did you mean \"target\"?"
        );
        let shown = eval(
            &client,
            "return document.querySelector('#properties .node-problem').textContent;",
        )
        .await;
        assert!(shown.as_str().unwrap().contains("did you mean \"target\"?"), "{shown}");
    });
}

#[test]
fn undo_and_redo_restore_the_exact_document_through_every_kind_of_edit() {
    let (url, _dir) = edit_guard("undo", false);
    with_browser("editor_undo", |client| async move {
        open(&client, &url).await;
        let mut versions = vec![doc_text(&client).await];
        let svg = client.find(Locator::Css("#tree")).await.unwrap();
        // 1: wrap the bribe sequence in an inverter.
        select(&client, "children[2]").await;
        choose(&client, "#wrap", "inverter").await;
        selected_is(&client, "children[2]").await;
        let doc: Value = serde_json::from_str(&doc_text(&client).await).unwrap();
        assert_eq!(doc["children"][2]["type"], "inverter");
        assert_eq!(doc["children"][2]["child"]["name"], "Player has bribe");
        versions.push(doc_text(&client).await);
        // 2: move the quest sequence one place later with the keyboard.
        select(&client, "children[0]").await;
        svg.send_keys(&format!("{}{}", char::from(Key::Alt), char::from(Key::Down)))
            .await
            .unwrap();
        selected_is(&client, "children[1]").await;
        let doc: Value = serde_json::from_str(&doc_text(&client).await).unwrap();
        assert_eq!(doc["children"][0]["name"], "Night behavior");
        assert_eq!(doc["children"][1]["name"], "Quest: Flying Home - Build Resonance");
        versions.push(doc_text(&client).await);
        // 3: cut the default action, 4: paste it into the night sequence.
        select(&client, "children[3]").await;
        click(&client, "#cut").await;
        doc_satisfies(&client, ".children.length === 3").await;
        versions.push(doc_text(&client).await);
        select(&client, "children[0]").await;
        click(&client, "#paste").await;
        selected_is(&client, "children[0].children[2]").await;
        let doc: Value = serde_json::from_str(&doc_text(&client).await).unwrap();
        assert_eq!(doc["children"][0]["children"][2]["name"], "Default");
        versions.push(doc_text(&client).await);
        // 5: drag the quest sequence onto the night sequence: it becomes its last child.
        drag(&client, "children[1]", "children[0]").await;
        doc_satisfies(&client, ".children.length === 2").await;
        let doc: Value = serde_json::from_str(&doc_text(&client).await).unwrap();
        assert_eq!(
            doc["children"][0]["children"][3]["name"],
            "Quest: Flying Home - Build Resonance"
        );
        versions.push(doc_text(&client).await);
        // 6: delete the inverter.
        select(&client, "children[1]").await;
        svg.send_keys(&char::from(Key::Delete).to_string()).await.unwrap();
        doc_satisfies(&client, ".children.length === 1").await;
        versions.push(doc_text(&client).await);
        // Undo back to the opened document, one exact version at a time, then redo forward.
        for expected in versions.iter().rev().skip(1) {
            click(&client, "#undo").await;
            assert_eq!(&doc_text(&client).await, expected);
        }
        assert_eq!(
            versions[0],
            serde_json::to_string(&serde_json::from_str::<Value>(&guard_json()).unwrap()).unwrap()
        );
        for expected in versions.iter().skip(1) {
            svg.send_keys(&format!("{}y", char::from(Key::Control))).await.unwrap();
            assert_eq!(&doc_text(&client).await, expected);
        }
        until_accepted(&client).await;
    });
}

/// Drags node `from` onto node `onto` with the mouse.
async fn drag(client: &Client, from: &str, onto: &str) {
    use fantoccini::actions::{InputSource, MouseActions, PointerAction};
    let source = client
        .find(Locator::Css(&format!("#viewport .node[data-path='{from}'] rect.box")))
        .await
        .unwrap();
    let target = client
        .find(Locator::Css(&format!("#viewport .node[data-path='{onto}'] rect.box")))
        .await
        .unwrap();
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement {
            element: source,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down { button: 0 })
        .then(PointerAction::MoveBy {
            duration: Some(Duration::from_millis(100)),
            x: 10.0,
            y: 10.0,
        })
        .then(PointerAction::MoveToElement {
            element: target,
            duration: Some(Duration::from_millis(100)),
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Up { button: 0 });
    client.perform_actions(mouse).await.unwrap();
}

/// Double-clicks the element `css` with the mouse.
async fn double_click(client: &Client, css: &str) {
    use fantoccini::actions::{InputSource, MouseActions, PointerAction};
    let element = client.find(Locator::Css(css)).await.unwrap();
    let mouse = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement {
            element,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down { button: 0 })
        .then(PointerAction::Up { button: 0 })
        .then(PointerAction::Down { button: 0 })
        .then(PointerAction::Up { button: 0 });
    client.perform_actions(mouse).await.unwrap();
}

#[test]
fn saving_outside_the_opened_files_folder_is_refused() {
    let (url, dir) = edit_guard("outside", false);
    with_browser("editor_outside", |client| async move {
        open(&client, &url).await;
        type_into(&client, "#save-name", "../outside.json").await;
        click(&client, "#save-as").await;
        let said = until_refused(&client).await;
        assert!(
            said.as_str().unwrap().starts_with("cannot save as \"../outside.json\""),
            "{said}"
        );
        assert!(!dir.parent().unwrap().join("outside.json").exists());
        // A new file beside the opened one is fine.
        type_into(&client, "#save-name", "guard-copy.json").await;
        click(&client, "#save-as").await;
        until(
            &client,
            "return document.querySelector('#status').textContent.startsWith('saved');",
        )
        .await;
        assert!(dir.join("guard-copy.json").is_file());
    });
}

#[test]
fn a_bt_cpp_xml_file_opens_with_its_other_trees_and_saves_as_xml_or_says_why_not() {
    let dir = folder_with("xml", "guard.xml", GUARD_XML);
    let editor = behaved_studio::Editor::new(dir.join("guard.xml")).with_leaves(guard_manifest());
    let url = format!("http://{}/", serve_editor(editor));
    with_browser("editor_xml", |client| async move {
        open(&client, &url).await;
        until_accepted(&client).await;
        let library = eval(
            &client,
            "return [...document.querySelectorAll('#library li')].map(li => li.textContent);",
        )
        .await;
        assert_eq!(library, serde_json::json!(["⧉ PatrolInsertOpen"]));
        select(&client, "children[1]").await;
        set_node_json(
            &client,
            r#"{"type": "action", "action": {"type": "dialogue", "dialogueId": "guard-night"}}"#,
        )
        .await;
        doc_satisfies(&client, ".children[1].action.dialogueId === 'guard-night'").await;
        save_and_wait(&client).await;
        let text = std::fs::read_to_string(dir.join("guard.xml")).unwrap();
        assert!(
            text.contains(r#"<Action ID="dialogue" dialogueId="guard-night"/>"#),
            "{text}"
        );
        assert!(text.contains(r#"<BehaviorTree ID="Patrol">"#), "{text}");
        // A node id has no BT.CPP counterpart: the page says so and the file stays.
        set_node_json(
            &client,
            r#"{"type": "action", "id": "bye", "action": {"type": "dialogue", "dialogueId": "guard-night"}}"#,
        )
        .await;
        doc_satisfies(&client, ".children[1].id === 'bye'").await;
        click(&client, "#save").await;
        let said = until_refused(&client).await;
        assert_eq!(
            said,
            "cannot save guard.xml as BehaviorTree.CPP XML: at `children[1]`: a node id has no BT.CPP counterpart; remove the \"id\" to write this tree as XML"
        );
        assert_eq!(std::fs::read_to_string(dir.join("guard.xml")).unwrap(), text);
    });
}

#[test]
fn a_nodes_kind_changes_in_place_keeping_its_children_or_says_why_not() {
    let (url, dir) = edit_guard("kind", false);
    with_browser("editor_kind", |client| async move {
        open(&client, &url).await;
        let original: Value = serde_json::from_str(&guard_json()).unwrap();
        select(&client, "children[0]").await;
        choose(&client, "#properties select[data-field='kind']", "selector").await;
        doc_satisfies(&client, ".children[0].type === 'selector'").await;
        select(&client, "children[0]").await;
        choose(&client, "#properties select[data-field='kind']", "parallel").await;
        doc_satisfies(&client, ".children[0].type === 'parallel'").await;
        // Two children do not fit a decorator: refused, and said why.
        select(&client, "children[0]").await;
        choose(&client, "#properties select[data-field='kind']", "inverter").await;
        let said = status_text(&client).await;
        assert_eq!(
            said,
            "cannot change parallel into inverter: inverter holds exactly one child; this parallel has 2"
        );
        assert_eq!(
            eval(
                &client,
                "return document.querySelector(\"#properties select[data-field='kind']\").value;"
            )
            .await,
            "parallel"
        );
        until_accepted(&client).await;
        save_and_wait(&client).await;
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("guard.json")).unwrap()).unwrap();
        let mut expected = original.clone();
        expected["children"][0]["type"] = serde_json::json!("parallel");
        // A parallel needs a policy: the page's default for a new one.
        expected["children"][0]["policy"] = serde_json::json!("requireAll");
        assert_eq!(saved, expected);
    });
}

#[test]
fn a_new_file_starts_from_the_root_kind_picked() {
    let dir = guard_folder("new-root");
    let editor = behaved_studio::Editor::new(dir.join("fresh.json")).with_leaves(guard_manifest());
    let url = format!("http://{}/", serve_editor(editor));
    with_browser("editor_new_root", |client| async move {
        open(&client, &url).await;
        until(&client, "return !document.querySelector('#new-bar').hidden;").await;
        choose(&client, "#new-root", "selector").await;
        doc_satisfies(&client, ".type === 'selector'").await;
        click(&client, "#palette button[data-kind='success']").await;
        doc_satisfies(&client, ".children.length === 1").await;
        choose(&client, "#new-root", "retry").await;
        doc_satisfies(&client, ".type === 'retry'").await;
        // One step: undone, the root and the bar's kind go back together.
        click(&client, "#undo").await;
        doc_satisfies(&client, ".type === 'selector'").await;
        assert_eq!(
            eval(&client, "return document.querySelector('#new-root').value;").await,
            "selector"
        );
        click(&client, "#redo").await;
        doc_satisfies(&client, ".type === 'retry'").await;
        save_and_wait(&client).await;
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("fresh.json")).unwrap()).unwrap();
        assert_eq!(
            saved,
            serde_json::json!({"type": "retry", "count": 1, "child": {"type": "success"}})
        );
        assert_eq!(
            eval(&client, "return document.querySelector('#new-bar').hidden;").await,
            true
        );
    });
}

#[test]
fn a_what_if_replay_shows_the_divergence_at_the_right_tick_and_node() {
    let (url, _dir) = edit_guard("preview", true);
    with_browser("editor_preview", |client| async move {
        open(&client, &url).await;
        // The night condition now asks for the evening.
        select(&client, "children[1].children[0]").await;
        type_into(&client, "#properties input[data-param='value']", "evening").await;
        doc_satisfies(&client, ".children[1].children[0].condition.value === 'evening'").await;
        click(&client, "#preview-run").await;
        until(
            &client,
            "return document.querySelector('#preview').dataset.divergeTick === '4';",
        )
        .await;
        assert_eq!(
            eval(
                &client,
                "return document.querySelector('#preview').dataset.divergePath;"
            )
            .await,
            "children[1].children[0]"
        );
        assert_eq!(
            eval(
                &client,
                "return [...document.querySelectorAll('#viewport .node.diverge')].map(g => g.dataset.path);"
            )
            .await,
            serde_json::json!(["children[1].children[0]"])
        );
        // Two lanes of six ticks, the fourth marked in both and shown on the tree. Recorded: the walk (two ticks) then
        // another; edited: the default dialogue, which the recording answered only three times,
        // so from then on it returns the unknown leaves' default, failure.
        let lanes = eval(
            &client,
            "return ['#lane-recorded', '#lane-edited'].map(l => [...document.querySelectorAll(l + ' .cell')].map(c => c.className));",
        )
        .await;
        let s = |c: &str| Value::String(c.to_string());
        assert_eq!(
            lanes,
            Value::Array(vec![
                Value::Array(vec![
                    s("cell success"),
                    s("cell success"),
                    s("cell success"),
                    s("cell running diverge shown"),
                    s("cell success"),
                    s("cell running")
                ]),
                Value::Array(vec![
                    s("cell success"),
                    s("cell success"),
                    s("cell success"),
                    s("cell failure diverge shown"),
                    s("cell failure"),
                    s("cell failure")
                ]),
            ])
        );
        // The tree shows the edited run at the divergence: every branch failed, the walk never ran.
        let run = eval(
            &client,
            "return Object.fromEntries([...document.querySelectorAll('#viewport .node')].map(g => [g.dataset.path, g.dataset.run]));",
        )
        .await;
        for (path, status) in [
            ("", "failure"),
            ("children[0]", "failure"),
            ("children[1]", "failure"),
            ("children[1].children[0]", "failure"),
            ("children[1].children[1]", "idle"),
            ("children[1].children[1].children[1]", "idle"),
            ("children[3]", "failure"),
        ] {
            assert_eq!(run[path], status, "{path} at tick 4: {run}");
        }
        // A tick of the lane shows that tick: at tick 2 the default dialogue answered as recorded.
        click(&client, "#lane-edited .cell[data-tick='2']").await;
        until(
            &client,
            "return document.querySelector(\"#viewport .node[data-path='children[3]']\").dataset.run === 'success';",
        )
        .await;
        screenshot(&client, "editor-preview").await;
        // Picking success for the unknown condition moves the divergence to the first tick.
        choose(
            &client,
            "#unknown select[data-leaf='timeOfDay(value: \"evening\")']",
            "success",
        )
        .await;
        until(
            &client,
            "return document.querySelector('#preview').dataset.divergeTick === '1';",
        )
        .await;
    });
}

#[test]
fn the_subtree_library_inserts_references_and_opens_them() {
    let dir = guard_folder("library");
    let library = dir.join("subtrees");
    std::fs::create_dir_all(&library).unwrap();
    std::fs::write(
        library.join("greet.json"),
        r#"{"type": "sequence", "children": [{"type": "action", "action": {"type": "dialogue", "dialogueId": "hello"}}, {"type": "wait", "seconds": 1}]}"#,
    )
    .unwrap();
    let editor = behaved_studio::Editor::new(dir.join("guard.json"))
        .with_leaves(guard_manifest())
        .with_library(&library);
    let url = format!("http://{}/", serve_editor(editor));
    with_browser("editor_library", |client| async move {
        open(&client, &url).await;
        click(&client, "#library li[data-subtree='greet'] button").await;
        selected_is(&client, "children[4]").await;
        let doc: Value = serde_json::from_str(&doc_text(&client).await).unwrap();
        assert_eq!(
            doc["children"][4],
            serde_json::json!({"type": "subtree", "subtreeId": "greet"})
        );
        until_accepted(&client).await;
        // A reference to an id the library lacks: the loader's did-you-mean at the node.
        set_node_json(&client, r#"{"type": "subtree", "subtreeId": "gret"}"#).await;
        let error = error_at(&client, "children[4]").await;
        assert_eq!(error, "unknown subtree \"gret\"; did you mean \"greet\"?");
        click(&client, "#undo").await;
        // Opening the reference shows the subtree, read only, then back to the tree.
        double_click(&client, "#viewport .node[data-path='children[4]']").await;
        until(&client, "return !document.querySelector('#subtree-bar').hidden;").await;
        let shown = eval(
            &client,
            "return [...document.querySelectorAll('#viewport .node')].map(g => g.dataset.path);",
        )
        .await;
        assert_eq!(shown, serde_json::json!(["", "children[0]", "children[1]"]));
        screenshot(&client, "editor-subtree").await;
        click(&client, "#subtree-back").await;
        until(
            &client,
            "return document.querySelectorAll('#viewport .node').length === 16;",
        )
        .await;
    });
}

/// A patrol's parameters: a required route and three fields with defaults.
#[allow(dead_code)]
#[derive(serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PatrolParams {
    route_id: String,
    #[serde(default = "half")]
    speed: f64,
    #[serde(default)]
    laps: u32,
    #[serde(default = "yes")]
    loud: bool,
}

fn half() -> f64 {
    0.5
}

fn yes() -> bool {
    true
}

#[derive(Clone)]
struct Patrol;

impl behaved::Action<()> for Patrol {
    fn tick(&mut self, _: &mut ()) -> behaved::Status {
        behaved::Status::Success
    }
}

#[test]
fn the_property_panel_marks_required_parameters_and_shows_defaults_without_writing_them() {
    let dir = guard_folder("defaults");
    let tree = r#"{"type": "action", "action": {"type": "patrol", "routeId": "north"}}"#;
    std::fs::write(dir.join("patrol.json"), tree).unwrap();
    let mut leaves = behaved_interp::Registry::<()>::new();
    leaves
        .action("patrol", |_: PatrolParams| Patrol)
        .show_defaults::<PatrolParams>();
    let editor = behaved_studio::Editor::new(dir.join("patrol.json")).with_leaves(leaves.manifest());
    let url = format!("http://{}/", serve_editor(editor));
    with_browser("editor_defaults", |client| async move {
        open(&client, &url).await;
        select(&client, "").await;
        let fields = eval(
            &client,
            "return [...document.querySelectorAll('#properties [data-param]')].map(i => [
                i.previousElementSibling.textContent, i.previousElementSibling.classList.contains('req'),
                i.type === 'checkbox' ? i.checked : i.value, i.placeholder]);",
        )
        .await;
        assert_eq!(
            fields,
            serde_json::json!([
                ["routeId (string)", true, "north", "required"],
                ["speed (number, default 0.5)", false, "", "default: 0.5"],
                ["laps (integer, default 0)", false, "", "default: 0"],
                ["loud (boolean, default true)", false, true, ""],
            ])
        );
        // The defaults are shown, not written: the document is as opened.
        let doc: Value = serde_json::from_str(&doc_text(&client).await).unwrap();
        assert_eq!(doc, serde_json::from_str::<Value>(tree).unwrap());
        // A value typed over a default is written; cleared, the default applies again.
        type_into(&client, "#properties input[data-param='speed']", "2").await;
        doc_satisfies(&client, ".action.speed === 2").await;
        type_into(&client, "#properties input[data-param='speed']", "").await;
        doc_satisfies(&client, ".action.speed === undefined").await;
        let doc: Value = serde_json::from_str(&doc_text(&client).await).unwrap();
        assert_eq!(doc, serde_json::from_str::<Value>(tree).unwrap());
    });
}

/// A night/day `if` and a `match` on the time of day, each with one arm.
const ARMS: &str = r#"{"type": "sequence", "children": [
  {"type": "if", "branches": [
     {"if": {"type": "condition", "condition": {"type": "timeOfDay", "value": "night"}},
      "then": {"type": "action", "action": {"type": "dialogue", "dialogueId": "night"}}}],
   "else": {"type": "action", "action": {"type": "dialogue", "dialogueId": "day"}}},
  {"type": "match", "value": "timeOfDay", "cases": [
     {"when": "dusk", "child": {"type": "action", "action": {"type": "moveTo", "target": "gate"}}}],
   "default": {"type": "success"}}]}"#;

/// The document as the page holds it, parsed.
async fn doc(client: &Client) -> Value {
    serde_json::from_str(&doc_text(client).await).unwrap()
}

#[test]
fn branches_and_cases_are_added_moved_deleted_and_dropped_like_children_and_keys_are_checked() {
    let dir = guard_folder("arms");
    std::fs::write(dir.join("arms.json"), ARMS).unwrap();
    let mut leaves = guard_manifest();
    leaves
        .values
        .insert("timeOfDay".into(), behaved_interp::LeafDoc { params: Some(vec![]) });
    let editor = behaved_studio::Editor::new(dir.join("arms.json")).with_leaves(leaves);
    let url = format!("http://{}/", serve_editor(editor));
    let original: Value = serde_json::from_str(ARMS).unwrap();
    with_browser("editor_arms", |client| async move {
        open(&client, &url).await;
        until_accepted(&client).await;
        // Added into an `if`: a new branch, on the first registered condition.
        select(&client, "children[0]").await;
        click(&client, "#palette button[data-leaf='dialogue']").await;
        selected_is(&client, "children[0].branches[1].then").await;
        assert_eq!(
            doc(&client).await["children"][0]["branches"][1],
            serde_json::json!({
                "if": {"type": "condition", "condition": {"type": "atLocation", "locationId": ""}},
                "then": {"type": "action", "action": {"type": "dialogue", "dialogueId": ""}}})
        );
        // Moved by keyboard: the whole branch goes first, its condition with it.
        let svg = client.find(Locator::Css("#tree")).await.unwrap();
        svg.send_keys(&format!("{}{}", char::from(Key::Alt), char::from(Key::Up)))
            .await
            .unwrap();
        selected_is(&client, "children[0].branches[0].then").await;
        let now = doc(&client).await;
        assert_eq!(
            now["children"][0]["branches"][0]["if"]["condition"]["type"],
            "atLocation"
        );
        assert_eq!(
            now["children"][0]["branches"][1],
            original["children"][0]["branches"][0]
        );
        // Deleted: the branch goes with its node.
        svg.send_keys(&char::from(Key::Delete).to_string()).await.unwrap();
        selected_is(&client, "children[0]").await;
        assert_eq!(doc(&client).await, original);

        // The `else` dropped onto the `match`: a new case on a fresh key.
        drag(&client, "children[0].else", "children[1]").await;
        selected_is(&client, "children[1].cases[1].child").await;
        let now = doc(&client).await;
        assert_eq!(now["children"][0].get("else"), None);
        assert_eq!(
            now["children"][1]["cases"][1],
            serde_json::json!({"when": "key", "child": original["children"][0]["else"]})
        );

        // Its keys, in the match's property panel: the loader flags a key an earlier case has.
        select(&client, "children[1]").await;
        type_into(&client, "#properties input[data-when='1']", "dusk").await;
        let error = error_at(&client, "children[1]").await;
        assert_eq!(error, "the key \"dusk\" is already matched by case 0");
        type_into(&client, "#properties input[data-when='1']", "night, 3, \"true\"").await;
        until(
            &client,
            "return document.querySelectorAll('#viewport .node.error').length === 0;",
        )
        .await;
        assert_eq!(
            doc(&client).await["children"][1]["cases"][1]["when"],
            serde_json::json!(["night", 3, "true"])
        );
        // Keys that do not read are refused as typed, and the document keeps the last good ones.
        for bad in ["1.5", "", "night,"] {
            type_into(&client, "#properties input[data-when='1']", bad).await;
            until(
                &client,
                "return document.querySelector(\"#properties input[data-when='1']\").classList.contains('bad');",
            )
            .await;
            assert_eq!(
                doc(&client).await["children"][1]["cases"][1]["when"],
                serde_json::json!(["night", 3, "true"]),
                "{bad:?}"
            );
            assert!(
                eval(
                    &client,
                    "return document.querySelector('#status').classList.contains('bad');"
                )
                .await
                .as_bool()
                .unwrap()
            );
        }
        // The case moves up from its panel, and undo walks back to the document as opened.
        click(&client, "#properties li[data-arm='1'] button[data-op='up']").await;
        doc_satisfies(&client, ".children[1].cases[0].child.action.dialogueId === 'day'").await;
        for _ in 0..4 {
            click(&client, "#undo").await;
        }
        until(&client, "return true;").await;
        assert_eq!(doc(&client).await, original);
    });
}

/// The palette's buttons shown: (kind or leaf, its group's heading shown).
async fn palette_shown(client: &Client) -> Value {
    eval(
        client,
        "return [...document.querySelectorAll('#palette button')].filter(b => !b.hidden).map(b => b.dataset.kind || b.dataset.leaf);",
    )
    .await
}

#[test]
fn the_palette_filters_as_typed_enter_adds_the_first_and_the_title_marks_unsaved_changes() {
    let (url, dir) = edit_guard("filter", false);
    with_browser("editor_filter", |client| async move {
        open(&client, &url).await;
        let dirty = async || {
            let body = eval(&client, "return [document.body.dataset.dirty, document.title];").await;
            (
                body[0].as_str().unwrap().to_string(),
                body[1].as_str().unwrap().to_string(),
            )
        };
        assert_eq!(
            dirty().await,
            ("false".into(), "guard.json · behaved-studio editor".into())
        );
        let all = palette_shown(&client).await.as_array().unwrap().len();
        // Each kind's button says what it does: the catalogue's summary.
        let title = eval(
            &client,
            "return document.querySelector(\"#palette button[data-kind='abortIf']\").title;",
        )
        .await;
        assert_eq!(
            title,
            format!("abort_if: {}", behaved_runtime::NodeKind::AbortIf.summary())
        );
        // "/" on the tree goes to the filter.
        let svg = client.find(Locator::Css("#tree")).await.unwrap();
        svg.send_keys("/").await.unwrap();
        assert_eq!(
            eval(&client, "return document.activeElement.id;").await,
            "palette-filter"
        );
        let filter = client.find(Locator::Css("#palette-filter")).await.unwrap();
        filter.send_keys("invert").await.unwrap();
        assert_eq!(palette_shown(&client).await, serde_json::json!(["inverter"]));
        let headings = eval(
            &client,
            "return [...document.querySelectorAll('#palette h4')].filter(h => !h.hidden).map(h => h.textContent);",
        )
        .await;
        assert_eq!(headings, serde_json::json!(["decorators"]));
        // Enter adds the first shown to the selection (the root: its last child).
        filter.send_keys(&char::from(Key::Enter).to_string()).await.unwrap();
        selected_is(&client, "children[4]").await;
        assert_eq!(
            doc(&client).await["children"][4],
            serde_json::json!({"type": "inverter"})
        );
        assert_eq!(
            dirty().await,
            ("true".into(), "● guard.json · behaved-studio editor".into())
        );
        // Escape empties the filter and goes back to the tree.
        filter.send_keys(&char::from(Key::Escape).to_string()).await.unwrap();
        assert_eq!(palette_shown(&client).await.as_array().unwrap().len(), all);
        assert_eq!(eval(&client, "return document.activeElement.id;").await, "tree");
        // Leaves by name too; undone, the document is as saved again.
        click(&client, "#undo").await;
        assert_eq!(dirty().await.0, "false");
        svg.send_keys("/").await.unwrap();
        filter
            .send_keys(&format!("dialo{}", char::from(Key::Enter)))
            .await
            .unwrap();
        selected_is(&client, "children[4]").await;
        assert_eq!(
            doc(&client).await["children"][4],
            serde_json::json!({"type": "action", "action": {"type": "dialogue", "dialogueId": ""}})
        );
        // Saved, the mark goes.
        click(&client, "#save").await;
        until(&client, "return document.body.dataset.dirty === 'false';").await;
        assert_eq!(dirty().await.1, "guard.json · behaved-studio editor");
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("guard.json")).unwrap()).unwrap();
        assert_eq!(saved, doc(&client).await);
    });
}

#[test]
fn duplicate_copies_a_child_or_a_whole_arm_right_after_it() {
    let dir = guard_folder("duplicate");
    std::fs::write(dir.join("arms.json"), ARMS).unwrap();
    let editor = behaved_studio::Editor::new(dir.join("arms.json")).with_leaves(guard_manifest());
    let url = format!("http://{}/", serve_editor(editor));
    let original: Value = serde_json::from_str(ARMS).unwrap();
    with_browser("editor_duplicate", |client| async move {
        open(&client, &url).await;
        let svg = client.find(Locator::Css("#tree")).await.unwrap();
        let ctrl_d = format!("{}d{}", char::from(Key::Control), char::from(Key::Null));
        // A branch's node: the branch, condition included, is copied after it.
        select(&client, "children[0].branches[0].then").await;
        svg.send_keys(&ctrl_d).await.unwrap();
        selected_is(&client, "children[0].branches[1].then").await;
        let branches = &doc(&client).await["children"][0]["branches"];
        assert_eq!(
            branches,
            &serde_json::json!([
                original["children"][0]["branches"][0],
                original["children"][0]["branches"][0]
            ])
        );
        // A child, from the toolbar.
        click(&client, "#fit").await; // the tree grew: all of it in view
        select(&client, "children[1]").await;
        click(&client, "#duplicate").await;
        selected_is(&client, "children[2]").await;
        assert_eq!(doc(&client).await["children"][2], original["children"][1]);
        // An `else` has no place beside it: nothing changes, and the page says why.
        let before = doc_text(&client).await;
        select(&client, "children[0].else").await;
        svg.send_keys(&ctrl_d).await.unwrap();
        until(
            &client,
            "return document.querySelector('#status').classList.contains('bad');",
        )
        .await;
        assert_eq!(doc_text(&client).await, before);
    });
}

#[test]
fn find_marks_the_matching_nodes_and_enter_selects_them_in_turn() {
    let (url, _dir) = edit_guard("find", false);
    with_browser("editor_find", |client| async move {
        open(&client, &url).await;
        let svg = client.find(Locator::Css("#tree")).await.unwrap();
        svg.send_keys(&format!("{}f{}", char::from(Key::Control), char::from(Key::Null)))
            .await
            .unwrap();
        assert_eq!(eval(&client, "return document.activeElement.id;").await, "find");
        let find = client.find(Locator::Css("#find")).await.unwrap();
        // Leaves by their type or parameters, composites by name.
        find.send_keys("guard-").await.unwrap();
        let marked = eval(
            &client,
            "return [...document.querySelectorAll('#viewport .node.found')].map(g => g.dataset.path);",
        )
        .await;
        let dialogues = [
            "children[0].children[1]",
            "children[1].children[1].children[0].children[1]",
            "children[2].children[1]",
            "children[3]",
        ];
        assert_eq!(marked, serde_json::json!(dialogues));
        assert_eq!(find.attr("data-found").await.unwrap().as_deref(), Some("4"));
        let enter = char::from(Key::Enter).to_string();
        for expected in dialogues.iter().chain(&dialogues[..1]) {
            find.send_keys(&enter).await.unwrap();
            assert_eq!(eval(&client, "return window.btEditor.selected();").await, *expected);
        }
        // Escape clears the marks and goes back to the tree.
        find.send_keys(&char::from(Key::Escape).to_string()).await.unwrap();
        assert_eq!(
            eval(
                &client,
                "return document.querySelectorAll('#viewport .node.found').length;"
            )
            .await,
            0
        );
        assert_eq!(eval(&client, "return document.activeElement.id;").await, "tree");
    });
}

/// Zooms the tree by `factor` (one wheel turn) about the point that puts the
/// centre of the node at `path` at `(x, y)`, as fractions of the tree area.
async fn zoom_node_to(client: &Client, path: &str, factor: f64, x: f64, y: f64) {
    let js = format!(
        "const t = document.querySelector('#tree'), a = t.getBoundingClientRect();
         const b = document.querySelector(`#viewport .node[data-path='{path}'] rect.box`).getBoundingClientRect();
         const f = {factor}, at = (target, centre) => (target - centre * f) / (1 - f);
         t.dispatchEvent(new WheelEvent('wheel', {{ deltaY: -500 * Math.log(f), bubbles: true, cancelable: true,
           clientX: at(a.left + {x} * a.width, b.left + b.width / 2), clientY: at(a.top + {y} * a.height, b.top + b.height / 2) }}));
         return true;"
    );
    eval(client, &js).await;
}

/// Where the node at `path` lies, as `[left, top, right, bottom]`: its box, the
/// tree's visible area (the SVG within the window) and the side panel.
async fn boxes(client: &Client, path: &str) -> [[f64; 4]; 3] {
    let js = format!(
        "const r = (e) => {{ const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; }};
         const t = r(document.querySelector('#tree'));
         const area = [Math.max(t[0], 0), Math.max(t[1], 0), Math.min(t[2], innerWidth), Math.min(t[3], innerHeight)];
         return [r(document.querySelector(`#viewport .node[data-path='{path}'] rect.box`)), area, r(document.querySelector('#side'))];"
    );
    serde_json::from_value(eval(client, &js).await).unwrap()
}

/// Asserts that the whole box of the node at `path` comes into the tree's
/// visible area, left of the side panel. The page pans from a ResizeObserver,
/// which runs after layout, so the check polls until the patience runs out.
async fn assert_in_view(client: &Client, path: &str, when: &str) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let [node, area, side] = boxes(client, path).await;
        let inside = node[0] >= area[0] && node[1] >= area[1] && node[2] <= area[2] && node[3] <= area[3];
        if inside && node[2] <= side[0] {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{when}: {path} at {node:?}, outside the tree's visible area {area:?} (side panel {side:?})"
        );
        // Polling the page's state, not timing the test.
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

#[test]
fn the_selected_node_is_kept_whole_in_the_visible_tree_area() {
    let (url, _dir) = edit_guard("in_view", true);
    with_browser("editor_in_view", |client| async move {
        open(&client, &url).await;
        // The last child of the root, its centre just left of the side panel: half of it is hidden.
        let last = "children[3]";
        zoom_node_to(&client, last, 3.0, 0.99, 0.5).await;
        let [node, area, _] = boxes(&client, last).await;
        assert!(
            node[2] > area[2],
            "the test's set-up: {last} at {node:?} reaches past {area:?}"
        );
        select(&client, last).await;
        assert_in_view(&client, last, "selected at the right edge").await;
        // After an edit, the node it selects.
        let ctrl_d = format!("{}d{}", char::from(Key::Control), char::from(Key::Null));
        client
            .find(Locator::Css("#tree"))
            .await
            .unwrap()
            .send_keys(&ctrl_d)
            .await
            .unwrap();
        selected_is(&client, "children[4]").await;
        assert_in_view(&client, "children[4]", "duplicated").await;
        // A node near the bottom, selected where it is; then the preview's lanes open
        // under the tree and take some of its height.
        click(&client, "#fit").await;
        let deep = "children[1].children[1].children[0].children[1]";
        zoom_node_to(&client, deep, 3.0, 0.5, 0.95).await;
        select(&client, deep).await;
        assert_in_view(&client, deep, "selected near the bottom").await;
        click(&client, "#preview-run").await;
        until(&client, "return !document.querySelector('#preview').hidden;").await;
        assert_in_view(&client, deep, "the preview opened").await;
    });
}

#[test]
fn fit_on_a_tree_area_with_no_size_fits_it_once_it_has_one() {
    let (url, _dir) = edit_guard("fit_unsized", false);
    with_browser("editor_fit_unsized", |client| async move {
        // A narrower window than the others': the tree's area is far from the old guess of 800 px.
        client.set_window_size(1100, 900).await.unwrap();
        open(&client, &url).await;
        let (_, width) = off_centre(&client).await;
        assert!(
            (width - 800.0).abs() > 200.0,
            "the test's set-up: the tree's area is {width} px wide, not about 800"
        );
        // Zoomed in about the left edge: the tree is off centre.
        let left = "const t = document.querySelector('#tree'), a = t.getBoundingClientRect();
             t.dispatchEvent(new WheelEvent('wheel', { deltaY: -500, bubbles: true, cancelable: true,
               clientX: a.left + 10, clientY: a.top + 10 }));
             return true;";
        eval(&client, left).await;
        let deadline = Instant::now() + PATIENCE;
        while off_centre(&client).await.0.abs() < 50.0 {
            assert!(Instant::now() < deadline, "the wheel never zoomed the tree");
            // Polling the page's state, not timing the test.
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
        // Fit while the tree's area has no size (hidden), then shown again.
        eval(
            &client,
            "document.querySelector('#tree').style.display = 'none'; return true;",
        )
        .await;
        click(&client, "#fit").await;
        eval(
            &client,
            "document.querySelector('#tree').style.display = ''; return true;",
        )
        .await;
        let deadline = Instant::now() + PATIENCE;
        loop {
            let (off, width) = off_centre(&client).await;
            if off.abs() <= 5.0 {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the tree is {off} px off the centre of its {width} px area"
            );
            // Polling the page's state, not timing the test.
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    });
}

/// The guard's leaves and two lists: "targets" (no parameters) and "watchPosts" (a radius).
fn guard_leaves_with_lists() -> behaved_interp::Manifest {
    let mut m = guard_manifest();
    let lists: Value = serde_json::json!({
        "targets": {"params": [], "item": {"type": "integer", "minimum": 0}},
        "watchPosts": {"params": [{"name": "radius", "type": "number", "required": true}], "item": null},
    });
    m.lists = serde_json::from_value(lists).unwrap();
    m
}

#[test]
fn a_for_each_from_the_palette_takes_its_list_and_max_and_saves() {
    let dir = guard_folder("for-each");
    let trace = dir.join("guard.trace.json");
    std::fs::write(&trace, guard_recording().to_json().unwrap()).unwrap();
    let editor = behaved_studio::Editor::new(dir.join("guard.json"))
        .with_leaves(guard_leaves_with_lists())
        .with_trace(trace);
    let url = format!("http://{}/", serve_editor(editor));
    with_browser("editor_for_each", |client| async move {
        open(&client, &url).await;
        until_accepted(&client).await;
        // Among the loops, with its icon.
        let listed = eval(
            &client,
            "const b = document.querySelector(\"#palette button[data-kind='forEach']\");
             let h = b.previousElementSibling; while (h.tagName !== 'H4') h = h.previousElementSibling;
             return [h.textContent, b.textContent];",
        )
        .await;
        assert_eq!(listed, serde_json::json!(["loops", "∀ forEach"]));
        // The root is selected: the loop becomes its last child, on the first list, with a body added next.
        click(&client, "#palette button[data-kind='forEach']").await;
        selected_is(&client, "children[4]").await;
        click(&client, "#palette button[data-leaf='dialogue']").await;
        selected_is(&client, "children[4].child").await;
        let added = doc(&client).await["children"][4].clone();
        assert_eq!(
            added,
            serde_json::json!({"type": "forEach", "items": "targets", "max": 8,
                "child": {"type": "action", "action": {"type": "dialogue", "dialogueId": ""}}})
        );
        select(&client, "children[4]").await;
        let label = eval(
            &client,
            "return document.querySelector(\"#viewport .node[data-path='children[4]'] .label\").textContent;",
        )
        .await;
        assert_eq!(label, "for(targets, max 8)");
        // The lists of the manifest to choose from, with what their items are.
        let options = eval(
            &client,
            "return [...document.querySelectorAll(\"#properties select[data-field='items'] option\")].map(o => o.textContent);",
        )
        .await;
        assert_eq!(options, serde_json::json!(["targets (items: integer)", "watchPosts"]));
        // A max that is no positive integer is refused where it is typed.
        type_into(&client, "#properties input[data-field='max']", "0").await;
        until(
            &client,
            "return document.querySelector(\"#properties input[data-field='max']\").classList.contains('bad');",
        )
        .await;
        assert_eq!(doc(&client).await["children"][4]["max"], 8);
        type_into(&client, "#properties input[data-field='max']", "3").await;
        doc_satisfies(&client, ".children[4].max === 3").await;
        // Another list, with its parameter.
        eval(
            &client,
            "const s = document.querySelector(\"#properties select[data-field='items']\");
             s.value = 'watchPosts'; s.dispatchEvent(new Event('change')); return null;",
        )
        .await;
        doc_satisfies(&client, ".children[4].items.type === 'watchPosts'").await;
        type_into(&client, "#properties input[data-param='radius']", "12.5").await;
        doc_satisfies(&client, ".children[4].items.radius === 12.5").await;
        // A bad value through the node's JSON: the loader's error at the node.
        set_node_json(
            &client,
            r#"{"type": "forEach", "items": {"type": "watchPosts", "radius": 12.5}, "max": 0}"#,
        )
        .await;
        let error = error_at(&client, "children[4]").await;
        assert_eq!(error, "\"max\" must be a positive integer, found the number 0");
        // Fixed in its input, and saved in the stable layout (scalar fields before objects).
        type_into(&client, "#properties input[data-field='max']", "3").await;
        until_accepted(&client).await;
        save_and_wait(&client).await;
        let saved = std::fs::read_to_string(dir.join("guard.json")).unwrap();
        let expected = GUARD_WITH_WAIT.replace(
            r#"    { "type": "wait", "seconds": 2 }"#,
            r#"    {
      "type": "forEach",
      "max": 3,
      "items": { "type": "watchPosts", "radius": 12.5 },
      "child": { "type": "action", "action": { "type": "dialogue", "dialogueId": "" } }
    }"#,
        );
        assert_eq!(saved, expected);
        // Without the default line before it, the loop runs by day; the preview has no
        // items for it, and says so at it.
        select(&client, "children[3]").await;
        click(&client, "#delete").await;
        doc_satisfies(&client, ".children.length === 4").await;
        click(&client, "#preview-run").await;
        until(
            &client,
            "return !!document.querySelector(\"#viewport .node.note[data-path='children[3]']\");",
        )
        .await;
        let note = eval(
            &client,
            "return [document.querySelector(\"#viewport .node[data-path='children[3]']\").dataset.note,
                     document.querySelector('#unknown .preview-note').textContent];",
        )
        .await;
        // The label shows the list's parameters, as the editor's does.
        let text = "for(watchPosts(radius: 12.5), max 3): the preview ran this loop with no items \
                    (a recording does not keep a list's items), so its child never ran";
        assert_eq!(note, serde_json::json!([text, format!("⚠ {text}")]));
    });
}

#[test]
fn without_a_manifest_a_for_each_takes_its_list_as_free_text() {
    let dir = guard_folder("for-each-free");
    let url = format!(
        "http://{}/",
        serve_editor(behaved_studio::Editor::new(dir.join("guard.json")))
    );
    with_browser("editor_for_each_free", |client| async move {
        open(&client, &url).await;
        click(&client, "#palette button[data-kind='forEach']").await;
        click(&client, "#palette button[data-kind='success']").await;
        selected_is(&client, "children[4].child").await;
        select(&client, "children[4]").await;
        // No list is named yet: the loader says so at the loop's node.
        let error = error_at(&client, "children[4]").await;
        assert_eq!(
            error,
            "expected a list: {\"type\": <registered name>, ..parameters} or a name, found a string \"\""
        );
        type_into(&client, "#properties input[data-field='items']", "targets").await;
        until_accepted(&client).await;
        assert_eq!(
            doc(&client).await["children"][4],
            serde_json::json!({"type": "forEach", "items": "targets", "max": 8, "child": {"type": "success"}})
        );
    });
}

/// A tree of many kinds in the forms their labels could differ in: JSON
/// names, durations in whole seconds, parallel policies, loop labels, leaf
/// parameters (negative and float), Rust code kept by `Tree::JSON`.
const MANY_KINDS: &str = r#"{"type": "sequenceAlways", "children": [
  {"type": "repeater", "count": 3, "label": "outer", "child": {"type": "break", "label": "outer"}},
  {"type": "untilFail", "child": {"type": "inverter", "child": {"type": "success"}}},
  {"type": "reactiveSelector", "children": [{"type": "succeeder", "child": {"type": "failure"}}]},
  {"type": "parallel", "policy": "requireOne", "children": [{"type": "running"}, {"type": "success"}]},
  {"type": "parallel", "success": 1, "failure": 1, "children": [{"type": "running"}, {"type": "success"}]},
  {"type": "weighted", "weights": [3, 1], "children": [{"type": "success"}, {"type": "failure"}]},
  {"type": "timeout", "seconds": 0.5, "child": {"type": "wait", "seconds": 2}},
  {"type": "forEach", "items": {"type": "near", "radius": 2.5}, "max": 4, "child": {"type": "success"}},
  {"type": "match", "value": {"type": "inline", "code": "|c| c.stage"},
   "cases": [{"when": 1, "child": {"type": "success"}}], "default": {"type": "failure"}},
  {"type": "waitUntil", "condition": {"type": "ready", "after": -1}},
  {"type": "if", "branches": [{"if": {"type": "condition", "condition": {"type": "inline", "code": "|c| c.hp > 0"}},
   "then": {"type": "action", "action": {"type": "inline", "code": "|c| c.hp -= 1"}}}],
   "else": {"type": "action", "action": {"type": "patrol", "code": "patrol::new(3)"}}},
  {"type": "abortIf", "condition": {"type": "condition", "condition": "hungry"}, "child": {"type": "running"}},
  {"type": "action", "action": {"type": "moveTo", "dx": -10, "speed": 2.5, "name": "gate"}},
  {"type": "subtree", "subtreeId": "idle"}
]}"#;

/// Each node's own label as behaved-format writes it, in node-table order.
fn labels_of(node: &behaved_interp::model::Node, out: &mut Vec<String>) {
    out.push(node.label());
    for child in node.children() {
        labels_of(child, out);
    }
}

#[test]
fn the_editor_labels_every_node_as_the_interpreter_and_behave_do() {
    let dir = guard_folder("labels");
    std::fs::write(dir.join("many.json"), MANY_KINDS).unwrap();
    let url = format!(
        "http://{}/",
        serve_editor(behaved_studio::Editor::new(dir.join("many.json")))
    );
    let mut expected = Vec::new();
    labels_of(&behaved_interp::model::Node::parse(MANY_KINDS).unwrap(), &mut expected);
    assert!(expected.contains(&"'outer: repeat(3)".to_owned()), "{expected:?}");
    with_browser("editor_labels", |client| async move {
        open(&client, &url).await;
        until(&client, "return !!document.querySelector('#viewport .node');").await;
        let shown = eval(&client, "return window.btEditor.labels();").await;
        assert_eq!(shown, serde_json::json!(expected));
    });
}

//! Hot reload from the editor into a running game: a game serving its live
//! view with the editor saves a tree; the game takes it, loads it into its
//! agent, and the live view lists the agent with the new tree.

mod common;

use bt_interp::Agent;
use common::editing::{Town, guard_folder, guard_json, guard_manifest, town_leaves};
use common::post;
use serde_json::{Value, json};

#[test]
fn a_tree_saved_in_the_games_editor_reaches_the_game_and_its_live_view() {
    let dir = guard_folder("hot");
    let editor = bt_studio::Editor::new(dir.join("guard.json")).with_leaves(guard_manifest());
    let studio = bt_studio::Studio::serve_with_editor("127.0.0.1:0", editor).unwrap();
    let addr = studio.addr();
    assert!(common::get(addr, "/edit").body.contains("editor.js"));
    assert!(
        common::get(addr, "/").body.contains("studio.js"),
        "the live view stays at /"
    );

    let leaves = town_leaves();
    let def = leaves.load(&guard_json()).unwrap();
    let mut guard = Agent::new(def.clone());
    let mut observer = studio.agent("guard", def.nodes()).unwrap();
    let mut town = Town {
        time: "day",
        guard_at: "gate",
        walked: 0,
    };
    guard.tick_observed(&mut town, 1.0, &mut observer);
    assert_eq!(studio.take_reload(), None, "nothing saved yet");

    // A tree the loader rejects, saved anyway, stays in the editor's folder.
    let mut doc: Value = serde_json::from_str(&guard_json()).unwrap();
    doc["children"].as_array_mut().unwrap().push(json!({"type": "wait"}));
    let (status, saved) = post(
        addr,
        "/api/edit/save",
        &json!({"name": "guard.json", "doc": doc, "force": true}),
    );
    assert_eq!((status, &saved["pushed"]), (200, &json!(false)));
    assert_eq!(studio.take_reload(), None);

    // A good one goes to the game: the guard now only ever says the default line.
    let smaller = json!({"type": "selector", "name": "Guard", "children": [
        {"type": "action", "name": "Default", "action": {"type": "dialogue", "dialogueId": "guard-default"}}]});
    let (status, saved) = post(addr, "/api/edit/save", &json!({"name": "guard.json", "doc": smaller}));
    assert_eq!((status, &saved["pushed"]), (200, &json!(true)));
    let reload = studio.take_reload().expect("the saved tree");
    assert_eq!(reload.name, "guard.json");
    assert_eq!(reload.tree, std::fs::read_to_string(dir.join("guard.json")).unwrap());
    assert_eq!(studio.take_reload(), None, "taken once");

    // The game loads it with its own leaves and swaps it in; the live view shows the new tree.
    let new_def = leaves.load(&reload.tree).unwrap();
    guard.replace_definition(&mut town, new_def.clone());
    observer = studio.agent("guard", new_def.nodes()).unwrap();
    guard.tick_observed(&mut town, 2.0, &mut observer);
    let agents: Value = serde_json::from_str(&common::get(addr, "/api/agents").body).unwrap();
    assert_eq!(
        agents,
        json!({"version": 3, "agents": [
            {"id": 0, "name": "guard", "nodes": 15, "gone": true},
            {"id": 1, "name": "guard", "nodes": 2, "gone": false},
        ]})
    );
}

//! Hot reload from the editor into a running game: a game serving its live
//! view with the editor saves a tree; the game takes it, loads it into its
//! agent, and the live view lists the agent with the new tree.

mod common;

use behaved_interp::Agent;
use common::editing::{Town, guard_folder, guard_json, guard_manifest, town_leaves};
use common::post;
use serde_json::{Value, json};

/// Saves, forced, a guard the loader rejects (a `wait` without its
/// duration) to the editor at `addr`, which says it did not push it.
fn save_a_rejected_tree(addr: std::net::SocketAddr) {
    let mut doc: Value = serde_json::from_str(&guard_json()).unwrap();
    doc["children"].as_array_mut().unwrap().push(json!({"type": "wait"}));
    let (status, saved) = post(
        addr,
        "/api/edit/save",
        &json!({"name": "guard.json", "doc": doc, "force": true}),
    );
    assert_eq!((status, &saved["pushed"]), (200, &json!(false)));
}

/// A game serving its live view with the editor of the guard (in a new
/// folder named after `name`): the folder, the studio, and the guard (the
/// interpreted agent, its observer and its town), not ticked yet.
fn game_with_its_editor(
    name: &str,
) -> (
    std::path::PathBuf,
    behaved_studio::Studio,
    Agent<Town>,
    behaved_studio::ObservedAgent,
    Town,
) {
    let dir = guard_folder(name);
    let editor = behaved_studio::Editor::new(dir.join("guard.json")).with_leaves(guard_manifest());
    let studio = behaved_studio::Studio::serve_with_editor("127.0.0.1:0", editor).unwrap();
    let def = town_leaves().load(&guard_json()).unwrap();
    let guard = Agent::new(def.clone());
    let observer = studio.agent("guard", def.nodes()).unwrap();
    let town = Town {
        time: "day",
        guard_at: "gate",
        walked: 0,
    };
    (dir, studio, guard, observer, town)
}

#[test]
fn a_tree_saved_in_the_games_editor_reaches_the_game_and_its_live_view() {
    let (dir, studio, mut guard, mut observer, mut town) = game_with_its_editor("hot");
    let addr = studio.addr();
    assert!(common::get(addr, "/edit").body.contains("editor.js"));
    assert!(
        common::get(addr, "/").body.contains("studio.js"),
        "the live view stays at /"
    );
    guard.tick_observed(&mut town, 1.0, &mut observer);
    assert_eq!(studio.take_reload(), None, "nothing saved yet");

    // A tree the loader rejects, saved anyway, stays in the editor's folder.
    save_a_rejected_tree(addr);
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
    let new_def = town_leaves().load(&reload.tree).unwrap();
    guard.replace_definition(&mut town, new_def.clone());
    observer.replace_nodes(new_def.nodes()).unwrap();
    guard.tick_observed(&mut town, 2.0, &mut observer);
    let agents: Value = serde_json::from_str(&common::get(addr, "/api/agents").body).unwrap();
    assert_eq!(
        agents,
        json!({"version": 2, "agents": [{"id": 0, "name": "guard", "nodes": 2, "gone": false}]}),
        "the same agent, listed once, with its new tree"
    );
    // A page that listed the agents before the reload is sent the agent again.
    let since: Value = serde_json::from_str(&common::get(addr, "/api/agents?since=1").body).unwrap();
    assert_eq!(since["agents"][0]["nodes"], 2);
}

#[test]
fn the_live_page_following_an_agent_shows_its_reloaded_tree() {
    use common::browser::{PATIENCE, attribute, drawn, wait_for, with_browser};
    let (_, studio, mut guard, mut observer, mut town) = game_with_its_editor("hot-page");
    with_browser("hot_reload_page", |client| async move {
        common::browser::follow_first_agent(&client, &studio.url()).await;
        wait_for(&client, "body[data-following='0']").await;
        guard.tick_observed(&mut town, 1.0, &mut observer);
        wait_for(&client, "#position[data-tick='1']").await;
        // The whole tree (Fit): the default view collapses what does not fit readably (tests/view.rs).
        common::browser::click(&client, "#fit").await;
        assert_eq!(drawn(&client).await.statuses.len(), 15);

        let smaller = json!({"type": "selector", "name": "Guard", "children": [
            {"type": "action", "name": "Default", "action": {"type": "dialogue", "dialogueId": "guard-default"}}]});
        let (status, _) = post(
            studio.addr(),
            "/api/edit/save",
            &json!({"name": "guard.json", "doc": smaller}),
        );
        assert_eq!(status, 200);
        let new_def = town_leaves().load(&studio.take_reload().unwrap().tree).unwrap();
        guard.replace_definition(&mut town, new_def.clone());
        observer.replace_nodes(new_def.nodes()).unwrap();
        guard.tick_observed(&mut town, 2.0, &mut observer);
        // The page, still following the same agent, draws the new tree from
        // its next tick, the first of the agent's new history.
        let deadline = std::time::Instant::now() + PATIENCE;
        while drawn(&client).await.statuses.len() != 2 {
            assert!(std::time::Instant::now() < deadline, "the page never drew the new tree");
            // Polling the page's state, not timing the test.
            tokio::time::sleep(std::time::Duration::from_millis(30)).await;
        }
        let now = drawn(&client).await;
        assert_eq!((now.tick, now.statuses[0].as_str()), (1, "success"));
        assert_eq!(
            attribute(&client, "#agents-count", "data-count").await.as_deref(),
            Some("1"),
            "the agent is listed once"
        );
    });
}

/// The saved smaller guard: it only ever says the default line.
fn smaller_guard() -> Value {
    json!({"type": "selector", "name": "Guard", "children": [
        {"type": "action", "name": "Default", "action": {"type": "dialogue", "dialogueId": "guard-default"}}]})
}

/// Saves the smaller guard to the editor at `addr`: the status and the answer.
fn save_smaller_guard(addr: std::net::SocketAddr) -> (u16, Value) {
    post(
        addr,
        "/api/edit/save",
        &json!({"name": "guard.json", "doc": smaller_guard()}),
    )
}

#[test]
fn a_separate_editor_pushes_the_trees_it_saves_to_a_running_game() {
    let game = behaved_studio::Studio::serve("127.0.0.1:0").unwrap();
    let dir = guard_folder("push");
    let editor = behaved_studio::Editor::new(dir.join("guard.json"))
        .with_leaves(guard_manifest())
        .push_to(&game.url())
        .unwrap();
    let addr = common::editing::serve_editor(editor);

    // A tree that loads goes over loopback to the game, which takes it as from its own editor.
    let (status, saved) = save_smaller_guard(addr);
    assert_eq!(
        (status, &saved["pushed"], &saved["pushError"]),
        (200, &json!(true), &Value::Null)
    );
    let reload = game.take_reload().expect("the pushed tree");
    assert_eq!(reload.name, "guard.json");
    assert_eq!(reload.tree, std::fs::read_to_string(dir.join("guard.json")).unwrap());
    assert!(town_leaves().load(&reload.tree).is_ok());
    assert_eq!(game.take_reload(), None);

    // One the loader rejects, saved anyway, is not pushed.
    save_a_rejected_tree(addr);
    assert_eq!(game.take_reload(), None);
}

#[test]
fn a_push_to_a_game_that_is_gone_saves_and_says_why_it_was_not_sent() {
    let gone = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let dir = guard_folder("push-gone");
    let editor = behaved_studio::Editor::new(dir.join("guard.json"))
        .push_to(&format!("http://{gone}/"))
        .unwrap();
    let addr = common::editing::serve_editor(editor);
    let (status, saved) = save_smaller_guard(addr);
    assert_eq!((status, &saved["pushed"]), (200, &json!(false)));
    let why = saved["pushError"].as_str().unwrap();
    assert!(
        why.starts_with(&format!("not sent to the game: cannot reach {gone}: ")),
        "{why}"
    );
    assert_eq!(
        serde_json::from_str::<Value>(&std::fs::read_to_string(dir.join("guard.json")).unwrap()).unwrap(),
        smaller_guard(),
        "saved all the same"
    );
}

#[test]
fn a_game_takes_pushed_trees_from_programs_only_and_an_editor_only_its_address() {
    let game = behaved_studio::Studio::serve("127.0.0.1:0").unwrap();
    let addr = game.addr();
    let body = json!({"name": "guard.json", "tree": "{}"}).to_string();
    // A web page's request carries an Origin.
    let from_a_page = [("content-type", "application/json"), ("origin", "http://evil.example")];
    let answer = common::send(addr, "POST", "/api/reload", &from_a_page, &body);
    assert_eq!(answer.status, 403, "{}", answer.body);
    assert_eq!(game.take_reload(), None);
    // Without a JSON content type (a form a page could send without asking), refused too.
    assert_eq!(common::send(addr, "POST", "/api/reload", &[], &body).status, 415);
    assert_eq!(game.take_reload(), None);
    // A game that never takes them keeps only the newest sixteen.
    for i in 0..20 {
        let body = json!({"name": format!("t{i}.json"), "tree": "{}"});
        assert_eq!(post(addr, "/api/reload", &body).0, 202);
    }
    let waiting: Vec<String> = std::iter::from_fn(|| game.take_reload()).map(|r| r.name).collect();
    assert_eq!(waiting, (4..20).map(|i| format!("t{i}.json")).collect::<Vec<_>>());

    let refused = |url: &str| behaved_studio::Editor::new("guard.json").push_to(url).unwrap_err();
    assert_eq!(
        refused("https://127.0.0.1:7878/"),
        "cannot push to \"https://127.0.0.1:7878/\": a game's live view is an http:// URL"
    );
    assert_eq!(
        refused("http://127.0.0.1:7878/edit"),
        "cannot push to \"http://127.0.0.1:7878/edit\": give the live view's address, http://host:port/"
    );
    assert_eq!(
        refused("http://localhost/"),
        "cannot push to \"http://localhost/\": name the host and the port, http://127.0.0.1:7878/"
    );
}

#[test]
fn the_binary_pushes_with_push_url() {
    let game = behaved_studio::Studio::serve("127.0.0.1:0").unwrap();
    let dir = guard_folder("push-binary");
    let tree = dir.join("guard.json");
    let (_child, _, addr) =
        common::start_binary(&["edit", tree.to_str().unwrap(), "--port", "0", "--push", &game.url()]);
    let (status, saved) = save_smaller_guard(addr);
    assert_eq!((status, &saved["pushed"]), (200, &json!(true)));
    assert_eq!(game.take_reload().map(|r| r.name).as_deref(), Some("guard.json"));

    assert_eq!(
        common::binary_fails(&["edit", tree.to_str().unwrap(), "--port", "0", "--push", "ftp://x"]),
        "behaved-studio: cannot push to \"ftp://x\": a game's live view is an http:// URL\n"
    );
}

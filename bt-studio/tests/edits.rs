//! Editing the game's values from the live view (issue 27): a game thread
//! provides a setter of one of the values it records as context
//! (`Setters`, `ObservedAgent::apply_edits`); an edit sent over a real
//! WebSocket, and one made in the page in headless Chromium, reaches the
//! game's state, and its next tick uses it and records it. Bad edits are
//! answered with what is wrong.

mod common;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use behaved::prelude::*;
use behaved_studio::{ObservedAgent, Setters};
use common::guard::{Guard, Post};
use common::live::{Socket, connect, next, send};
use serde_json::json;

/// The game's own values: a speed the page may edit, and the distance the
/// game adds it to on every tick (which has no setter).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Walker {
    speed: f64,
    distance: f64,
}

/// A game thread: each frame applies the page's edits, ticks the guard,
/// adds the speed to the distance and records both; it keeps its own log
/// of them, tick by tick. Stops when the returned flag is set.
fn start_game(mut observer: ObservedAgent) -> (Arc<AtomicBool>, Arc<Mutex<Vec<Walker>>>) {
    let quit = Arc::new(AtomicBool::new(false));
    let log = Arc::new(Mutex::new(Vec::new()));
    let (stop, ticks) = (Arc::clone(&quit), Arc::clone(&log));
    std::thread::spawn(move || {
        let mut setters = Setters::<Walker>::new().number("speed", |w, v| w.speed = v);
        let mut walker = Walker {
            speed: 1.0,
            distance: 0.0,
        };
        let (mut tree, mut post) = (Guard::new(), Post::at_start());
        let mut tick = 0;
        while !stop.load(Ordering::SeqCst) {
            observer.apply_edits(&mut setters, &mut walker);
            tick += 1;
            let now = post.patrol_tick(tick);
            tree.tick_observed(&mut post, now, &mut observer);
            walker.distance += walker.speed;
            observer
                .record_context(&json!({ "speed": walker.speed, "distance": walker.distance }))
                .unwrap();
            ticks.lock().unwrap().push(walker);
            std::thread::sleep(Duration::from_millis(5));
        }
    });
    (quit, log)
}

/// Follows agent 0 at `studio` over a WebSocket; the socket after the hello.
fn follow(studio: &behaved_studio::Studio) -> Socket {
    let mut socket = connect(studio.addr(), "/api/live/0");
    assert_eq!(next(&mut socket)["mayControl"], true);
    socket
}

/// The most messages a test reads waiting for something (a few a second come while the game runs).
const MESSAGES: usize = 400;

/// The first tick, in the game's log, whose speed is `speed`: its values and the tick's before.
fn first_with_speed(log: &Mutex<Vec<Walker>>, speed: f64) -> Option<(Walker, Walker)> {
    let log = log.lock().unwrap();
    let at = log.iter().position(|w| w.speed == speed)?;
    Some((log[at - 1], log[at]))
}

#[test]
fn an_edit_over_the_socket_reaches_the_games_state_and_its_next_ticks_context() {
    let (studio, observer) = common::live::serve_guard("guard");
    let mut page = follow(&studio);
    let (quit, log) = start_game(observer);

    // The page is told which values have a setter.
    let mut message = next(&mut page);
    for _ in 0..MESSAGES {
        if message["setters"].as_array().is_some_and(|s| !s.is_empty()) {
            break;
        }
        message = next(&mut page);
    }
    assert_eq!(message["setters"], json!([{ "key": "speed", "type": "number" }]));

    // Bad edits are answered with what is wrong, and change nothing.
    for (edit, error) in [
        (
            json!({ "key": "speed", "value": "fast" }),
            "\"speed\" takes a number, not \"fast\"",
        ),
        (
            json!({ "key": "distance", "value": 0 }),
            "the game provides no setter for \"distance\"; it does for speed",
        ),
        (
            json!({ "value": 3 }),
            "an edit names the value to set: {\"key\", \"value\"}, not {\"value\":3}",
        ),
        (
            json!("speed"),
            "an edit names the value to set: {\"key\", \"value\"}, not \"speed\"",
        ),
    ] {
        send(&mut page, json!({ "set": edit }));
        let answer = (0..MESSAGES)
            .map(|_| next(&mut page))
            .find(|message| message.get("error").is_some())
            .expect("an answer to the bad edit");
        assert_eq!(answer, json!({ "error": error }), "{edit}");
    }

    // A good edit: the next ticks' recorded context has it, and the game's first tick with it used it.
    send(&mut page, json!({ "set": { "key": "speed", "value": 7 } }));
    let mut context = BTreeMap::new();
    let mut read = 0;
    let edited_tick = 'found: loop {
        read += 1;
        assert!(read < MESSAGES, "the edit never showed in the game's context");
        let message = next(&mut page);
        assert!(message.get("error").is_none(), "{message}");
        for entry in common::live::context_entries(&message) {
            let tick = entry["tick"].as_u64().unwrap();
            context.insert(tick, entry["values"].clone());
            if entry["values"]["speed"] == 7.0 {
                break 'found tick;
            }
        }
    };
    quit.store(true, Ordering::SeqCst);
    let before = &context[&(edited_tick - 1)];
    let after = &context[&edited_tick];
    assert_eq!(before["speed"], 1.0, "the tick before still had the old speed");
    assert_eq!(
        after["distance"].as_f64().unwrap(),
        before["distance"].as_f64().unwrap() + 7.0,
        "the first tick with the new speed used it: {before} then {after}"
    );
    let (before, after) = first_with_speed(&log, 7.0).unwrap();
    assert_eq!(after.distance, before.distance + 7.0, "in the game's own log too");
    assert!(
        log.lock().unwrap().iter().all(|w| w.speed == 1.0 || w.speed == 7.0),
        "the bad edits changed nothing"
    );
}

#[test]
fn in_the_page_a_value_with_a_setter_is_edited_and_the_games_next_tick_uses_it() {
    use common::browser::{click, open, text_of, wait_for, with_browser};
    use fantoccini::Locator;
    use fantoccini::key::Key;
    with_browser("edits", |client| async move {
        let (studio, observer) = common::live::serve_guard("guard");
        let (quit, log) = start_game(observer);
        open(&client, &format!("{}#agent=0", studio.url())).await;
        wait_for(&client, "body[data-following='0']").await;
        click(&client, "#tabs button[data-tab='inspector']").await;
        // Only the value with a setter offers an edit.
        wait_for(
            &client,
            "#context-table tr[data-key='speed'][data-editable='number'] button[data-edit='speed']",
        )
        .await;
        wait_for(&client, "#context-table tr[data-key='distance']:not([data-editable])").await;
        assert!(
            client
                .find(Locator::Css("#context-table tr[data-key='distance'] button[data-edit]"))
                .await
                .is_err(),
            "no setter, no edit"
        );
        click(&client, "#context-table button[data-edit='speed']").await;
        let input = wait_for(&client, "#context-edit:not([hidden]) #edit-value").await;
        assert_eq!(text_of(&client, "#edit-key").await, "speed");

        // A value of the wrong type: the game's refusal, in the form.
        input.clear().await.unwrap();
        input.send_keys(&format!("fast{}", Key::Enter)).await.unwrap();
        wait_for(&client, "#edit-state[data-state='refused']").await;
        assert_eq!(
            text_of(&client, "#edit-state").await,
            "The game refused: \"speed\" takes a number, not \"fast\"."
        );

        // A number: the game sets it, and the page shows what the game's next ticks recorded.
        input.clear().await.unwrap();
        input.send_keys(&format!("7{}", Key::Enter)).await.unwrap();
        wait_for(&client, "#edit-state[data-state='sent']").await;
        wait_for(&client, "#context-table tr[data-key='speed'][data-value='7']").await;
        quit.store(true, Ordering::SeqCst);
        let (before, after) = first_with_speed(&log, 7.0).expect("the game took the edit");
        assert_eq!(before.speed, 1.0);
        assert_eq!(after.distance, before.distance + 7.0, "its next tick used it");
    });
}

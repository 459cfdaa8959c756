//! Saved state that holds: a saved agent records when it was saved
//! (`savedAt`), loading checks every saved time against it, and a game whose
//! clock restarted shifts the saved times (SEMANTICS.md "Saved state and the
//! clock").

use std::sync::Arc;

use behaved_interp::{Agent, AgentSeed, Definition, Registry};
use behaved_runtime::Status;
use serde::de::DeserializeSeed;
use serde_json::{Value, json};

/// A wait of 2 s, then a cooldown of 10 s around a success.
fn def() -> Arc<Definition<()>> {
    Registry::<()>::new()
        .load(
            &json!({"type": "sequence", "children": [
                {"type": "wait", "seconds": 2},
                {"type": "cooldown", "seconds": 10, "child": {"type": "success"}}
            ]})
            .to_string(),
        )
        .unwrap()
}

/// An agent whose wait started at 5000, saved at 5000.5.
fn saved() -> Value {
    let mut npc = Agent::new(def());
    assert_eq!(npc.tick_at(&mut (), 5000.0), Status::Running);
    assert_eq!(npc.tick_at(&mut (), 5000.5), Status::Running);
    serde_json::to_value(&npc).unwrap()
}

fn load(state: &Value) -> Result<Agent<()>, String> {
    Agent::load(def(), state).map_err(|e| e.to_string())
}

#[test]
fn a_saved_state_records_when_it_was_saved() {
    let state = saved();
    assert_eq!(state["savedAt"], json!(5000.5));
    assert_eq!(state["times"], json!([5000.0, f64::MIN]));
    let mut npc = load(&state).unwrap();
    assert_eq!(npc.tick_at(&mut (), 5001.9), Status::Running);
    assert_eq!(npc.tick_at(&mut (), 5002.0), Status::Success);
}

#[test]
fn a_time_after_the_save_or_not_finite_is_refused() {
    let mut state = saved();
    state["times"][0] = json!(1e308);
    assert_eq!(
        load(&state).unwrap_err(),
        "impossible state: the timer of node 1 (wait(2.0) at `children[0]`) started at 1e308, \
         after the state was saved (at 5000.5); a game whose clock restarted shifts the saved times (`AgentSeed::resume_at`)"
    );
    let mut state = saved();
    state["times"][1] = json!(5001.0);
    assert!(
        load(&state)
            .unwrap_err()
            .contains("the timer of node 2 (cooldown(10.0) at `children[1]`) started at 5001.0")
    );
    state["times"][1] = json!(5000.5);
    assert!(load(&state).is_ok(), "a time at the save is fine");
}

#[test]
fn a_state_saved_before_saved_at_existed_still_loads() {
    let mut state = saved();
    state.as_object_mut().unwrap().remove("savedAt");
    let mut npc = load(&state).unwrap();
    assert_eq!(npc.tick_at(&mut (), 5002.0), Status::Success);
    // In the array form too (a format that writes structs as sequences).
    let fields: Vec<Value> = ["fingerprint", "running", "rng", "ints", "times", "leaves"]
        .iter()
        .map(|f| state[*f].clone())
        .collect();
    let mut npc = load(&Value::Array(fields.clone())).unwrap();
    assert_eq!(npc.tick_at(&mut (), 5001.0), Status::Running);
    let mut with_time = fields;
    with_time.push(json!(4000.0));
    assert!(
        load(&Value::Array(with_time))
            .unwrap_err()
            .contains("after the state was saved (at 4000.0)"),
        "the array form's savedAt is checked"
    );
}

#[test]
fn a_game_whose_clock_restarted_resumes_the_timers_where_they_were() {
    // Saved 0.5 s into a 2 s wait, loaded by a game whose clock now reads 0.
    let mut npc = AgentSeed::new(def()).resume_at(0.0).deserialize(&saved()).unwrap();
    assert_eq!(npc.tick_at(&mut (), 1.4), Status::Running);
    assert_eq!(npc.tick_at(&mut (), 1.5), Status::Success, "2 s after the wait started");
    // Without the shift the wait would last until 5002.
    let mut unshifted = load(&saved()).unwrap();
    assert_eq!(unshifted.tick_at(&mut (), 1.5), Status::Running);

    // `shift_times` by hand, and a cooldown that never completed stays ready.
    let mut npc = load(&saved()).unwrap();
    npc.shift_times(-5000.0);
    let state = serde_json::to_value(&npc).unwrap();
    assert_eq!(state["times"], json!([0.0, f64::MIN]));
    assert_eq!(state["savedAt"], json!(0.5));
    assert_eq!(npc.tick_at(&mut (), 2.0), Status::Success);
}

//! Saved times of compiled trees (SEMANTICS.md, "Saved state and the
//! clock"), the interpreter's contract: a saved tree records the time of its
//! last tick (`savedAt`, its state's last element), loading checks every
//! saved time against it, and `shift_times` / `resume_at` move the times for
//! a game whose clock restarted. Tick by tick.
use behaved::prelude::*;
use serde_json::{Value, json};

behave! {
    /// A wait of 2 s, then a cooldown of 10 s around a success.
    tree Rest for () {
        sequence { wait(2.0), cooldown(10.0) { success } }
    }
    /// The same as a subtree, behind a wait of its own.
    tree Camp for () {
        sequence { wait(1.0), subtree(Rest) }
    }
}

/// A `Rest` whose wait started at 5000, saved at 5000.5.
fn saved() -> Value {
    let mut npc = Rest::new();
    assert_eq!(npc.tick_at(&mut (), 5000.0), Status::Running);
    assert_eq!(npc.tick_at(&mut (), 5000.5), Status::Running);
    serde_json::to_value(&npc).unwrap()
}

fn load<T: serde::de::DeserializeOwned>(state: &Value) -> Result<T, String> {
    serde_json::from_value(state.clone()).map_err(|e| e.to_string())
}

/// Why `state` does not load as a `Rest`.
fn refusal(state: &Value) -> String {
    load::<Rest>(state).err().expect("refused")
}

#[test]
fn a_saved_state_ends_with_when_it_was_saved() {
    let state = saved();
    let elements = state.as_array().unwrap();
    assert_eq!(elements.last(), Some(&json!(5000.5)));
    // The clock goes on: the state loads as it is.
    let mut npc: Rest = load(&state).unwrap();
    assert_eq!(npc.tick_at(&mut (), 5001.9), Status::Running);
    assert_eq!(npc.tick_at(&mut (), 5002.0), Status::Success);
}

#[test]
fn a_game_whose_clock_restarts_resumes_with_the_time_left() {
    // Saved 0.5 s into the wait; the game's clock reads 0 after loading.
    let mut npc: Rest = load(&saved()).unwrap();
    npc.resume_at(0.0);
    assert_eq!(npc.tick_at(&mut (), 0.0), Status::Running);
    assert_eq!(npc.tick_at(&mut (), 1.4), Status::Running);
    assert_eq!(npc.tick_at(&mut (), 1.5), Status::Success, "1.5 s were left");
    // The cooldown completed at 1.5 on the new clock: closed for 10 s.
    assert_eq!(npc.tick_at(&mut (), 1.6), Status::Running);
    assert_eq!(npc.tick_at(&mut (), 3.6), Status::Failure);
    // Without the shift, the wait started at 5000 would never end on this clock.
    let mut stuck: Rest = load(&saved()).unwrap();
    assert_eq!(stuck.tick_at(&mut (), 1.5), Status::Running);
    assert_eq!(stuck.tick_at(&mut (), 100.0), Status::Running);
}

#[test]
fn shift_times_moves_subtrees_too() {
    let mut camp = Camp::new();
    assert_eq!(camp.tick_at(&mut (), 100.0), Status::Running);
    assert_eq!(
        camp.tick_at(&mut (), 101.0),
        Status::Running,
        "the subtree's wait starts at 101"
    );
    let state = serde_json::to_value(&camp).unwrap();
    assert_eq!(state.as_array().unwrap().last(), Some(&json!(101.0)));
    let mut camp: Camp = load(&state).unwrap();
    camp.shift_times(-100.0);
    assert_eq!(camp.tick_at(&mut (), 2.9), Status::Running);
    assert_eq!(
        camp.tick_at(&mut (), 3.0),
        Status::Success,
        "the subtree's 2 s from 1.0"
    );
}

#[test]
fn a_time_after_the_save_or_not_finite_is_refused() {
    // [fingerprint, running, resume point, wait's start, cooldown's, savedAt]
    let mut state = saved();
    assert_eq!(state[3], json!(5000.0));
    state[3] = json!(1e308);
    assert_eq!(
        refusal(&state),
        "impossible state: the timer of node 1 (wait(2.0)) started at 1e308, after the state was saved \
         (at 5000.5); a game whose clock restarted shifts the saved times (`resume_at`)"
    );
    let mut state = saved();
    state[4] = json!(5001.0);
    assert!(refusal(&state).starts_with("impossible state: the timer of node 2 (cooldown(10.0)) started at 5001.0"));
    state[4] = json!(5000.5);
    assert!(load::<Rest>(&state).is_ok(), "a time at the save is fine");
    let mut state = saved();
    state[5] = json!(1e308);
    state[3] = json!(1e308);
    assert!(
        load::<Rest>(&state).is_ok(),
        "a save at 1e308 may hold a timer started then"
    );
}

#[test]
fn a_state_saved_before_saved_at_existed_still_loads() {
    let mut state = saved();
    state.as_array_mut().unwrap().pop();
    let mut npc: Rest = load(&state).unwrap();
    assert_eq!(npc.tick_at(&mut (), 5002.0), Status::Success);
}

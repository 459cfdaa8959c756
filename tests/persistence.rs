//! Saving and loading running trees (the `serde` feature): for many trees and
//! stop points, a tree saved mid-run and loaded into a fresh instance behaves
//! exactly like the uninterrupted one for the next 100 ticks (statuses, node
//! events, leaf events); state from a different tree is rejected.
use behaved::prelude::*;
use behaved_testkit::script::*;
use serde::de::DeserializeOwned;

/// A stateful action whose progress must survive a save: `#[persist]` in the tree.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct Steps {
    name: String,
    left: u32,
}

impl Steps {
    fn new(name: &str) -> Steps {
        Steps {
            name: name.to_string(),
            left: 0,
        }
    }
}

impl Action<Ctx> for Steps {
    fn enter(&mut self, ctx: &mut Ctx) {
        self.left = 1 + ctx.counter % 4;
        ctx.log.push(format!("enter {}", self.name));
    }
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        ctx.log.push(format!("{} {}", self.name, self.left));
        self.left -= 1;
        if self.left == 0 {
            Status::Success
        } else {
            Status::Running
        }
    }
    fn halt(&mut self, ctx: &mut Ctx) {
        ctx.log.push(format!("halt {}", self.name));
    }
}

behave! {
    tree Patrol for Ctx {
        'patrol: loop {
            sequence {
                #[persist] Steps::new("walk"),
                wait(0.3),
                if |c| c.counter % 7 == 0 { break 'patrol } else { success },
            }
        }
    }
    tree Guard for Ctx {
        reactive selector {
            sequence { cond(Check("alarm")), timeout(0.5) { #[persist] Steps::new("chase") } },
            parallel(success = 2, failure = 2) {
                subtree(Patrol),
                shuffle { Rec("look"), cooldown(0.4) { Rec("bark") }, Rec("sniff") },
                repeat(3) { weighted { 2 => Rec("sit"), 1 => #[persist] Steps::new("roll") } },
            },
        }
    }
    tree Counter for Ctx {
        scope {
            let n: u32 = 0;
            while |c| c.counter < 1_000_000 {
                sequence { act(|c| { *n += 1; c.counter += 1 }), random { Rec("a"), running, delay(0.2) { Rec("b") } } }
            }
        }
    }
}

/// Sets the world for `tick`: time, a counter, and leaf results from a cheap hash.
fn script(tick: u32, ctx: &mut Ctx) {
    ctx.now = f64::from(tick) * 0.1;
    ctx.counter = ctx.counter.wrapping_add(tick % 3);
    let hash = |salt: u32| (tick.wrapping_mul(2_654_435_761).wrapping_add(salt.wrapping_mul(40_503))) >> 16;
    for (i, leaf) in ["alarm", "look", "bark", "sniff", "sit", "a", "b"]
        .into_iter()
        .enumerate()
    {
        let status = match hash(i as u32) % 5 {
            0 | 1 => S,
            2 => F,
            _ => R,
        };
        ctx.set(leaf, status);
    }
    if tick % 23 > 18 {
        ctx.set("alarm", S);
    }
}

/// Runs `stop` ticks, saves to JSON, loads a fresh instance, and compares the
/// next 100 ticks of both.
fn save_mid_run_and_compare<T: Tree<Ctx> + serde::Serialize + DeserializeOwned>(
    make: fn(u64) -> T,
    nodes: &'static [NodeInfo],
    seed: u64,
    stop: u32,
) {
    let mut original = make(seed);
    let mut ctx = Ctx::new();
    let mut events = Events::new(nodes);
    for tick in 0..stop {
        script(tick, &mut ctx);
        let now = ctx.now;
        original.tick_observed(&mut ctx, now, &mut events);
    }
    let saved = serde_json::to_string(&original).unwrap();
    let mut loaded: T = serde_json::from_str(&saved).unwrap();
    let mut ctx2 = ctx.clone();
    ctx.take();
    ctx2.take();
    let mut events2 = Events::new(nodes);
    events.take();
    for tick in stop..stop + 100 {
        script(tick, &mut ctx);
        script(tick, &mut ctx2);
        let now = ctx.now;
        let a = original.tick_observed(&mut ctx, now, &mut events);
        let b = loaded.tick_observed(&mut ctx2, now, &mut events2);
        assert_eq!(a, b, "status at tick {tick} (stopped at {stop}, seed {seed})");
        assert_eq!(
            events.take(),
            events2.take(),
            "node events at tick {tick} (stopped at {stop}, seed {seed})"
        );
        assert_eq!(
            ctx.take(),
            ctx2.take(),
            "leaf events at tick {tick} (stopped at {stop}, seed {seed})"
        );
    }
}

#[test]
fn saved_mid_run_and_loaded_trees_continue_identically() {
    let mut stop = 1u32;
    for seed in 0..12u64 {
        // A spread of stop points, including 0 (an idle tree).
        for _ in 0..6 {
            stop = (stop * 37 + 11) % 150;
            save_mid_run_and_compare(Guard::with_seed, Guard::NODES, seed, stop);
            save_mid_run_and_compare(Patrol::with_seed, Patrol::NODES, seed, stop);
            save_mid_run_and_compare(Counter::with_seed, Counter::NODES, seed, stop);
        }
    }
}

#[test]
fn a_running_action_resumes_mid_way_instead_of_re_entering() {
    let mut tree = Patrol::new();
    let mut ctx = Ctx {
        counter: 3,
        ..Ctx::new()
    };
    tree.tick(&mut ctx);
    tree.tick(&mut ctx);
    let saved = serde_json::to_value(&tree).unwrap();
    let mut loaded: Patrol = serde_json::from_value(saved.clone()).unwrap();
    ctx.take();
    loaded.tick(&mut ctx);
    assert_eq!(
        ctx.take(),
        log(&["walk 2"]),
        "four steps, two taken: the loaded walk resumes at 2 without `enter`"
    );
    assert_eq!(
        saved[0],
        serde_json::json!(Patrol::FINGERPRINT),
        "the state starts with the tree's fingerprint"
    );
}

/// The error of loading `json` as a `T`.
fn load_error<T: DeserializeOwned>(json: &str) -> String {
    match serde_json::from_str::<T>(json) {
        Ok(_) => panic!("{json} loaded"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn state_from_another_tree_is_rejected_with_a_clear_error() {
    let saved = serde_json::to_string(&Patrol::new()).unwrap();
    let error = load_error::<Counter>(&saved);
    assert!(
        error.starts_with("this state was saved from a different tree or another version of `Counter`"),
        "{error}"
    );
    let error = load_error::<Patrol>("[1, true]");
    assert!(error.contains("different tree"), "{error}");
    let error = load_error::<Patrol>(&format!("[{}]", Patrol::FINGERPRINT));
    assert!(error.contains("invalid length 1"), "{error}");
    assert_ne!(Guard::FINGERPRINT, Patrol::FINGERPRINT);
}

#[test]
fn a_state_cut_short_or_with_a_wrong_element_names_where() {
    let serde_json::Value::Array(full) = serde_json::to_value(Patrol::new()).unwrap() else {
        panic!("a state is a sequence")
    };
    assert!(full.len() > 3, "{full:?}");
    // Its last element, when it saved, is optional: states saved before it
    // was recorded load (tests/saved_times.rs).
    for len in 2..full.len() - 1 {
        let error = load_error::<Patrol>(&serde_json::to_string(&full[..len]).unwrap());
        assert!(
            error.starts_with(&format!(
                "invalid length {len}, expected the saved running state of the tree `Patrol`"
            )),
            "{len}: {error}"
        );
    }
    let mut wrong = full.clone();
    wrong[2] = serde_json::json!("two");
    let error = load_error::<Patrol>(&serde_json::to_string(&wrong).unwrap());
    assert!(error.starts_with("invalid type: string \"two\""), "{error}");
}

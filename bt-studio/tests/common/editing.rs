//! What the editor's tests share: the guard's tree and leaf manifest, a
//! recorded run of it, an editor served on loopback, and waiting on its page.

use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use behaved::prelude::*;
use behaved_interp::{Agent, Manifest, Registry};
use behaved_observe::{Trace, TraceRecorder};
use serde_json::{Map, Value};

use super::browser::{PATIENCE, eval};

/// `examples/trees/guard.json`, as in the repository.
pub fn guard_json() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/trees/guard.json")).unwrap()
}

/// The leaf manifest of the `guard_json` example (its six leaves; the
/// root crate's tests check that the example writes this).
pub fn guard_manifest() -> Manifest {
    let string = |name: &str| format!(r#"{{"name": "{name}", "type": "string", "required": true}}"#);
    let leaf = |params: &[&str]| {
        let p: Vec<String> = params.iter().map(|n| string(n)).collect();
        format!(r#"{{"params": [{}]}}"#, p.join(", "))
    };
    let text = format!(
        r#"{{"format": "bt-leaves", "version": 1,
        "conditions": {{"atLocation": {}, "hasItem": {}, "questStage": {}, "timeOfDay": {}}},
        "actions": {{"dialogue": {}, "moveTo": {}}}, "values": {{}}}}"#,
        leaf(&["locationId"]),
        leaf(&["itemId"]),
        leaf(&["questId", "stageId", "state"]),
        leaf(&["value"]),
        leaf(&["dialogueId"]),
        leaf(&["target"]),
    );
    Manifest::from_json(&text).unwrap()
}

/// The guard's world in the recorded run.
pub struct Town {
    pub time: &'static str,
    pub guard_at: &'static str,
    /// Ticks the current walk has taken.
    pub walked: u32,
}

/// Leaves like the example's, over [`Town`]: a walk takes two ticks.
pub fn town_leaves() -> Registry<Town> {
    #[derive(Clone)]
    struct Is(fn(&Town, &Map<String, Value>) -> bool, Map<String, Value>);
    impl Condition<Town> for Is {
        fn check(&self, t: &Town) -> bool {
            (self.0)(t, &self.1)
        }
    }
    #[derive(Clone)]
    struct Say;
    impl Action<Town> for Say {
        fn tick(&mut self, _: &mut Town) -> Status {
            Status::Success
        }
    }
    #[derive(Clone)]
    struct Walk;
    impl Action<Town> for Walk {
        fn tick(&mut self, t: &mut Town) -> Status {
            t.walked += 1;
            if t.walked.is_multiple_of(2) {
                Status::Success
            } else {
                Status::Running
            }
        }
    }
    let mut r = Registry::new();
    r.condition("questStage", |m: Map<String, Value>| Is(|_, _| false, m))
        .condition("timeOfDay", |m: Map<String, Value>| {
            Is(|t, m| m.get("value").and_then(Value::as_str) == Some(t.time), m)
        })
        .condition("atLocation", |m: Map<String, Value>| {
            Is(
                |t, m| m.get("locationId").and_then(Value::as_str) == Some(t.guard_at),
                m,
            )
        })
        .condition("hasItem", |m: Map<String, Value>| Is(|_, _| false, m))
        .action("dialogue", |_: Map<String, Value>| Say)
        .action("moveTo", |_: Map<String, Value>| Walk);
    r
}

/// Six ticks of the guard: three by day (the default dialogue), then three
/// at night out at the gate (the walk to the guardhouse, running then done).
pub fn guard_recording() -> Trace {
    let def = town_leaves().load(&guard_json()).unwrap();
    let mut agent = Agent::new(def.clone());
    let mut town = Town {
        time: "day",
        guard_at: "gate",
        walked: 0,
    };
    let mut recorder = TraceRecorder::new(def.nodes(), 10_000).unwrap();
    for tick in 1..=6 {
        if tick == 4 {
            town.time = "night";
        }
        agent.tick_observed(&mut town, f64::from(tick), &mut recorder);
    }
    recorder.trace()
}

/// A fresh folder under the tests' temporary directory holding `guard.json`.
pub fn guard_folder(name: &str) -> PathBuf {
    folder_with(name, "guard.json", &guard_json())
}

/// A guard in BT.CPP XML: the main tree `Guard` uses the tree `Patrol`.
pub const GUARD_XML: &str = r#"<root BTCPP_format="4" main_tree_to_execute="Guard">
  <BehaviorTree ID="Guard">
    <Fallback>
      <Sequence>
        <Condition ID="timeOfDay" value="night"/>
        <SubTree ID="Patrol"/>
      </Sequence>
      <Action ID="dialogue" dialogueId="guard-default"/>
    </Fallback>
  </BehaviorTree>
  <BehaviorTree ID="Patrol">
    <Action ID="moveTo" target="gate"/>
  </BehaviorTree>
</root>
"#;

/// A fresh folder holding `file` with `text`.
pub fn folder_with(name: &str, file: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("bt-editor-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(file), text).unwrap();
    dir
}

/// Serves `editor` on a free loopback port, on a thread of its own.
pub fn serve_editor(editor: behaved_studio::Editor) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || behaved_studio::edit::serve_editor_blocking(listener, editor));
    addr
}

/// Waits until `js` returns true, with nothing in flight to the server.
pub async fn until(client: &fantoccini::Client, js: &str) {
    let deadline = Instant::now() + PATIENCE;
    let full = format!("return document.body.dataset.pending === '0' && (() => {{ {js} }})();");
    while eval(client, &full).await != Value::Bool(true) {
        assert!(Instant::now() < deadline, "the page never satisfied: {js}");
        // Polling the page's state, not timing the test.
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

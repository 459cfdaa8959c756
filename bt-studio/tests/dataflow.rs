//! Data flow, visible (issue 26, item 5): what each node reads, and when a
//! live agent woke and what woke it. A game thread ticks a reactive guard
//! only at its wakes and on marked changes (the plain loop of `SEMANTICS.md`,
//! "Sleeping on inputs"), declares the tree's data flow and records each
//! tick's wake (`ObservedAgent::declare_data_flow`, `record_wake`); the
//! page, followed over a real WebSocket and in headless Chromium, shows
//! what the library says: the reads of every node (a node of unknown
//! inputs as unknown) and the wake of every tick, for a compiled tree and
//! for the same tree from JSON.

mod common;

use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use behaved::prelude::*;
use behaved::{Reads, Wake};
use behaved_format::port::{Entry, OutPort, Port};
use behaved_interp::{Agent, NoParams, Registry};
use behaved_observe::{DataFlow, NodeRow, WOKE_KEY, Woke};
use behaved_studio::{ObservedAgent, Studio};
use common::live::{connect, next};
use serde_json::{Value, json};

/// The guard's world.
#[derive(Debug, Clone, Default)]
struct Ctx {
    night: bool,
    hp: u32,
    /// Read by no condition.
    pos: i32,
    /// Written by the else branch's action.
    last: u32,
}

impl Ctx {
    /// A method: what it reads is unknown to the macro.
    fn calm(&self) -> bool {
        self.pos >= 0
    }
}

behave! {
    tree Watch for Ctx {
        reactive if |c| c.night { wait(100.0) }
        else if LowHp(3) { wait(2.0) }
        else { sequence { cond(|c| c.calm()), act(|c: &mut Ctx| { c.last = c.hp; Status::Success }), wait(4.0) } }
    }
}

/// The same tree in JSON, its conditions declaring their reads as the macro found them.
const WATCH_JSON: &str = r#"{"type": "reactiveIf",
    "branches": [
        {"if": {"type": "condition", "condition": {"type": "isNight"}}, "then": {"type": "wait", "seconds": 100.0}},
        {"if": {"type": "condition", "condition": {"type": "lowHp"}}, "then": {"type": "wait", "seconds": 2.0}}
    ],
    "else": {"type": "sequence", "children": [
        {"type": "condition", "condition": {"type": "calm", "min": {"$entry": "pos"}}},
        {"type": "action", "action": {"type": "note", "from": {"$entry": "hp"}, "to": {"$entry": "last"}}},
        {"type": "wait", "seconds": 4.0}]}
}"#;

struct IsNight;
impl Condition<Ctx> for IsNight {
    fn check(&self, c: &Ctx) -> bool {
        c.night
    }
    fn read_fields(&self) -> Option<&'static [&'static str]> {
        Some(&["night"])
    }
}

/// Hp under a limit: a condition value, in both forms.
struct LowHp(u32);
impl Condition<Ctx> for LowHp {
    fn check(&self, c: &Ctx) -> bool {
        c.hp < self.0
    }
    fn read_fields(&self) -> Option<&'static [&'static str]> {
        Some(&["hp"])
    }
}

/// Declares nothing: unknown. Its port reads the blackboard entry `pos`.
#[derive(serde::Deserialize)]
struct Calm {
    min: Port<Ctx, i32>,
}
impl Condition<Ctx> for Calm {
    fn check(&self, c: &Ctx) -> bool {
        *self.min.get(c) >= 0
    }
}

/// Copies one entry into another: reads `from`, writes `to`.
#[derive(Clone, serde::Deserialize)]
struct Note {
    from: Port<Ctx, u32>,
    to: OutPort<Ctx, u32>,
}
impl Action<Ctx> for Note {
    fn tick(&mut self, c: &mut Ctx) -> Status {
        let v = *self.from.get(c);
        self.to.set(c, v);
        Status::Success
    }
}

fn interpreted() -> Agent<Ctx> {
    let mut leaves = Registry::new();
    leaves
        .condition("isNight", |_: NoParams| IsNight)
        .condition("lowHp", |_: NoParams| LowHp(3))
        .condition("calm", |p: Calm| p)
        .action("note", |p: Note| p)
        .entry("pos", Entry::new(|c: &Ctx| &c.pos, |c: &mut Ctx| &mut c.pos))
        .entry("hp", Entry::new(|c: &Ctx| &c.hp, |c: &mut Ctx| &mut c.hp))
        .entry("last", Entry::new(|c: &Ctx| &c.last, |c: &mut Ctx| &mut c.last));
    Agent::new(leaves.load(WATCH_JSON).unwrap())
}

/// The interpreted tree's data flow, from what its conditions declare.
fn interpreted_flow(agent: &Agent<Ctx>) -> DataFlow {
    let def = agent.definition();
    DataFlow::from_read_fields(def.nodes(), |id| def.read_fields(id)).with_entries(|id| def.entries(id))
}

/// The compiled tree's data flow: `READS` and its condition value's declaration.
fn compiled_flow(tree: &Watch) -> DataFlow {
    DataFlow::from_read_fields(Watch::NODES, |id| tree.read_fields(id))
}

/// The frames the game runs, half a second apart.
const FRAMES: u32 = 40;

/// The game's change at `frame`, if any: the field it changes (and marks).
fn change(frame: u32, ctx: &mut Ctx) -> Option<&'static str> {
    match frame {
        4 => {
            ctx.hp = 2;
            Some("hp")
        }
        10 => {
            ctx.hp = 10;
            Some("hp")
        }
        14 => {
            ctx.night = true;
            Some("night")
        }
        20 => {
            ctx.pos = 5;
            Some("pos")
        }
        26 => {
            ctx.night = false;
            Some("night")
        }
        _ => None,
    }
}

/// The frame at which the game ticks the guard although nothing is due (an explicit wake).
const ASKED: u32 = 22;

/// Runs the guard's script once `go` says a page follows: ticks it only when
/// due (its wake's time, a marked change it watches, its first tick, or the
/// explicit wake at [`ASKED`]), records each tick's context and wake, and
/// returns its own log (per tick, the wake as the library names it) with
/// the observer, which the caller keeps while the page reads.
fn play<T: Tree<Ctx>>(
    mut tree: T,
    mut observer: ObservedAgent,
    flow: &DataFlow,
    go: &Receiver<()>,
) -> (Vec<Value>, ObservedAgent) {
    go.recv().unwrap();
    let mut ctx = Ctx {
        hp: 10,
        ..Ctx::default()
    };
    let (mut last, mut marks) = (None::<Wake>, Reads::NONE);
    let mut log = Vec::new();
    for frame in 0..FRAMES {
        let now = f64::from(frame) * 0.5;
        if let Some(field) = change(frame, &mut ctx) {
            marks |= Reads::field(field);
        }
        let due = match last {
            None => true,
            Some(w) => w.is_due(now) || w.wakes_on(marks) || frame == ASKED,
        };
        if due {
            tree.tick_observed(&mut ctx, now, &mut observer);
            observer
                .record_context(&json!({ "night": ctx.night, "hp": ctx.hp, "pos": ctx.pos }))
                .unwrap();
            let woke = Woke::of(last, now, marks);
            observer.record_wake(woke);
            log.push(woke.value(Some(flow)));
            marks = Reads::NONE;
            last = tree.is_running().then(|| tree.next_wake(now));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    (log, observer)
}

/// Starts the game's thread on `tree`: it waits for `go`, plays the
/// script, sends its log, and keeps the agent until the test ends.
fn start_game<T: Tree<Ctx> + Send + 'static>(
    tree: T,
    observer: ObservedAgent,
    flow: &DataFlow,
) -> (
    std::sync::mpsc::Sender<()>,
    Receiver<Vec<Value>>,
    std::sync::mpsc::Sender<()>,
) {
    let (go, start) = channel();
    let (logged, log) = channel();
    let (quit, done) = channel::<()>();
    let flow = flow.clone();
    std::thread::spawn(move || {
        let (played, observer) = play(tree, observer, &flow, &start);
        let _ = logged.send(played);
        let _ = done.recv();
        drop(observer);
    });
    (go, log, quit)
}

/// The compiled guard's wakes, tick by tick: what the script makes of the rule.
fn expected_compiled_wakes() -> Vec<Value> {
    vec![
        // frame 0: the else branch waits 4 s, watching night and hp
        json!({"cause": "start"}),
        // frame 4: low hp: its branch waits 2 s
        json!({"cause": "changed", "inputs": ["hp"]}),
        // frame 8: that wait is done; the tree succeeds
        json!({"cause": "timer"}),
        // frame 9: it starts again, hp still low
        json!({"cause": "start"}),
        // frame 10: hp back up: the else branch
        json!({"cause": "changed", "inputs": ["hp"]}),
        // frame 14: night: its branch waits 100 s, watching night alone (frame 20's pos wakes nothing)
        json!({"cause": "changed", "inputs": ["night"]}),
        // frame 22: the game's own call
        json!({"cause": "asked"}),
        // frame 26: day: the else branch again
        json!({"cause": "changed", "inputs": ["night"]}),
        // frame 34: its 4 s are up; the tree succeeds
        json!({"cause": "timer"}),
        // frame 35: and starts again
        json!({"cause": "start"}),
    ]
}

/// The agent's observer with its tree's data flow declared.
fn observed(studio: &Studio, name: &str, nodes: &[impl NodeRow], flow: &DataFlow) -> ObservedAgent {
    let mut observer = studio.agent(name, nodes).unwrap();
    observer.declare_data_flow(flow.clone()).unwrap();
    observer
}

#[test]
fn the_compiled_trees_reads_are_what_its_conditions_read_and_a_method_call_is_unknown() {
    let flow = compiled_flow(&Watch::new());
    let reads: Vec<(u32, Option<Vec<String>>)> = flow
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.reads.as_ref().is_none_or(|r| !r.is_empty()))
        .map(|(id, n)| (id as u32, n.reads.clone()))
        .collect();
    assert_eq!(
        reads,
        [
            (1, Some(vec!["night".to_string()])),
            (3, Some(vec!["hp".to_string()])),
            (6, None),
            (7, None)
        ]
    );
    // The JSON twin's ports: the condition reads `pos`, the action reads `hp` and writes `last`.
    let twin = interpreted_flow(&interpreted());
    let entries: Vec<(usize, Vec<String>, Vec<String>)> = twin
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| !n.entries_read.is_empty())
        .map(|(id, n)| (id, n.entries_read.clone(), n.entries_written.clone()))
        .collect();
    let strings = |s: &[&str]| s.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        entries,
        [
            (6, strings(&["pos"]), vec![]),
            (7, strings(&["hp", "last"]), strings(&["last"]))
        ]
    );
    let reads = |f: &DataFlow| f.nodes.iter().map(|n| n.reads.clone()).collect::<Vec<_>>();
    assert_eq!(reads(&twin), reads(&flow), "the JSON twin declares the same reads");
    // READS alone: what the macro read; the condition value declares its own at run time.
    let static_flow = DataFlow::compiled(Watch::NODES, Watch::READS);
    assert_eq!(static_flow.nodes[1].reads, Some(vec!["night".to_string()]));
    assert_eq!(static_flow.nodes[3].reads, None);
    // A flow of another table is refused, naming both counts.
    let studio = Studio::serve("127.0.0.1:0").unwrap();
    let mut observer = studio.agent("guard", Watch::NODES).unwrap();
    let err = observer
        .declare_data_flow(DataFlow {
            nodes: flow.nodes[..3].to_vec(),
        })
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the data flow has 3 entries for 9 nodes: give one per node"
    );
}

#[test]
fn the_wakes_and_the_flow_reach_a_following_page_over_the_socket() {
    let studio = Studio::serve("127.0.0.1:0").unwrap();
    let flow = compiled_flow(&Watch::new());
    let observer = observed(&studio, "guard", Watch::NODES, &flow);
    let mut socket = connect(studio.addr(), "/api/live/0");
    assert!(next(&mut socket).get("following").is_some());
    let (go, log, _quit) = start_game(Watch::new(), observer, &flow);
    go.send(()).unwrap();

    // Read until every tick of the script has its wake.
    let expected = expected_compiled_wakes();
    let mut flow_sent = None;
    let mut woke = std::collections::BTreeMap::new();
    for _ in 0..400 {
        let message = next(&mut socket);
        if let Some(f) = message.get("flow") {
            flow_sent = Some(f.clone());
        }
        for entry in common::live::context_entries(&message) {
            if let Some(w) = entry["values"].get(WOKE_KEY) {
                woke.insert(entry["tick"].as_u64().unwrap(), w.clone());
                assert!(
                    entry["values"].get("hp").is_some(),
                    "the game's values kept beside it: {entry}"
                );
            }
        }
        if woke.len() >= expected.len() {
            break;
        }
    }
    assert_eq!(flow_sent, Some(serde_json::to_value(&flow).unwrap()));
    let got: Vec<Value> = woke.values().take(expected.len()).cloned().collect();
    assert_eq!(got, expected, "tick by tick, from tick {:?}", woke.keys().next());
    assert_eq!(
        woke.keys().next(),
        Some(&1),
        "the window's first tick is the game's first"
    );
    let log = log.recv_timeout(Duration::from_secs(30)).unwrap();
    assert_eq!(log[..expected.len()], expected[..], "the game's own log says the same");
}

/// In the page: each recorded wake against the game's log (`log`, sent
/// when its script is done), the data-flow panel's rows against `flow`, a
/// chosen input's readers outlined in the tree, and the wake at the cursor
/// after seeking one. Returns the page's wakes, as the library's values, and the log.
async fn page_shows_the_flow_and_the_wakes(
    client: &fantoccini::Client,
    studio: &Studio,
    flow: &DataFlow,
    go: std::sync::mpsc::Sender<()>,
    log: Receiver<Vec<Value>>,
) -> (Vec<Value>, Vec<Value>) {
    use common::browser::{click, eval, open, text_of, wait_for};
    open(client, &format!("{}#agent=0", studio.url())).await;
    wait_for(client, "body[data-following='0']").await;
    go.send(()).unwrap();
    click(client, "#tabs button[data-tab='dataflow']").await;
    let log = log
        .recv_timeout(Duration::from_secs(30))
        .expect("the game played its script");

    // Every wake of the game listed, each at its tick (the window's ticks are the game's from 1).
    let listed = loop {
        let items = eval(
            client,
            "return [...document.querySelectorAll('#wake-list li')].map(li => [Number(li.dataset.wakeTick), li.dataset.cause, li.dataset.inputs]);",
        )
        .await;
        if items.as_array().is_some_and(|a| a.len() >= log.len()) {
            break items.as_array().unwrap().clone();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let ticks: Vec<u64> = listed.iter().map(|item| item[0].as_u64().unwrap()).collect();
    assert_eq!(ticks, (1..=log.len() as u64).collect::<Vec<_>>());

    // Every node that reads something, or reads what is unknown, with its reads.
    let rows = eval(
        client,
        "return [...document.querySelectorAll('#flow-table tbody tr')].map(r => [Number(r.dataset.node), r.dataset.reads]);",
    )
    .await;
    let expected: Vec<Value> = flow
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(id, n)| match &n.reads {
            None => Some(json!([id, "?"])),
            Some(r) if r.is_empty() && n.entries_read.is_empty() => None,
            Some(r) => Some(json!([id, r.join(",")])),
        })
        .collect();
    assert_eq!(rows, Value::Array(expected));
    let entries = eval(
        client,
        "return [...document.querySelectorAll('#flow-table tbody tr')].map(r => { const c = r.querySelector('td.entries'); return [Number(r.dataset.node), c.dataset.entriesRead, c.dataset.entriesWritten, c.textContent]; });",
    )
    .await;
    let expected: Vec<Value> = flow
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.reads.as_ref().is_none_or(|r| !r.is_empty()) || !n.entries_read.is_empty())
        .map(|(id, n)| {
            let only_read: Vec<&String> = n
                .entries_read
                .iter()
                .filter(|e| !n.entries_written.contains(e))
                .collect();
            let mut text = String::new();
            if !only_read.is_empty() {
                text += &format!(
                    "reads {}",
                    only_read.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                );
            }
            if !n.entries_written.is_empty() {
                text += &format!(
                    "{}writes {}",
                    if only_read.is_empty() { "" } else { "; " },
                    n.entries_written.join(", ")
                );
            }
            json!([id, n.entries_read.join(","), n.entries_written.join(","), text])
        })
        .collect();
    assert_eq!(
        entries,
        Value::Array(expected),
        "the blackboard entries each leaf's ports read and write"
    );
    let unknown = eval(
        client,
        "return document.querySelector('#flow-table tr[data-reads=\"?\"] td.reads').textContent;",
    )
    .await;
    assert_eq!(unknown, "unknown", "a node of unknown inputs is shown as such");

    // Choosing an input outlines its readers, and only them.
    click(client, "#flow-inputs button[data-field='night']").await;
    wait_for(client, "#flow-inputs button[data-field='night'].current").await;
    let outlined = eval(
        client,
        "return [...document.querySelectorAll('#viewport g.node.match')].map(g => Number(g.dataset.id));",
    )
    .await;
    let readers: Vec<u32> = flow.readers("night").collect();
    assert_eq!(outlined, json!(readers));

    // Seeking the tick woken by hp's change shows that wake at the cursor, its input marked.
    let hp = log
        .iter()
        .position(|w| w["inputs"] == json!(["hp"]))
        .expect("a change of hp woke the guard") as u64
        + 1;
    click(client, &format!("#wake-list li[data-wake-tick='{hp}'] button")).await;
    wait_for(
        client,
        &format!("#woke-now[data-tick='{hp}'][data-cause='changed'][data-inputs='hp']"),
    )
    .await;
    assert_eq!(
        text_of(client, "#woke-now").await,
        format!("Tick {hp} was started by a change of hp.")
    );
    wait_for(client, "#flow-table tr[data-reads='hp'] button.woke[data-field='hp']").await;
    common::browser::screenshot(client, "dataflow").await;
    (as_values(&listed), log)
}

/// What the page listed, as the library's values: `[tick, cause, "a,b"]` to `{"cause", "inputs"}`.
fn as_values(listed: &[Value]) -> Vec<Value> {
    listed
        .iter()
        .map(|item| {
            let cause = item[1].as_str().unwrap();
            let inputs = item[2].as_str().unwrap();
            if cause == "changed" {
                let inputs: Vec<&str> = inputs.split(',').filter(|s| !s.is_empty()).collect();
                json!({ "cause": cause, "inputs": inputs })
            } else {
                json!({ "cause": cause })
            }
        })
        .collect()
}

#[test]
fn in_the_page_the_compiled_trees_reads_and_wakes_are_the_librarys() {
    common::browser::with_browser("dataflow_compiled", |client| async move {
        let studio = Studio::serve("127.0.0.1:0").unwrap();
        let flow = compiled_flow(&Watch::new());
        let observer = observed(&studio, "guard", Watch::NODES, &flow);
        let (go, log, _quit) = start_game(Watch::new(), observer, &flow);
        let (listed, log) = page_shows_the_flow_and_the_wakes(&client, &studio, &flow, go, log).await;
        assert_eq!(listed, log, "the page's wakes are the game's");
        assert_eq!(
            log[..expected_compiled_wakes().len()].to_vec(),
            expected_compiled_wakes()
        );
    });
}

#[test]
fn in_the_page_the_interpreted_trees_reads_and_wakes_are_the_librarys() {
    common::browser::with_browser("dataflow_interpreted", |client| async move {
        let studio = Studio::serve("127.0.0.1:0").unwrap();
        let agent = interpreted();
        let flow = interpreted_flow(&agent);
        let observer = observed(&studio, "guard", agent.nodes(), &flow);
        let (go, log, _quit) = start_game(agent, observer, &flow);
        let (listed, log) = page_shows_the_flow_and_the_wakes(&client, &studio, &flow, go, log).await;
        assert_eq!(listed, log, "the page's wakes are the game's");
        assert_eq!(
            log[..expected_compiled_wakes().len()].to_vec(),
            expected_compiled_wakes(),
            "both forms wake alike"
        );
    });
}

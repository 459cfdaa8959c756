//! Every node kind written as JSON (`tests/trees/catalogue.json`, with a match
//! value, hooks, labels, a subtree from a second file) compiled by `behave!`
//! and loaded by the interpreter: the two forms agree on the node table and
//! on every status, observer event and leaf event, over many seeds and ticks;
//! the same for every BT.CPP node with a counterpart (`tests/trees/catalogue.xml`).
use std::collections::BTreeMap;

use behaved::prelude::*;
use behaved_interp::{Agent, KeyRef, Library, MatchValue, NoParams, Registry};
use behaved_testkit::script::IdEvents;
use serde::Deserialize;

/// The context: a clock, scripted leaf results and levels, a mode to match on, a log.
#[derive(Default, Clone)]
struct World {
    now: f64,
    results: BTreeMap<String, Status>,
    levels: BTreeMap<String, f32>,
    mode: String,
    /// The item a list selected last (a `pick`'s considerations read it).
    item: u32,
    log: Vec<String>,
}

impl Clock for World {
    fn now(&self) -> f64 {
        self.now
    }
}

/// An action that logs and returns what the script says.
#[derive(Clone, Deserialize)]
struct Rec {
    name: String,
}
impl Action<World> for Rec {
    fn enter(&mut self, w: &mut World) {
        w.log.push(format!("enter {}", self.name));
    }
    fn tick(&mut self, w: &mut World) -> Status {
        w.log.push(self.name.clone());
        w.results.get(&self.name).copied().unwrap_or(Status::Success)
    }
    fn halt(&mut self, w: &mut World) {
        w.log.push(format!("halt {}", self.name));
    }
}

/// A condition that holds when the script says Success.
#[derive(Deserialize)]
struct Check {
    name: String,
}
impl Condition<World> for Check {
    fn check(&self, w: &World) -> bool {
        w.results.get(&self.name) == Some(&Status::Success)
    }
}

/// A hook action: writes a note.
#[derive(Clone, Deserialize)]
struct Note {
    text: String,
}
impl Action<World> for Note {
    fn tick(&mut self, w: &mut World) -> Status {
        w.log.push(format!("note: {}", self.text));
        Status::Success
    }
}

/// The numbers below `count`, for `forEach` and `pick`: the current one is
/// logged (so every selection, a `pick`'s while scoring and before its
/// body's ticks and halt included, is compared) and kept in the world.
#[derive(Deserialize)]
struct UpTo {
    count: u32,
}
impl ItemList<World> for UpTo {
    type Item = u32;
    fn items<'c>(&'c self, _: &'c World) -> impl Iterator<Item = u32> + 'c {
        0..self.count
    }
    fn select(&self, w: &mut World, item: &u32) {
        w.log.push(format!("item {item}"));
        w.item = *item;
    }
}

/// The selected item's appeal, moving with time: a `pick`'s consideration
/// without parameters, which reads the candidate its list selected.
struct Appeal;
impl Consideration<World> for Appeal {
    fn score(&self, w: &World) -> f32 {
        (f64::from(w.item) * 0.61 + w.now * 3.1).fract() as f32
    }
}

/// A `pick`'s consideration with a parameter: 1 for the favoured item, 0.4
/// for the others.
#[derive(Deserialize)]
struct Favour {
    item: u32,
}
impl Consideration<World> for Favour {
    fn score(&self, w: &World) -> f32 {
        if w.item == self.item { 1.0 } else { 0.4 }
    }
}

/// A scripted level, 0 to 1, for `utility` scores (a consideration with a parameter).
#[derive(Deserialize)]
struct Level {
    name: String,
}
impl Consideration<World> for Level {
    fn score(&self, w: &World) -> f32 {
        w.levels.get(&self.name).copied().unwrap_or(0.0)
    }
}

/// A level that moves with time (a consideration without parameters).
struct Noise;
impl Consideration<World> for Noise {
    fn score(&self, w: &World) -> f32 {
        (w.now * 7.3).fract() as f32
    }
}

/// The world's mode, for the interpreter's `match`.
struct Mode;
impl MatchValue<World> for Mode {
    fn get<'c>(&self, w: &'c World) -> KeyRef<'c> {
        KeyRef::Str(&w.mode)
    }
}

behave! {
    /// The subtree `idle`, from its own file.
    tree Idle for World = json("tests/trees/idle.json") { "rec" => Rec }

    /// Every node kind, from JSON.
    tree Catalogue for World = json("tests/trees/catalogue.json") {
        "rec" => Rec,
        "check" => Check,
        "note" => Note,
        "mode" => |w| w.mode.as_str(),
        "upTo" => UpTo,
        "idle" => Idle,
        "level" => Level,
        "noise" => Noise,
        "appeal" => Appeal,
        "favour" => Favour,
        "closeness" => |w: &World| (f64::from(w.item) + w.now).rem_euclid(4.0) as f32,
    }
}

fn interpreted(seed: u64) -> Agent<World> {
    let mut leaves = Registry::new();
    leaves
        .action("rec", |r: Rec| r)
        .condition("check", |c: Check| c)
        .action("note", |n: Note| n)
        .value("mode", |_: NoParams| Mode)
        .list("upTo", |u: UpTo| u)
        .consideration("level", |l: Level| l)
        .consideration("noise", |_: NoParams| Noise)
        .consideration("appeal", |_: NoParams| Appeal)
        .consideration("favour", |f: Favour| f)
        .consideration("closeness", |_: NoParams| {
            |w: &World| (f64::from(w.item) + w.now).rem_euclid(4.0) as f32
        });
    let mut library = Library::new();
    library.insert_json("idle", include_str!("trees/idle.json")).unwrap();
    let definition = leaves
        .load_with(include_str!("trees/catalogue.json"), &library)
        .unwrap();
    Agent::with_seed(definition, seed)
}

/// Tick `t` of a scripted world: results from a cheap hash, the mode in phases.
fn script(t: u32, seed: u64, w: &mut World) {
    w.now = f64::from(t) * 0.1;
    w.mode = ["patrol", "play", "rest", "count", "choose"][((t / 20) as usize + seed as usize) % 5].to_string();
    let names = [
        "alarm", "hungry", "tired", "more", "stop", "flee", "eat", "walk", "fetch", "roll", "sniff", "dig", "bark",
    ];
    for (i, name) in names
        .iter()
        .chain(&["step", "greet", "try", "main", "side", "idle"])
        .enumerate()
    {
        let h = (t as u64 * 2_654_435_761 + (i as u64 + seed) * 40_503) >> 7;
        let status = match h % 7 {
            0..=2 => Status::Success,
            3 | 4 => Status::Failure,
            _ => Status::Running,
        };
        w.results.insert(name.to_string(), status);
        w.levels.insert(name.to_string(), (h % 1000) as f32 / 1000.0);
    }
}

/// The compiled tree `compiled(seed)` and the agent `interpreted(seed)` of
/// one file agree on the node table and, over 8 seeds x 400 scripted ticks
/// with a reset every 97, on every status, observer event and leaf event
/// (halts at reset included). Returns the kinds that were ticked.
fn agree<T: Tree<World>>(
    nodes: &'static [NodeInfo],
    compiled: impl Fn(u64) -> T,
    interpreted: impl Fn(u64) -> Agent<World>,
) -> std::collections::BTreeSet<&'static str> {
    let rows: Vec<(u32, Option<u32>, String)> = interpreted(0)
        .nodes()
        .iter()
        .map(|n| (n.id.0, n.parent.map(|p| p.0), n.label.clone()))
        .collect();
    let table: Vec<(u32, Option<u32>, String)> = nodes
        .iter()
        .map(|n| (n.id.0, n.parent.map(|p| p.0), n.label.to_string()))
        .collect();
    assert_eq!(table, rows, "same node table");
    let mut kinds_ticked = std::collections::BTreeSet::new();
    for seed in 0..8 {
        let (mut tree, mut agent) = (compiled(seed), interpreted(seed));
        let (mut a, mut b) = (World::default(), World::default());
        for t in 0..400 {
            script(t, seed, &mut a);
            script(t, seed, &mut b);
            let (mut ea, mut eb) = (IdEvents::default(), IdEvents::default());
            let now = a.now;
            let x = tree.tick_observed(&mut a, now, &mut ea);
            let y = agent.tick_observed(&mut b, now, &mut eb);
            assert_eq!(x, y, "status at tick {t}, seed {seed}");
            assert_eq!(ea.0, eb.0, "events at tick {t}, seed {seed}");
            assert_eq!(a.log, b.log, "leaf events at tick {t}, seed {seed}");
            for e in &ea.0 {
                if let Some(id) = e
                    .strip_prefix('#')
                    .and_then(|r| r.split(' ').next())
                    .and_then(|n| n.parse::<usize>().ok())
                {
                    kinds_ticked.insert(nodes[id].kind.json_name());
                }
            }
            if t % 97 == 96 {
                tree.reset(&mut a);
                agent.reset(&mut b);
                assert_eq!(a.log, b.log, "halts at reset, tick {t}, seed {seed}");
            }
        }
    }
    kinds_ticked
}

#[test]
fn every_kind_compiled_from_json_agrees_with_the_interpreter() {
    let rows: Vec<String> = Catalogue::NODES.iter().map(|n| n.label.to_string()).collect();
    assert!(
        rows.iter().any(|label| label == "for(upTo(count: 2), max 3)"),
        "a list's parameters show in its loop's label: {rows:?}"
    );
    let kinds_ticked = agree(Catalogue::NODES, Catalogue::with_seed, interpreted);
    let all: std::collections::BTreeSet<&str> = Catalogue::NODES.iter().map(|n| n.kind.json_name()).collect();
    assert_eq!(kinds_ticked, all, "every kind in the file was ticked");
    // The catalogue's list, so that a new kind fails here until the file has it.
    let missing: Vec<&str> = behaved::NodeKind::ALL
        .iter()
        .map(|k| k.json_name())
        .filter(|k| !all.contains(k))
        .collect();
    assert!(
        missing.is_empty(),
        "tests/trees/catalogue.json has no {missing:?} node: add one (every kind of the catalogue is here)"
    );
}

/// An action of the XML file: BT.CPP's `name` is a node's name, so its
/// leaves are told apart by `id`. Logs and returns what the script says.
#[derive(Clone, Deserialize)]
struct Act {
    id: String,
}
impl Action<World> for Act {
    fn enter(&mut self, w: &mut World) {
        w.log.push(format!("enter {}", self.id));
    }
    fn tick(&mut self, w: &mut World) -> Status {
        w.log.push(self.id.clone());
        w.results.get(&self.id).copied().unwrap_or(Status::Success)
    }
    fn halt(&mut self, w: &mut World) {
        w.log.push(format!("halt {}", self.id));
    }
}

/// A condition of the XML file: holds when the script says Success.
#[derive(Deserialize)]
struct Chk {
    id: String,
}
impl Condition<World> for Chk {
    fn check(&self, w: &World) -> bool {
        w.results.get(&self.id) == Some(&Status::Success)
    }
}

behave! {
    tree XmlSub for World = xml("tests/trees/catalogue.xml", "Sub") { "act" => Act }

    tree XmlCatalogue for World = xml("tests/trees/catalogue.xml") {
        "act" => Act,
        "chk" => Chk,
        "Sub" => XmlSub,
    }
}

fn interpreted_xml(seed: u64) -> Agent<World> {
    let mut leaves = Registry::new();
    leaves.action("act", |a: Act| a).condition("chk", |c: Chk| c);
    let definition = leaves
        .load_xml(include_str!("trees/catalogue.xml"))
        .unwrap_or_else(|e| panic!("{e}"));
    Agent::with_seed(definition, seed)
}

/// Every BT.CPP node with a counterpart (`tests/trees/catalogue.xml`):
/// compiled by `behave!` and loaded by the interpreter from the same file,
/// the two agree on the node table and on every status, observer event
/// and leaf event, and every kind is ticked.
#[test]
fn every_btcpp_node_compiled_from_xml_agrees_with_the_interpreter() {
    let kinds_ticked = agree(XmlCatalogue::NODES, XmlCatalogue::with_seed, interpreted_xml);
    // Our kinds for BT.CPP's Sequence, ReactiveSequence, Fallback,
    // ReactiveFallback, Parallel, IfThenElse, WhileDoElse, Inverter,
    // ForceSuccess, ForceFailure, Repeat, RetryUntilSuccessful, Timeout,
    // Delay, RunOnce, Sleep, AlwaysSuccess, AlwaysFailure, SubTree and the
    // leaves: all in the file, all ticked.
    let expected: std::collections::BTreeSet<&str> = [
        "sequence",
        "reactiveSequence",
        "selector",
        "reactiveSelector",
        "parallel",
        "if",
        "reactiveIf",
        "inverter",
        "succeeder",
        "forceFailure",
        "repeater",
        "retry",
        "timeout",
        "delay",
        "runOnce",
        "wait",
        "success",
        "failure",
        "subtree",
        "action",
        "condition",
    ]
    .into_iter()
    .collect();
    let all: std::collections::BTreeSet<&str> = XmlCatalogue::NODES.iter().map(|n| n.kind.json_name()).collect();
    assert_eq!(all, expected, "the file's kinds");
    assert_eq!(kinds_ticked, expected, "every kind in the file was ticked");
}

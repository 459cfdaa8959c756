//! Blackboard ports (SEMANTICS.md, "BehaviorTree.CPP XML"): `tests/trees/hunt.xml`
//! names entries of the context (`{goal}`, `{power}`, `{=}`), through an
//! identity-remapped and an autoremapped `<SubTree>`. `behave!` compiles it
//! with the entries in Rust (`ports { "goal" => |w| &mut w.goal }`, checked by
//! rustc), the interpreter loads it with the same entries registered, and
//! the two agree tick for tick: statuses, events and the world.
use behaved::port::{OutPort, Port};
use behaved::prelude::*;
use std::sync::Arc;

use behaved_interp::{Agent, Definition, Registry, entry};
use behaved_testkit::script::IdEvents;

#[global_allocator]
static ALLOCATOR: behaved_testkit::Counting = behaved_testkit::Counting;

/// The blackboard: the leaves' ports read and write its fields.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct World {
    pos: i32,
    goal: i32,
    speed: i32,
    power: u32,
    picked: usize,
    hits: Vec<u32>,
    /// Entries of `relay.xml`'s trees, which remap the hunt's.
    prey: i32,
    home: i32,
    pace: i32,
    force: u32,
    target: i32,
}

const TARGETS: [i32; 4] = [5, -3, 8, 0];

/// Writes the next target to its output port.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct PickTarget {
    target: OutPort<World, i32>,
}

impl Action<World> for PickTarget {
    fn tick(&mut self, w: &mut World) -> Status {
        self.target.set(w, TARGETS[w.picked % TARGETS.len()]);
        w.picked += 1;
        Status::Success
    }
}

/// Whether the agent stands at the place its port reads.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct At {
    place: Port<World, i32>,
}

impl Condition<World> for At {
    fn check(&self, w: &World) -> bool {
        w.pos == *self.place.get(w)
    }
}

/// Moves toward `to` by `speed` (both read each tick), running until there.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Step {
    to: Port<World, i32>,
    speed: Port<World, i32>,
}

impl Action<World> for Step {
    fn tick(&mut self, w: &mut World) -> Status {
        let (to, speed) = (*self.to.get(w), *self.speed.get(w));
        w.pos += (to - w.pos).clamp(-speed, speed);
        Status::Running
    }
}

/// Hits with the power its port reads, plus a literal bonus.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Strike {
    power: Port<World, u32>,
    bonus: u32,
}

impl Action<World> for Strike {
    fn tick(&mut self, w: &mut World) -> Status {
        let hit = *self.power.get(w) + self.bonus;
        w.hits.push(hit);
        Status::Success
    }
}

behave! {
    /// The hunt, compiled from its BT.CPP file.
    pub tree Hunt for World = xml("tests/trees/hunt.xml") {
        "PickTarget" => PickTarget,
        "Strike" => Strike,
        "Approach" => Approach,
        "Rest" => Rest,
        ports { "goal" => |w| &mut w.goal, "power" => |w| &mut w.power },
    }
}

behave! {
    /// The approach, the file's `Approach` tree.
    pub tree Approach for World = xml("tests/trees/hunt.xml", "Approach") {
        "At" => At,
        "Step" => Step,
        ports { "goal" => |w| &mut w.goal, "speed" => |w: &mut World| &mut w.speed },
    }
}

behave! {
    /// The rest, the file's `Rest` tree.
    pub tree Rest for World = xml("tests/trees/hunt.xml", "Rest") {
        "Strike" => Strike,
        ports { "power" => |w| &mut w.power },
    }
}

/// The same leaves and entries for the interpreter.
fn registry() -> Registry<World> {
    let mut r = Registry::new();
    r.action("PickTarget", |l: PickTarget| l)
        .condition("At", |l: At| l)
        .action("Step", |l: Step| l)
        .action("Strike", |l: Strike| l)
        .entry("goal", entry!(|w: &mut World| &mut w.goal))
        .entry("speed", entry!(|w: &mut World| &mut w.speed))
        .entry("power", entry!(|w: &mut World| &mut w.power));
    r
}

/// The world before tick `t`: the speed and power change under the tree.
fn world_at(t: u32, w: &mut World) {
    w.speed = 1 + (t % 3) as i32;
    w.power = 10 + t;
}

/// The compiled `tree` (node table `nodes`) and the interpreter's `def`
/// side by side for `ticks` ticks, `world_at` setting each one's world
/// before every tick: the same node table, and tick by tick the same status,
/// events and world. `each` sees the world after each tick; returns the last
/// world and the statuses.
fn agree(
    mut tree: impl Tree<World>,
    nodes: &[NodeInfo],
    def: Arc<Definition<World>>,
    ticks: u32,
    world_at: fn(u32, &mut World),
    mut each: impl FnMut(&World),
) -> (World, Vec<Status>) {
    let labels: Vec<String> = def.nodes().iter().map(|n| n.label.clone()).collect();
    let compiled: Vec<String> = nodes.iter().map(|n| n.label.to_string()).collect();
    assert_eq!(compiled, labels, "the same node table");

    let mut agent = Agent::new(def);
    let (mut a, mut b) = (World::default(), World::default());
    let mut statuses = Vec::new();
    for t in 0..ticks {
        world_at(t, &mut a);
        world_at(t, &mut b);
        let (mut ea, mut eb) = (IdEvents::default(), IdEvents::default());
        let now = f64::from(t);
        let s = tree.tick_observed(&mut a, now, &mut ea);
        assert_eq!(s, agent.tick_observed(&mut b, now, &mut eb), "status at tick {t}");
        assert_eq!(ea.0, eb.0, "events at tick {t}");
        assert_eq!(a, b, "the world after tick {t}");
        each(&a);
        statuses.push(s);
    }
    (a, statuses)
}

#[test]
fn the_hunt_compiled_and_interpreted_agree_tick_for_tick() {
    let def = registry()
        .load_xml(include_str!("trees/hunt.xml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let (a, statuses) = agree(Hunt::new(), Hunt::NODES, def, 60, world_at, |_| {});
    // The ports did their work: targets written through `{goal}`, the
    // approach read it and the changing speed, strikes read `{power}`.
    assert_eq!(a.picked, 12);
    assert_eq!(statuses.iter().filter(|s| **s == Status::Success).count(), 11);
    assert_eq!(a.hits.len(), 22, "two strikes per hunt");
    assert_eq!(&a.hits[..4], [10 + 3 + 2, 10 + 3, 10 + 8 + 2, 10 + 8]);
}

#[test]
fn the_first_ticks_follow_the_entries() {
    let mut tree = Hunt::new();
    let mut w = World::default();
    // Tick 0: the goal 5 is written, one step of speed 1 toward it.
    world_at(0, &mut w);
    assert_eq!(tree.tick_at(&mut w, 0.0), Status::Running);
    assert_eq!((w.goal, w.pos), (5, 1));
    // Speeds 2 then 3: at 3, then 5 (clamped to the goal).
    world_at(1, &mut w);
    assert_eq!(tree.tick_at(&mut w, 0.0), Status::Running);
    assert_eq!(w.pos, 3);
    world_at(2, &mut w);
    assert_eq!(tree.tick_at(&mut w, 0.0), Status::Running);
    assert_eq!(w.pos, 5);
    // Tick 3: at the goal; both strikes read power 13.
    world_at(3, &mut w);
    assert_eq!(tree.tick_at(&mut w, 0.0), Status::Success);
    assert_eq!(w.hits, [15, 13]);
}

/// Reading and writing entries is a function pointer's call: once built,
/// neither form allocates per tick (the strikes' `hits` are reserved).
#[test]
fn ticking_through_ports_allocates_nothing() {
    let def = registry().load_xml(include_str!("trees/hunt.xml")).unwrap();
    let mut tree = Hunt::new();
    let mut agent = Agent::new(def);
    let (mut a, mut b) = (World::default(), World::default());
    a.hits.reserve(1000);
    b.hits.reserve(1000);
    let allocations = behaved_testkit::allocations_during(|| {
        for t in 0..200 {
            world_at(t, &mut a);
            world_at(t, &mut b);
            let now = f64::from(t);
            tree.tick_at(&mut a, now);
            agent.tick_at(&mut b, now);
        }
    });
    assert_eq!(allocations, 0);
    assert_eq!(a, b);
    assert!(a.hits.len() > 50, "the hunts went on");
}

/// The registry knows which parameters are outputs and which entries it
/// has: the manifest says so (`output`, `entries`), and the palette written
/// for Groot2 has `PickTarget`'s `target` as an `output_port`, as the
/// hunt's own `<TreeNodesModel>` does, and every other port an `input_port`.
#[test]
fn outputs_and_entries_reach_the_manifest_and_the_palette() {
    let r = registry();
    let manifest = r.manifest();
    let pick = manifest.actions["PickTarget"].params.as_deref().expect("traced");
    assert_eq!((pick[0].name.as_str(), pick[0].output), ("target", true));
    let step = manifest.actions["Step"].params.as_deref().expect("traced");
    assert!(step.iter().all(|p| !p.output), "{step:?}");
    let entries: Vec<(&str, &str)> = manifest.entries.iter().map(|(k, t)| (k.as_str(), t.as_str())).collect();
    assert_eq!(entries, [("goal", "i32"), ("power", "u32"), ("speed", "i32")]);
    // The manifest's JSON carries both, and reads back.
    let json = manifest.to_json_pretty();
    assert!(json.contains("\"output\": true"), "{json}");
    assert_eq!(behaved_interp::Manifest::from_json(&json).unwrap(), manifest);

    let palette = r.tree_nodes_model();
    assert!(
        palette.contains("<Action ID=\"PickTarget\">\n      <output_port name=\"target\" type=\"int\"/>"),
        "{palette}"
    );
    assert!(
        palette.contains("<input_port name=\"place\" type=\"int\"/>"),
        "{palette}"
    );
    assert!(include_str!("trees/hunt.xml").contains("<output_port name=\"target\" type=\"int\"/>"));
    assert_eq!(palette.matches("output_port").count(), 1, "{palette}");
    // The palette reads back as the file's model: the leaves load from it.
    let xml = palette.replace(
        "<TreeNodesModel>",
        "<BehaviorTree ID=\"T\"><PickTarget target=\"{goal}\"/></BehaviorTree>\n  <TreeNodesModel>",
    );
    let def = r.load_xml(&xml).unwrap_or_else(|e| panic!("{e}"));
    let mut w = World::default();
    assert_eq!(Agent::new(def).tick_at(&mut w, 0.0), Status::Success);
    assert_eq!(w.goal, TARGETS[0]);
}

behave! {
    /// The relay (`relay.xml`): subtrees' ports remapped to its own entries.
    pub tree Relay for World = xml("tests/trees/relay.xml") {
        "PickTarget" => PickTarget,
        "Chase" => Chase,
        "Approach" => Approach,
        "Rest" => Rest,
        ports {
            "prey" => |w| &mut w.prey,
            "home" => |w| &mut w.home,
            "pace" => |w| &mut w.pace,
            "force" => |w| &mut w.force,
        },
    }
}

behave! {
    /// The chase: `Approach` with its `goal` as this tree's `target`.
    pub tree Chase for World = xml("tests/trees/relay.xml", "Chase") {
        "Approach" => Approach,
        ports { "target" => |w| &mut w.target },
    }
}

behave! {
    /// `Rest` with its `power` (a `u32`) remapped to `pace` (an `i32`).
    pub tree BadRest for World = xml("tests/trees/relay.xml", "BadRest") {
        "Rest" => Rest,
        ports { "pace" => |w| &mut w.pace },
    }
}

/// The hunt's registry with the relay's entries too.
fn relay_registry() -> Registry<World> {
    let mut r = registry();
    r.entry("prey", entry!(|w: &mut World| &mut w.prey))
        .entry("home", entry!(|w: &mut World| &mut w.home))
        .entry("pace", entry!(|w: &mut World| &mut w.pace))
        .entry("force", entry!(|w: &mut World| &mut w.force));
    r
}

/// Reads `relay.xml`'s include, `hunt.xml`, beside it.
fn beside(path: &str) -> Result<String, String> {
    std::fs::read_to_string(format!("{}/tests/trees/{path}", env!("CARGO_MANIFEST_DIR"))).map_err(|e| e.to_string())
}

fn relay_world_at(t: u32, w: &mut World) {
    world_at(t, w);
    w.home = -2;
    w.pace = 1 + (t % 2) as i32;
    w.force = 7 + t;
}

/// A `<SubTree>` port remapped to an entry of another name: the compiled
/// subtrees (separate types with their own `ports { .. }`) are built with
/// their keys standing for the relay's entries, the interpreter inlines
/// them with the keys renamed, and the two agree tick for tick; the
/// subtrees' own entries (`goal`, `target`, `power`) are never touched.
#[test]
fn subtree_ports_remapped_to_other_entries_agree_tick_for_tick() {
    let def = relay_registry()
        .load_xml_with(include_str!("trees/relay.xml"), Some(&beside))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut homes = 0;
    let (a, statuses) = agree(Relay::new(), Relay::NODES, def, 80, relay_world_at, |a| {
        homes += usize::from(a.pos == a.home);
    });
    // The remaps did their work: the prey written and chased, home reached,
    // rests with the relay's force plus Rest's literal bonus 0.
    assert_eq!(a.picked, 11);
    assert_eq!(homes, 20);
    assert_eq!(statuses.iter().filter(|s| **s == Status::Success).count(), 10);
    assert_eq!(
        a.hits,
        [15, 18, 32, 35, 45, 48, 62, 65, 75, 78],
        "force 7 + t at each rest"
    );
    assert_eq!((a.goal, a.target), (0, 0), "the subtrees' own entries untouched");
}

/// The compiled relay's `Tree::JSON` keeps its remaps (each `subtree`
/// node's `"remap"`), and written as XML they are its `<SubTree>` ports.
#[test]
fn the_compiled_relays_json_keeps_its_remaps() {
    let json: serde_json::Value = serde_json::from_str(Relay::JSON).expect("Tree::JSON parses");
    let kids = json["children"].as_array().expect("a sequence");
    assert_eq!(kids[1]["remap"], serde_json::json!({"target": "prey"}));
    assert_eq!(kids[2]["remap"], serde_json::json!({"goal": "home", "speed": "pace"}));
    assert_eq!(kids[3]["remap"], serde_json::json!({"power": "force"}));
    let node = behaved_format::model::Node::parse(Relay::JSON).expect("a tree");
    let xml = behaved_format::xml::to_xml("Relay", &node, &behaved_format::Library::new()).expect("writes");
    assert!(
        xml.contains(r#"<SubTree ID="Approach" goal="{home}" speed="{pace}"/>"#),
        "{xml}"
    );
}

#[test]
fn the_relays_first_ticks_follow_the_remapped_entries() {
    let mut tree = Relay::new();
    let mut w = World::default();
    // Tick 0: the prey 5 is written to `prey` (not `goal`), one step of speed 1.
    relay_world_at(0, &mut w);
    assert_eq!(tree.tick_at(&mut w, 0.0), Status::Running);
    assert_eq!((w.prey, w.goal, w.target, w.pos), (5, 0, 0, 1));
}

/// A remapped entry of another type than the subtree's port: a load error
/// at the `<SubTree>`'s place in the interpreter; the compiled subtree is
/// a separate type, so its check is when the tree is built (`new()`).
#[test]
fn a_remapped_entry_of_another_type_is_refused() {
    let xml =
        include_str!("trees/relay.xml").replace("main_tree_to_execute=\"Relay\"", "main_tree_to_execute=\"BadRest\"");
    let err = relay_registry().load_xml_with(&xml, Some(&beside)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "at `subtrees[\"Rest\"].action` (line 22, column 5): in the included file \"hunt.xml\": bad parameters for action \"Strike\": the blackboard entry \"pace\" holds a `i32`, and this port is a `u32`"
    );
    let built = std::panic::catch_unwind(BadRest::new)
        .err()
        .expect("refused when built");
    let message = built.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("holds a `i32`, and this port is a `u32`"), "{message}");
}

/// `Registry::check_library` on the relay's trees checks each through the
/// remaps of the places that use it: `Approach` as the hunt's (`goal`),
/// through `Chase` as the relay's `prey` (`Chase`'s own `target` is no
/// entry) and as the relay's `home`, and `Rest` through `BadRest` with its
/// `power` as `pace`, an `i32`: refused at Rest's leaf, in the included file.
#[test]
fn checking_the_relays_library_follows_its_remaps() {
    let r = relay_registry();
    let trees = r
        .read_xml(include_str!("trees/relay.xml"), Some(&beside))
        .unwrap_or_else(|e| panic!("{e}"));
    let err = r.check_library(trees.library()).unwrap_err();
    assert_eq!(
        trees.located(err).to_string(),
        "at `subtrees[\"Rest\"].action` (line 22, column 5): in the included file \"hunt.xml\": bad parameters for action \"Strike\": the blackboard entry \"pace\" holds a `i32`, and this port is a `u32`"
    );
    let start = include_str!("trees/relay.xml").find("  <!-- Rest's").expect("BadRest");
    let end = include_str!("trees/relay.xml").find("</root>").expect("the end");
    let without = format!(
        "{}{}",
        &include_str!("trees/relay.xml")[..start],
        &include_str!("trees/relay.xml")[end..]
    );
    let trees = r.read_xml(&without, Some(&beside)).unwrap_or_else(|e| panic!("{e}"));
    assert!(trees.library().get("BadRest").is_none());
    r.check_library(trees.library())
        .unwrap_or_else(|e| panic!("{}", trees.located(e)));
}

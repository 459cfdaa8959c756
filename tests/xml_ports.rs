//! Blackboard ports (SEMANTICS.md, "BehaviorTree.CPP XML"): `tests/trees/hunt.xml`
//! names entries of the context (`{goal}`, `{power}`, `{=}`), through an
//! identity-remapped and an autoremapped `<SubTree>`. `behave!` compiles it
//! with the entries in Rust (`ports { "goal" => |w| &mut w.goal }`, checked by
//! rustc), the interpreter loads it with the same entries registered, and
//! the two agree tick for tick: statuses, events and the world.
use behaved::port::{OutPort, Port};
use behaved::prelude::*;
use behaved_interp::{Agent, Registry, entry};
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

#[test]
fn the_hunt_compiled_and_interpreted_agree_tick_for_tick() {
    let def = registry()
        .load_xml(include_str!("trees/hunt.xml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let labels: Vec<String> = def.nodes().iter().map(|n| n.label.clone()).collect();
    let compiled: Vec<String> = Hunt::NODES.iter().map(|n| n.label.to_string()).collect();
    assert_eq!(compiled, labels, "the same node table");

    let mut tree = Hunt::new();
    let mut agent = Agent::new(def);
    let (mut a, mut b) = (World::default(), World::default());
    let mut statuses = Vec::new();
    for t in 0..60 {
        world_at(t, &mut a);
        world_at(t, &mut b);
        let (mut ea, mut eb) = (IdEvents::default(), IdEvents::default());
        let now = f64::from(t);
        let s = tree.tick_observed(&mut a, now, &mut ea);
        assert_eq!(s, agent.tick_observed(&mut b, now, &mut eb), "status at tick {t}");
        assert_eq!(ea.0, eb.0, "events at tick {t}");
        assert_eq!(a, b, "the world after tick {t}");
        statuses.push(s);
    }
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

//! Trees compiled from BehaviorTree.CPP v4 XML files (SEMANTICS.md,
//! "BehaviorTree.CPP XML"): `behave!` reads ADR-017's guard from
//! `examples/trees/guard.xml` (written from `guard.json`, with two leaves in
//! Groot2's compact form), and the compiled tree, the interpreter loading the
//! same XML and the interpreter loading the JSON agree node for node, event
//! for event.
use behaved::prelude::*;
use behaved_interp::Agent;
use behaved_scenarios::guard_json::{
    AtLocation, Dialogue, HasItem, MoveTo, QuestStage, TimeOfDay, World, registry, world_at,
};
use behaved_testkit::script::IdEvents;

behave! {
    /// ADR-017's guard, compiled from its BT.CPP XML file.
    pub tree XmlGuard for World = xml("examples/trees/guard.xml") {
        "questStage" => QuestStage,
        "timeOfDay" => TimeOfDay,
        "atLocation" => AtLocation,
        "hasItem" => HasItem,
        "dialogue" => Dialogue,
        "moveTo" => MoveTo,
    }
}

behave! {
    /// A tree whose file includes the guard's and uses it as a `<SubTree>`.
    tree GuardUser for World = xml("tests/trees/guard_user.xml") {
        "Guard" => XmlGuard,
    }
}

#[test]
fn the_xml_guard_compiled_and_interpreted_agree_with_the_json_guard() {
    let xml = include_str!("../examples/trees/guard.xml");
    let from_xml = registry().load_xml(xml).unwrap_or_else(|e| panic!("{e}"));
    let from_json = registry().load(include_str!("../examples/trees/guard.json")).unwrap();
    let rows = |nodes: &[behaved_interp::LoadedNode]| -> Vec<(u32, Option<u32>, String)> {
        nodes
            .iter()
            .map(|n| (n.id.0, n.parent.map(|p| p.0), n.label.clone()))
            .collect()
    };
    let compiled: Vec<(u32, Option<u32>, String)> = XmlGuard::NODES
        .iter()
        .map(|n| (n.id.0, n.parent.map(|p| p.0), n.label.to_string()))
        .collect();
    assert_eq!(compiled, rows(from_xml.nodes()), "same ids, parents and labels");
    assert_eq!(rows(from_json.nodes()), rows(from_xml.nodes()));

    let mut tree = XmlGuard::new();
    let (mut x, mut j) = (Agent::new(from_xml), Agent::new(from_json));
    let mut worlds = [World::default(), World::default(), World::default()];
    let mut said = 0;
    for t in 0..300 {
        for w in &mut worlds {
            world_at(t, w);
        }
        let [a, b, c] = &mut worlds;
        let mut events = [IdEvents::default(), IdEvents::default(), IdEvents::default()];
        let [ea, eb, ec] = &mut events;
        let now = f64::from(t);
        let statuses = [
            tree.tick_observed(a, now, ea),
            x.tick_observed(b, now, eb),
            j.tick_observed(c, now, ec),
        ];
        assert!(
            statuses.iter().all(|s| *s == statuses[0]),
            "statuses at tick {t}: {statuses:?}"
        );
        assert_eq!(
            events[0].0, events[1].0,
            "compiled and interpreted XML events at tick {t}"
        );
        assert_eq!(events[1].0, events[2].0, "XML and JSON events at tick {t}");
        assert_eq!(worlds[0], worlds[1], "the world after tick {t}");
        assert_eq!(worlds[1], worlds[2], "the world after tick {t}");
        said = worlds[0].said.len();
    }
    let lines: std::collections::BTreeSet<&str> = worlds[0].said.iter().map(String::as_str).collect();
    assert_eq!(
        lines.into_iter().collect::<Vec<_>>(),
        ["guard-bribe", "guard-brush-off", "guard-default", "guard-night"],
        "every branch spoke ({said} lines)"
    );
}

/// A compiled tree's XML: its `Tree::JSON` written by `behaved_format::xml`
/// reads back as a tree of the same nodes and leaf parameters. (`Tree::JSON`
/// names leaves by their Rust types and leaves out node names: that tree,
/// not the file's.)
#[test]
fn a_compiled_trees_json_writes_back_as_an_xml_tree_of_the_same_nodes() {
    use behaved_format::model::{Node, Params};
    use behaved_format::xml::{XmlReader, to_xml};
    fn flat(n: &Node, out: &mut Vec<(behaved::NodeKind, Option<serde_json::Map<String, serde_json::Value>>)>) {
        let params = match n.params() {
            Params::Leaf(leaf) => Some(leaf.params.clone()),
            _ => None,
        };
        out.push((n.kind(), params));
        n.children().iter().for_each(|c| flat(c, out));
    }
    let node = Node::parse(XmlGuard::JSON).expect("Tree::JSON parses");
    let xml = to_xml("Guard", &node, &behaved_format::Library::new()).expect("writes as XML");
    assert!(xml.contains(r#"<Action ID="MoveTo" target="guardhouse"/>"#), "{xml}");
    let back = XmlReader::new().read(&xml).expect("the written XML reads");
    assert_eq!(back.main(), &node);
    let file = XmlReader::new()
        .read(include_str!("../examples/trees/guard.xml"))
        .expect("the file reads");
    let (mut a, mut b) = (Vec::new(), Vec::new());
    flat(back.main(), &mut a);
    flat(file.main(), &mut b);
    assert_eq!(a, b);
}

/// `<include>` in both forms: the compiled tree reads the included file
/// beside its own, the interpreter through the loader it is given.
#[test]
fn an_included_tree_runs_alike_compiled_and_interpreted() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/trees/");
    let load = |path: &str| std::fs::read_to_string(format!("{dir}{path}")).map_err(|e| e.to_string());
    let def = registry()
        .load_xml_with(include_str!("trees/guard_user.xml"), Some(&load))
        .unwrap_or_else(|e| panic!("{e}"));
    let labels: Vec<String> = def.nodes().iter().map(|n| n.label.clone()).collect();
    let compiled: Vec<String> = GuardUser::NODES.iter().map(|n| n.label.to_string()).collect();
    assert_eq!(compiled, labels);
    assert_eq!(labels[1], "subtree(Guard)");
    let (mut tree, mut agent) = (GuardUser::new(), Agent::new(def));
    let (mut a, mut b) = (World::default(), World::default());
    for t in 0..40 {
        world_at(t, &mut a);
        world_at(t, &mut b);
        let now = f64::from(t) * 0.5;
        assert_eq!(
            tree.tick_at(&mut a, now),
            agent.tick_at(&mut b, now),
            "status at tick {t}"
        );
        assert_eq!(a, b, "the world after tick {t}");
    }
    assert!(!a.said.is_empty());
}

/// The guard's registry as a `<TreeNodesModel>` for Groot2's palette:
/// `examples/trees/guard_leaves.xml` is what `Registry::tree_nodes_model`
/// writes (regenerate with `BEHAVED_REGENERATE=1`), and the guard's own file
/// lists the same leaves with the same ports.
#[test]
fn the_guards_registry_as_a_tree_nodes_model() {
    let written = registry().tree_nodes_model();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/trees/guard_leaves.xml");
    if std::env::var_os("BEHAVED_REGENERATE").is_some() {
        std::fs::write(path, &written).expect("writes the palette file");
    }
    assert_eq!(
        std::fs::read_to_string(path).expect("the palette file"),
        written,
        "stale: run `BEHAVED_REGENERATE=1 cargo test -p behaved --test xml_trees`"
    );
    let model = |xml: &str| -> Vec<String> {
        let start = xml.find("<TreeNodesModel>").expect("a model");
        let end = xml.find("</TreeNodesModel>").expect("its end");
        let mut lines: Vec<String> = xml[start..end].lines().map(|l| l.trim().to_string()).collect();
        lines.sort();
        lines
    };
    assert_eq!(model(&written), model(include_str!("../examples/trees/guard.xml")));
}

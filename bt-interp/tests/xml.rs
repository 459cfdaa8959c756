//! BehaviorTree.CPP v4 XML through the registry (`Registry::load_xml`,
//! SEMANTICS.md "BehaviorTree.CPP XML"): an XML file and its JSON twin load
//! as the same tree and run tick for tick alike; BT.CPP's own rules
//! (`IfThenElse` without a third child fails, `Parallel`'s negative counts)
//! hold; problems found by the registry are at their XML line and column;
//! the registry's leaves are written as a `<TreeNodesModel>`.
mod support;

use std::sync::Arc;

use behaved_format::xml::{LeafKind, LeafModel, PortType, nodes_model};
use behaved_interp::{Agent, Definition, Library, NoParams, Registry};
use behaved_runtime::Rng;
use support::*;

fn file(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/xml/{name}", env!("CARGO_MANIFEST_DIR"))).expect("a test file")
}

/// The scripted leaves, and `say`.
fn xml_registry() -> Registry<Ctx> {
    let mut r = registry();
    add_say(&mut r);
    r
}

/// Registers `say`, an action with parameters of each port type.
fn add_say(r: &mut Registry<Ctx>) {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct SayParams {
        text: String,
        times: u32,
        loud: bool,
        speed: f64,
    }
    r.action("say", |p: SayParams| {
        Log(format!("say {} x{} loud={} at {}", p.text, p.times, p.loud, p.speed))
    });
}

fn from_xml(xml: &str) -> Arc<Definition<Ctx>> {
    xml_registry().load_xml(xml).unwrap_or_else(|e| panic!("{e}"))
}

fn from_json() -> Arc<Definition<Ctx>> {
    let mut library = Library::new();
    library
        .insert_json("Patrol", &file("patrol.json"))
        .expect("the twin loads");
    xml_registry()
        .load_with(&file("scripted.json"), &library)
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn an_xml_tree_and_its_json_twin_have_the_same_nodes() {
    let (xml, json) = (from_xml(&file("scripted.xml")), from_json());
    let rows = |d: &Definition<Ctx>| d.nodes().iter().map(|r| format!("{r:?}")).collect::<Vec<_>>();
    assert_eq!(rows(&xml), rows(&json));
    assert_eq!(xml.nodes().len(), 45, "the subtree inlined");
}

#[test]
fn an_xml_tree_and_its_json_twin_run_tick_for_tick_alike() {
    let (mut x, mut j) = (Agent::new(from_xml(&file("scripted.xml"))), Agent::new(from_json()));
    let (mut cx, mut cj) = (Ctx::new(), Ctx::new());
    let (mut tx, mut tj) = (Trace::default(), Trace::default());
    let mut rng = Rng::new(28);
    let mut seen = std::collections::BTreeSet::new();
    for tick in 0..2000 {
        for name in ["a", "b", "c", "d", "e", "f", "g", "h"] {
            let status = [S, F, R][rng.below(3) as usize];
            cx.set(name, status);
            cj.set(name, status);
        }
        for name in ["c1", "c2", "c3", "c4"] {
            let status = [S, F][rng.below(2) as usize];
            cx.set(name, status);
            cj.set(name, status);
        }
        let now = f64::from(tick) * 0.05;
        let (sx, sj) = (
            x.tick_observed(&mut cx, now, &mut tx),
            j.tick_observed(&mut cj, now, &mut tj),
        );
        assert_eq!(sx, sj, "status at tick {tick}");
        let (lx, lj) = (cx.take(), cj.take());
        assert_eq!(lx, lj, "leaf events at tick {tick}");
        assert_eq!(tx.take(), tj.take(), "observed events at tick {tick}");
        seen.extend(lx);
    }
    // The run reached every leaf, the halts and the parametrised action.
    for event in [
        "a",
        "b",
        "c",
        "d",
        "e",
        "f",
        "g",
        "h",
        "halt a",
        "halt c",
        "say hi x2 loud=true at 1.5",
    ] {
        assert!(seen.contains(event), "{event} never happened");
    }
}

/// BT.CPP's `IfThenElse` fails when its condition fails and it has no third
/// child (our `if` would succeed): the reader gives it an `else` that fails.
#[test]
fn if_then_else_without_else_fails_as_in_btcpp() {
    let xml = r#"<root BTCPP_format="4"><BehaviorTree ID="T">
        <IfThenElse><c1/><a/></IfThenElse>
    </BehaviorTree></root>"#;
    let mut t = Agent::new(from_xml(xml));
    let mut c = Ctx::new();
    c.set("c1", F);
    assert_eq!(t.tick_at(&mut c, 0.0), F);
    assert_eq!(c.take(), log(&[]), "the branch is not ticked");
    c.set("c1", S).set("a", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter a", "a"]));
    c.set("a", S);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(c.take(), log(&["a"]));
}

/// `Parallel success_count="-1"` needs every child; BT.CPP's default
/// `failure_count` 1 fails on the first failure and halts the others.
#[test]
fn parallel_counts_as_in_btcpp() {
    let xml = r#"<root BTCPP_format="4"><BehaviorTree ID="T">
        <Parallel success_count="-1"><a/><b/><c/></Parallel>
    </BehaviorTree></root>"#;
    let mut t = Agent::new(from_xml(xml));
    let mut c = Ctx::new();
    c.set("a", S).set("b", R).set("c", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "enter c", "c"]));
    c.set("b", F);
    assert_eq!(t.tick_at(&mut c, 0.0), F);
    assert_eq!(c.take(), log(&["b", "halt c"]), "c is not ticked after the failure");
}

/// `Sleep`, `Timeout` and `Delay` count milliseconds.
#[test]
fn durations_are_milliseconds() {
    let xml = r#"<root BTCPP_format="4"><BehaviorTree ID="T">
        <Sequence><Sleep msec="1500"/><Timeout msec="250"><a/></Timeout></Sequence>
    </BehaviorTree></root>"#;
    let mut t = Agent::new(from_xml(xml));
    let mut c = Ctx::new();
    c.set("a", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(t.tick_at(&mut c, 1.4), R);
    assert_eq!(c.take(), log(&[]));
    assert_eq!(t.tick_at(&mut c, 1.5), R);
    assert_eq!(c.take(), log(&["enter a", "a"]));
    assert_eq!(t.tick_at(&mut c, 1.7), R);
    assert_eq!(t.tick_at(&mut c, 1.75), F);
    assert_eq!(c.take(), log(&["a", "halt a"]));
}

#[test]
fn problems_found_by_the_registry_are_at_their_xml_place() {
    let xml = r#"<root BTCPP_format="4" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <Sequence>
      <Action ID="atack"/>
      <say text="hi" times="two" loud="true" speed="1"/>
      <say text="hi" times="2" speed="1"/>
      <Lookout/>
      <SubTree ID="Patrl"/>
    </Sequence>
  </BehaviorTree>
  <BehaviorTree ID="Patrol"><Action ID="h"/></BehaviorTree>
</root>"#;
    let err = xml_registry().load_xml(xml).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"3 problems:
  at `children[1].action.times` (line 5, column 22): the port `times` of "say": expected an integer, found "two"
  at `children[3]` (line 7, column 7): "Lookout" is neither a BT.CPP built-in nor a known leaf: write `<Action ID="Lookout"/>` or `<Condition ID="Lookout"/>`, or declare it in `<TreeNodesModel>`
  at `children[0].action.type` (line 4, column 7): unknown action type "atack"; registered action types: "a", "b", "c", "d", "e", "f", "g", "h", "log" or "say""#
    );
    // The reader's problems, with the unknown leaves after them; with them
    // fixed, the registry's (leaves' parameters, subtree ids).
    let fixed = xml.replace("\"two\"", "\"2\"").replace("<Lookout/>", "<c1/>");
    let err = xml_registry().load_xml(&fixed).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"3 problems:
  at `children[0].action` (line 4, column 7): unknown action type "atack"; registered action types: "a", "b", "c", "d", "e", "f", "g", "h", "log" or "say"
  at `children[2].action` (line 6, column 7): bad parameters for action "say": missing field `loud`
  at `children[4].subtreeId` (line 8, column 7): unknown subtree "Patrl"; did you mean "Patrol"?"#
    );
}

#[test]
fn the_registrys_leaves_as_a_tree_nodes_model() {
    let mut r = Registry::new();
    r.condition("ready", |_: NoParams| Check("ready"));
    add_say(&mut r);
    // The manifest's parameter types as BT.CPP port types, in declaration
    // order (behaved-format's tests check the text `nodes_model` writes).
    let say = [
        ("text", PortType::String),
        ("times", PortType::Integer),
        ("loud", PortType::Boolean),
        ("speed", PortType::Number),
    ];
    let expected = nodes_model(&[
        (
            "ready".into(),
            LeafModel {
                kind: LeafKind::Condition,
                ports: vec![],
                outputs: vec![],
            },
        ),
        (
            "say".into(),
            LeafModel {
                kind: LeafKind::Action,
                ports: say.iter().map(|(n, t)| (n.to_string(), *t)).collect(),
                outputs: vec![],
            },
        ),
    ]);
    assert_eq!(r.tree_nodes_model(), expected);
    assert!(expected.contains("<input_port name=\"times\" type=\"int\"/>"));
    // Groot2 writes leaves of the palette in compact form: such a tree loads.
    let tree = r#"<root BTCPP_format="4"><BehaviorTree ID="T">
        <Sequence><ready/><say text="yo" times="1" loud="false" speed="2"/></Sequence>
    </BehaviorTree></root>"#;
    let mut t = Agent::new(r.load_xml(tree).unwrap_or_else(|e| panic!("{e}")));
    let mut c = Ctx::new();
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(c.take(), log(&["say yo x1 loud=false at 2"]));
}

/// Blackboard ports (SEMANTICS.md, "Blackboard ports"): the world the
/// `{key}` entries are in, and leaves with each kind of port.
mod ports {
    use behaved_interp::port::{OutPort, Port};
    use behaved_interp::{Agent, Registry, entry};
    use behaved_runtime::{Action, Condition, Status};

    #[derive(Debug, Default, Clone, PartialEq)]
    pub struct World {
        pos: i32,
        goal: i32,
        name: String,
    }

    /// Moves one step toward the port `to`; succeeds there.
    #[derive(Clone, serde::Deserialize)]
    pub struct Step {
        to: Port<World, i32>,
    }
    impl Action<World> for Step {
        fn tick(&mut self, w: &mut World) -> Status {
            let to = *self.to.get(w);
            w.pos += (to - w.pos).signum();
            if w.pos == to { Status::Success } else { Status::Running }
        }
    }

    /// Writes `pos + by` to its output port.
    #[derive(Clone, serde::Deserialize)]
    pub struct Aim {
        out: OutPort<World, i32>,
        by: i32,
    }
    impl Action<World> for Aim {
        fn tick(&mut self, w: &mut World) -> Status {
            let goal = w.pos + self.by;
            self.out.set(w, goal);
            Status::Success
        }
    }

    /// Whether the name entry is the port `who` (an entry or a literal).
    #[derive(Clone, serde::Deserialize)]
    pub struct Named {
        who: Port<World, String>,
    }
    impl Condition<World> for Named {
        fn check(&self, w: &World) -> bool {
            *self.who.get(w) == w.name
        }
    }

    /// A parameter that is not a port.
    #[derive(Clone, serde::Deserialize)]
    pub struct Plain {
        to: i32,
    }
    impl Action<World> for Plain {
        fn tick(&mut self, _: &mut World) -> Status {
            let _ = self.to;
            Status::Success
        }
    }

    fn registry() -> Registry<World> {
        let mut r = Registry::new();
        r.action("Step", |s: Step| s)
            .action("Aim", |a: Aim| a)
            .action("Plain", |p: Plain| p)
            .condition("Named", |n: Named| n)
            .entry("goal", entry!(|w: &mut World| &mut w.goal))
            .entry("name", entry!(|w: &mut World| &mut w.name));
        r
    }

    fn doc(body: &str) -> String {
        format!(
            "<root BTCPP_format=\"4\">\n  <BehaviorTree ID=\"Main\">\n    <Sequence>\n{body}\n    </Sequence>\n  </BehaviorTree>\n</root>"
        )
    }

    #[test]
    fn an_output_port_written_is_read_by_the_next_leaf_in_the_same_tick() {
        let xml = doc(r#"      <Action ID="Aim" out="{goal}" by="2"/>
      <Action ID="Step" to="{goal}"/>
      <Condition ID="Named" who="rex"/>"#);
        let mut agent = Agent::new(registry().load_xml(&xml).unwrap_or_else(|e| panic!("{e}")));
        let mut w = World {
            name: "rex".into(),
            ..World::default()
        };
        // Tick 1: the goal 2 is written, one step taken toward it.
        assert_eq!(agent.tick_at(&mut w, 0.0), Status::Running);
        assert_eq!((w.goal, w.pos), (2, 1));
        // The goal changes under the running leaf: it reads the entry each tick.
        w.goal = -1;
        assert_eq!(agent.tick_at(&mut w, 1.0), Status::Running);
        assert_eq!(w.pos, 0);
        assert_eq!(
            agent.tick_at(&mut w, 2.0),
            Status::Success,
            "at -1, and the name literal matches"
        );
        assert_eq!(w.pos, -1);
        w.name = "max".into();
        // A new run aims at -1 + 2 = 1, steps twice, and the name no longer matches.
        assert_eq!(agent.tick_at(&mut w, 3.0), Status::Running);
        assert_eq!(agent.tick_at(&mut w, 4.0), Status::Failure);
        assert_eq!((w.goal, w.pos), (1, 1));
    }

    #[test]
    fn the_xml_tree_and_its_json_twin_load_alike() {
        let xml = doc(r#"      <Action ID="Aim" out="{goal}" by="3"/>
      <Action ID="Step" to="{goal}"/>"#);
        let json = r#"{"type": "sequence", "children": [
            {"type": "action", "action": {"type": "Aim", "out": {"$entry": "goal"}, "by": 3}},
            {"type": "action", "action": {"type": "Step", "to": {"$entry": "goal"}}}]}"#;
        let (x, j) = (registry().load_xml(&xml).unwrap(), registry().load(json).unwrap());
        assert_eq!(x.fingerprint(), j.fingerprint());
        let (mut a, mut b) = (Agent::new(x), Agent::new(j));
        let (mut wa, mut wb) = (World::default(), World::default());
        for t in 0..8 {
            let now = f64::from(t);
            assert_eq!(a.tick_at(&mut wa, now), b.tick_at(&mut wb, now), "tick {t}");
            assert_eq!(wa, wb, "tick {t}");
        }
        assert_eq!(wa.pos, 8, "aimed at 3, 6, then 9");
    }

    #[test]
    fn bad_references_are_load_errors_at_their_xml_place() {
        let xml = doc(r#"      <Action ID="Step" to="{gaol}"/>
      <Action ID="Step" to="{name}"/>
      <Action ID="Plain" to="{goal}"/>
      <Action ID="Aim" out="4" by="1"/>
      <Condition ID="Named" who="{nobody}"/>"#);
        let err = registry().load_xml(&xml).unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"5 problems:
  at `children[0].action` (line 4, column 7): bad parameters for action "Step": unknown blackboard entry "gaol"; did you mean "goal"? (the entries: `goal`, `name`)
  at `children[1].action` (line 5, column 7): bad parameters for action "Step": the blackboard entry "name" holds a `alloc::string::String`, and this port is a `i32`
  at `children[2].action.to` (line 6, column 26): the parameter `to` of leaf `Plain` is the blackboard entry "goal", but its type does not read blackboard entries: make its field a `Port` (read) or an `OutPort` (read and written)
  at `children[3].action` (line 7, column 7): bad parameters for action "Aim": an output port must name a blackboard entry (`{"$entry": "key"}`, in XML `{key}`), found a value: `4`
  at `children[4].condition` (line 8, column 7): bad parameters for condition "Named": unknown blackboard entry "nobody" (the entries: `goal`, `name`)"#
        );
    }
}

/// The work-per-tick bound is the JSON form's, and its message names the
/// ports the XML user wrote, not the JSON form's `"count"`.
#[test]
fn the_work_bound_names_the_xml_ports() {
    let xml = r#"<root BTCPP_format="4"><BehaviorTree ID="T">
        <Repeat num_cycles="1000">
          <RetryUntilSuccessful num_attempts="1000"><a/></RetryUntilSuccessful>
        </Repeat>
    </BehaviorTree></root>"#;
    let mut r = xml_registry();
    r.max_tick_work(1000);
    let err = r.load_xml(xml).unwrap_err().to_string();
    assert_eq!(
        err,
        "at the root (line 2, column 9): one tick can tick leaves up to 1000000 times here (bounded loops' counts multiply), above the limit of 1000 (`Registry::max_tick_work`); lower a `Repeat`'s `num_cycles` or a `RetryUntilSuccessful`'s `num_attempts` or raise the limit"
    );
    assert!(!err.contains("\"count\""));
}

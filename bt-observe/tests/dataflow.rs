//! What `behave!` says each node reads (`READS`, `read_fields`), as the
//! studio's data-flow view draws it (`DataFlow`): inline conditions,
//! `wait_until` closures and `match` values by the fields they touch, a
//! condition value by its own declaration, and anything else unknown.

use behaved::Reads;
use behaved::prelude::*;
use behaved_observe::{DataFlow, NodeRow};

#[derive(Default)]
struct Ctx {
    night: bool,
    hp: u32,
    stage: u8,
    pos: (i32, i32),
}

impl Ctx {
    fn calm(&self) -> bool {
        self.pos.0 >= 0
    }
}

/// Declares its field by name.
struct LowHp(u32);
impl Condition<Ctx> for LowHp {
    fn check(&self, c: &Ctx) -> bool {
        c.hp < self.0
    }
    fn read_fields(&self) -> Option<&'static [&'static str]> {
        Some(&["hp"])
    }
}

/// Declares only bits: its names are unknown.
struct Bits;
impl Condition<Ctx> for Bits {
    fn check(&self, c: &Ctx) -> bool {
        c.night
    }
    fn reads(&self) -> Option<Reads> {
        Some(Reads::field("night"))
    }
}

behave! {
    tree Inner for Ctx { cond(|c| c.night) }
}

behave! {
    tree Everything for Ctx {
        sequence {
            cond(|c| c.pos.0 > 0 && !c.night),
            cond(LowHp(3)),
            cond(Bits),
            cond(|c| c.calm()),
            wait_until(|c| c.hp > 5),
            reactive match |c| c.stage {
                0 => success,
                _ => failure,
            },
            match |c| c.stage { n if n > 3 => success, _ => failure },
            subtree(Inner),
            act(|_c: &mut Ctx| Status::Success),
        }
    }
}

/// Each node's label and reads, for the nodes that run the game's code.
fn shown(flow: &DataFlow) -> Vec<(String, Option<Vec<String>>)> {
    Everything::NODES
        .iter()
        .zip(&flow.nodes)
        .filter(|(_, f)| f.reads.as_ref().is_none_or(|r| !r.is_empty()))
        .map(|(n, f)| (n.label().to_string(), f.reads.clone()))
        .collect()
}

fn known(fields: &[&str]) -> Option<Vec<String>> {
    Some(fields.iter().map(|f| f.to_string()).collect())
}

#[test]
fn every_node_of_the_games_code_reads_what_the_macro_or_its_type_says_and_the_rest_is_unknown() {
    let tree = Everything::new();
    let flow = DataFlow::from_read_fields(Everything::NODES, |id| tree.read_fields(id));
    let labels: Vec<String> = Everything::NODES.iter().map(|n| n.label().to_string()).collect();
    let at = |label: &str| {
        labels
            .iter()
            .position(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("{label} in {labels:?}"))
    };
    let expected = vec![
        (labels[at("cond(|c| c.pos.0")].clone(), known(&["night", "pos"])),
        (labels[at("LowHp")].clone(), known(&["hp"])),
        (labels[at("Bits")].clone(), None),
        (labels[at("cond(|c| c.calm")].clone(), None),
        (labels[at("wait_until")].clone(), known(&["hp"])),
        (labels[at("reactive match")].clone(), known(&["stage"])),
        (labels[at("match")].clone(), None),
        (labels[at("cond(|c| c.night)")].clone(), known(&["night"])),
        (labels[labels.len() - 1].clone(), None),
    ];
    assert_eq!(shown(&flow), expected);
    // The subtree's own table knows its condition; inlined, READS alone does not.
    assert_eq!(Inner::READS, &[(0, &["night"][..])]);
    // READS is what the macro read: the condition value's row is not in it.
    let static_flow = DataFlow::compiled(Everything::NODES, Everything::READS);
    assert_eq!(static_flow.nodes[at("LowHp")].reads, None);
    assert_eq!(static_flow.nodes[at("cond(|c| c.night)")].reads, None);
    assert_eq!(static_flow.readers("hp").collect::<Vec<_>>(), [at("wait_until") as u32]);
    assert_eq!(flow.readers("hp").count(), 2);
}

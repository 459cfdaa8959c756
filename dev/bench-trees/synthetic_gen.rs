//! The generator of the synthetic trees: T3 (written into `OUT_DIR` by this
//! crate's `build.rs`) and the 1,000-node tree of the compile-cost measurement.
//! Deterministic: the same shape always gives the same text.
//!
//! A tree alternates selector and sequence levels (a selector at the root),
//! with `fanout` children per composite down to `depth`, where the leaves are
//! `act(|c| c.leaf(ID))` on [`SynCtx`](super::synthetic) with ids 0, 1, 2, ..
//! in pre-order. It also writes T3's JSON form (`t3_synthetic.json`, also into
//! `OUT_DIR`).

use std::fmt::Write;

/// A node of a generated tree.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// A selector (`true`) or a sequence (`false`) with its children.
    Composite(bool, Vec<Node>),
    /// A leaf with its id.
    Leaf(u32),
}

impl Node {
    /// Nodes in this tree.
    pub fn count(&self) -> usize {
        match self {
            Node::Composite(_, kids) => 1 + kids.iter().map(Node::count).sum::<usize>(),
            Node::Leaf(_) => 1,
        }
    }

    /// Composites in this tree.
    pub fn composites(&self) -> usize {
        match self {
            Node::Composite(_, kids) => 1 + kids.iter().map(Node::composites).sum::<usize>(),
            Node::Leaf(_) => 0,
        }
    }
}

/// The full tree of the given depth and fan-out, cut to its first `max_nodes`
/// nodes in pre-order (a composite cut off from all its children becomes a
/// leaf). Depth 5, fan-out 4, no cut: T3's 1,365 nodes.
pub fn tree(depth: u32, fanout: u32, max_nodes: usize) -> Node {
    let (mut budget, mut leaves) = (max_nodes, 0);
    build(0, depth, fanout, &mut budget, &mut leaves).expect("max_nodes >= 1")
}

fn build(level: u32, depth: u32, fanout: u32, budget: &mut usize, leaves: &mut u32) -> Option<Node> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let mut leaf = || {
        *leaves += 1;
        Node::Leaf(*leaves - 1)
    };
    if level == depth || *budget == 0 {
        return Some(leaf());
    }
    let kids: Vec<Node> = (0..fanout)
        .map_while(|_| build(level + 1, depth, fanout, budget, leaves))
        .collect();
    Some(Node::Composite(level.is_multiple_of(2), kids))
}

/// The `behave!` body of a tree (`tree NAME for SynCtx { .. }`).
pub fn behave_tree(name: &str, root: &Node) -> String {
    let mut out = format!(
        "    /// {} nodes, generated.\n    pub tree {name} for SynCtx {{\n",
        root.count()
    );
    write_node(&mut out, root, 2);
    out.push_str("    }\n");
    out
}

fn write_node(out: &mut String, node: &Node, indent: usize) {
    let pad = "    ".repeat(indent);
    match node {
        Node::Leaf(id) => writeln!(out, "{pad}act(|c| c.leaf({id})),").unwrap(),
        Node::Composite(selector, kids) => {
            writeln!(out, "{pad}{} {{", if *selector { "selector" } else { "sequence" }).unwrap();
            for kid in kids {
                write_node(out, kid, indent + 1);
            }
            writeln!(out, "{pad}}},").unwrap();
        }
    }
}

/// The hand-written twin: one method per composite, one resume byte per
/// composite (running child + 1, 0 when idle), leaves inlined as calls.
pub fn by_hand(name: &str, root: &Node) -> String {
    let mut methods = String::new();
    let mut next = 0;
    by_hand_method(&mut methods, root, &mut next);
    format!(
        "/// {name} written by hand: the fastest static Rust for the tree.\n\
         #[derive(Debug, Clone)]\n\
         pub struct {name} {{\n    resume: [u8; {next}],\n}}\n\n\
         impl Default for {name} {{\n    fn default() -> Self {{\n        {name} {{ resume: [0; {next}] }}\n    }}\n}}\n\n\
         impl {name} {{\n\
         \x20   /// Ticks once.\n\
         \x20   #[inline]\n\
         \x20   pub fn tick(&mut self, c: &mut SynCtx) -> Status {{\n        self.n0(c)\n    }}\n\
         {methods}}}\n"
    )
}

/// Writes the method of composite number `*next` (then its composite
/// children's) and returns its number.
fn by_hand_method(out: &mut String, node: &Node, next: &mut usize) -> usize {
    let Node::Composite(selector, kids) = node else {
        unreachable!("leaves are inlined")
    };
    let me = *next;
    *next += 1;
    // Children first get their numbers, so that calls can name them.
    let mut calls = Vec::new();
    let mut later = String::new();
    for kid in kids {
        calls.push(match kid {
            Node::Leaf(id) => format!("c.leaf({id})"),
            Node::Composite(..) => format!("self.n{}(c)", by_hand_method(&mut later, kid, next)),
        });
    }
    // A sequence goes on while its children succeed, a selector while they fail.
    let (go_on, done) = if *selector {
        ("Failure", "Failure")
    } else {
        ("Success", "Success")
    };
    let mut body = format!(
        "\n    #[inline(always)]\n    fn n{me}(&mut self, c: &mut SynCtx) -> Status {{\n        let r = self.resume[{me}];\n"
    );
    for (i, call) in calls.iter().enumerate() {
        writeln!(
            body,
            "        if r <= {k} {{\n            match {call} {{\n                Status::{go_on} => {{}}\n                \
             Status::Running => {{\n                    self.resume[{me}] = {k};\n                    return Status::Running;\n                }}\n                \
             s => {{\n                    self.resume[{me}] = 0;\n                    return s;\n                }}\n            }}\n        }}",
            k = i + 1
        )
        .unwrap();
    }
    writeln!(body, "        self.resume[{me}] = 0;\n        Status::{done}\n    }}").unwrap();
    out.push_str(&body);
    out.push_str(&later);
    me
}

/// The JSON form of a tree (behaved-interp's format), one node per line; a leaf is
/// the registered action `leaf` with its id: `{"type": "leaf", "id": 17}`.
pub fn json_tree(root: &Node) -> String {
    let mut out = String::new();
    write_json(&mut out, root, 0);
    out.push('\n');
    out
}

fn write_json(out: &mut String, node: &Node, indent: usize) {
    let pad = "  ".repeat(indent);
    match node {
        Node::Leaf(id) => write!(
            out,
            r#"{pad}{{"type": "action", "action": {{"type": "leaf", "id": {id}}}}}"#
        )
        .unwrap(),
        Node::Composite(selector, kids) => {
            let kind = if *selector { "selector" } else { "sequence" };
            writeln!(out, r#"{pad}{{"type": "{kind}", "children": ["#).unwrap();
            for (i, kid) in kids.iter().enumerate() {
                write_json(out, kid, indent + 1);
                out.push_str(if i + 1 < kids.len() { ",\n" } else { "\n" });
            }
            write!(out, "{pad}]}}").unwrap();
        }
    }
}

/// T3 in JSON (`t3_synthetic.json`, written by `build.rs`).
pub fn t3_json() -> String {
    json_tree(&tree(5, 4, usize::MAX))
}

/// The whole of `synthetic_generated.rs` (written by `build.rs`): T3 compiled
/// and by hand.
pub fn t3_file() -> String {
    let root = tree(5, 4, usize::MAX);
    format!(
        "// @generated at build time by dev/bench-trees/build.rs from synthetic_gen.rs:\n\
         // change the generator, not this file.\n\n\
         behave! {{\n{}}}\n\n{}",
        behave_tree("Synthetic", &root),
        by_hand("SyntheticByHand", &root)
    )
}

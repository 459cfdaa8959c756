//! Drawing a tree from its node table, with the states of a snapshot or a
//! time-travel cursor: ASCII/Unicode text, Graphviz DOT, Mermaid.

use core::fmt::Write as _;

use behaved_runtime::NodeKind;

use crate::{Error, NodeRow, NodeState, table};

/// A tree ready to draw: a validated node table and, optionally, the state
/// of each node (from [`StatusSnapshot::statuses`](crate::StatusSnapshot::statuses)
/// or [`Cursor::statuses`](crate::Cursor::statuses)).
///
/// ```
/// # use behaved::prelude::*;
/// use behaved_observe::{StatusSnapshot, View};
/// # struct Ctx;
/// behave! { tree Door for Ctx { selector { cond(|_| false), running } } }
///
/// let mut snapshot = StatusSnapshot::new(Door::NODES)?;
/// Door::new().tick_observed(&mut Ctx, 0.0, &mut snapshot);
/// let view = View::new(Door::NODES)?.with_statuses(snapshot.statuses())?;
/// assert_eq!(
///     view.ascii(),
///     "#0 selector [running]\n\
///      |-- #1 cond(|_| false) [failure]\n\
///      `-- #2 running [running]\n"
/// );
/// # Ok::<(), behaved_observe::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct View<'a, R> {
    nodes: &'a [R],
    ends: Vec<u32>,
    statuses: Option<&'a [NodeState]>,
}

/// The lines drawn in front of a node in a text tree.
struct Charset {
    branch: &'static str,
    last: &'static str,
    pipe: &'static str,
    blank: &'static str,
}

const ASCII: Charset = Charset {
    branch: "|-- ",
    last: "`-- ",
    pipe: "|   ",
    blank: "    ",
};

const UNICODE: Charset = Charset {
    branch: "├── ",
    last: "└── ",
    pipe: "│   ",
    blank: "    ",
};

/// Fill colours by state (Groot's conventions: running amber, success green,
/// failure red; idle white).
fn fill(state: NodeState) -> &'static str {
    match state {
        NodeState::Idle => "#ffffff",
        NodeState::Running => "#ffd966",
        NodeState::Success => "#93c47d",
        NodeState::Failure => "#e06666",
    }
}

impl<'a, R: NodeRow> View<'a, R> {
    /// A view of the tree whose node table is `nodes`, without states.
    /// Fails if the table is not a valid pre-order table.
    pub fn new(nodes: &'a [R]) -> Result<Self, Error> {
        Ok(View {
            ends: table::subtree_ends(nodes)?,
            nodes,
            statuses: None,
        })
    }

    /// The same view with each node's state marked. Fails unless there is
    /// exactly one state per node.
    pub fn with_statuses(mut self, statuses: &'a [NodeState]) -> Result<Self, Error> {
        if statuses.len() != self.nodes.len() {
            return Err(Error::StatusCount {
                expected: self.nodes.len(),
                found: statuses.len(),
            });
        }
        self.statuses = Some(statuses);
        Ok(self)
    }

    /// The tree as text, drawn like `tree --charset=ascii`: one node per line
    /// (`#id label`), followed by `[state]` unless the node is idle.
    pub fn ascii(&self) -> String {
        self.text(&ASCII)
    }

    /// The tree as text, drawn like `tree` with Unicode box-drawing lines.
    pub fn unicode(&self) -> String {
        self.text(&UNICODE)
    }

    /// The tree as a Graphviz `digraph`: conditions are ellipses, other nodes
    /// rounded boxes, filled by state; the tooltip gives id, kind and line.
    pub fn dot(&self) -> String {
        let mut out = String::from("digraph bt {\n");
        out.push_str(
            "    node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\"];\n",
        );
        for (i, node) in self.nodes.iter().enumerate() {
            let _ = write!(out, "    n{i} [label=\"{}\"", dot_escape(node.label()));
            if node.kind() == NodeKind::Condition {
                out.push_str(", shape=ellipse");
            }
            if let Some(state) = self.state(i).filter(|s| !s.is_idle()) {
                let _ = write!(out, ", fillcolor=\"{}\"", fill(state));
            }
            let _ = writeln!(out, ", tooltip=\"{}\"];", dot_escape(&describe(node)));
        }
        for (i, node) in self.nodes.iter().enumerate() {
            if let Some(p) = node.parent() {
                let _ = writeln!(out, "    n{p} -> n{i};");
            }
        }
        out.push_str("}\n");
        out
    }

    /// The tree as a Mermaid `flowchart TD`: conditions are stadiums, other
    /// nodes rectangles; with states, each non-idle node gets the class
    /// `running`, `success` or `failure`.
    pub fn mermaid(&self) -> String {
        let mut out = String::from("flowchart TD\n");
        if self.statuses.is_some() {
            for state in [NodeState::Running, NodeState::Success, NodeState::Failure] {
                let _ = writeln!(out, "    classDef {state} fill:{}", fill(state));
            }
        }
        for (i, node) in self.nodes.iter().enumerate() {
            let label = mermaid_escape(node.label());
            if node.kind() == NodeKind::Condition {
                let _ = write!(out, "    n{i}([\"{label}\"])");
            } else {
                let _ = write!(out, "    n{i}[\"{label}\"]");
            }
            if let Some(state) = self.state(i).filter(|s| !s.is_idle()) {
                let _ = write!(out, ":::{state}");
            }
            out.push('\n');
        }
        for (i, node) in self.nodes.iter().enumerate() {
            if let Some(p) = node.parent() {
                let _ = writeln!(out, "    n{p} --> n{i}");
            }
        }
        out
    }

    fn state(&self, i: usize) -> Option<NodeState> {
        self.statuses.map(|s| s[i])
    }

    /// `true` if `i` is the last child of its parent: in pre-order, its
    /// subtree ends where its parent's does.
    fn is_last(&self, i: usize) -> bool {
        self.nodes[i]
            .parent()
            .is_none_or(|p| self.ends[p as usize] == self.ends[i])
    }

    fn text(&self, chars: &Charset) -> String {
        let mut out = String::new();
        for (i, node) in self.nodes.iter().enumerate() {
            let ancestors = table::ancestors(self.nodes, i);
            // Below the root, each ancestor leaves a pipe if more siblings follow it.
            for &a in ancestors.iter().skip(1) {
                out.push_str(if self.is_last(a) { chars.blank } else { chars.pipe });
            }
            if i > 0 {
                out.push_str(if self.is_last(i) { chars.last } else { chars.branch });
            }
            let _ = write!(out, "#{i} {}", one_line(node.label()));
            if let Some(state) = self.state(i).filter(|s| !s.is_idle()) {
                let _ = write!(out, " [{state}]");
            }
            out.push('\n');
        }
        out
    }
}

/// `#id kind, line n` (the line only when known).
fn describe<R: NodeRow>(node: &R) -> String {
    match node.line() {
        0 => format!("#{} {}", node.id(), node.kind()),
        line => format!("#{} {}, line {line}", node.id(), node.kind()),
    }
}

/// `label` with control characters (newlines, tabs) turned into spaces.
pub(crate) fn one_line(label: &str) -> String {
    label.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// Escapes text for a double-quoted DOT string.
fn dot_escape(text: &str) -> String {
    escaped(text, |c| match c {
        '"' => Some("\\\""),
        '\\' => Some("\\\\"),
        _ => None,
    })
}

/// Escapes text for a double-quoted Mermaid label, with Mermaid's entity codes.
fn mermaid_escape(text: &str) -> String {
    escaped(text, |c| match c {
        '"' => Some("#quot;"),
        '#' => Some("#35;"),
        '<' => Some("#lt;"),
        '>' => Some("#gt;"),
        '&' => Some("#amp;"),
        _ => None,
    })
}

/// `text` with each character that `escape` names replaced by its escape,
/// and the other control characters (newlines, tabs) by spaces.
fn escaped(text: &str, escape: fn(char) -> Option<&'static str>) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match escape(c) {
            Some(e) => out.push_str(e),
            None if c.is_control() => out.push(' '),
            None => out.push(c),
        }
    }
    out
}

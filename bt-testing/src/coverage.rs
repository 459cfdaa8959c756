//! Coverage of a tree by a run or a whole test suite: which nodes ran, which
//! statuses each returned, which branches were taken, what was never reached.
//! Carried in the trace format (`coverage`), so it merges across test
//! processes and a viewer can draw it as a heat map.

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use behaved_observe::{Event, NodeCounts, NodeRow, StatusSnapshot, Trace, TraceNode, TraceStart};
use behaved_runtime::NodeKind;

use crate::Error;

/// The environment variable naming the folder where every test tree of a
/// suite saves its coverage when dropped (one file per tree, any process).
pub const COVERAGE_ENV: &str = "BEHAVED_COVERAGE";

/// How often each node of one tree did what (see [`NodeCounts`]), summed
/// over any number of runs. `Display` prints it as a table.
#[derive(Debug, Clone)]
pub struct Coverage {
    name: String,
    nodes: Vec<TraceNode>,
    counts: Vec<NodeCounts>,
    /// Each node's JSON `"name"`, for selectors (a test tree's own coverage
    /// has them; one read from a file has none).
    pub(crate) names: Vec<Option<String>>,
}

impl PartialEq for Coverage {
    /// The same tree name, node table and counts (the JSON names that
    /// selectors read are not compared: a file does not keep them).
    fn eq(&self, other: &Coverage) -> bool {
        self.name == other.name && self.nodes == other.nodes && self.counts == other.counts
    }
}

/// One way a branching node can go: a child, or (an `if` without `else`)
/// no branch at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// The branching node (`if`, `match`, a selector, `random`, ...).
    pub node: u32,
    /// The child the branch runs; `None` for an `if` that chose none.
    pub child: Option<u32>,
    /// `true` when the run took it.
    pub taken: bool,
}

impl Coverage {
    /// No runs yet of the tree named `name` whose table is `nodes`.
    pub fn new(name: impl Into<String>, nodes: &[TraceNode]) -> Coverage {
        Coverage {
            name: name.into(),
            nodes: nodes.to_vec(),
            counts: vec![NodeCounts::default(); nodes.len()],
            names: Vec::new(),
        }
    }

    /// Counts one observer event.
    pub fn count(&mut self, event: &Event) {
        if let Some(node) = event.node()
            && let Some(c) = self.counts.get_mut(node.index())
        {
            c.count(event);
        }
    }

    /// The tree's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tree's node table.
    pub fn nodes(&self) -> &[TraceNode] {
        &self.nodes
    }

    /// The counts, indexed by node id.
    pub fn counts(&self) -> &[NodeCounts] {
        &self.counts
    }

    /// Adds `other`'s counts, which must be of the same tree (same ids,
    /// parents, kinds and labels; source lines may differ).
    pub fn merge(&mut self, other: &Coverage) -> Result<(), Error> {
        if !same_tree(&self.nodes, &other.nodes) {
            return Err(Error::Coverage(format!(
                "cannot merge the coverage of `{}` into `{}`: the trees differ",
                other.name, self.name
            )));
        }
        for (c, o) in self.counts.iter_mut().zip(&other.counts) {
            c.add(o);
        }
        Ok(())
    }

    /// The ids of the nodes never ticked.
    pub fn unreached(&self) -> Vec<u32> {
        (0..self.nodes.len() as u32)
            .filter(|&i| !self.counts[i as usize].reached())
            .collect()
    }

    /// Every branch of every branching node, taken or not: each child of a
    /// selector, `random`, `weighted`, `utility`, `shuffle` or `match`; each branch of an
    /// `if` (its `else`, or without one, the case of no branch: its last
    /// condition failed).
    pub fn branches(&self) -> Vec<Branch> {
        let mut out = Vec::new();
        for node in &self.nodes {
            let kids: Vec<u32> = self
                .nodes
                .iter()
                .filter(|n| n.parent == Some(node.id))
                .map(|n| n.id)
                .collect();
            let entered = |id: u32| self.counts[id as usize].entered > 0 || self.counts[id as usize].reached();
            let branch = |child: Option<u32>, taken: bool| Branch {
                node: node.id,
                child,
                taken,
            };
            match node.kind {
                NodeKind::Selector
                | NodeKind::ReactiveSelector
                | NodeKind::Random
                | NodeKind::Weighted
                | NodeKind::Utility
                | NodeKind::Shuffle
                | NodeKind::Match
                | NodeKind::ReactiveMatch => out.extend(kids.iter().map(|&k| branch(Some(k), entered(k)))),
                NodeKind::If | NodeKind::ReactiveIf => {
                    // Children: condition, branch, condition, branch, .., else?
                    out.extend(kids.iter().skip(1).step_by(2).map(|&k| branch(Some(k), entered(k))));
                    if kids.len() % 2 == 1 {
                        let k = kids[kids.len() - 1];
                        out.push(branch(Some(k), entered(k)));
                    } else if let Some(&last_cond) = kids.iter().rev().nth(1) {
                        out.push(branch(None, self.counts[last_cond as usize].failure > 0));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Fails, printing the table, unless every node was reached except those
    /// `allowed` names (selectors, see [`TestTree::find`](crate::TestTree::find)).
    pub fn require_all_reached(&self, allowed: &[&str]) -> Result<(), Error> {
        let mut allowed_ids = Vec::new();
        for selector in allowed {
            allowed_ids.push(crate::select::find(&self.nodes, &self.names, selector)?.0);
        }
        let missing: Vec<String> = self
            .unreached()
            .into_iter()
            .filter(|id| !allowed_ids.contains(id))
            .map(|id| format!("#{id} `{}`", self.nodes[id as usize].label))
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(Error::Coverage(format!(
                "{} of `{}` never reached: {}\n{self}",
                if missing.len() == 1 { "a node" } else { "nodes" },
                self.name,
                missing.join(", ")
            )))
        }
    }

    /// The coverage as a trace with no events (the `bt-trace` format's `coverage`).
    pub fn to_trace(&self) -> Trace {
        let start = StatusSnapshot::new(&self.nodes)
            .map(|s| s.statuses().to_vec())
            .unwrap_or_default();
        Trace {
            format: behaved_observe::TRACE_FORMAT.to_owned(),
            version: behaved_observe::TRACE_VERSION,
            nodes: self.nodes.clone(),
            start: TraceStart {
                tick: 0,
                now: None,
                dropped_events: 0,
                statuses: start,
            },
            labels: Vec::new(),
            events: Vec::new(),
            coverage: Some(self.counts.clone()),
            context: Vec::new(),
        }
    }

    /// The coverage a trace carries, or else the counts of its events.
    pub fn from_trace(name: impl Into<String>, trace: &Trace) -> Coverage {
        let mut coverage = Coverage::new(name, &trace.nodes);
        match &trace.coverage {
            Some(counts) => coverage.counts.clone_from(counts),
            None => trace.events.iter().for_each(|e| coverage.count(e)),
        }
        coverage
    }

    /// Writes this coverage into folder `dir` as `<name>-<process>-<n>.json`
    /// (a trace file), creating the folder if needed. Returns the file.
    pub fn save_in(&self, dir: &Path) -> Result<PathBuf, Error> {
        static SAVED: AtomicU64 = AtomicU64::new(0);
        let io = |path: &Path| {
            let path = path.to_owned();
            move |error| Error::Io { path, error }
        };
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let file_name: String = self
            .name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' })
            .collect();
        let n = SAVED.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!("{file_name}-{}-{n}.json", std::process::id()));
        let json = self.to_trace().to_json()?;
        std::fs::write(&path, json).map_err(io(&path))?;
        Ok(path)
    }

    /// Reads every coverage file in `dir` (as [`save_in`](Self::save_in)
    /// writes them, from any number of test processes) and merges those of the
    /// same tree: one coverage per tree, by name.
    pub fn load_dir(dir: &Path) -> Result<Vec<Coverage>, Error> {
        let io = |path: &Path| {
            let path = path.to_owned();
            move |error| Error::Io { path, error }
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(io(dir))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        let mut merged: BTreeMap<String, Coverage> = BTreeMap::new();
        for path in files {
            let text = std::fs::read_to_string(&path).map_err(io(&path))?;
            let trace = Trace::from_json(&text).map_err(|error| Error::Trace {
                path: Some(path.clone()),
                error,
            })?;
            let name = saved_name(&path);
            let coverage = Coverage::from_trace(name.clone(), &trace);
            match merged.get_mut(&name) {
                Some(c) => c
                    .merge(&coverage)
                    .map_err(|e| Error::Coverage(format!("{}: {e}", path.display())))?,
                None => {
                    merged.insert(name, coverage);
                }
            }
        }
        Ok(merged.into_values().collect())
    }
}

/// The tree name in a file name written by [`Coverage::save_in`].
fn saved_name(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut parts: Vec<&str> = stem.rsplitn(3, '-').collect();
    if parts.len() == 3 {
        parts.pop().unwrap_or_default().to_owned()
    } else {
        stem
    }
}

/// Same ids, parents, kinds and labels (lines may differ).
pub(crate) fn same_tree(a: &[TraceNode], b: &[TraceNode]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.id == y.id && x.parent == y.parent && x.kind == y.kind && x.label == y.label)
}

impl fmt::Display for Coverage {
    /// The table: one row per node, indented by depth, with its counts and
    /// its branches; then what was never reached and the branches not taken.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reached = self.nodes.len() - self.unreached().len();
        let branches = self.branches();
        let taken = branches.iter().filter(|b| b.taken).count();
        writeln!(
            f,
            "coverage of `{}`: {reached} of {} nodes reached, {taken} of {} branches taken",
            self.name,
            self.nodes.len(),
            branches.len()
        )?;
        let labels: Vec<String> = self
            .nodes
            .iter()
            .map(|n| {
                let mut label = format!(
                    "{:<4}{}{}",
                    format!("#{}", n.id),
                    "  ".repeat(depth(&self.nodes, n.id)),
                    n.label
                );
                if label.chars().count() > 48 {
                    label = label.chars().take(47).collect::<String>() + "…";
                }
                label
            })
            .collect();
        let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0).max(4);
        writeln!(
            f,
            "{:<width$} {:>8} {:>8} {:>8} {:>8} {:>8}  branches",
            "node", "entered", "success", "failure", "running", "halted"
        )?;
        for (n, label) in self.nodes.iter().zip(&labels) {
            let c = &self.counts[n.id as usize];
            let mut line = String::new();
            if c.reached() {
                write!(
                    line,
                    "{label:<width$} {:>8} {:>8} {:>8} {:>8} {:>8}",
                    c.entered, c.success, c.failure, c.running, c.halted
                )?;
            } else {
                write!(line, "{label:<width$} {:>8}", "-")?;
                line.push_str("  never reached");
            }
            let own: Vec<&Branch> = branches.iter().filter(|b| b.node == n.id).collect();
            if !own.is_empty() && c.reached() {
                let t = own.iter().filter(|b| b.taken).count();
                write!(line, "  {t}/{}", own.len())?;
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        let unreached = self.unreached();
        if !unreached.is_empty() {
            let list: Vec<String> = unreached.iter().map(|&i| format!("#{i}")).collect();
            writeln!(f, "never reached: {}", list.join(", "))?;
        }
        let not_taken: Vec<String> = branches
            .iter()
            .filter(|b| !b.taken && self.counts[b.node as usize].reached())
            .map(|b| match b.child {
                Some(c) => format!("#{} -> #{c}", b.node),
                None => format!("#{} -> no branch", b.node),
            })
            .collect();
        if !not_taken.is_empty() {
            writeln!(f, "branches not taken: {}", not_taken.join(", "))?;
        }
        Ok(())
    }
}

fn depth(nodes: &[TraceNode], id: u32) -> usize {
    let mut d = 0;
    let mut at = nodes[id as usize].parent();
    while let Some(p) = at {
        d += 1;
        at = nodes[p as usize].parent();
    }
    d
}

//! From a checked model to a [`Definition`]: resolves leaf types through the
//! registry (building each leaf from its parameters), inlines library
//! subtrees (rejecting unknown ids and cycles), enforces the depth and size
//! limits, resolves `break`/`continue` targets, and lays out the per-agent
//! state: one word per resume point or counter, one timestamp per timing node.

use std::collections::BTreeMap;

use behaved_runtime::catalog::Parameters;
use behaved_runtime::{NodeId, NodeKind};

use behaved_format::messages::{did_you_mean, one_of};
use behaved_format::model::{Key, Leaf, Node, Params, Remap};
use behaved_format::{Library, LoadError, Problems, SubtreeCycle, path, shown, too_deep};

use crate::definition::{Definition, Fast, Flat, LoadedNode, NO_HOOK, Node as Hot, StoredKey};
use crate::registry::{Ctor, Registry};

pub(crate) fn compile<C: 'static>(reg: &Registry<C>, root: &Node, lib: &Library) -> Result<Definition<C>, LoadError> {
    // Refused before anything is built.
    if let Some((at, message)) = crate::size::too_large(reg, root, lib, &lib.inlined_sizes(), "", None) {
        return Err(LoadError::one(at, message));
    }
    let cycles = if reg.max_recursion == 0 {
        lib.cycles()
    } else {
        Vec::new()
    };
    compile_with(reg, root, lib, &cycles, None, &Remap::new())
}

/// The message of a subtree cycle, at its path.
pub(crate) fn cycle_problem(cycle: &SubtreeCycle) -> (&str, String) {
    (
        &cycle.path,
        format!(
            "subtree cycle: {}; a recursive subtree needs a depth bound: \
             `Registry::max_recursion(n)` lets a subtree nest inside itself n times",
            cycle.message()
        ),
    )
}

/// [`compile`] with the library's `cycles` found already (none when
/// recursion is allowed). With `alone: Some(id)`, `root` is the body of
/// library subtree `id`, checked alone: the subtrees it uses are checked to
/// exist but not inlined (each is checked alone too, through the remaps of
/// the places that use it: `crate::remaps`), and the cycles are left for the library's check
/// to report once; with `None`, `root` is a whole tree and the cycles are
/// its problems. `renames` are the keys of `root`'s leaves that stand for
/// other keys (a library subtree checked through the remaps of a place
/// that uses it; none for a whole tree).
pub(crate) fn compile_with<C: 'static>(
    reg: &Registry<C>,
    root: &Node,
    lib: &Library,
    cycles: &[SubtreeCycle],
    alone: Option<&str>,
    renames: &Remap,
) -> Result<Definition<C>, LoadError> {
    let mut c = Compiler {
        reg,
        lib,
        problems: Problems::default(),
        def: Definition {
            nodes: Vec::new(),
            cold: Vec::new(),
            kids: Vec::new(),
            weights: Vec::new(),
            keys: Vec::new(),
            hooks: Vec::new(),
            conds: Vec::new(),
            scoring: crate::utility::Scoring::default(),
            values: Vec::new(),
            lists: Vec::new(),
            columns: Vec::new(),
            actions: 0,
            table: Vec::new(),
            ints: 0,
            times: Vec::new(),
            secs: Vec::new(),
            fingerprint: 0,
            tick_work: 0,
            pure: Vec::new(),
            entries: Vec::new(),
        },
        column_of: BTreeMap::new(),
        shape: Fnv::new(),
        inlining: alone.into_iter().collect(),
        inline: alone.is_none(),
        in_cycle: std::collections::BTreeSet::new(),
        too_deep: false,
        too_big: false,
        items: 0,
        renames: renames.clone(),
        leaf_entries: (Vec::new(), Vec::new()),
    };
    for cycle in cycles {
        if alone.is_none() {
            let (at, message) = cycle_problem(cycle);
            c.problems.push(at, message);
        }
        // Every cycle goes through the first id of a reported one.
        c.in_cycle.extend(cycle.chain.first().cloned());
    }
    let at = alone.map_or(String::new(), path::subtree);
    behaved_format::deep(|| c.emit(root, None, &at, usize::from(alone.is_some()), &mut Vec::new()));
    let Compiler {
        problems,
        mut def,
        mut shape,
        too_big: c_too_big,
        too_deep: c_too_deep,
        ..
    } = c;
    fingerprint(&mut def, &mut shape);
    def.pure = crate::reads::pure_reads(&def);
    let mut problems = problems;
    if !(c_too_big || c_too_deep) {
        bound_work(reg, &mut def, &mut problems);
    }
    problems.into_result(def)
}

/// Works out the tree's most work per tick and rejects it above the
/// registry's limit, at each node where the work first grows too large.
fn bound_work<C: 'static>(reg: &Registry<C>, def: &mut Definition<C>, problems: &mut Problems) {
    let work = crate::work::per_node(def);
    def.tick_work = work[0];
    for id in crate::work::over_limit(def, &work, reg.max_tick_work) {
        let figure = match work[id as usize] {
            u64::MAX => format!("{} or more", u64::MAX),
            w => w.to_string(),
        };
        problems.push(
            &def.table[id as usize].path,
            format!(
                "one tick can tick leaves up to {figure} times here (bounded loops' counts multiply), \
                 above the limit of {} (`Registry::max_tick_work`); lower a \"count\" or raise the limit",
                reg.max_tick_work
            ),
        );
    }
}

/// The version of the saved-state layout, part of every fingerprint. A format
/// tag, not a crate name: it kept its words when the crates were renamed, so
/// agents saved before still load.
const STATE_LAYOUT: &str = "bt-interp agent state v1";

/// Completes the fingerprint: every node's description and place, after the
/// hooks' leaves hashed during compilation.
fn fingerprint<C>(def: &mut Definition<C>, h: &mut Fnv) {
    h.str(STATE_LAYOUT);
    for (row, (f, hot)) in def.table.iter().zip(def.cold.iter().zip(&def.nodes)) {
        h.str(row.kind.json_name());
        h.str(&row.label);
        h.u32(row.parent.map_or(u32::MAX, |p| p.0));
        for x in [f.op as u32, f.n, f.a, f.b, f.leaf, hot.end, u32::from(hot.hooked)] {
            h.u32(x);
        }
        h.u64(f.secs.to_bits());
    }
    for w in &def.weights {
        h.u32(*w);
    }
    for (k, case) in &def.keys {
        match k {
            StoredKey::Int(i) => h.u64(*i as u64),
            StoredKey::Str(s) => h.str(s),
            StoredKey::Bool(b) => h.u32(u32::from(*b) + 2),
        }
        h.u32(*case);
    }
    def.fingerprint = h.0;
}

/// FNV-1a, 64 bits: stable across platforms and versions of Rust.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xCBF2_9CE4_8422_2325)
    }
    fn bytes(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01B3);
        }
    }
    fn u32(&mut self, x: u32) {
        self.bytes(&x.to_le_bytes());
    }
    fn u64(&mut self, x: u64) {
        self.bytes(&x.to_le_bytes());
    }
    /// A string with its length, so that ("ab", "c") and ("a", "bc") differ.
    fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.bytes(s.as_bytes());
    }
}

struct Compiler<'a, C: 'static> {
    reg: &'a Registry<C>,
    lib: &'a Library,
    problems: Problems,
    def: Definition<C>,
    /// The column of each action name used so far.
    column_of: BTreeMap<String, u32>,
    /// The fingerprint's hash, fed with what the node table does not show (hooks).
    shape: Fnv,
    /// Ids of the subtrees being inlined, outermost first.
    inlining: Vec<&'a str>,
    /// Whether subtrees are inlined, or only checked to exist (a library's
    /// subtree checked alone).
    inline: bool,
    /// The first subtree of each of the library's cycles (a cycle is
    /// named as one, never as a tree nested too deep): never inlined.
    in_cycle: std::collections::BTreeSet<String>,
    too_deep: bool,
    too_big: bool,
    /// The items the `forEach` nodes emitted so far hold in all (the sum of
    /// their `max`), bounded by [`Registry::max_items`].
    items: u64,
    /// The blackboard keys of the subtree being inlined that stand for
    /// another key of the whole tree (the remaps of the `subtree` nodes it
    /// is inlined through, composed); a key not listed is itself.
    renames: Remap,
    /// The blackboard entries the last leaf built reads and writes.
    leaf_entries: (Vec<String>, Vec<String>),
}

impl<'a, C: 'static> Compiler<'a, C> {
    /// Emits `node` and its descendants; returns its id. Recursive: each
    /// call is made through [`behaved_format::deep`], which grows the stack
    /// as it needs.
    fn emit(
        &mut self,
        node: &'a Node,
        parent: Option<u32>,
        at: &str,
        depth: usize,
        loops: &mut Vec<(&'a str, u32)>,
    ) -> u32 {
        let id = self.def.nodes.len() as u32;
        self.def.nodes.push(Hot {
            fast: Fast::Other,
            hooked: false,
            end: id + 1,
            slot: 0,
            arg: 0,
        });
        self.def.cold.push(Flat {
            op: NodeKind::Success,
            n: 0,
            kids: 0,
            slot: 0,
            time: 0,
            a: 0,
            b: 0,
            leaf: 0,
            hooks: NO_HOOK,
            secs: 0.0,
        });
        self.def.table.push(LoadedNode {
            id: NodeId(id),
            parent: parent.map(NodeId),
            kind: node.kind(),
            label: node.label(),
            name: node.name().map(String::from),
            json_id: node.id().map(String::from),
            path: at.to_string(),
        });
        if self.def.nodes.len() > self.reg.max_nodes {
            if !self.too_big {
                self.too_big = true;
                self.problems.push(
                    "",
                    format!(
                        "the tree has more than {} nodes once its subtrees are inlined",
                        self.reg.max_nodes
                    ),
                );
            }
            return id;
        }
        if depth > self.reg.max_depth {
            if !self.too_deep {
                self.too_deep = true;
                self.problems.push(at, too_deep(self.reg.max_depth));
            }
            return id;
        }
        // A recursive reference nested deeper than the registry allows is
        // cut: a leaf that fails when reached.
        let cut = matches!(node.params(), Params::Subtree(sid) if self.recursion_cut(sid));
        let op = if cut { NodeKind::Failure } else { node.kind() };
        if cut {
            let row = &mut self.def.table[id as usize];
            row.label = format!("{} (recursion limit: fails)", row.label);
        }
        let n = node.children().len() as u32;
        let mut flat = self.def.cold[id as usize];
        flat.op = op;
        flat.n = n;
        self.state(&mut flat, node);
        self.params(&mut flat, node, at, loops);
        self.note_entries(id);
        if let Some(h) = &node.hooks() {
            let mut slots = [(NO_HOOK, 0); 7];
            for (i, (field, hook)) in behaved_format::model::Hooks::FIELDS.iter().zip(h.all()).enumerate() {
                self.shape.u32(id);
                if let Some(leaf) = hook {
                    slots[i] = self.action(leaf, &path::field(at, field));
                    self.shape.str(&leaf.type_name);
                    self.shape
                        .str(&serde_json::Value::Object(leaf.params.clone()).to_string());
                }
            }
            flat.hooks = self.def.hooks.len() as u32;
            self.def.hooks.push(slots);
        }

        // Children: a loop is the target of the jumps in its body.
        let looped = node.kind().is_loop();
        if looped {
            // A tree built in code is not decoded: its labels are checked here.
            if let Some(label) = node.loop_label()
                && loops.iter().any(|(l, _)| *l == label)
            {
                self.problems.push(
                    &path::field(at, "label"),
                    behaved_format::messages::shadowed_label(label),
                );
            }
            loops.push((node.loop_label().unwrap_or(""), id));
        }
        let mut kid_ids = Vec::with_capacity(node.children().len());
        if node.kind() == NodeKind::Subtree {
            if !cut
                && let Params::Subtree(sid) = node.params()
                && let Some(sub) = self.subtree(sid, at)
                && self.inline
            {
                self.inlining.push(sid);
                let outer = node.remap().map(|remap| self.enter_remap(remap));
                let at = path::subtree(sid);
                kid_ids.push(behaved_format::deep(|| {
                    self.emit(sub, Some(id), &at, depth + 1, &mut Vec::new())
                }));
                if let Some(outer) = outer {
                    self.renames = outer;
                }
                self.inlining.pop();
            }
            flat.n = kid_ids.len() as u32;
        } else {
            for (i, child) in node.children().iter().enumerate() {
                let cp = node.child_path(at, i);
                kid_ids.push(behaved_format::deep(|| {
                    self.emit(child, Some(id), &cp, depth + 1, loops)
                }));
            }
        }
        if looped {
            loops.pop();
        }
        flat.kids = self.def.kids.len() as u32;
        self.def.kids.extend(kid_ids);
        if flat.has_timer() {
            self.def.secs[flat.time as usize] = flat.secs;
        }
        self.def.cold[id as usize] = flat;
        let (slot, arg) = match op {
            NodeKind::Condition | NodeKind::WaitUntil | NodeKind::Break | NodeKind::Continue => (0, flat.leaf),
            NodeKind::Action => (flat.b, flat.leaf),
            // The timer of a kind that keeps time, the count of one that counts.
            op if op.is_timed() => (flat.slot, flat.time),
            op if op.params() == Parameters::Count => (flat.slot, flat.a),
            _ => (flat.slot, 0),
        };
        let hooked = flat.hooks != NO_HOOK;
        let leaves_only = (id + 1..self.def.nodes.len() as u32).all(|k| self.def.nodes[k as usize].fast.is_leaf());
        let fast = match op {
            _ if hooked => Fast::Other,
            NodeKind::Sequence if leaves_only => Fast::LeafSequence,
            NodeKind::Selector if leaves_only => Fast::LeafSelector,
            NodeKind::ReactiveSequence if leaves_only => Fast::LeafReactiveSequence,
            NodeKind::ReactiveSelector if leaves_only => Fast::LeafReactiveSelector,
            NodeKind::Condition => Fast::Condition,
            NodeKind::Action => Fast::Action,
            NodeKind::Wait => Fast::Wait,
            NodeKind::Sequence => Fast::Sequence,
            NodeKind::Selector => Fast::Selector,
            NodeKind::ReactiveSequence => Fast::ReactiveSequence,
            NodeKind::ReactiveSelector => Fast::ReactiveSelector,
            NodeKind::Loop => Fast::Loop,
            NodeKind::UntilFail => Fast::UntilFail,
            NodeKind::UntilSuccess => Fast::UntilSuccess,
            _ => Fast::Other,
        };
        self.def.nodes[id as usize] = Hot {
            fast,
            hooked,
            end: self.def.nodes.len() as u32,
            slot,
            arg,
        };
        id
    }

    /// Allocates the node's running state.
    fn state(&mut self, flat: &mut Flat, node: &Node) {
        let words = state_words(flat.op, node.children().len());
        flat.slot = self.def.ints as u32;
        self.def.ints += words;
        // A kind that keeps time (the catalogue's `is_timed`) has a timer; a
        // cooldown's has never completed: any time since then is long enough.
        let time = flat
            .op
            .is_timed()
            .then_some(if flat.op == NodeKind::Cooldown { f64::MIN } else { 0.0 });
        if let Some(t) = time {
            flat.time = self.def.times.len() as u32;
            self.def.times.push(t);
            self.def.secs.push(0.0);
        }
    }

    /// Fills in the node's parameters and builds its leaves.
    fn params(&mut self, flat: &mut Flat, node: &'a Node, at: &str, loops: &[(&'a str, u32)]) {
        let n = node.children().len() as u32;
        match node.params() {
            Params::Parallel(policy) => {
                let (s, f) = policy.thresholds(n);
                // "S became unreachable" is "more than n - S failed": one threshold.
                flat.a = s;
                flat.b = f.min(n - s + 1);
            }
            Params::Weights(w) => {
                flat.a = self.def.weights.len() as u32;
                let mut total = 0u32;
                for &x in w {
                    total += x;
                    self.def.weights.push(total);
                }
                flat.b = total;
            }
            Params::Branches { has_else } => {
                flat.a = (n - u32::from(*has_else)) / 2;
                flat.b = u32::from(*has_else);
            }
            Params::Match { value, cases } => {
                flat.a = self.def.keys.len() as u32;
                for (i, keys) in cases.iter().enumerate() {
                    for k in keys {
                        let k = match k {
                            Key::Int(i) => StoredKey::Int(*i),
                            Key::Str(s) => StoredKey::Str(s.as_str().into()),
                            Key::Bool(b) => StoredKey::Bool(*b),
                        };
                        self.def.keys.push((k, i as u32));
                    }
                }
                flat.b = self.def.keys.len() as u32 - flat.a;
                flat.leaf = self.value(value, &path::field(at, "value"));
            }
            Params::Utility { choice, scores } => {
                flat.a = self.utility(*choice, scores, at, "scores");
                // The interval form keeps the time it last scored, saved as a timer's start.
                if let behaved_format::utility::Choice::Every { every, .. } = choice {
                    flat.time = self.def.times.len() as u32;
                    flat.secs = *every;
                    self.def.times.push(0.0);
                    self.def.secs.push(*every);
                }
            }
            Params::Count(c) => flat.a = *c,
            Params::ForEach { items, max } => {
                flat.a = *max;
                flat.leaf = self.list(items, *max, &path::field(at, "items"));
                self.hold_items(*max, &path::field(at, "max"));
            }
            Params::Pick { items, max, score } => {
                flat.a = *max;
                flat.leaf = self.list(items, *max, &path::field(at, "items"));
                self.hold_items(*max, &path::field(at, "max"));
                let choice = behaved_format::utility::Choice::Best;
                flat.b = self.utility(choice, std::slice::from_ref(score), at, "score");
            }
            Params::Seconds(s) => flat.secs = *s,
            Params::Leaf(leaf) if matches!(node.kind(), NodeKind::Condition | NodeKind::WaitUntil) => {
                flat.leaf = self.condition(leaf, &path::field(at, "condition"));
            }
            Params::Leaf(leaf) => (flat.b, flat.leaf) = self.action(leaf, &path::field(at, "action")),
            Params::None | Params::Subtree(_) => {}
        }
        if matches!(flat.op, NodeKind::Break | NodeKind::Continue) {
            let target = match &node.loop_label() {
                Some(l) => loops.iter().rev().find(|(name, _)| name == l),
                None => loops.last(),
            };
            match target {
                Some(&(_, loop_id)) => flat.leaf = loop_id,
                None => self.problems.push(
                    at,
                    match &node.loop_label() {
                        Some(l) => format!("no enclosing loop is labelled {}", shown(l)),
                        None => format!("{:?} is not inside a loop", node.kind().json_name()),
                    },
                ),
            }
        }
    }

    /// A `utility` node's scores (in `field`, `"scores"`), or a `pick`'s
    /// one (`"score"`), each consideration built (or reported at its path);
    /// returns the node's index in `Definition::scoring`.
    fn utility(
        &mut self,
        choice: behaved_format::utility::Choice,
        scores: &[behaved_format::utility::Score],
        at: &str,
        field: &str,
    ) -> u32 {
        let mut scoring = std::mem::take(&mut self.def.scoring);
        let one = field == "score";
        let index = scoring.add(choice, scores, &mut |leaf, place| {
            let mut p = path::field(at, field);
            for (depth, i) in place.iter().enumerate() {
                if depth > 0 {
                    p = path::field(&p, "all");
                }
                // A `pick`'s one score has no index of its own.
                if !(one && depth == 0) {
                    p = path::index(&p, *i);
                }
            }
            let p = path::field(&p, "consider");
            self.build(&self.reg.considerations, leaf, "consideration", &p)
        });
        self.def.scoring = scoring;
        index
    }

    /// Enters a `subtree` node's `remap`: its keys then stand for the keys
    /// their values stand for here. Returns the renames to restore after.
    fn enter_remap(&mut self, remap: &Remap) -> Remap {
        let mut inner = self.renames.clone();
        for (key, to) in remap {
            let to = self.renames.get(to).unwrap_or(to).clone();
            inner.insert(key.clone(), to);
        }
        std::mem::replace(&mut self.renames, inner)
    }

    /// `leaf` with its blackboard references renamed as the subtrees it is
    /// inlined through remap them (itself when none are).
    fn scoped<'l>(&self, leaf: &'l Leaf) -> std::borrow::Cow<'l, Leaf> {
        if self.renames.is_empty() || behaved_format::port::references(&leaf.params).is_empty() {
            return std::borrow::Cow::Borrowed(leaf);
        }
        let mut leaf = leaf.clone();
        behaved_format::port::rename_references(&mut leaf.params, &self.renames);
        std::borrow::Cow::Owned(leaf)
    }

    /// Keeps the entries leaf `id`'s ports read and write, if any.
    fn note_entries(&mut self, id: u32) {
        let (read, written) = std::mem::take(&mut self.leaf_entries);
        if !read.is_empty() {
            self.def.entries.push((id, read, written));
        }
    }

    fn condition(&mut self, leaf: &Leaf, at: &str) -> u32 {
        let built = self.build(&self.reg.conditions, leaf, "condition", at);
        built.map_or(0, |c| index_of_pushed(&mut self.def.conds, c))
    }

    /// Builds `leaf` of family `what` with the registry's constructor for
    /// its name in `family`, or reports why it cannot be built.
    fn build<T>(&mut self, family: &BTreeMap<String, Ctor<T>>, leaf: &Leaf, what: &str, at: &str) -> Option<T> {
        let leaf = &*self.scoped(leaf);
        match family.get(&leaf.type_name) {
            Some(make) => self.checked(leaf, what, at, |_| make(&leaf.params)),
            None => {
                let message = self.reg.unknown_message(what, &leaf.type_name);
                self.problems.push(at, message);
                None
            }
        }
    }

    /// Runs `build` (given the definition, where an action's column is) for
    /// `leaf` of family `what` with its ports resolved (`ports::built`);
    /// a bad parameter is reported at `at`. The one place every leaf is
    /// built, whichever family.
    fn checked<T>(
        &mut self,
        leaf: &Leaf,
        what: &str,
        at: &str,
        build: impl FnOnce(&mut Definition<C>) -> Result<T, String>,
    ) -> Option<T> {
        let (def, problems, entries) = (&mut self.def, &mut self.problems, &mut self.leaf_entries);
        match crate::ports::built(self.reg, &leaf.params, &leaf.type_name, at, problems, entries, || {
            build(def)
        }) {
            Ok(built) => Some(built),
            Err(None) => None,
            Err(Some(e)) => {
                let message = format!("bad parameters for {what} {}: {e}", shown(&leaf.type_name));
                self.problems.push(at, message);
                None
            }
        }
    }

    /// Builds an action leaf into the column of its name; returns (column, index).
    fn action(&mut self, leaf: &Leaf, at: &str) -> (u32, u32) {
        let scoped = self.scoped(leaf);
        let leaf = &*scoped;
        match self.reg.actions.get(&leaf.type_name) {
            Some(kind) => {
                let col = *self.column_of.entry(leaf.type_name.clone()).or_insert_with(|| {
                    self.def.columns.push((leaf.type_name.clone(), kind.column()));
                    self.def.columns.len() as u32 - 1
                });
                let built = self.checked(leaf, "action", at, |def| {
                    kind.build(&leaf.params, &mut *def.columns[col as usize].1)
                });
                if let Some(i) = built {
                    self.def.actions += 1;
                    return (col, i);
                }
            }
            None => {
                let msg = self.reg.unknown_message("action", &leaf.type_name);
                self.problems.push(at, msg);
            }
        }
        (0, 0)
    }

    fn value(&mut self, leaf: &Leaf, at: &str) -> u32 {
        let built = self.build(&self.reg.values, leaf, "value", at);
        built.map_or(0, |v| index_of_pushed(&mut self.def.values, v))
    }

    /// The registered list `leaf`, built from its parameters, for a
    /// `forEach` holding up to `max` items; returns its index.
    fn list(&mut self, leaf: &Leaf, max: u32, at: &str) -> u32 {
        let built = self.build(&self.reg.lists, leaf, "list", at);
        built.map_or(0, |l| index_of_pushed(&mut self.def.lists, (l, max)))
    }

    /// Counts a `forEach` holding up to `max` items against
    /// [`Registry::max_items`]; reports the one that first goes over it.
    fn hold_items(&mut self, max: u32, at: &str) {
        let limit = self.reg.max_items;
        let before = self.items;
        self.items = before.saturating_add(u64::from(max));
        if before <= limit && self.items > limit {
            self.problems.push(
                at,
                format!(
                    "the forEach nodes up to here hold up to {} items in all, above the limit of {limit} \
                     (`Registry::max_items`: every agent reserves room for them when it is created); \
                     lower a \"max\" or raise the limit",
                    self.items
                ),
            );
        }
    }

    /// Whether a reference to `sid` here is a recursion deeper than
    /// [`Registry::max_recursion`] allows (so it is cut). With no recursion
    /// allowed, a cycle is reported by [`Compiler::subtree`] instead.
    fn recursion_cut(&self, sid: &str) -> bool {
        let max = self.reg.max_recursion;
        max > 0 && self.inlining.iter().filter(|s| **s == sid).count() > max
    }

    /// The library subtree `sid`, or `None` after reporting why it cannot be used.
    fn subtree(&mut self, sid: &str, at: &str) -> Option<&'a Node> {
        if self.in_cycle.contains(sid) {
            return None;
        }
        let p = path::field(at, "subtreeId");
        if self.reg.max_recursion == 0
            && let Some(pos) = self.inlining.iter().position(|s| *s == sid)
        {
            let mut cycle: Vec<String> = self.inlining[pos..].iter().map(|s| shown(s)).collect();
            cycle.push(shown(sid));
            self.problems.push(
                &p,
                format!(
                    "subtree cycle: {}; a recursive subtree needs a depth bound: \
                     `Registry::max_recursion(n)` lets a subtree nest inside itself n times",
                    cycle.join(" -> ")
                ),
            );
            return None;
        }
        match self.lib.get(sid) {
            Some(n) => Some(n),
            // Past the problems listed, only counted: no hint, which looks at every id.
            None if self.problems.len() >= LoadError::MAX_LISTED => {
                self.problems.push(&p, format!("unknown subtree {}", shown(sid)));
                None
            }
            None => {
                let ids: Vec<&str> = self.lib.ids().collect();
                let hint = did_you_mean(sid, ids.iter().copied());
                let sid = shown(sid);
                let msg = if !hint.is_empty() {
                    format!("unknown subtree {sid}{hint}")
                } else if ids.is_empty() {
                    format!("unknown subtree {sid}; the library is empty")
                } else if ids.len() > LISTED {
                    format!("unknown subtree {sid}; the library has {} others", ids.len())
                } else {
                    format!("unknown subtree {sid}; the library has {}", one_of(&ids))
                };
                self.problems.push(&p, msg);
                None
            }
        }
    }
}

/// How many state words (`State::ints`) a node of kind `op` with `n`
/// children keeps; 0 for a kind whose only state is its children's
/// (`invariants.rs` then derives its invariants from its shape).
pub(crate) fn state_words(op: NodeKind, n: usize) -> usize {
    match op {
        NodeKind::Sequence | NodeKind::Selector | NodeKind::ReactiveSequence | NodeKind::ReactiveSelector => 1,
        // The running child's id, and whether a child failed in this activation.
        NodeKind::SequenceAlways => 2,
        NodeKind::Parallel => 2 + n,
        NodeKind::ParallelMain => n,
        op if keeps_choice(op) => 1,
        NodeKind::Shuffle => 1 + n,
        NodeKind::Loop
        | NodeKind::UntilFail
        | NodeKind::UntilSuccess
        | NodeKind::While
        | NodeKind::Repeat
        | NodeKind::Retry
        | NodeKind::ForEach
        | NodeKind::Pick => 1,
        NodeKind::Delay | NodeKind::Limit | NodeKind::RunOnce => 1,
        _ => 0,
    }
}

/// Whether a node of kind `op` keeps one state word, the chosen child's
/// index + 1 (0 while idle): the random draws, `utility`, the branches. One
/// list for [`state_words`] and the invariants that check that word.
pub(crate) const fn keeps_choice(op: NodeKind) -> bool {
    use NodeKind as K;
    matches!(
        op,
        K::Random | K::Weighted | K::Utility | K::If | K::ReactiveIf | K::Match | K::ReactiveMatch
    )
}

/// Pushes `item` onto `list`; returns its index.
fn index_of_pushed<T>(list: &mut Vec<T>, item: T) -> u32 {
    list.push(item);
    list.len() as u32 - 1
}

/// The most names a message lists; more are counted.
pub(crate) const LISTED: usize = 12;

//! A deterministic generator of random behavior trees that writes each tree
//! twice: as `behave!` source and as JSON (with its subtree library), over the
//! same scripted leaves. Used by `build.rs` (which compiles the DSL form) and
//! by the tests (which load the JSON form).
//!
//! Which node kinds appear is a list ([`MACRO_KINDS`] for the differential test,
//! [`ALL_KINDS`] for the interpreter-only fuzz), and lifecycle hooks are a
//! switch: a kind the macro does not compile is simply left out of the list.

use std::fmt::Write;

use behaved_runtime::NodeKind as K;
use behaved_runtime::catalog::Slots;

/// The node kinds `behave!` compiles today: the whole catalogue.
pub const MACRO_KINDS: &[K] = ALL_KINDS;

/// Whether `behave!` compiles lifecycle hooks (`#[on_enter(..)]` ..) today.
pub const MACRO_HOOKS: bool = true;

/// Every kind the generator can write: the whole catalogue, in its order.
pub const ALL_KINDS: &[K] = K::ALL;

/// The kinds of `kinds` that `found` lacks: for the tests' check that the
/// generated trees have (or tick) every kind they may.
pub fn kinds_missing(kinds: &[K], found: &std::collections::BTreeSet<K>) -> Vec<K> {
    kinds.iter().copied().filter(|k| !found.contains(k)).collect()
}

/// The most `for` loops nested in each other (subtrees included): each has
/// its own slot for the current item in the context (`Ctx::items`).
pub const FOR_LEVELS: usize = 4;

/// Deepest node (the root is at depth 0).
pub const MAX_DEPTH: usize = 6;

/// One generated tree in both forms.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The struct name of the main tree (`T17`).
    pub name: String,
    /// `behave!` items: the subtrees first, then the main tree.
    pub dsl: String,
    /// The main tree as JSON.
    pub json: String,
    /// Its subtree library as JSON (`{"subtrees": {..}}`).
    pub library: String,
    /// The seed of the tick times and of the agents' RNG.
    pub seed: u64,
}

/// SplitMix64, so the generator needs nothing but std.
#[derive(Debug, Clone)]
pub struct Rand(u64);

impl Rand {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rand {
        Rand(seed)
    }
    /// The next 64 bits.
    pub fn bits(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.bits() % n
    }
    /// `true` with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }
}

/// One node written both ways.
struct Both {
    dsl: String,
    json: String,
}

struct Gen<'a> {
    rand: Rand,
    kinds: &'a [K],
    hooks: bool,
    name: String,
    /// Subtrees made so far: (struct name, library id, dsl body, json body).
    subtrees: Vec<(String, String, String, String)>,
    /// Labels of the enclosing loops of the tree being written (`None` = unlabelled).
    loops: Vec<Option<String>>,
    /// The enclosing `for` loops whose item the leaves of the tree being
    /// written can name: (the loop's id, its level).
    fors: Vec<(u32, usize)>,
    /// How many `for` loops enclose the node being written, across subtrees:
    /// each level has its own slot in the context for the JSON form's items.
    for_level: usize,
    next_leaf: u32,
    next_label: u32,
    nodes: usize,
}

/// Generates tree number `index` from `seed` over `kinds`, with lifecycle
/// hooks on some nodes when `hooks`.
pub fn generate(index: usize, seed: u64, kinds: &[K], hooks: bool) -> Generated {
    let mut g = Gen {
        rand: Rand::new(seed),
        kinds,
        hooks,
        name: format!("T{index}"),
        subtrees: Vec::new(),
        loops: Vec::new(),
        fors: Vec::new(),
        for_level: 0,
        next_leaf: 0,
        next_label: 0,
        nodes: 0,
    };
    let root = g.node(0, 0);
    let mut dsl = String::new();
    for (name, _, body, _) in &g.subtrees {
        writeln!(dsl, "    tree {name} for Ctx {{ {body} }}").unwrap();
    }
    writeln!(dsl, "    tree {} for Ctx {{ {} }}", g.name, root.dsl).unwrap();
    let entries: Vec<String> = g
        .subtrees
        .iter()
        .map(|(_, id, _, json)| format!("\"{id}\": {json}"))
        .collect();
    Generated {
        name: g.name.clone(),
        dsl,
        json: root.json,
        library: format!("{{\"subtrees\": {{{}}}}}", entries.join(", ")),
        seed,
    }
}

impl Gen<'_> {
    fn has(&self, k: K) -> bool {
        self.kinds.contains(&k)
    }

    fn pick(&mut self, from: &[K]) -> Option<K> {
        let usable: Vec<K> = from.iter().copied().filter(|k| self.has(*k)).collect();
        if usable.is_empty() {
            None
        } else {
            Some(usable[self.rand.below(usable.len() as u64) as usize])
        }
    }

    /// A node at `depth`; `sub` is the subtree nesting level; some get hooks.
    fn node(&mut self, depth: usize, sub: usize) -> Both {
        let node = self.bare_node(depth, sub);
        if !self.hooks || !self.rand.chance(1, 8) {
            return node;
        }
        let id = self.leaf_id();
        let mut dsl = String::new();
        let mut json = String::from("{");
        // The tick hooks keep a tree awake: rarer, so that many trees still sleep.
        for (attr, field, odds) in [
            ("on_enter", "onEnter", 2),
            ("on_success", "onSuccess", 2),
            ("on_failure", "onFailure", 2),
            ("on_exit", "onExit", 2),
            ("on_pre_tick", "onPreTick", 8),
            ("on_tick", "onTick", 8),
            ("on_reset", "onReset", 2),
        ] {
            if self.rand.chance(1, odds) {
                write!(dsl, "#[{attr}(|c| c.hook({id}, \"{attr}\"))] ").unwrap();
                write!(
                    json,
                    "\"{field}\": {{\"type\": \"hook\", \"id\": {id}, \"what\": \"{attr}\"}}, "
                )
                .unwrap();
            }
        }
        Both {
            dsl: format!("{dsl}{}", node.dsl),
            json: format!("{json}{}", &node.json[1..]),
        }
    }

    fn bare_node(&mut self, depth: usize, sub: usize) -> Both {
        self.nodes += 1;
        let d = depth as f64 / MAX_DEPTH as f64;
        let leaf_odds = if depth >= MAX_DEPTH || self.nodes > 60 {
            1.0
        } else {
            0.05 + 0.9 * d * d
        };
        let leaf = (self.rand.below(1000) as f64) < leaf_odds * 1000.0 || depth == MAX_DEPTH;
        if !leaf || depth == 0 {
            // The kinds with children, in catalogue order.
            let inner: Vec<K> = K::ALL
                .iter()
                .copied()
                .filter(|k| k.arity() != behaved_runtime::Arity::Leaf)
                .collect();
            if depth < MAX_DEPTH
                && let Some(k) = self.pick(&inner)
            {
                return self.inner(k, depth, sub);
            }
        }
        self.leaf(depth, sub)
    }

    fn children(&mut self, depth: usize, sub: usize) -> Vec<Both> {
        let n = if self.rand.chance(1, 8) {
            1
        } else {
            2 + self.rand.below(3)
        };
        (0..n).map(|_| self.node(depth + 1, sub)).collect()
    }

    fn inner(&mut self, k: K, depth: usize, sub: usize) -> Both {
        match k {
            K::Parallel => {
                let kids = self.children(depth, sub);
                let n = kids.len() as u64;
                let (dsl, json) = match self.rand.below(3) {
                    0 => ("parallel(all)".to_string(), "\"policy\": \"requireAll\", ".to_string()),
                    1 => ("parallel(any)".to_string(), "\"policy\": \"requireOne\", ".to_string()),
                    _ => {
                        let s = 1 + self.rand.below(n);
                        let f = 1 + self.rand.below(n);
                        (
                            format!("parallel(success = {s}, failure = {f})"),
                            format!("\"success\": {s}, \"failure\": {f}, "),
                        )
                    }
                };
                self.composite(&dsl, "parallel", &json, kids)
            }
            K::Weighted => {
                let kids = self.children(depth, sub);
                let weights: Vec<u64> = kids.iter().map(|_| 1 + self.rand.below(4)).collect();
                let dsl: Vec<String> = kids
                    .iter()
                    .zip(&weights)
                    .map(|(k, w)| format!("{w} => {}", k.dsl))
                    .collect();
                let json: Vec<&str> = kids.iter().map(|k| k.json.as_str()).collect();
                let ws: Vec<String> = weights.iter().map(ToString::to_string).collect();
                Both {
                    dsl: format!("weighted {{ {} }}", dsl.join(", ")),
                    json: format!(
                        "{{\"type\": \"weighted\", \"weights\": [{}], \"children\": [{}]}}",
                        ws.join(", "),
                        json.join(", ")
                    ),
                }
            }
            K::Utility => self.utility(depth, sub),
            K::If | K::ReactiveIf => {
                let branches = 1 + self.rand.below(2);
                let mut dsl = String::new();
                let mut json = Vec::new();
                for b in 0..branches {
                    let (c, bare) = self.condition_bare();
                    let then = self.node(depth + 1, sub);
                    if b > 0 {
                        dsl.push_str(" else ");
                    }
                    write!(dsl, "if {bare} {{ {} }}", then.dsl).unwrap();
                    json.push(format!("{{\"if\": {}, \"then\": {}}}", c.json, then.json));
                }
                let else_ = if self.rand.chance(1, 2) {
                    Some(self.node(depth + 1, sub))
                } else {
                    None
                };
                if let Some(e) = &else_ {
                    write!(dsl, " else {{ {} }}", e.dsl).unwrap();
                }
                let reactive = if k == K::ReactiveIf { "reactive " } else { "" };
                Both {
                    dsl: format!("{reactive}{dsl}"),
                    json: format!(
                        "{{\"type\": \"{}\", \"branches\": [{}]{}}}",
                        k.json_name(),
                        json.join(", "),
                        else_.map(|e| format!(", \"else\": {}", e.json)).unwrap_or_default()
                    ),
                }
            }
            K::Match | K::ReactiveMatch => {
                let cases = 1 + self.rand.below(2);
                let mut dsl = Vec::new();
                let mut json = Vec::new();
                for c in 0..cases {
                    let child = self.node(depth + 1, sub);
                    dsl.push(format!("{c} => {}", child.dsl));
                    json.push(format!("{{\"when\": {c}, \"child\": {}}}", child.json));
                }
                let default = self.node(depth + 1, sub);
                dsl.push(format!("_ => {}", default.dsl));
                let reactive = if k == K::ReactiveMatch { "reactive " } else { "" };
                Both {
                    dsl: format!("{reactive}match |c| c.phase() {{ {} }}", dsl.join(", ")),
                    json: format!(
                        "{{\"type\": \"{}\", \"value\": \"phase\", \"cases\": [{}], \"default\": {}}}",
                        k.json_name(),
                        json.join(", "),
                        default.json
                    ),
                }
            }
            K::Loop | K::UntilFail | K::UntilSuccess | K::Repeat | K::Retry | K::While => self.looped(k, depth, sub),
            K::ForEach if self.for_level < FOR_LEVELS => self.for_each(depth, sub),
            K::Pick if self.for_level < FOR_LEVELS => self.best_candidate(depth, sub),
            K::Timeout | K::Delay | K::Cooldown => {
                let d = self.duration();
                let child = self.node(depth + 1, sub);
                self.decorator(
                    &format!("{}({d:?})", k.dsl_name()),
                    k.json_name(),
                    &format!("\"seconds\": {d:?}, "),
                    child,
                )
            }
            K::Limit => {
                let n = 1 + self.rand.below(3);
                let child = self.node(depth + 1, sub);
                self.decorator(&format!("limit({n})"), "limit", &format!("\"count\": {n}, "), child)
            }
            K::Scope => {
                let id = self.leaf_id();
                let child = self.node(depth + 1, sub);
                Both {
                    dsl: format!("scope {{ let v{id}: u32 = {id}; {} }}", child.dsl),
                    json: format!("{{\"type\": \"scope\", \"child\": {}}}", child.json),
                }
            }
            // A kind that holds nothing but its children, by its shape: a new
            // kind of a known shape needs no line here.
            k if k.holds_only_children() && !k.is_loop() && k != K::Scope => match k.slots() {
                Slots::Children => {
                    let kids = self.children(depth, sub);
                    self.composite(k.dsl_name(), k.json_name(), "", kids)
                }
                Slots::Child => {
                    let child = self.node(depth + 1, sub);
                    self.decorator(k.dsl_name(), k.json_name(), "", child)
                }
                Slots::ConditionChild => {
                    let (c, bare) = self.condition_bare();
                    let child = self.node(depth + 1, sub);
                    Both {
                        dsl: format!("{}({bare}) {{ {} }}", k.dsl_name(), child.dsl),
                        json: format!(
                            "{{\"type\": \"{}\", \"condition\": {}, \"child\": {}}}",
                            k.json_name(),
                            c.json,
                            child.json
                        ),
                    }
                }
                _ => self.leaf(depth, sub),
            },
            _ => self.leaf(depth, sub),
        }
    }

    fn composite(&mut self, dsl: &str, json: &str, params: &str, kids: Vec<Both>) -> Both {
        let d: Vec<&str> = kids.iter().map(|k| k.dsl.as_str()).collect();
        let j: Vec<&str> = kids.iter().map(|k| k.json.as_str()).collect();
        Both {
            dsl: format!("{dsl} {{ {} }}", d.join(", ")),
            json: format!("{{\"type\": \"{json}\", {params}\"children\": [{}]}}", j.join(", ")),
        }
    }

    fn decorator(&mut self, dsl: &str, json: &str, params: &str, child: Both) -> Both {
        Both {
            dsl: format!("{dsl} {{ {} }}", child.dsl),
            json: format!("{{\"type\": \"{json}\", {params}\"child\": {}}}", child.json),
        }
    }

    /// A fresh label for a loop, one time in three where the tree may jump
    /// (`break`/`continue` are in the mix); none otherwise.
    fn loop_label(&mut self) -> Option<String> {
        let jumps = self.has(K::Break) || self.has(K::Continue);
        if jumps && self.rand.chance(1, 3) {
            self.next_label += 1;
            Some(format!("l{}", self.next_label))
        } else {
            None
        }
    }

    fn looped(&mut self, k: K, depth: usize, sub: usize) -> Both {
        let label = self.loop_label();
        let cond = if k == K::While {
            Some(self.condition_bare())
        } else {
            None
        };
        self.loops.push(label.clone());
        let body = self.node(depth + 1, sub);
        self.loops.pop();
        let count = 1 + self.rand.below(3);
        let (dsl_head, json_params) = match k {
            K::Repeat => (format!("repeat({count})"), format!("\"count\": {count}, ")),
            K::Retry => (format!("retry({count})"), format!("\"count\": {count}, ")),
            K::While => {
                let (c, bare) = cond.as_ref().expect("while has a condition");
                (format!("while {bare}"), format!("\"condition\": {}, ", c.json))
            }
            _ => (k.dsl_name().to_string(), String::new()),
        };
        let (dsl_label, json_label) = match &label {
            Some(l) => (format!("'{l}: "), format!("\"label\": \"{l}\", ")),
            None => (String::new(), String::new()),
        };
        Both {
            dsl: format!("{dsl_label}{dsl_head} {{ {} }}", body.dsl),
            json: format!(
                "{{\"type\": \"{}\", {json_label}{json_params}\"child\": {}}}",
                k.json_name(),
                body.json
            ),
        }
    }

    /// `pick xN: u64 in |c| c.list(N, level) max m by |c, xN| c.item_score(S,
    /// level, *xN) { body }`: the candidates as a `for` loop's items, scored
    /// by a function of the candidate (the JSON form's consideration reads
    /// the candidate its list selected in the context); leaves in the body
    /// may use the chosen one as a `for` body's use its item. No loop: jumps
    /// in the body go to the enclosing loop.
    fn best_candidate(&mut self, depth: usize, sub: usize) -> Both {
        let (id, level, max) = (self.leaf_id(), self.for_level, 1 + self.rand.below(4));
        let score = self.leaf_id();
        self.fors.push((id, level));
        self.for_level += 1;
        let body = self.node(depth + 1, sub);
        self.for_level -= 1;
        self.fors.pop();
        Both {
            dsl: format!(
                "pick x{id}: u64 in |c| c.list({id}, {level}) max {max} by |c, x{id}| c.item_score({score}, {level}, *x{id}) {{ {} }}",
                body.dsl
            ),
            json: format!(
                "{{\"type\": \"pick\", \"items\": {{\"type\": \"list\", \"id\": {id}, \"level\": {level}}}, \"max\": {max}, \"score\": {{\"consider\": {{\"type\": \"itemScore\", \"id\": {score}, \"level\": {level}}}}}, \"child\": {}}}",
                body.json
            ),
        }
    }

    /// `for xN: u64 in |c| c.list(N, level) max m { body }`: up to four items
    /// from the context; leaves in the body may use the item
    /// (`c.use_item(id, level, *xN)`), which the JSON form's list puts in the
    /// context's slot for its level.
    fn for_each(&mut self, depth: usize, sub: usize) -> Both {
        let label = self.loop_label();
        let (id, level, max) = (self.leaf_id(), self.for_level, 1 + self.rand.below(3));
        self.loops.push(label.clone());
        self.fors.push((id, level));
        self.for_level += 1;
        let body = self.node(depth + 1, sub);
        self.for_level -= 1;
        self.fors.pop();
        self.loops.pop();
        let (dsl_label, json_label) = match &label {
            Some(l) => (format!("'{l}: "), format!("\"label\": \"{l}\", ")),
            None => (String::new(), String::new()),
        };
        Both {
            dsl: format!(
                "{dsl_label}for x{id}: u64 in |c| c.list({id}, {level}) max {max} {{ {} }}",
                body.dsl
            ),
            json: format!(
                "{{\"type\": \"forEach\", {json_label}\"items\": {{\"type\": \"list\", \"id\": {id}, \"level\": {level}}}, \"max\": {max}, \"child\": {}}}",
                body.json
            ),
        }
    }

    /// A `utility` node: each way of choosing (the interval form too), and scores of each form (a
    /// closure, a curve of one, `all` of two with a weight). Curves' and
    /// weights' numbers are exact in `f32`, so that both forms read them alike.
    fn utility(&mut self, depth: usize, sub: usize) -> Both {
        let kids = self.children(depth, sub);
        let (dsl_args, json_args) = match self.rand.below(4) {
            0 => (String::new(), String::new()),
            1 => match self.rand.below(3) {
                0 => ("(weighted)".to_string(), "\"choose\": \"weighted\", ".to_string()),
                k => (
                    format!("(weighted, best = {k})"),
                    format!("\"choose\": \"weighted\", \"best\": {k}, "),
                ),
            },
            2 => {
                let m = [0.0, 0.125, 0.25][self.rand.below(3) as usize];
                (
                    format!("(reactive, margin = {m:?})"),
                    format!("\"choose\": \"reactive\", \"margin\": {m:?}, "),
                )
            }
            // The interval form: the tick times step by 0, 0.25, 0.5 or 1 s,
            // so these fall due on some ticks and not on others.
            _ => {
                let m = [0.0, 0.125, 0.25][self.rand.below(3) as usize];
                let d = [0.25, 0.5, 1.5][self.rand.below(3) as usize];
                (
                    format!("(every = {d:?}, margin = {m:?})"),
                    format!("\"every\": {d:?}, \"margin\": {m:?}, "),
                )
            }
        };
        let mut dsl = Vec::new();
        let mut json = Vec::new();
        for kid in &kids {
            let (d, j) = self.score();
            dsl.push(format!("{d} => {}", kid.dsl));
            json.push(j);
        }
        let children: Vec<&str> = kids.iter().map(|k| k.json.as_str()).collect();
        Both {
            dsl: format!("utility{dsl_args} {{ {} }}", dsl.join(", ")),
            json: format!(
                "{{\"type\": \"utility\", {json_args}\"scores\": [{}], \"children\": [{}]}}",
                json.join(", "),
                children.join(", ")
            ),
        }
    }

    /// One score in both forms.
    fn score(&mut self) -> (String, String) {
        let one = |this: &mut Self| {
            let id = this.leaf_id();
            (
                format!("|c: &Ctx| c.score({id})"),
                format!("{{\"type\": \"score\", \"id\": {id}}}"),
            )
        };
        match self.rand.below(4) {
            0 | 1 => {
                let id = self.leaf_id();
                (
                    format!("|c| c.score({id})"),
                    format!("{{\"consider\": {{\"type\": \"score\", \"id\": {id}}}}}"),
                )
            }
            2 => {
                let (d, j) = one(self);
                (
                    format!("::behaved::utility::Curve::Logistic {{ steepness: 8.0, midpoint: 0.5 }}.of({d})"),
                    format!(
                        "{{\"consider\": {j}, \"curve\": {{\"curve\": \"logistic\", \"steepness\": 8, \"midpoint\": 0.5}}}}"
                    ),
                )
            }
            _ => {
                let (d1, j1) = one(self);
                let (d2, j2) = one(self);
                (
                    format!(
                        "::behaved::utility::all((::behaved::utility::Curve::Step {{ threshold: 0.5, low: 0.25, high: 1.0 }}.of({d1}), {d2})).weight(2.0)"
                    ),
                    format!(
                        "{{\"all\": [{{\"consider\": {j1}, \"curve\": {{\"curve\": \"step\", \"threshold\": 0.5, \"low\": 0.25, \"high\": 1}}}}, {{\"consider\": {j2}}}], \"weight\": 2}}"
                    ),
                )
            }
        }
    }

    fn leaf_id(&mut self) -> u32 {
        self.next_leaf += 1;
        self.next_leaf
    }

    /// A duration from a small set, so that times line up with tick times.
    fn duration(&mut self) -> f64 {
        [0.0, 0.5, 1.0, 1.5, 2.0][self.rand.below(5) as usize]
    }

    /// A pattern of statuses for a scripted action (`S`, `F`, `R`).
    fn pattern(&mut self, len: u64) -> String {
        (0..1 + self.rand.below(len))
            .map(|_| ['S', 'S', 'F', 'R'][self.rand.below(4) as usize])
            .collect()
    }

    /// A condition leaf, and its DSL form without `cond(..)` (as `if`, `while`
    /// and `abort_if` take it).
    fn condition_bare(&mut self) -> (Both, String) {
        let c = self.condition();
        let bare = c.dsl["cond(".len()..c.dsl.len() - 1].to_string();
        (c, bare)
    }

    /// A condition leaf (value or inline); one in two of them an input
    /// condition (`cond(|c| c.in1)`, which declares what it reads). The
    /// choice does not draw from the generator, so the trees keep their shapes.
    fn condition(&mut self) -> Both {
        let id = self.leaf_id();
        let drawn = self.condition_drawn(id);
        if id % 2 == 1 {
            let (k, not) = ((id / 2) % 3, (id / 6) % 2 == 1);
            let bang = if not { "!" } else { "" };
            return Both {
                dsl: format!("cond(|c| {bang}c.in{k})"),
                json: format!(
                    "{{\"type\": \"condition\", \"condition\": {{\"type\": \"input\", \"k\": {k}, \"not\": {not}}}}}"
                ),
            };
        }
        drawn
    }

    /// A checked or inline condition leaf with id `id`.
    fn condition_drawn(&mut self, id: u32) -> Both {
        if self.rand.chance(1, 2) {
            let p: String = (0..1 + self.rand.below(4))
                .map(|_| if self.rand.chance(1, 2) { 'T' } else { 'F' })
                .collect();
            Both {
                dsl: format!("cond(Check::new({id}, \"{p}\"))"),
                json: format!(
                    "{{\"type\": \"condition\", \"condition\": {{\"type\": \"check\", \"id\": {id}, \"pattern\": \"{p}\"}}}}"
                ),
            }
        } else {
            Both {
                dsl: format!("cond(|c| c.inline_check({id}))"),
                json: format!(
                    "{{\"type\": \"condition\", \"condition\": {{\"type\": \"inlineCheck\", \"id\": {id}}}}}"
                ),
            }
        }
    }

    fn leaf(&mut self, depth: usize, sub: usize) -> Both {
        let in_loop = !self.loops.is_empty();
        let roll = self.rand.below(100);
        if in_loop && roll < 6 {
            let k = if roll < 3 { K::Break } else { K::Continue };
            if self.has(k) {
                let labels: Vec<String> = self.loops.iter().flatten().cloned().collect();
                let label = if !labels.is_empty() && self.rand.chance(1, 2) {
                    Some(labels[self.rand.below(labels.len() as u64) as usize].clone())
                } else {
                    None
                };
                return Both {
                    dsl: match &label {
                        Some(l) => format!("{} '{l}", k.dsl_name()),
                        None => k.dsl_name().to_string(),
                    },
                    json: match &label {
                        Some(l) => format!("{{\"type\": \"{}\", \"label\": \"{l}\"}}", k.json_name()),
                        None => format!("{{\"type\": \"{}\"}}", k.json_name()),
                    },
                };
            }
        }
        if roll < 14 && sub < 2 && depth < MAX_DEPTH - 1 && self.has(K::Subtree) {
            return self.subtree(depth, sub);
        }
        let id = self.leaf_id();
        let kind = match roll {
            14..=19 if self.has(K::Success) => K::Success,
            20..=25 if self.has(K::Failure) => K::Failure,
            26..=27 if self.has(K::Running) => K::Running,
            28..=39 if self.has(K::Wait) => K::Wait,
            40..=54 if self.has(K::Condition) => K::Condition,
            55..=60 if self.has(K::WaitUntil) => K::WaitUntil,
            _ => K::Action,
        };
        match kind {
            K::Success | K::Failure | K::Running => Both {
                dsl: kind.dsl_name().to_string(),
                json: format!("{{\"type\": \"{}\"}}", kind.json_name()),
            },
            K::Wait => {
                let d = self.duration();
                Both {
                    dsl: format!("wait({d:?})"),
                    json: format!("{{\"type\": \"wait\", \"seconds\": {d:?}}}"),
                }
            }
            K::Condition => self.condition(),
            K::WaitUntil => {
                let (c, bare) = self.condition_bare();
                let condition = &c.json["{\"type\": \"condition\", ".len()..];
                Both {
                    dsl: format!("wait_until({bare})"),
                    json: format!("{{\"type\": \"waitUntil\", {condition}"),
                }
            }
            // Rarely: an async action needs every tick (no waker here), and
            // the wake test needs trees that sleep.
            _ if self.rand.chance(1, 12) => {
                let (polls, ok) = (self.rand.below(3), self.rand.chance(2, 3));
                Both {
                    dsl: format!("act(async AsyncScripted {{ id: {id}, polls: {polls}, ok: {ok} }})"),
                    json: format!(
                        "{{\"type\": \"action\", \"action\": {{\"type\": \"asyncScripted\", \"id\": {id}, \"polls\": {polls}, \"ok\": {ok}}}}}"
                    ),
                }
            }
            // In a `for` body: an action on the item of one of the loops.
            _ if !self.fors.is_empty() && self.rand.chance(1, 2) => {
                let (fid, level) = self.fors[self.rand.below(self.fors.len() as u64) as usize];
                Both {
                    dsl: format!("act(|c| c.use_item({id}, {level}, *x{fid}))"),
                    json: format!(
                        "{{\"type\": \"action\", \"action\": {{\"type\": \"useItem\", \"id\": {id}, \"level\": {level}}}}}"
                    ),
                }
            }
            _ if self.rand.chance(1, 3) => Both {
                dsl: format!("act(|c| c.inline_act({id}))"),
                json: format!("{{\"type\": \"action\", \"action\": {{\"type\": \"inlineAct\", \"id\": {id}}}}}"),
            },
            _ => {
                let p = self.pattern(5);
                Both {
                    dsl: format!("#[persist] Scripted::new({id}, \"{p}\")"),
                    json: format!(
                        "{{\"type\": \"action\", \"action\": {{\"type\": \"scripted\", \"id\": {id}, \"pattern\": \"{p}\"}}}}"
                    ),
                }
            }
        }
    }

    /// A new subtree (its own tree, so the loops around it do not apply inside).
    fn subtree(&mut self, depth: usize, sub: usize) -> Both {
        let n = self.subtrees.len();
        let name = format!("{}S{n}", self.name);
        let id = format!("s{n}");
        let outer_loops = std::mem::take(&mut self.loops);
        // The items of the loops around it are not names in its own tree.
        let outer_fors = std::mem::take(&mut self.fors);
        // Reserve the slot so nested subtrees get other numbers.
        self.subtrees
            .push((name.clone(), id.clone(), String::new(), String::new()));
        let body = self.node(depth + 1, sub + 1);
        self.subtrees[n] = (name.clone(), id.clone(), body.dsl, body.json);
        self.loops = outer_loops;
        self.fors = outer_fors;
        Both {
            dsl: format!("subtree({name})"),
            json: format!("{{\"type\": \"subtree\", \"subtreeId\": \"{id}\"}}"),
        }
    }
}

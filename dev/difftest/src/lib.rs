//! Differential testing of the two forms of a tree: compiled by `behave!` and
//! interpreted from JSON by `behaved-interp`. The [`treegen`] module writes random trees
//! in both forms over the scripted leaves defined here; `build.rs` compiles the
//! DSL form, and `tests/differential.rs` runs both forms on the same script of
//! tick times and compares statuses, observer events and leaf events tick by tick.

use std::cell::Cell;
use std::sync::Arc;

use behaved_interp::{Agent, Definition, ItemList, KeyRef, MatchValue, Registry};
use behaved_runtime::{Action, AsyncAction, Clock, Condition, NodeId, Observer, Reads, Rng, Status, Task, Tree, Wake};
use serde::{Deserialize, Serialize};

pub mod fuzzing;
pub mod treegen;

/// Ticks per run.
pub const TICKS: usize = 60;
/// The tick before which both forms are reset (halting whatever runs).
pub const RESET_AT: usize = 31;

/// The context of every generated tree: a clock, counters that drive the
/// inline leaves, and a log of leaf events.
#[derive(Debug, Default, Clone)]
pub struct Ctx {
    /// The time of the current tick.
    pub now: f64,
    /// The tick number.
    pub tick: u64,
    /// How many conditions have been checked so far (drives their results).
    pub checks: Cell<u64>,
    /// How many inline actions have run so far.
    pub acts: u64,
    /// Leaf events: `e3` enter, `t3` tick, `h3` halt, hook calls.
    pub log: Vec<String>,
    /// The current item of the `forEach` loops of each nesting level (JSON
    /// trees: their list puts it here; compiled trees name it instead).
    pub items: [u64; treegen::FOR_LEVELS],
    /// Inputs that input conditions (`cond(|c| c.in1)`) read, changed by the
    /// script ([`set_inputs`]) and marked when they change.
    pub in0: bool,
    /// See `in0`.
    pub in1: bool,
    /// See `in0`.
    pub in2: bool,
}

/// The names of the inputs, by index.
pub const INPUTS: [&str; 3] = ["in0", "in1", "in2"];

/// Sets the inputs for tick `tick` (each holds for windows of 5 ticks and
/// changes in about half of them) and returns what changed, as the game
/// marks it.
pub fn set_inputs(ctx: &mut Ctx, tick: u64) -> Reads {
    let mut changed = Reads::NONE;
    for (k, (field, name)) in [&mut ctx.in0, &mut ctx.in1, &mut ctx.in2]
        .into_iter()
        .zip(INPUTS)
        .enumerate()
    {
        let value = mix(k as u64 + 101, tick / 5).is_multiple_of(2);
        if *field != value {
            *field = value;
            changed |= Reads::field(name);
        }
    }
    changed
}

thread_local! {
    /// Steps slept through while the tree watched its inputs (`Wake::Watch`), on this thread.
    pub static WATCH_SLEEPS: Cell<usize> = const { Cell::new(0) };
}

/// An input condition: `cond(|c| c.in1)` (`not`: `cond(|c| !c.in1)`), which
/// declares what it reads.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Input {
    k: usize,
    #[serde(default)]
    not: bool,
}

impl Input {
    fn value(ctx: &Ctx, k: usize) -> bool {
        [ctx.in0, ctx.in1, ctx.in2][k % 3]
    }
}

impl Condition<Ctx> for Input {
    fn check(&self, ctx: &Ctx) -> bool {
        Input::value(ctx, self.k) != self.not
    }
    fn reads(&self) -> Option<Reads> {
        Some(Reads::field(INPUTS[self.k % 3]))
    }
}

impl Clock for Ctx {
    fn now(&self) -> f64 {
        self.now
    }
}

fn mix(a: u64, b: u64) -> u64 {
    let mut r = Rng::new(a.wrapping_mul(0x1000_0001).wrapping_add(b));
    r.next_u64()
}

impl Ctx {
    fn next_check(&self) -> u64 {
        let k = self.checks.get();
        self.checks.set(k + 1);
        k
    }

    /// An inline condition: a deterministic function of its id, the tick and
    /// the number of checks so far.
    pub fn inline_check(&self, id: u32) -> bool {
        !mix(u64::from(id), self.tick * 131 + self.next_check()).is_multiple_of(3)
    }

    /// An inline action: stateless, no enter or halt hook.
    pub fn inline_act(&mut self, id: u32) -> Status {
        self.acts += 1;
        self.log.push(format!("i{id}"));
        match mix(u64::from(id) + 7, self.tick * 977 + self.acts) % 4 {
            0 | 1 => Status::Success,
            2 => Status::Failure,
            _ => Status::Running,
        }
    }

    /// The value `match` nodes look at.
    pub fn phase(&self) -> i64 {
        (mix(self.tick, self.next_check()) % 3) as i64
    }

    /// The items of `for` loop `id` (at nesting `level`): zero to four
    /// numbers, a function of the loop and the tick only.
    pub fn list(&self, id: u32, level: usize) -> impl Iterator<Item = u64> + use<> {
        let key = u64::from(id) * 8 + level as u64;
        let n = mix(key, self.tick) % 5;
        let tick = self.tick;
        (0..n).map(move |k| mix(key + k, tick) % 10)
    }

    /// An inline action on the current item of a `for` loop: logs it, and
    /// its status depends on the item.
    pub fn use_item(&mut self, id: u32, level: usize, item: u64) -> Status {
        self.acts += 1;
        self.log.push(format!("u{id}@{level}:{item}"));
        match mix(u64::from(id) + item, self.tick * 977 + self.acts) % 4 {
            0 | 1 => Status::Success,
            2 => Status::Failure,
            _ => Status::Running,
        }
    }

    /// A `utility` score: a deterministic function of its id, the tick and
    /// the number of checks so far; zero or below one time in four, and
    /// multiples of 1/8 (ties are common).
    pub fn score(&self, id: u32) -> f32 {
        match mix(u64::from(id) + 13, self.tick * 71 + self.next_check()) % 8 {
            0 => 0.0,
            1 => -0.5,
            k => k as f32 * 0.125,
        }
    }

    /// A `pick` candidate's score: a function of the score's id, the
    /// candidate and the tick; zero or below one time in four, and multiples
    /// of 1/8 (ties are common). `level` is where the JSON form's list puts
    /// the candidate; the DSL form passes it.
    pub fn item_score(&self, id: u32, level: usize, item: u64) -> f32 {
        let _ = level;
        match mix(u64::from(id) * 16 + item, self.tick * 31 + 7) % 8 {
            0 => 0.0,
            1 => -0.5,
            k => k as f32 * 0.125,
        }
    }

    /// A lifecycle hook call.
    pub fn hook(&mut self, id: u32, what: &str) {
        self.log.push(format!("{what}{id}"));
    }
}

/// A stateful action: returns its pattern's statuses in turn (`S`, `F`, `R`)
/// and logs its enter, ticks and halts. Its place in the pattern is saved
/// with an interpreted agent (a persistent action).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Scripted {
    id: u32,
    pattern: Vec<Status>,
    calls: usize,
}

impl Scripted {
    /// Action `id` with `pattern`, e.g. `"SRF"`.
    pub fn new(id: u32, pattern: &str) -> Scripted {
        let pattern = pattern
            .chars()
            .map(|c| match c {
                'S' => Status::Success,
                'F' => Status::Failure,
                _ => Status::Running,
            })
            .collect();
        Scripted { id, pattern, calls: 0 }
    }
}

impl Action<Ctx> for Scripted {
    fn enter(&mut self, ctx: &mut Ctx) {
        ctx.log.push(format!("e{}", self.id));
    }
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        ctx.log.push(format!("t{}", self.id));
        // A saved state may carry an empty pattern (the fuzz targets write them).
        let s = match self.pattern.len() {
            0 => Status::Running,
            n => self.pattern[self.calls % n],
        };
        self.calls += 1;
        s
    }
    fn halt(&mut self, ctx: &mut Ctx) {
        ctx.log.push(format!("h{}", self.id));
    }
}

/// An async action (`act(async ..)`): its future is pending for `polls`
/// polls, then completes with success (`ok`) or failure. Logs its start
/// (`a3`), its completion (`d3`) and its cancellation by a halt (`c3`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AsyncScripted {
    /// The leaf's id in the log.
    pub id: u32,
    /// Polls that find the future pending.
    pub polls: u32,
    /// Whether it completes with success.
    pub ok: bool,
}

/// The future of [`AsyncScripted`]: a named type, stored inline.
#[derive(Debug)]
pub struct Pending {
    left: u32,
    ok: bool,
}

impl Future for Pending {
    type Output = bool;
    fn poll(mut self: std::pin::Pin<&mut Self>, _: &mut std::task::Context<'_>) -> std::task::Poll<bool> {
        if self.left == 0 {
            return std::task::Poll::Ready(self.ok);
        }
        self.left -= 1;
        std::task::Poll::Pending
    }
}

impl Task for AsyncScripted {
    type Future = Pending;
}

impl AsyncAction<Ctx> for AsyncScripted {
    fn start(&mut self, ctx: &mut Ctx) -> Pending {
        ctx.log.push(format!("a{}", self.id));
        Pending {
            left: self.polls,
            ok: self.ok,
        }
    }
    fn finish(&mut self, ctx: &mut Ctx, ok: bool) -> Status {
        ctx.log.push(format!("d{}", self.id));
        Status::from(ok)
    }
    fn cancelled(&mut self, ctx: &mut Ctx) {
        ctx.log.push(format!("c{}", self.id));
    }
}

/// A condition whose result follows its pattern (`T`, `F`), indexed by the
/// number of checks made so far.
#[derive(Debug, Clone)]
pub struct Check {
    id: u32,
    pattern: Vec<bool>,
}

impl Check {
    /// Condition `id` with `pattern`, e.g. `"TTF"`.
    pub fn new(id: u32, pattern: &str) -> Check {
        Check {
            id,
            pattern: pattern.chars().map(|c| c == 'T').collect(),
        }
    }
}

impl Condition<Ctx> for Check {
    fn check(&self, ctx: &Ctx) -> bool {
        let k = ctx.next_check() as usize + self.id as usize;
        self.pattern[k % self.pattern.len()]
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Patterned {
    id: u32,
    pattern: String,
}

impl Patterned {
    /// The pattern, if it has a status to return (the fuzz targets write empty ones).
    fn pattern(&self) -> Result<&str, &'static str> {
        if self.pattern.is_empty() {
            Err("the pattern is empty")
        } else {
            Ok(&self.pattern)
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Id {
    id: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HookParams {
    id: u32,
    what: String,
}

/// The JSON twin of `act(|c| c.inline_act(id))`.
#[derive(Debug, Clone)]
struct InlineAct(u32);

impl Action<Ctx> for InlineAct {
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        ctx.inline_act(self.0)
    }
}

/// An inline condition of an exported tree: `|c| c.inline_check(3)` or an input's.
enum Inline {
    Check(InlineCheck),
    Input(Input),
}

impl Condition<Ctx> for Inline {
    fn check(&self, ctx: &Ctx) -> bool {
        match self {
            Inline::Check(c) => c.check(ctx),
            Inline::Input(c) => c.check(ctx),
        }
    }
    fn reads(&self) -> Option<Reads> {
        match self {
            Inline::Check(c) => c.reads(),
            Inline::Input(c) => c.reads(),
        }
    }
}

/// The JSON twin of the score `|c| c.score(id)`.
struct InlineScore(u32);

impl behaved_runtime::utility::Consideration<Ctx> for InlineScore {
    fn score(&self, ctx: &Ctx) -> f32 {
        ctx.score(self.0)
    }
}

/// The JSON twin of a `pick`'s score `|c, x| c.item_score(id, level, *x)`:
/// the candidate is in the slot of its level, where the list selected it.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
struct ItemScore {
    id: u32,
    level: usize,
}

impl behaved_runtime::utility::Consideration<Ctx> for ItemScore {
    fn score(&self, ctx: &Ctx) -> f32 {
        ctx.item_score(self.id, self.level, ctx.items[self.level])
    }
}

/// An exported tree's inline score: a `utility` child's or a `pick`'s.
enum InlineConsideration {
    Score(InlineScore),
    Item(ItemScore),
}

impl behaved_runtime::utility::Consideration<Ctx> for InlineConsideration {
    fn score(&self, ctx: &Ctx) -> f32 {
        match self {
            InlineConsideration::Score(s) => s.score(ctx),
            InlineConsideration::Item(s) => s.score(ctx),
        }
    }
}

/// The JSON twin of `cond(|c| c.inline_check(id))`.
struct InlineCheck(u32);

impl Condition<Ctx> for InlineCheck {
    fn check(&self, ctx: &Ctx) -> bool {
        ctx.inline_check(self.0)
    }
}

/// The JSON twin of a `for` loop's items: `Ctx::list`, the current one put
/// in the slot of its level.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
struct List {
    id: u32,
    level: usize,
}

impl ItemList<Ctx> for List {
    type Item = u64;
    fn items<'c>(&'c self, ctx: &'c Ctx) -> impl Iterator<Item = u64> + 'c {
        ctx.list(self.id, self.level)
    }
    fn select(&self, ctx: &mut Ctx, item: &u64) {
        ctx.items[self.level] = *item;
    }
}

/// The JSON twin of `act(|c| c.use_item(id, level, *x))`: the item is in
/// the slot of its loop's level.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
struct UseItem {
    id: u32,
    level: usize,
}

impl Action<Ctx> for UseItem {
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        let item = ctx.items[self.level];
        ctx.use_item(self.id, self.level, item)
    }
}

/// A hook action: logs and succeeds.
#[derive(Debug, Clone)]
struct Hook(u32, String);

impl Action<Ctx> for Hook {
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        ctx.hook(self.0, &self.1);
        Status::Success
    }
}

/// The value `phase`.
struct Phase;

impl MatchValue<Ctx> for Phase {
    fn get<'c>(&self, ctx: &'c Ctx) -> KeyRef<'c> {
        KeyRef::Int(ctx.phase())
    }
}

/// The leaf types the generated JSON names.
pub fn registry() -> Registry<Ctx> {
    let mut r = Registry::new();
    r.try_persistent_action("scripted", |p: Patterned| {
        p.pattern().map(|_| Scripted::new(p.id, &p.pattern))
    })
    .action("inlineAct", |p: Id| InlineAct(p.id))
    .action("hook", |p: HookParams| Hook(p.id, p.what))
    .async_action("asyncScripted", |p: AsyncScripted| p)
    .try_condition("check", |p: Patterned| {
        p.pattern().map(|_| Check::new(p.id, &p.pattern))
    })
    .condition("inlineCheck", |p: Id| InlineCheck(p.id))
    .try_condition("input", |p: Input| {
        if p.k < INPUTS.len() {
            Ok(p)
        } else {
            Err(format!("\"k\" is below {}, found {}", INPUTS.len(), p.k))
        }
    })
    .consideration("score", |p: Id| InlineScore(p.id))
    // A fuzzed tree may name any level: kept to the context's slots.
    .consideration("itemScore", |p: ItemScore| ItemScore {
        level: p.level % treegen::FOR_LEVELS,
        ..p
    })
    .value("phase", |_: behaved_interp::NoParams| Phase)
    .try_action("useItem", |p: UseItem| nesting(p.level).map(|_| p))
    .try_list("list", |p: List| nesting(p.level).map(|_| p));
    r
}

/// A `level` of `useItem` and `list`: one of the context's item slots (a
/// fuzzed tree may name any number).
fn nesting(level: usize) -> Result<usize, String> {
    if level < treegen::FOR_LEVELS {
        Ok(level)
    } else {
        Err(format!("\"level\" is below {}, found {level}", treegen::FOR_LEVELS))
    }
}

/// The parameters of a leaf in `Tree::JSON`, the compiled trees' own JSON
/// form: the Rust code that made it (`Check::new(3, "TTF")`, `|c| c.inline_act(3)`).
#[derive(Deserialize)]
struct Code {
    code: String,
    /// A `for` list's loop variable (`x7: u32`): a parameter of the exported
    /// list, which the leaves here do not need (but must take: a parameter
    /// the type does not name is a load error).
    #[serde(default, rename = "item")]
    _item: Option<String>,
}

impl Code {
    /// The first integer argument in the code (the leaf's id).
    fn id(&self) -> u32 {
        let start = self.code.find('(').map_or(0, |i| i + 1);
        let digits: String = self.code[start..]
            .chars()
            .skip_while(|c| !c.is_ascii_digit())
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse().unwrap_or(u32::MAX)
    }

    /// The first two integer arguments in the code (`c.use_item(12, 1, *x7)`,
    /// `c.list(7, 1)`: the leaf's id and level).
    fn id_and_level(&self) -> (u32, usize) {
        let start = self.code.find('(').map_or(0, |i| i + 1);
        let mut numbers = self.code[start..]
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .map(|s| s.parse::<u32>().unwrap_or(u32::MAX));
        let id = numbers.next().unwrap_or(u32::MAX);
        let level = numbers.next().map_or(0, |l| l as usize % treegen::FOR_LEVELS);
        (id, level)
    }

    /// The string argument in the code (the leaf's pattern, or a hook's name).
    fn text(&self) -> String {
        self.code.split('"').nth(1).unwrap_or_default().to_string()
    }
}

/// An inline action or a hook of an exported tree: both are written as
/// `{"type": "inline", "code": ..}`.
#[derive(Clone)]
enum InlineOrHook {
    Act(InlineAct),
    Hook(Hook),
    UseItem(UseItem),
}

impl Action<Ctx> for InlineOrHook {
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        match self {
            InlineOrHook::Act(a) => a.tick(ctx),
            InlineOrHook::Hook(h) => h.tick(ctx),
            InlineOrHook::UseItem(u) => u.tick(ctx),
        }
    }
}

/// The leaf types that `Tree::JSON` names, built from the code it keeps, so
/// that a compiled tree's own JSON loads in the interpreter and runs with the
/// same leaves as the compiled tree.
pub fn export_registry() -> Registry<Ctx> {
    let mut r = Registry::new();
    r.persistent_action("Scripted", |p: Code| Scripted::new(p.id(), &p.text()))
        .action("inline", |p: Code| {
            if p.code.contains(".hook(") {
                InlineOrHook::Hook(Hook(p.id(), p.text()))
            } else if p.code.contains(".use_item(") {
                let (id, level) = p.id_and_level();
                InlineOrHook::UseItem(UseItem { id, level })
            } else {
                InlineOrHook::Act(InlineAct(p.id()))
            }
        })
        .async_action("AsyncScripted", |p: AsyncScripted| p)
        .condition("Check", |p: Code| Check::new(p.id(), &p.text()))
        .condition("inline", |p: Code| {
            // `|c| c.in1` or `|c| !c.in1`: an input condition.
            let input = p.code.find("c.in").and_then(|at| {
                let k = p.code[at + 4..].chars().next()?.to_digit(10)?;
                Some(Input {
                    k: k as usize,
                    not: p.code.contains('!'),
                })
            });
            match input {
                Some(input) => Inline::Input(input),
                None => Inline::Check(InlineCheck(p.id())),
            }
        })
        .consideration("inline", |p: Code| {
            if p.code.contains(".item_score(") {
                let (id, level) = p.id_and_level();
                InlineConsideration::Item(ItemScore { id, level })
            } else {
                InlineConsideration::Score(InlineScore(p.id()))
            }
        })
        .value("inline", |_: Code| Phase)
        .list("inline", |p: Code| {
            let (id, level) = p.id_and_level();
            List { id, level }
        });
    r
}

/// One observer event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Event {
    /// `tick_started(now)`.
    Start(f64),
    /// `entered(node)`.
    Enter(u32),
    /// `ticked(node, status)`.
    Tick(u32, Status),
    /// `halted(node)`.
    Halt(u32),
    /// `tick_finished(status)`.
    Finish(Status),
    /// `scored(node, child, score)`, the score's bits.
    Score(u32, u32, u32),
    /// `considered(node, child, part, _, value)`, the value's bits. The
    /// label is not compared: each form labels a part by its own text (the
    /// DSL's closure, the JSON's registered name).
    Consider(u32, u32, u32, u32),
}

/// Records every observer event.
#[derive(Debug, Default)]
pub struct Recorder(pub Vec<Event>);

impl Observer for Recorder {
    fn tick_started(&mut self, now: f64) {
        self.0.push(Event::Start(now));
    }
    fn entered(&mut self, node: NodeId) {
        self.0.push(Event::Enter(node.0));
    }
    fn ticked(&mut self, node: NodeId, status: Status) {
        self.0.push(Event::Tick(node.0, status));
    }
    fn halted(&mut self, node: NodeId) {
        self.0.push(Event::Halt(node.0));
    }
    fn scored(&mut self, node: NodeId, child: u32, score: f32) {
        self.0.push(Event::Score(node.0, child, score.to_bits()));
    }
    fn considers(&self) -> bool {
        true
    }
    fn considered(&mut self, node: NodeId, child: u32, part: u32, _label: &str, value: f32) {
        self.0.push(Event::Consider(node.0, child, part, value.to_bits()));
    }
    fn tick_finished(&mut self, status: Status) {
        self.0.push(Event::Finish(status));
    }
}

/// What happened in one step of a run: a tick (with its status) or a reset.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The root's status, `None` for a reset.
    pub status: Option<Status>,
    /// The observer events of the step.
    pub events: Vec<Event>,
    /// The leaf events of the step.
    pub log: Vec<String>,
}

/// The tick times of a run: steps of 0, 0.25, 0.5 or 1 second from `seed`.
pub fn times(seed: u64) -> Vec<f64> {
    let mut r = treegen::Rand::new(seed ^ 0x7157);
    let mut t = 0.0;
    (0..TICKS)
        .map(|_| {
            t += [0.0, 0.25, 0.5, 1.0][r.below(4) as usize];
            t
        })
        .collect()
}

/// Runs a tree through the standard script: `TICKS` ticks at `times(seed)`,
/// with a reset before tick `RESET_AT`. `tick` and `reset` drive either form.
pub fn run_script(
    seed: u64,
    tick: impl FnMut(&mut Ctx, f64, &mut Recorder) -> Status,
    reset: impl FnMut(&mut Ctx, &mut Recorder),
) -> Vec<Step> {
    let no_saves = |_: usize| -> Result<(), String> { Ok(()) };
    run_script_saving(seed, tick, reset, no_saves).expect("a run without saves cannot fail to load")
}

/// Whether the saving runs save the tree and go on with the loaded copy
/// before tick `i`: every fourth tick, from a tick that depends on `seed`
/// (the first tick excepted: the tree is idle then).
pub fn saves_before(seed: u64, i: usize) -> bool {
    i > 0 && (i as u64 + seed).is_multiple_of(4)
}

/// [`run_script`], calling `save_and_load` before each tick that
/// [`saves_before`] names (it replaces the tree with one loaded from its saved state).
pub fn run_script_saving(
    seed: u64,
    mut tick: impl FnMut(&mut Ctx, f64, &mut Recorder) -> Status,
    mut reset: impl FnMut(&mut Ctx, &mut Recorder),
    mut save_and_load: impl FnMut(usize) -> Result<(), String>,
) -> Result<Vec<Step>, String> {
    let mut ctx = Ctx::default();
    let mut steps = Vec::new();
    for (i, now) in times(seed).into_iter().enumerate() {
        if saves_before(seed, i) {
            save_and_load(i)?;
        }
        if i == RESET_AT {
            let mut rec = Recorder::default();
            reset(&mut ctx, &mut rec);
            steps.push(Step {
                status: None,
                events: rec.0,
                log: std::mem::take(&mut ctx.log),
            });
        }
        ctx.now = now;
        ctx.tick = i as u64;
        set_inputs(&mut ctx, i as u64);
        let mut rec = Recorder::default();
        let status = tick(&mut ctx, now, &mut rec);
        steps.push(Step {
            status: Some(status),
            events: rec.0,
            log: std::mem::take(&mut ctx.log),
        });
    }
    Ok(steps)
}

/// Runs the compiled tree `T`.
pub fn run_compiled<T: Tree<Ctx> + Default>(seed: u64) -> Vec<Step> {
    let tree = std::cell::RefCell::new(T::default());
    run_script(
        seed,
        |ctx, now, rec| tree.borrow_mut().tick_observed(ctx, now, rec),
        |ctx, rec| tree.borrow_mut().reset_observed(ctx, rec),
    )
}

/// Runs the compiled tree `T`, saving it (serde, as JSON) and going on with
/// the loaded copy before the ticks [`saves_before`] names. Saving the
/// loaded copy must give the same state again.
pub fn run_compiled_saving<T>(seed: u64) -> Result<Vec<Step>, String>
where
    T: Tree<Ctx> + Default + Serialize + serde::de::DeserializeOwned,
{
    let tree = std::cell::RefCell::new(T::default());
    run_script_saving(
        seed,
        |ctx, now, rec| tree.borrow_mut().tick_observed(ctx, now, rec),
        |ctx, rec| tree.borrow_mut().reset_observed(ctx, rec),
        |i| {
            let saved = serde_json::to_string(&*tree.borrow()).map_err(|e| format!("save before tick {i}: {e}"))?;
            let loaded: T =
                serde_json::from_str(&saved).map_err(|e| format!("load before tick {i}: {e}\n  saved: {saved}"))?;
            let again = serde_json::to_string(&loaded).map_err(|e| format!("save the loaded tree: {e}"))?;
            if again != saved {
                return Err(format!(
                    "before tick {i}, the loaded tree saves as {again}, not {saved}"
                ));
            }
            *tree.borrow_mut() = loaded;
            Ok(())
        },
    )
}

/// [`run_compiled_saving`] for the interpreted tree `def`: the agent is saved
/// and loaded with `behaved-interp`'s own format.
pub fn run_interpreted_saving(def: &Arc<Definition<Ctx>>, seed: u64) -> Result<Vec<Step>, String> {
    let agent = std::cell::RefCell::new(Agent::with_seed(def.clone(), Rng::DEFAULT_SEED));
    run_script_saving(
        seed,
        |ctx, now, rec| agent.borrow_mut().tick_observed(ctx, now, rec),
        |ctx, rec| agent.borrow_mut().reset_observed(ctx, rec),
        |i| {
            let saved = serde_json::to_string(&*agent.borrow()).map_err(|e| format!("save before tick {i}: {e}"))?;
            let loaded = Agent::load(def.clone(), &mut serde_json::Deserializer::from_str(&saved))
                .map_err(|e| format!("load before tick {i}: {e}\n  saved: {saved}"))?;
            let again = serde_json::to_string(&loaded).map_err(|e| format!("save the loaded agent: {e}"))?;
            if again != saved {
                return Err(format!(
                    "before tick {i}, the loaded agent saves as {again}, not {saved}"
                ));
            }
            *agent.borrow_mut() = loaded;
            Ok(())
        },
    )
}

/// Whether an async action (`AsyncScripted`, which logs `a3` when started,
/// `d3` when done and `c3` when cancelled) was running before any tick that
/// [`saves_before`] names, in the run `steps` made without saving: a saving
/// run restarts it there (`SEMANTICS.md#async`), so it may take another course.
pub fn async_running_at_a_save(seed: u64, steps: &[Step]) -> bool {
    async_running_before(steps, |tick| saves_before(seed, tick))
}

/// Whether an async action (`AsyncScripted`, which logs `a3` when started,
/// `d3` when done and `c3` when cancelled) was running before one of the
/// ticks `at` names, in the run `steps` (the tick after its last one included).
pub fn async_running_before(steps: &[Step], at: impl Fn(usize) -> bool) -> bool {
    let mut running = std::collections::BTreeSet::new();
    let mut tick = 0;
    for step in steps {
        if step.status.is_some() {
            if at(tick) && !running.is_empty() {
                return true;
            }
            tick += 1;
        }
        for event in &step.log {
            let (what, id) = event.split_at(1);
            if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            match what {
                "a" => {
                    running.insert(id.to_string());
                }
                "d" | "c" => {
                    running.remove(id);
                }
                _ => {}
            }
        }
    }
    at(tick) && !running.is_empty()
}

/// Runs the interpreted tree `def`; after every step, the agent's state must
/// be one the tree can be in (`Agent::check_state`).
pub fn run_interpreted(def: &Arc<Definition<Ctx>>, seed: u64) -> Vec<Step> {
    let agent = std::cell::RefCell::new(Agent::with_seed(def.clone(), Rng::DEFAULT_SEED));
    let checked = |agent: &Agent<Ctx>| {
        if let Err(e) = agent.check_state() {
            panic!("invalid state after a step: {e}");
        }
    };
    run_script(
        seed,
        |ctx, now, rec| {
            let s = agent.borrow_mut().tick_observed(ctx, now, rec);
            checked(&agent.borrow());
            s
        },
        |ctx, rec| {
            agent.borrow_mut().reset_observed(ctx, rec);
            checked(&agent.borrow());
        },
    )
}

/// Runs the standard script ticking only when the tree's reported wake is
/// due (`next_wake` after each tick; a reset always happens) or a marked
/// change of the inputs meets its watch: `None` for a step it slept through. `wake` asks the tree under test.
pub fn run_sleeping(
    seed: u64,
    mut tick: impl FnMut(&mut Ctx, f64, &mut Recorder) -> Status,
    mut reset: impl FnMut(&mut Ctx, &mut Recorder),
    wake: impl Fn(f64) -> Wake,
) -> Vec<Option<Step>> {
    let mut ctx = Ctx::default();
    let mut steps = Vec::new();
    let mut due = Wake::NextTick;
    for (i, now) in times(seed).into_iter().enumerate() {
        if i == RESET_AT {
            let mut rec = Recorder::default();
            reset(&mut ctx, &mut rec);
            steps.push(Some(Step {
                status: None,
                events: rec.0,
                log: std::mem::take(&mut ctx.log),
            }));
            due = wake(ctx.now);
        }
        ctx.now = now;
        ctx.tick = i as u64;
        let changed = set_inputs(&mut ctx, i as u64);
        if !(due.is_due(now) || due.wakes_on(changed)) {
            if matches!(due, Wake::Watch { .. }) {
                WATCH_SLEEPS.with(|n| n.set(n.get() + 1));
            }
            steps.push(None);
            continue;
        }
        let mut rec = Recorder::default();
        let status = tick(&mut ctx, now, &mut rec);
        steps.push(Some(Step {
            status: Some(status),
            events: rec.0,
            log: std::mem::take(&mut ctx.log),
        }));
        due = wake(now);
    }
    steps
}

/// Runs the compiled tree `T`, ticking only at its reported wake times.
pub fn run_compiled_sleeping<T: Tree<Ctx> + Default>(seed: u64) -> Vec<Option<Step>> {
    let tree = std::cell::RefCell::new(T::default());
    run_sleeping(
        seed,
        |ctx, now, rec| tree.borrow_mut().tick_observed(ctx, now, rec),
        |ctx, rec| tree.borrow_mut().reset_observed(ctx, rec),
        |now| tree.borrow().next_wake(now),
    )
}

/// Runs the interpreted tree `def`, ticking only at its reported wake times.
pub fn run_interpreted_sleeping(def: &Arc<Definition<Ctx>>, seed: u64) -> Vec<Option<Step>> {
    let agent = std::cell::RefCell::new(Agent::with_seed(def.clone(), Rng::DEFAULT_SEED));
    run_sleeping(
        seed,
        |ctx, now, rec| agent.borrow_mut().tick_observed(ctx, now, rec),
        |ctx, rec| agent.borrow_mut().reset_observed(ctx, rec),
        |now| agent.borrow().next_wake(now),
    )
}

/// Whether a step changed nothing: the root and every node ticked returned
/// `Running`, no node entered or was halted, no leaf ran. Only such a tick
/// may be slept through.
pub fn is_quiet(step: &Step) -> bool {
    step.status == Some(Status::Running)
        && step.log.is_empty()
        && step.events.iter().all(|e| {
            matches!(
                e,
                Event::Start(_) | Event::Tick(_, Status::Running) | Event::Finish(Status::Running)
            )
        })
}

/// Whether a step only repeated the step before it (`SEMANTICS.md`,
/// "Sleeping on inputs"): the root Running, no leaf ran, and every event
/// other than a node's Running is one the step before had, in the same
/// order (a reactive node's re-checked conditions, giving what they gave).
pub fn repeats(before: &Step, step: &Step) -> bool {
    let loud = |s: &Step| -> Vec<Event> {
        s.events
            .iter()
            .filter(|e| {
                !matches!(
                    e,
                    Event::Start(_) | Event::Tick(_, Status::Running) | Event::Finish(Status::Running)
                )
            })
            .cloned()
            .collect()
    };
    if step.status != Some(Status::Running) || !step.log.is_empty() {
        return false;
    }
    let mut earlier = loud(before).into_iter();
    loud(step).iter().all(|e| earlier.any(|b| b == *e))
}

/// Checks a sleeping run against the run that ticked every time: every
/// step it took is identical, every step it slept through was quiet
/// ([`is_quiet`]) or repeated the one before ([`repeats`]). Returns the
/// number of steps slept through.
pub fn compare_sleeping(every: &[Step], sleeping: &[Option<Step>]) -> Result<usize, String> {
    if every.len() != sleeping.len() {
        return Err(format!("{} steps against {}", every.len(), sleeping.len()));
    }
    let mut slept = 0;
    for (i, (e, s)) in every.iter().zip(sleeping).enumerate() {
        match s {
            Some(s) if s != e => {
                return Err(format!(
                    "step {i} differs:\n  every tick: {:?} {:?} {:?}\n  sleeping:   {:?} {:?} {:?}",
                    e.status, e.events, e.log, s.status, s.events, s.log
                ));
            }
            Some(_) => {}
            None if is_quiet(e) || (i > 0 && repeats(&every[i - 1], e)) => slept += 1,
            None => {
                return Err(format!(
                    "step {i} was slept through, but ticking it did something: {:?} {:?} {:?}",
                    e.status, e.events, e.log
                ));
            }
        }
    }
    Ok(slept)
}

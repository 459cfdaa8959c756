//! The one catalogue of node kinds, one entry per kind with every fact about
//! it that is data: its names in the DSL and in JSON and its DSL aliases, how
//! many children it takes and where they sit in JSON ([`Slots`]), its JSON
//! fields and kind of parameters ([`Parameters`]), whether it is a loop and
//! whether it keeps time, the group and icon it is shown with ([`Group`]),
//! and how its work per tick follows from its children's ([`Work`]). The
//! `behave!` macro, the JSON model and loader, the interpreter, the studio
//! and the docs all read it, so these facts are written in exactly one place;
//! what a kind does on a tick is code, in each engine.

/// How many children a node kind takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arity {
    /// No children (`wait(1.0)`, `success`, a condition, an action).
    Leaf,
    /// Exactly one child (decorators and loops).
    One,
    /// One or more children (composites).
    Many,
    /// Branches chosen by conditions or patterns (`if`, `match`).
    Branches,
}

/// Which parameters a node kind takes (the JSON form's `Params` holds them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Parameters {
    /// None.
    None,
    /// `parallel`: a policy or success and failure thresholds.
    Policy,
    /// `weighted`: one weight per child.
    Weights,
    /// `if`: whether the last child is an `else` branch.
    Branches,
    /// `match`: the value looked at and each case's keys.
    Cases,
    /// `repeat`, `retry`, `limit`: a positive count.
    Count,
    /// `wait`, `timeout`, `delay`, `cooldown`: a duration in seconds.
    Seconds,
    /// `cond`, `act`, `wait_until`: the user's leaf.
    Leaf,
    /// `subtree`: the subtree it runs.
    Subtree,
    /// `for`: the list its items come from and the most items it holds.
    ForEach,
    /// `utility`: one score per child and how it chooses (best, weighted draw,
    /// reactive with a margin).
    Utility,
    /// `pick`: the list its candidates come from, the most it holds, and
    /// the score of one candidate.
    Pick,
}

/// Where a node kind's children sit in the JSON form, in node-table order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slots {
    /// No children.
    None,
    /// One node in `"child"`.
    Child,
    /// An array of nodes in `"children"`.
    Children,
    /// A condition node in `"condition"`, then the body in `"child"`.
    ConditionChild,
    /// `"branches": [{"if", "then"}, ..]`, then an optional `"else"`.
    Branches,
    /// `"cases": [{"when", "child"}, ..]`, then the `"default"`.
    Cases,
}

impl Slots {
    /// The JSON fields that hold the children, in order.
    pub const fn fields(self) -> &'static [&'static str] {
        match self {
            Slots::None => &[],
            Slots::Child => &["child"],
            Slots::Children => &["children"],
            Slots::ConditionChild => &["condition", "child"],
            Slots::Branches => &["branches", "else"],
            Slots::Cases => &["cases", "default"],
        }
    }

    // Facts that follow from the slots, so that a kind of a known shape
    // needs no line of its own where these apply (the macro's model, the
    // interpreter's invariants, wakes and labels).

    /// How many leading children are conditions rather than bodies: one for
    /// [`Slots::ConditionChild`] (`while`, `abort_if`, `latch`), none for
    /// the others (`if` interleaves its conditions with its branches).
    pub const fn condition_children(self) -> usize {
        // The conditions are the children before the body.
        match self.body() {
            Some(body) => body as usize,
            None => 0,
        }
    }

    /// Where the body sits among a node's children (node-table order) for
    /// the shapes with one body that runs while the node does: the one
    /// child of `Child` (0), the child after the condition of
    /// `ConditionChild` (1); `None` where the running child is chosen
    /// (`Children`, `Branches`, `Cases`) or there is none.
    pub const fn body(self) -> Option<u32> {
        match self {
            Slots::Child => Some(0),
            Slots::ConditionChild => Some(1),
            Slots::None | Slots::Children | Slots::Branches | Slots::Cases => None,
        }
    }

    /// Whether the shape holds conditions as child nodes (`"condition"`,
    /// `"branches"`' `"if"`): a label shows them as those children, not in
    /// the node's own label (`SEMANTICS.md`, "Labels").
    pub const fn has_condition_nodes(self) -> bool {
        matches!(self, Slots::ConditionChild | Slots::Branches)
    }
}

/// The group a node kind is listed under where kinds are shown to people
/// (the studio's palette).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Group {
    /// Nodes with several children or branches.
    Composites,
    /// Nodes that change their one child's status or when it runs.
    Decorators,
    /// Loops, and the `break` and `continue` that end them.
    Loops,
    /// Nodes that wait or keep time.
    Timing,
    /// Leaves: the user's conditions and actions, constants, subtrees.
    Leaves,
}

impl Group {
    /// Every group, in the order they are shown.
    pub const ALL: [Group; 5] = [
        Group::Composites,
        Group::Decorators,
        Group::Loops,
        Group::Timing,
        Group::Leaves,
    ];

    /// The group's name (`"composites"`, ..).
    pub const fn name(self) -> &'static str {
        match self {
            Group::Composites => "composites",
            Group::Decorators => "decorators",
            Group::Loops => "loops",
            Group::Timing => "timing",
            Group::Leaves => "leaves",
        }
    }
}

/// How a node kind's work per tick, the most leaf ticks one tick of it can
/// make, follows from its children's (`SEMANTICS.md` "Work per tick"). Both
/// the macro and the interpreter bound a tree's work by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Work {
    /// A leaf: one.
    One,
    /// The children's sum: they may all tick in one tick.
    Sum,
    /// The largest child's: one child is chosen.
    Largest,
    /// `if`: every condition's, plus the largest branch's.
    Branches,
    /// `match`: reading the value, plus the largest case's.
    Match,
    /// A bounded loop: its count times its body's.
    Times,
    /// `for`: reading the items, plus `max` times its body's.
    TimesAndRead,
    /// An unbounded loop: twice its body's (at most one iteration starts per tick).
    Twice,
    /// `utility`: one per child (its score), plus the largest child's.
    ScoresAndLargest,
    /// `pick`: reading the candidates, one per candidate (its score), plus
    /// its body's.
    ReadScoresAndBody,
}

/// The doc line that links a node kind to its section of `SEMANTICS.md`,
/// the reference for every node's rules.
macro_rules! rules {
    ($anchor:literal) => {
        concat!(
            "\n\nRules: [`SEMANTICS.md#",
            $anchor,
            "`](https://docs.rs/behaved/latest/behaved/semantics/index.html#",
            $anchor,
            ")."
        )
    };
}

macro_rules! catalogue {
    ($( #[doc = $summary:literal] #[doc = rules!($anchor:literal)] $kind:ident => {
        dsl: $dsl:literal, json: $json:literal, arity: $arity:ident, aliases: [$($alias:literal),*],
        is_loop: $is_loop:literal, is_timed: $is_timed:literal, params: $params:ident, slots: $slots:ident,
        fields: [$($field:literal),*], group: $group:ident, icon: $icon:literal, work: $work:ident
    } )*) => {
        /// Every kind of node a tree can contain. Each variant says its rule in
        /// short; `SEMANTICS.md` at the repository root is the full reference.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum NodeKind {
            $( #[doc = $summary] #[doc = rules!($anchor)] $kind, )*
        }

        impl NodeKind {
            /// All node kinds, in catalogue order.
            pub const ALL: &'static [NodeKind] = &[$(NodeKind::$kind),*];

            /// The keyword that writes this node in `behave!`
            /// (`"reactive sequence"` for the reactive forms).
            pub const fn dsl_name(self) -> &'static str {
                match self { $(NodeKind::$kind => $dsl,)* }
            }

            /// Other keywords `behave!` accepts for this node (`fallback` for
            /// `selector`, `forever` for `loop`).
            pub const fn aliases(self) -> &'static [&'static str] {
                match self { $(NodeKind::$kind => &[$($alias),*],)* }
            }

            /// The `"type"` of this node in the JSON form.
            pub const fn json_name(self) -> &'static str {
                match self { $(NodeKind::$kind => $json,)* }
            }

            /// How many children this kind takes.
            pub const fn arity(self) -> Arity {
                match self { $(NodeKind::$kind => Arity::$arity,)* }
            }

            /// Whether this kind is a loop that `break` and `continue` act on
            /// (and that may have a label).
            pub const fn is_loop(self) -> bool {
                match self { $(NodeKind::$kind => $is_loop,)* }
            }

            /// Whether a node of this kind keeps a timestamp and a duration.
            pub const fn is_timed(self) -> bool {
                match self { $(NodeKind::$kind => $is_timed,)* }
            }

            /// Which parameters this kind takes.
            pub const fn params(self) -> Parameters {
                match self { $(NodeKind::$kind => Parameters::$params,)* }
            }

            /// Where this kind's children sit in the JSON form.
            pub const fn slots(self) -> Slots {
                match self { $(NodeKind::$kind => Slots::$slots,)* }
            }

            /// The fields a node of this kind may have in the JSON form besides
            /// `"type"`, `"id"`, `"name"` and the hooks.
            pub const fn fields(self) -> &'static [&'static str] {
                match self { $(NodeKind::$kind => &[$($field),*],)* }
            }

            /// The group this kind is listed under.
            pub const fn group(self) -> Group {
                match self { $(NodeKind::$kind => Group::$group,)* }
            }

            /// The icon that shows this kind in the studio (one or two characters).
            pub const fn icon(self) -> &'static str {
                match self { $(NodeKind::$kind => $icon,)* }
            }

            /// How this kind's work per tick follows from its children's.
            pub const fn work(self) -> Work {
                match self { $(NodeKind::$kind => Work::$work,)* }
            }

            /// What this kind does, in one sentence: the first line of its
            /// documentation (the JSON schema's description of it).
            pub fn summary(self) -> &'static str {
                match self { $(NodeKind::$kind => $summary,)* }.trim()
            }

            /// The anchor of this kind's section in `SEMANTICS.md`
            /// (`"abort_if"`), where its full rules are.
            pub const fn rules_anchor(self) -> &'static str {
                match self { $(NodeKind::$kind => $anchor,)* }
            }
        }
    };
}

catalogue! {
    /// Ticks its children in order, resuming at the running one; a child's failure fails it, and it succeeds when all have succeeded.
    #[doc = rules!("sequence")]
    Sequence => { dsl: "sequence", json: "sequence", arity: Many, aliases: [], is_loop: false, is_timed: false, params: None, slots: Children,
        fields: ["children"], group: Composites, icon: "→", work: Sum }
    /// Ticks its children in order, resuming at the running one; a child's success succeeds it, and it fails when all have failed.
    #[doc = rules!("selector")]
    Selector => { dsl: "selector", json: "selector", arity: Many, aliases: ["fallback"], is_loop: false, is_timed: false, params: None, slots: Children,
        fields: ["children"], group: Composites, icon: "?", work: Sum }
    /// A sequence that starts from its first child on every tick, halting a later running child when an earlier one fails or runs.
    #[doc = rules!("reactive-sequence")]
    ReactiveSequence => { dsl: "reactive sequence", json: "reactiveSequence", arity: Many, aliases: [], is_loop: false, is_timed: false, params: None, slots: Children,
        fields: ["children"], group: Composites, icon: "⇢", work: Sum }
    /// A selector that starts from its first child on every tick, halting a later running child when an earlier one succeeds or runs.
    #[doc = rules!("reactive-selector")]
    ReactiveSelector => { dsl: "reactive selector", json: "reactiveSelector", arity: Many, aliases: ["reactive fallback"], is_loop: false, is_timed: false, params: None, slots: Children,
        fields: ["children"], group: Composites, icon: "??", work: Sum }
    /// Ticks every child not yet completed in this activation; succeeds once `success` children succeeded, fails once `failure` failed or success is out of reach, then halts the rest.
    #[doc = rules!("parallel")]
    Parallel => { dsl: "parallel", json: "parallel", arity: Many, aliases: [], is_loop: false, is_timed: false, params: Policy, slots: Children,
        fields: ["children", "policy", "success", "failure"], group: Composites, icon: "⇉", work: Sum }
    /// Ticks the first (main) child, then the others not yet completed; returns the main child's status and halts the others when it completes.
    #[doc = rules!("parallel-main")]
    ParallelMain => { dsl: "parallel(main)", json: "parallelMain", arity: Many, aliases: [], is_loop: false, is_timed: false, params: None, slots: Children,
        fields: ["children"], group: Composites, icon: "⇶", work: Sum }
    /// Picks one child uniformly on entry and runs it to completion.
    #[doc = rules!("random")]
    Random => { dsl: "random", json: "random", arity: Many, aliases: [], is_loop: false, is_timed: false, params: None, slots: Children,
        fields: ["children"], group: Composites, icon: "⚄", work: Largest }
    /// Picks one child on entry with probability proportional to its weight and runs it to completion.
    #[doc = rules!("weighted")]
    Weighted => { dsl: "weighted", json: "weighted", arity: Many, aliases: [], is_loop: false, is_timed: false, params: Weights, slots: Children,
        fields: ["children", "weights"], group: Composites, icon: "⚖", work: Largest }
    /// Draws an order of its children on entry, then behaves as a selector in that order.
    #[doc = rules!("shuffle")]
    Shuffle => { dsl: "shuffle", json: "shuffle", arity: Many, aliases: [], is_loop: false, is_timed: false, params: None, slots: Children,
        fields: ["children"], group: Composites, icon: "⤮", work: Sum }
    /// Evaluates its conditions in order on entry and runs the chosen branch to completion; with no branch chosen and no `else`, succeeds.
    #[doc = rules!("if")]
    If => { dsl: "if", json: "if", arity: Branches, aliases: [], is_loop: false, is_timed: false, params: Branches, slots: Branches,
        fields: ["branches", "else"], group: Composites, icon: "⑂", work: Branches }
    /// Evaluates its conditions again on every tick; when the chosen branch changes, halts the running one and enters the new one.
    #[doc = rules!("reactive-if")]
    ReactiveIf => { dsl: "reactive if", json: "reactiveIf", arity: Branches, aliases: [], is_loop: false, is_timed: false, params: Branches, slots: Branches,
        fields: ["branches", "else"], group: Composites, icon: "⑂", work: Branches }
    /// Matches a value against Rust patterns on entry and runs the chosen arm to completion.
    #[doc = rules!("match")]
    Match => { dsl: "match", json: "match", arity: Branches, aliases: [], is_loop: false, is_timed: false, params: Cases, slots: Cases,
        fields: ["value", "cases", "default"], group: Composites, icon: "≡", work: Match }
    /// Matches its value again on every tick; when the arm changes, halts the running one and enters the new one.
    #[doc = rules!("reactive-match")]
    ReactiveMatch => { dsl: "reactive match", json: "reactiveMatch", arity: Branches, aliases: [], is_loop: false, is_timed: false, params: Cases, slots: Cases,
        fields: ["value", "cases", "default"], group: Composites, icon: "≡", work: Match }
    /// Restarts its body whenever it completes, starting at most one iteration per tick; runs until a `break`.
    #[doc = rules!("loop")]
    Loop => { dsl: "loop", json: "loop", arity: One, aliases: ["forever"], is_loop: true, is_timed: false, params: None, slots: Child,
        fields: ["child", "label"], group: Loops, icon: "∞", work: Twice }
    /// Succeeds after `n` successes of its body and fails on its first failure; the next iteration starts in the same tick.
    #[doc = rules!("repeat")]
    Repeat => { dsl: "repeat", json: "repeater", arity: One, aliases: [], is_loop: true, is_timed: false, params: Count, slots: Child,
        fields: ["child", "count", "label"], group: Loops, icon: "⟲", work: Times }
    /// Succeeds on the first success of its body and fails after `n` failures; the next attempt starts in the same tick.
    #[doc = rules!("retry")]
    Retry => { dsl: "retry", json: "retry", arity: One, aliases: [], is_loop: true, is_timed: false, params: Count, slots: Child,
        fields: ["child", "count", "label"], group: Loops, icon: "↺", work: Times }
    /// Checks its condition before each iteration: false succeeds, a body failure fails; at most one iteration starts per tick.
    #[doc = rules!("while")]
    While => { dsl: "while", json: "while", arity: One, aliases: [], is_loop: true, is_timed: false, params: None, slots: ConditionChild,
        fields: ["condition", "child", "label"], group: Loops, icon: "⟳", work: Twice }
    /// Repeats its body until it fails, then succeeds; at most one iteration starts per tick.
    #[doc = rules!("until_fail")]
    UntilFail => { dsl: "until_fail", json: "untilFail", arity: One, aliases: [], is_loop: true, is_timed: false, params: None, slots: Child,
        fields: ["child", "label"], group: Loops, icon: "⟳", work: Twice }
    /// Repeats its body until it succeeds, then succeeds; at most one iteration starts per tick.
    #[doc = rules!("until_success")]
    UntilSuccess => { dsl: "until_success", json: "untilSuccess", arity: One, aliases: [], is_loop: true, is_timed: false, params: None, slots: Child,
        fields: ["child", "label"], group: Loops, icon: "⟳", work: Twice }
    /// Ends the innermost (or labelled) enclosing loop with success, halting what still runs in its body.
    #[doc = rules!("break")]
    Break => { dsl: "break", json: "break", arity: Leaf, aliases: [], is_loop: false, is_timed: false, params: None, slots: None,
        fields: ["label"], group: Loops, icon: "⇥", work: One }
    /// Ends the current iteration of the innermost (or labelled) loop as if its body had succeeded, halting what still runs in it.
    #[doc = rules!("continue")]
    Continue => { dsl: "continue", json: "continue", arity: Leaf, aliases: [], is_loop: false, is_timed: false, params: None, slots: None,
        fields: ["label"], group: Loops, icon: "↷", work: One }
    /// Swaps its child's success and failure; running stays running.
    #[doc = rules!("invert")]
    Invert => { dsl: "invert", json: "inverter", arity: One, aliases: [], is_loop: false, is_timed: false, params: None, slots: Child,
        fields: ["child"], group: Decorators, icon: "¬", work: Sum }
    /// Turns its child's completed status into success; running stays running.
    #[doc = rules!("force_success")]
    ForceSuccess => { dsl: "force_success", json: "succeeder", arity: One, aliases: [], is_loop: false, is_timed: false, params: None, slots: Child,
        fields: ["child"], group: Decorators, icon: "⊤", work: Sum }
    /// Turns its child's completed status into failure; running stays running.
    #[doc = rules!("force_failure")]
    ForceFailure => { dsl: "force_failure", json: "forceFailure", arity: One, aliases: [], is_loop: false, is_timed: false, params: None, slots: Child,
        fields: ["child"], group: Decorators, icon: "⊥", work: Sum }
    /// Ticks its child on entry; on a later tick at which the duration has passed since entry, halts the child and fails without ticking it.
    #[doc = rules!("timeout")]
    Timeout => { dsl: "timeout", json: "timeout", arity: One, aliases: [], is_loop: false, is_timed: true, params: Seconds, slots: Child,
        fields: ["child", "seconds"], group: Timing, icon: "◴", work: Sum }
    /// Running without ticking its child until the duration has passed since entry; from then on ticks the child.
    #[doc = rules!("delay")]
    Delay => { dsl: "delay", json: "delay", arity: One, aliases: [], is_loop: false, is_timed: true, params: Seconds, slots: Child,
        fields: ["child", "seconds"], group: Timing, icon: "◶", work: Sum }
    /// After its child completes, fails without ticking it until the duration has passed; the time outlives `reset`.
    #[doc = rules!("cooldown")]
    Cooldown => { dsl: "cooldown", json: "cooldown", arity: One, aliases: [], is_loop: false, is_timed: true, params: Seconds, slots: Child,
        fields: ["child", "seconds"], group: Timing, icon: "❄", work: Sum }
    /// Lets its child complete at most `n` times over the tree instance's life, then fails without ticking it; the count outlives `reset`.
    #[doc = rules!("limit")]
    Limit => { dsl: "limit", json: "limit", arity: One, aliases: [], is_loop: false, is_timed: false, params: Count, slots: Child,
        fields: ["child", "count"], group: Decorators, icon: "#", work: Sum }
    /// Ticks its child until it completes once, then returns that status forever without ticking it, also after `reset`.
    #[doc = rules!("run_once")]
    RunOnce => { dsl: "run_once", json: "runOnce", arity: One, aliases: [], is_loop: false, is_timed: false, params: None, slots: Child,
        fields: ["child"], group: Decorators, icon: "1×", work: Sum }
    /// Before each tick of its child: if the condition holds, halts the child and fails without ticking it.
    #[doc = rules!("abort_if")]
    AbortIf => { dsl: "abort_if", json: "abortIf", arity: One, aliases: [], is_loop: false, is_timed: false, params: None, slots: ConditionChild,
        fields: ["condition", "child"], group: Decorators, icon: "⊘", work: Sum }
    /// Declares node-local variables, initialised on entry, for the leaves and hooks inside; its status is its child's.
    #[doc = rules!("scope")]
    Scope => { dsl: "scope", json: "scope", arity: One, aliases: [], is_loop: false, is_timed: false, params: None, slots: Child,
        fields: ["child"], group: Decorators, icon: "{}", work: Sum }
    /// Always succeeds.
    #[doc = rules!("success")]
    Success => { dsl: "success", json: "success", arity: Leaf, aliases: [], is_loop: false, is_timed: false, params: None, slots: None,
        fields: [], group: Leaves, icon: "⊤", work: One }
    /// Always fails.
    #[doc = rules!("failure")]
    Failure => { dsl: "failure", json: "failure", arity: Leaf, aliases: [], is_loop: false, is_timed: false, params: None, slots: None,
        fields: [], group: Leaves, icon: "⊥", work: One }
    /// Always running.
    #[doc = rules!("running")]
    Running => { dsl: "running", json: "running", arity: Leaf, aliases: [], is_loop: false, is_timed: false, params: None, slots: None,
        fields: [], group: Leaves, icon: "…", work: One }
    /// Running on entry and until the duration has passed since entry, then success.
    #[doc = rules!("wait")]
    Wait => { dsl: "wait", json: "wait", arity: Leaf, aliases: [], is_loop: false, is_timed: true, params: Seconds, slots: None,
        fields: ["seconds"], group: Timing, icon: "◷", work: One }
    /// A question about the context: success when true, failure when false, never running.
    #[doc = rules!("cond")]
    Condition => { dsl: "cond", json: "condition", arity: Leaf, aliases: [], is_loop: false, is_timed: false, params: Leaf, slots: None,
        fields: ["condition"], group: Leaves, icon: "◇", work: One }
    /// Work on the context: an inline closure or a stored `Action`, which gets `enter`, `tick` and, when interrupted, `halt` once.
    #[doc = rules!("act")]
    Action => { dsl: "act", json: "action", arity: Leaf, aliases: [], is_loop: false, is_timed: false, params: Leaf, slots: None,
        fields: ["action"], group: Leaves, icon: "▣", work: One }
    /// Another tree used as a node, on the context or a part of it; behaves as its body written inline.
    #[doc = rules!("subtree")]
    Subtree => { dsl: "subtree", json: "subtree", arity: Leaf, aliases: [], is_loop: false, is_timed: false, params: Subtree, slots: None,
        fields: ["subtreeId", "remap"], group: Leaves, icon: "⧉", work: Sum }
    /// Ticks its children in order, resuming at the running one, and goes on after a failure as after a success; once all have completed, succeeds if all succeeded and fails otherwise.
    #[doc = rules!("sequence_always")]
    SequenceAlways => { dsl: "sequence_always", json: "sequenceAlways", arity: Many, aliases: [], is_loop: false, is_timed: false, params: None, slots: Children,
        fields: ["children"], group: Composites, icon: "⇒", work: Sum }
    /// Checks its condition only while its child is idle: false fails without ticking the child; true runs the child to completion without checking again.
    #[doc = rules!("latch")]
    Latch => { dsl: "latch", json: "latch", arity: One, aliases: [], is_loop: false, is_timed: false, params: None, slots: ConditionChild,
        fields: ["condition", "child"], group: Decorators, icon: "⊙", work: Sum }
    /// Checks its condition on every tick, the entering one included: `Running` while false, `Success` once true.
    #[doc = rules!("wait_until")]
    WaitUntil => { dsl: "wait_until", json: "waitUntil", arity: Leaf, aliases: [], is_loop: false, is_timed: false, params: Leaf, slots: None,
        fields: ["condition"], group: Timing, icon: "◷", work: One }
    /// Reads up to `max` items from the context on entry, then runs its body once per item, in order, the next iteration starting in the same tick; a body failure fails it, and it succeeds once every item has had its turn (at once when there are none).
    #[doc = rules!("for")]
    ForEach => { dsl: "for", json: "forEach", arity: One, aliases: [], is_loop: true, is_timed: false, params: ForEach, slots: Child,
        fields: ["items", "max", "child", "label"], group: Loops, icon: "∀", work: TimesAndRead }
    /// Scores every child on entry and runs the best (or draws in proportion to the scores); a reactive form re-scores on every tick, an interval form at most every `d` seconds, and both switch past a margin.
    #[doc = rules!("utility")]
    Utility => { dsl: "utility", json: "utility", arity: Many, aliases: [], is_loop: false, is_timed: false, params: Utility, slots: Children,
        fields: ["children", "scores", "choose", "best", "margin", "every"], group: Composites, icon: "★", work: ScoresAndLargest }
    /// Reads up to `max` candidates from the context on entry, scores each, and runs its body once with the best bound (the first on ties); no candidate scoring above zero: failure.
    #[doc = rules!("pick")]
    Pick => { dsl: "pick", json: "pick", arity: One, aliases: [], is_loop: false, is_timed: false, params: Pick, slots: Child,
        fields: ["items", "max", "score", "child"], group: Composites, icon: "◎", work: ReadScoresAndBody }
}

impl NodeKind {
    /// Whether this kind checks its conditions (or its value) again on every
    /// tick while a child runs, so that a sleeping tree wakes on a change of
    /// what those read rather than by its running child alone
    /// (`SEMANTICS.md`, "Sleeping on inputs").
    pub const fn is_reactive(self) -> bool {
        matches!(
            self,
            NodeKind::ReactiveSequence
                | NodeKind::ReactiveSelector
                | NodeKind::ReactiveIf
                | NodeKind::ReactiveMatch
                | NodeKind::AbortIf
                | NodeKind::WaitUntil
        )
    }

    /// The kind whose DSL keyword is `name` (`"sequence"`, `"reactive selector"`, ...).
    pub fn from_dsl_name(name: &str) -> Option<NodeKind> {
        NodeKind::ALL.iter().copied().find(|k| k.dsl_name() == name)
    }

    /// The kind that the DSL keyword or alias `word` writes (`"fallback"`,
    /// `"reactive fallback"` and `"selector"` name their kinds).
    pub fn from_dsl_word(word: &str) -> Option<NodeKind> {
        NodeKind::from_dsl_name(word).or_else(|| NodeKind::ALL.iter().copied().find(|k| k.aliases().contains(&word)))
    }

    /// Every word that starts a node in `behave!`, in catalogue order, each
    /// once: the kinds' keywords (`reactive` for the reactive forms, whose
    /// second word is another kind's) and their aliases. The macro lists them
    /// in "unknown node" errors and finds "did you mean" hints among them.
    pub fn dsl_words() -> impl Iterator<Item = &'static str> {
        // No allocation (the runtime is `no_std`): at most a keyword and an alias per kind.
        let mut words = [""; 2 * NodeKind::ALL.len()];
        let mut count = 0;
        let first = |w: &'static str| w.split([' ', '(']).next().unwrap_or(w);
        for k in NodeKind::ALL {
            for w in core::iter::once(k.dsl_name())
                .chain(k.aliases().iter().copied())
                .map(first)
            {
                if !words[..count].contains(&w) {
                    words[count] = w;
                    count += 1;
                }
            }
        }
        words.into_iter().take(count)
    }

    /// The kind whose JSON `"type"` is `name`.
    pub fn from_json_name(name: &str) -> Option<NodeKind> {
        NodeKind::ALL.iter().copied().find(|k| k.json_name() == name)
    }

    // Facts that follow from the entry's, for the `behave!` macro's model.

    /// Whether this kind is a jump out of a loop (`break`, `continue`): not
    /// a loop, yet it has a `"label"`, which names the loop it acts on.
    pub fn is_jump(self) -> bool {
        !self.is_loop() && self.fields().contains(&"label")
    }

    /// Whether a node of this kind holds nothing but its children (`sequence`,
    /// `invert`, `abort_if`, `success`): it takes no parameters and is no
    /// jump, whose label names its loop. `scope` is one until the DSL gives
    /// it variables.
    pub fn holds_only_children(self) -> bool {
        matches!(self.params(), Parameters::None) && !self.is_jump()
    }
}

impl core::fmt::Display for NodeKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.dsl_name())
    }
}

/// The known name closest to `unknown` by edit distance, if any is close enough
/// to be a plausible typo. Used for "did you mean" hints in the macro and the loader.
///
/// Names longer than [`MAX_HINTED`] bytes are neither hinted nor
/// suggested, so a file of huge, nearly identical names costs at most a
/// length comparison per candidate beyond that.
pub fn closest<'a>(unknown: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if unknown.len() > MAX_HINTED {
        return None;
    }
    let limit = unknown.len().max(3) / 3 + 1;
    known
        .into_iter()
        // The distance is at least the difference in length: skip the far ones cheaply.
        .filter(|k| k.len() <= MAX_HINTED && k.len().abs_diff(unknown.len()) <= limit)
        // So is the number of bytes one has that the other lacks: a loader
        // with a million unknown names skips almost every candidate here.
        .filter(|k| unmatched_bytes(unknown.as_bytes(), k.as_bytes()) <= limit)
        .map(|k| (edit_distance(unknown, k), k))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// A lower bound of the edit distance of `a` and `b`: the bytes of one that
/// the other lacks, counted with repeats (each edit supplies at most one).
fn unmatched_bytes(a: &[u8], b: &[u8]) -> usize {
    let mut count = [0i32; 256];
    for &c in a {
        count[usize::from(c)] += 1;
    }
    for &c in b {
        count[usize::from(c)] -= 1;
    }
    let (mut only_a, mut only_b) = (0, 0);
    for &c in a {
        only_a += count[usize::from(c)].max(0);
        count[usize::from(c)] = count[usize::from(c)].min(0);
    }
    for &c in b {
        only_b += (-count[usize::from(c)]).max(0);
        count[usize::from(c)] = 0;
    }
    only_a.max(only_b) as usize
}

/// The longest name [`closest`] compares, in bytes: a typo hint is for
/// names a person types.
pub const MAX_HINTED: usize = 63;

/// Levenshtein distance over bytes, with a fixed-size row (names are short:
/// at most [`MAX_HINTED`] bytes, or the distance is `usize::MAX`).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() > MAX_HINTED || b.len() > MAX_HINTED {
        return usize::MAX;
    }
    let mut row = [0usize; MAX_HINTED + 1];
    for (j, r) in row.iter_mut().enumerate().take(b.len() + 1) {
        *r = j;
    }
    for i in 1..=a.len() {
        let mut diagonal = row[0];
        row[0] = i;
        for j in 1..=b.len() {
            let above = row[j];
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (row[j] + 1).min(row[j - 1] + 1).min(diagonal + cost);
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &k in NodeKind::ALL {
            assert_eq!(NodeKind::from_dsl_name(k.dsl_name()), Some(k));
            assert_eq!(NodeKind::from_json_name(k.json_name()), Some(k));
        }
    }

    #[test]
    fn aliases_name_their_kinds_and_words_are_listed_once() {
        assert_eq!(NodeKind::from_dsl_word("fallback"), Some(NodeKind::Selector));
        assert_eq!(
            NodeKind::from_dsl_word("reactive fallback"),
            Some(NodeKind::ReactiveSelector)
        );
        assert_eq!(NodeKind::from_dsl_word("forever"), Some(NodeKind::Loop));
        assert_eq!(NodeKind::from_dsl_word("selector"), Some(NodeKind::Selector));
        assert_eq!(NodeKind::from_dsl_word("fallbak"), None);
        let words: [&str; 6] = core::array::from_fn(|i| NodeKind::dsl_words().nth(i).unwrap());
        assert_eq!(
            words,
            ["sequence", "selector", "fallback", "reactive", "parallel", "random"]
        );
        let all = || NodeKind::dsl_words();
        assert!(all().all(|w| all().filter(|v| *v == w).count() == 1));
        assert!(all().any(|w| w == "for") && !all().any(|w| w.contains(' ') || w.contains('(')));
    }

    #[test]
    fn the_facts_agree_with_each_other() {
        for &k in NodeKind::ALL {
            // The children's fields are the kind's fields; a label goes with loops and jumps.
            for f in k.slots().fields() {
                assert!(k.fields().contains(f), "{k:?} {f}");
            }
            let jump = matches!(k, NodeKind::Break | NodeKind::Continue);
            assert_eq!(k.fields().contains(&"label"), k.is_loop() || jump, "{k:?}");
            assert_eq!(k.slots() == Slots::None, k.arity() == Arity::Leaf, "{k:?}");
            assert_eq!(
                k.work() == Work::One,
                k.arity() == Arity::Leaf && k != NodeKind::Subtree,
                "{k:?}"
            );
            assert!(!k.icon().is_empty());
            assert!(!k.is_loop() || k.group() == Group::Loops, "{k:?}");
        }
    }

    #[test]
    fn jumps_plain_kinds_and_leading_conditions_follow_from_the_entries() {
        for &k in NodeKind::ALL {
            assert_eq!(k.is_jump(), matches!(k, NodeKind::Break | NodeKind::Continue), "{k:?}");
        }
        for k in [
            NodeKind::Sequence,
            NodeKind::Invert,
            NodeKind::AbortIf,
            NodeKind::Loop,
            NodeKind::Scope,
            NodeKind::Running,
        ] {
            assert!(k.holds_only_children(), "{k:?}");
        }
        for k in [
            NodeKind::Parallel,
            NodeKind::Repeat,
            NodeKind::Break,
            NodeKind::Condition,
            NodeKind::If,
        ] {
            assert!(!k.holds_only_children(), "{k:?}");
        }
        let leading = |k: NodeKind| k.slots().condition_children();
        assert_eq!(
            [NodeKind::While, NodeKind::AbortIf, NodeKind::Latch].map(leading),
            [1, 1, 1]
        );
        assert_eq!(
            [NodeKind::If, NodeKind::Invert, NodeKind::Sequence].map(leading),
            [0, 0, 0]
        );
    }

    #[test]
    fn a_body_is_the_child_field_and_condition_nodes_are_fields() {
        let all = [
            Slots::None,
            Slots::Child,
            Slots::Children,
            Slots::ConditionChild,
            Slots::Branches,
            Slots::Cases,
        ];
        for s in all {
            if let Some(b) = s.body() {
                assert_eq!(s.fields()[b as usize], "child", "{s:?}");
            }
            let conditions = s.fields().iter().any(|f| matches!(*f, "condition" | "branches"));
            assert_eq!(s.has_condition_nodes(), conditions, "{s:?}");
        }
        assert_eq!(Slots::ConditionChild.body(), Some(1));
        assert_eq!(Slots::Children.body(), None);
    }

    #[test]
    fn unmatched_bytes_bound_the_edit_distance() {
        for (a, b) in [
            ("sequence", "sequnce"),
            ("kind12345", "sequence"),
            ("aab", "abb"),
            ("", "wait"),
            ("repeater", "retry"),
        ] {
            let bound = unmatched_bytes(a.as_bytes(), b.as_bytes());
            assert!(bound <= edit_distance(a, b), "{a} / {b}");
        }
        assert_eq!(unmatched_bytes(b"aab", b"abb"), 1);
        assert_eq!(unmatched_bytes(b"kind1", b"wait"), 4);
    }

    #[test]
    fn closest_finds_typos_and_rejects_strangers() {
        let names = ["sequence", "selector", "parallel"];
        assert_eq!(closest("sequnce", names), Some("sequence"));
        assert_eq!(closest("selecter", names), Some("selector"));
        assert_eq!(closest("banana", names), None);
    }

    #[test]
    fn names_past_the_hinted_length_get_no_hint() {
        let long = "x".repeat(MAX_HINTED);
        let longer = format!("{long}y");
        assert_eq!(closest(&long[1..], [long.as_str()]), Some(long.as_str()));
        // One byte apart, but neither is a name a person types.
        assert_eq!(closest(&longer, [format!("{long}z").as_str()]), None);
        assert_eq!(closest(&long, [longer.as_str()]), None);
    }
}

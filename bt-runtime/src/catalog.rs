//! The one catalogue of node kinds: names in the DSL and in JSON, and how many
//! children each takes. The `behave!` macro, the JSON loader and the docs all
//! read it, so a node kind is defined in exactly one place.

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
    ($( $(#[$doc:meta])* $kind:ident => $dsl:literal, $json:literal, $arity:ident; )*) => {
        /// Every kind of node a tree can contain. Each variant says its rule in
        /// short; `SEMANTICS.md` at the repository root is the full reference.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum NodeKind {
            $( $(#[$doc])* $kind, )*
        }

        impl NodeKind {
            /// All node kinds, in catalogue order.
            pub const ALL: &'static [NodeKind] = &[$(NodeKind::$kind),*];

            /// The keyword that writes this node in `behave!`
            /// (`"reactive sequence"` for the reactive forms).
            pub const fn dsl_name(self) -> &'static str {
                match self { $(NodeKind::$kind => $dsl,)* }
            }

            /// The `"type"` of this node in the JSON form.
            pub const fn json_name(self) -> &'static str {
                match self { $(NodeKind::$kind => $json,)* }
            }

            /// How many children this kind takes.
            pub const fn arity(self) -> Arity {
                match self { $(NodeKind::$kind => Arity::$arity,)* }
            }
        }
    };
}

catalogue! {
    /// Ticks its children in order, resuming at the running one; a child's failure fails it, and it succeeds when all have succeeded.
    #[doc = rules!("sequence")]
    Sequence => "sequence", "sequence", Many;
    /// Ticks its children in order, resuming at the running one; a child's success succeeds it, and it fails when all have failed.
    #[doc = rules!("selector")]
    Selector => "selector", "selector", Many;
    /// A sequence that starts from its first child on every tick, halting a later running child when an earlier one fails or runs.
    #[doc = rules!("reactive-sequence")]
    ReactiveSequence => "reactive sequence", "reactiveSequence", Many;
    /// A selector that starts from its first child on every tick, halting a later running child when an earlier one succeeds or runs.
    #[doc = rules!("reactive-selector")]
    ReactiveSelector => "reactive selector", "reactiveSelector", Many;
    /// Ticks every child not yet completed in this activation; succeeds once `success` children succeeded, fails once `failure` failed or success is out of reach, then halts the rest.
    #[doc = rules!("parallel")]
    Parallel => "parallel", "parallel", Many;
    /// Ticks the first (main) child, then the others not yet completed; returns the main child's status and halts the others when it completes.
    #[doc = rules!("parallel-main")]
    ParallelMain => "parallel(main)", "parallelMain", Many;
    /// Picks one child uniformly on entry and runs it to completion.
    #[doc = rules!("random")]
    Random => "random", "random", Many;
    /// Picks one child on entry with probability proportional to its weight and runs it to completion.
    #[doc = rules!("weighted")]
    Weighted => "weighted", "weighted", Many;
    /// Draws an order of its children on entry, then behaves as a selector in that order.
    #[doc = rules!("shuffle")]
    Shuffle => "shuffle", "shuffle", Many;
    /// Evaluates its conditions in order on entry and runs the chosen branch to completion; with no branch chosen and no `else`, succeeds.
    #[doc = rules!("if")]
    If => "if", "if", Branches;
    /// Evaluates its conditions again on every tick; when the chosen branch changes, halts the running one and enters the new one.
    #[doc = rules!("reactive-if")]
    ReactiveIf => "reactive if", "reactiveIf", Branches;
    /// Matches a value against Rust patterns on entry and runs the chosen arm to completion.
    #[doc = rules!("match")]
    Match => "match", "match", Branches;
    /// Matches its value again on every tick; when the arm changes, halts the running one and enters the new one.
    #[doc = rules!("reactive-match")]
    ReactiveMatch => "reactive match", "reactiveMatch", Branches;
    /// Restarts its body whenever it completes, starting at most one iteration per tick; runs until a `break`.
    #[doc = rules!("loop")]
    Loop => "loop", "loop", One;
    /// Succeeds after `n` successes of its body and fails on its first failure; the next iteration starts in the same tick.
    #[doc = rules!("repeat")]
    Repeat => "repeat", "repeater", One;
    /// Succeeds on the first success of its body and fails after `n` failures; the next attempt starts in the same tick.
    #[doc = rules!("retry")]
    Retry => "retry", "retry", One;
    /// Checks its condition before each iteration: false succeeds, a body failure fails; at most one iteration starts per tick.
    #[doc = rules!("while")]
    While => "while", "while", One;
    /// Repeats its body until it fails, then succeeds; at most one iteration starts per tick.
    #[doc = rules!("until_fail")]
    UntilFail => "until_fail", "untilFail", One;
    /// Repeats its body until it succeeds, then succeeds; at most one iteration starts per tick.
    #[doc = rules!("until_success")]
    UntilSuccess => "until_success", "untilSuccess", One;
    /// Ends the innermost (or labelled) enclosing loop with success, halting what still runs in its body.
    #[doc = rules!("break")]
    Break => "break", "break", Leaf;
    /// Ends the current iteration of the innermost (or labelled) loop as if its body had succeeded, halting what still runs in it.
    #[doc = rules!("continue")]
    Continue => "continue", "continue", Leaf;
    /// Swaps its child's success and failure; running stays running.
    #[doc = rules!("invert")]
    Invert => "invert", "inverter", One;
    /// Turns its child's completed status into success; running stays running.
    #[doc = rules!("force_success")]
    ForceSuccess => "force_success", "succeeder", One;
    /// Turns its child's completed status into failure; running stays running.
    #[doc = rules!("force_failure")]
    ForceFailure => "force_failure", "forceFailure", One;
    /// Ticks its child on entry; on a later tick at which the duration has passed since entry, halts the child and fails without ticking it.
    #[doc = rules!("timeout")]
    Timeout => "timeout", "timeout", One;
    /// Running without ticking its child until the duration has passed since entry; from then on ticks the child.
    #[doc = rules!("delay")]
    Delay => "delay", "delay", One;
    /// After its child completes, fails without ticking it until the duration has passed; the time outlives `reset`.
    #[doc = rules!("cooldown")]
    Cooldown => "cooldown", "cooldown", One;
    /// Lets its child complete at most `n` times over the tree instance's life, then fails without ticking it; the count outlives `reset`.
    #[doc = rules!("limit")]
    Limit => "limit", "limit", One;
    /// Ticks its child until it completes once, then returns that status forever without ticking it, also after `reset`.
    #[doc = rules!("run_once")]
    RunOnce => "run_once", "runOnce", One;
    /// Before each tick of its child: if the condition holds, halts the child and fails without ticking it.
    #[doc = rules!("abort_if")]
    AbortIf => "abort_if", "abortIf", One;
    /// Declares node-local variables, initialised on entry, for the leaves and hooks inside; its status is its child's.
    #[doc = rules!("scope")]
    Scope => "scope", "scope", One;
    /// Always succeeds.
    #[doc = rules!("success")]
    Success => "success", "success", Leaf;
    /// Always fails.
    #[doc = rules!("failure")]
    Failure => "failure", "failure", Leaf;
    /// Always running.
    #[doc = rules!("running")]
    Running => "running", "running", Leaf;
    /// Running on entry and until the duration has passed since entry, then success.
    #[doc = rules!("wait")]
    Wait => "wait", "wait", Leaf;
    /// A question about the context: success when true, failure when false, never running.
    #[doc = rules!("cond")]
    Condition => "cond", "condition", Leaf;
    /// Work on the context: an inline closure or a stored `Action`, which gets `enter`, `tick` and, when interrupted, `halt` once.
    #[doc = rules!("act")]
    Action => "act", "action", Leaf;
    /// Another tree used as a node, on the context or a part of it; behaves as its body written inline.
    #[doc = rules!("subtree")]
    Subtree => "subtree", "subtree", Leaf;
    /// Ticks its children in order, resuming at the running one, and goes on after a failure as after a success; once all have completed, succeeds if all succeeded and fails otherwise.
    #[doc = rules!("sequence_always")]
    SequenceAlways => "sequence_always", "sequenceAlways", Many;
    /// Checks its condition only while its child is idle: false fails without ticking the child; true runs the child to completion without checking again.
    #[doc = rules!("latch")]
    Latch => "latch", "latch", One;
    /// Checks its condition on every tick, the entering one included: `Running` while false, `Success` once true.
    #[doc = rules!("wait_until")]
    WaitUntil => "wait_until", "waitUntil", Leaf;
    /// Reads up to `max` items from the context on entry, then runs its body once per item, in order, the next iteration starting in the same tick; a body failure fails it, and it succeeds once every item has had its turn (at once when there are none).
    #[doc = rules!("for")]
    ForEach => "for", "forEach", One;
}

impl NodeKind {
    /// The kind whose DSL keyword is `name` (`"sequence"`, `"reactive selector"`, ...).
    pub fn from_dsl_name(name: &str) -> Option<NodeKind> {
        NodeKind::ALL.iter().copied().find(|k| k.dsl_name() == name)
    }

    /// The kind whose JSON `"type"` is `name`.
    pub fn from_json_name(name: &str) -> Option<NodeKind> {
        NodeKind::ALL.iter().copied().find(|k| k.json_name() == name)
    }
}

impl core::fmt::Display for NodeKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.dsl_name())
    }
}

/// The known name closest to `unknown` by edit distance, if any is close enough
/// to be a plausible typo. Used for "did you mean" hints in the macro and the loader.
pub fn closest<'a>(unknown: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = unknown.len().max(3) / 3 + 1;
    known
        .into_iter()
        // The distance is at least the difference in length: skip the far ones cheaply.
        .filter(|k| k.len().abs_diff(unknown.len()) <= limit)
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

/// Levenshtein distance over bytes, with a fixed-size row (names are short).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() > 63 || b.len() > 63 {
        return usize::MAX;
    }
    let mut row = [0usize; 64];
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
}

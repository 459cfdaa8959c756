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

macro_rules! catalogue {
    ($( $(#[$doc:meta])* $kind:ident => $dsl:literal, $json:literal, $arity:ident; )*) => {
        /// Every kind of node a tree can contain.
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
    /// Children in order, resuming at the running one; fails on the first failure.
    Sequence => "sequence", "sequence", Many;
    /// Children in order, resuming at the running one; succeeds on the first success.
    Selector => "selector", "selector", Many;
    /// A sequence that starts from its first child on every tick.
    ReactiveSequence => "reactive sequence", "reactiveSequence", Many;
    /// A selector that starts from its first child on every tick.
    ReactiveSelector => "reactive selector", "reactiveSelector", Many;
    /// All children every tick until a success or failure threshold is met.
    Parallel => "parallel", "parallel", Many;
    /// All children every tick; the first child's status decides.
    ParallelMain => "parallel(main)", "parallelMain", Many;
    /// One child picked uniformly on entry.
    Random => "random", "random", Many;
    /// One child picked by weight on entry.
    Weighted => "weighted", "weighted", Many;
    /// A selector over an order drawn on entry.
    Shuffle => "shuffle", "shuffle", Many;
    /// A branch chosen by conditions on entry.
    If => "if", "if", Branches;
    /// A branch chosen by conditions on every tick.
    ReactiveIf => "reactive if", "reactiveIf", Branches;
    /// An arm chosen by a Rust pattern on entry.
    Match => "match", "match", Branches;
    /// An arm chosen by a Rust pattern on every tick.
    ReactiveMatch => "reactive match", "reactiveMatch", Branches;
    /// Restarts its body forever.
    Loop => "loop", "loop", One;
    /// Succeeds after `n` successes of its body.
    Repeat => "repeat", "repeater", One;
    /// Succeeds on the first success of its body, fails after `n` failures.
    Retry => "retry", "retry", One;
    /// Runs its body while a condition holds.
    While => "while", "while", One;
    /// Repeats its body until it fails.
    UntilFail => "until_fail", "untilFail", One;
    /// Repeats its body until it succeeds.
    UntilSuccess => "until_success", "untilSuccess", One;
    /// Ends the enclosing loop with success.
    Break => "break", "break", Leaf;
    /// Ends the current iteration of the enclosing loop.
    Continue => "continue", "continue", Leaf;
    /// Swaps success and failure.
    Invert => "invert", "inverter", One;
    /// Turns a completed status into success.
    ForceSuccess => "force_success", "succeeder", One;
    /// Turns a completed status into failure.
    ForceFailure => "force_failure", "forceFailure", One;
    /// Fails once a duration has passed since entry.
    Timeout => "timeout", "timeout", One;
    /// Waits a duration before ticking its child.
    Delay => "delay", "delay", One;
    /// Fails without ticking its child until a duration has passed since its last completion.
    Cooldown => "cooldown", "cooldown", One;
    /// Lets its child complete at most `n` times over the tree's life.
    Limit => "limit", "limit", One;
    /// Runs its child to completion once, then repeats that status.
    RunOnce => "run_once", "runOnce", One;
    /// Fails and halts its child when a condition holds.
    AbortIf => "abort_if", "abortIf", One;
    /// Node-local variables for the leaves inside it.
    Scope => "scope", "scope", One;
    /// Always succeeds.
    Success => "success", "success", Leaf;
    /// Always fails.
    Failure => "failure", "failure", Leaf;
    /// Always running.
    Running => "running", "running", Leaf;
    /// Running until a duration has passed since entry, then success.
    Wait => "wait", "wait", Leaf;
    /// A boolean question about the context.
    Condition => "cond", "condition", Leaf;
    /// Work on the context.
    Action => "act", "action", Leaf;
    /// Another tree used as a node.
    Subtree => "subtree", "subtree", Leaf;
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
        .map(|k| (edit_distance(unknown, k), k))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
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
    fn closest_finds_typos_and_rejects_strangers() {
        let names = ["sequence", "selector", "parallel"];
        assert_eq!(closest("sequnce", names), Some("sequence"));
        assert_eq!(closest("selecter", names), Some("selector"));
        assert_eq!(closest("banana", names), None);
    }
}

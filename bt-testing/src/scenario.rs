//! Scenarios: a script of ticks, each with its context changes and time, and
//! assertions on the root's status, on which leaves ran or were halted, and
//! on the context.

use behaved_runtime::{Status, Tree};

use crate::{Error, TestTree};

/// A script of ticks with assertions, built step by step and run against a
/// [`TestTree`] and a context:
///
/// ```text
/// Scenario::new("night falls")
///     .tick(0.0).expect(Status::Success).ran("Say(DEFAULT_DIALOGUE)")
///     .set(|c: &mut GuardCtx| c.world.time_of_day = TimeOfDay::Night)
///     .tick(1.0).expect(Status::Running).ran("MoveTo::new(GUARDHOUSE)")
///     .run(&mut guard, &mut ctx)?;
/// ```
///
/// Assertions apply to the tick (or reset) before them; context changes
/// (`set`) to the tick after them. Running stops at the first failed
/// assertion or broken property (see [`TestTree::check_properties`]) with a
/// message that names the scenario, the tick, its time, and lists the
/// tick's events.
pub struct Scenario<C: ?Sized> {
    name: String,
    steps: Vec<Step<C>>,
    pending: Vec<Change<C>>,
    clock: Option<SetClock<C>>,
}

/// A change of the context before a tick.
type Change<C> = Box<dyn FnMut(&mut C)>;
/// Sets the context's own time before a tick.
type SetClock<C> = Box<dyn FnMut(&mut C, f64)>;

enum Step<C: ?Sized> {
    Set(Change<C>),
    Tick(f64),
    Reset,
    Expect(Status),
    Ran(String, bool),
    Halted(String, bool),
    Returned(String, Status),
    Holds(String, Box<dyn Fn(&C) -> bool>),
}

impl<C: ?Sized> Scenario<C> {
    /// An empty scenario; `name` heads its failure messages.
    pub fn new(name: impl Into<String>) -> Self {
        Scenario {
            name: name.into(),
            steps: Vec::new(),
            pending: Vec::new(),
            clock: None,
        }
    }

    /// Sets the context's own time before each tick, for leaves that read it
    /// (`.clock(|c, now| c.now = now)` for a context that implements `Clock`).
    pub fn clock(mut self, set: impl FnMut(&mut C, f64) + 'static) -> Self {
        self.clock = Some(Box::new(set));
        self
    }

    fn push(mut self, step: Step<C>) -> Self {
        for f in self.pending.drain(..) {
            self.steps.push(Step::Set(f));
        }
        self.steps.push(step);
        self
    }

    /// Changes the context before the next tick.
    pub fn set(mut self, change: impl FnMut(&mut C) + 'static) -> Self {
        self.pending.push(Box::new(change));
        self
    }

    /// Ticks the tree at time `now`.
    pub fn tick(self, now: f64) -> Self {
        self.push(Step::Tick(now))
    }

    /// Ticks at each of `times`, in order; the assertions that follow apply
    /// to the last of them (properties are checked after each).
    pub fn ticks(mut self, times: impl IntoIterator<Item = f64>) -> Self {
        for now in times {
            self = self.push(Step::Tick(now));
        }
        self
    }

    /// Halts whatever runs (`reset`).
    pub fn reset(self) -> Self {
        self.push(Step::Reset)
    }

    /// The root returned `status`.
    pub fn expect(self, status: Status) -> Self {
        self.push(Step::Expect(status))
    }

    /// The node `selector` names was ticked (see [`TestTree::find`]).
    pub fn ran(self, selector: &str) -> Self {
        self.push(Step::Ran(selector.into(), true))
    }

    /// The node `selector` names was not ticked.
    pub fn not_ran(self, selector: &str) -> Self {
        self.push(Step::Ran(selector.into(), false))
    }

    /// The node `selector` names was halted.
    pub fn halted(self, selector: &str) -> Self {
        self.push(Step::Halted(selector.into(), true))
    }

    /// The node `selector` names was not halted.
    pub fn not_halted(self, selector: &str) -> Self {
        self.push(Step::Halted(selector.into(), false))
    }

    /// The node `selector` names returned `status` (its last status in the tick).
    pub fn returned(self, selector: &str, status: Status) -> Self {
        self.push(Step::Returned(selector.into(), status))
    }

    /// `check` holds for the context; `what` describes it in the failure message.
    pub fn holds(self, what: &str, check: impl Fn(&C) -> bool + 'static) -> Self {
        self.push(Step::Holds(what.into(), Box::new(check)))
    }

    /// Runs the script on `tree` and `ctx`; the first failure is the error.
    pub fn run<T: Tree<C>>(mut self, tree: &mut TestTree<C, T>, ctx: &mut C) -> Result<(), Error> {
        let trailing: Vec<_> = self.pending.drain(..).map(Step::Set).collect();
        self.steps.extend(trailing);
        let name = self.name;
        let mut last_root: Option<Status> = None;
        let fail = |tree: &TestTree<C, T>, message: String| Error::Scenario {
            scenario: name.clone(),
            tick: tree.ticks(),
            now: tree.now(),
            message,
            events: tree.describe_events(),
        };
        for step in &mut self.steps {
            match step {
                Step::Set(change) => change(ctx),
                Step::Tick(now) => {
                    if let Some(set) = &mut self.clock {
                        set(ctx, *now);
                    }
                    last_root = Some(tree.tick(ctx, *now));
                    if let Some(v) = tree.violation() {
                        return Err(fail(tree, v.message));
                    }
                }
                Step::Reset => {
                    tree.reset(ctx);
                    last_root = None;
                    if let Some(v) = tree.violation() {
                        return Err(fail(tree, v.message));
                    }
                }
                Step::Expect(status) => match last_root {
                    Some(got) if got == *status => {}
                    Some(got) => {
                        return Err(fail(
                            tree,
                            format!(
                                "expected the root to return {}, it returned {}",
                                status.name(),
                                got.name()
                            ),
                        ));
                    }
                    None => return Err(fail(tree, "`expect` needs a tick before it".into())),
                },
                Step::Ran(selector, wanted) => {
                    let node = tree.find(selector).map_err(|e| fail(tree, e.to_string()))?;
                    if tree.ran(node) != *wanted {
                        let (should, did) = if *wanted {
                            ("run", "did not")
                        } else {
                            ("not run", "did")
                        };
                        return Err(fail(tree, format!("expected `{selector}` to {should}; it {did}")));
                    }
                }
                Step::Halted(selector, wanted) => {
                    let node = tree.find(selector).map_err(|e| fail(tree, e.to_string()))?;
                    if tree.was_halted(node) != *wanted {
                        let (should, was) = if *wanted { ("", "was not") } else { ("not ", "was") };
                        return Err(fail(
                            tree,
                            format!("expected `{selector}` {should}to be halted; it {was}"),
                        ));
                    }
                }
                Step::Returned(selector, status) => {
                    let node = tree.find(selector).map_err(|e| fail(tree, e.to_string()))?;
                    match tree.status_of(node) {
                        Some(got) if got == *status => {}
                        got => {
                            let got = got.map_or("did not run".to_owned(), |s| format!("returned {}", s.name()));
                            return Err(fail(
                                tree,
                                format!("expected `{selector}` to return {}; it {got}", status.name()),
                            ));
                        }
                    }
                }
                Step::Holds(what, check) => {
                    if !check(ctx) {
                        return Err(fail(tree, format!("expected {what}; it does not hold")));
                    }
                }
            }
        }
        Ok(())
    }
}

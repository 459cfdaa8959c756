//! Scripted stand-ins for leaves, and the table of them a test tree consults
//! through the [`Observer::stand_in`](behaved_runtime::Observer::stand_in) hook.

use core::fmt;

use behaved_runtime::{LeafCall, NodeId, NodeKind, Status};

/// What a stand-in is told about the tick it answers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Call {
    /// The test tree's tick number (counting from 1).
    pub tick: u64,
    /// The tick's time.
    pub now: f64,
    /// `true` when the leaf starts a new activation (it was idle).
    pub entering: bool,
    /// Which activation this is, counting from 0.
    pub start: u32,
    /// Ticks of this activation before this one (0 on entering).
    pub tick_of_start: u32,
}

/// The script a leaf follows instead of its own code. A stand-in never
/// touches the context: its answers come from the script alone (share state
/// with the test through `Rc<Cell<..>>` in a [`from_fn`](StandIn::from_fn)
/// closure if it must).
pub struct StandIn {
    script: Script,
}

enum Script {
    /// One status per tick, across activations; the last repeats.
    PerTick(Vec<Status>),
    /// Activation k follows run k (the last run repeats); within a run, one
    /// status per tick, the last repeating.
    PerStart(Vec<Vec<Status>>),
    /// Anything.
    Fn(Box<dyn FnMut(&Call) -> Status>),
}

impl StandIn {
    /// One status per tick, whatever the activation: the leaf returns
    /// `statuses[0]` when first ticked, `statuses[1]` on its next tick, and
    /// so on; the last status repeats.
    pub fn statuses(statuses: impl IntoIterator<Item = Status>) -> StandIn {
        StandIn {
            script: Script::PerTick(statuses.into_iter().collect()),
        }
    }

    /// One script per activation: the leaf's first activation follows
    /// `runs[0]` tick by tick, its second `runs[1]`, ...; the last run
    /// repeats, and within a run the last status does.
    pub fn per_start<R: IntoIterator<Item = Status>>(runs: impl IntoIterator<Item = R>) -> StandIn {
        StandIn {
            script: Script::PerStart(runs.into_iter().map(|r| r.into_iter().collect()).collect()),
        }
    }

    /// For a condition: one value per evaluation; the last repeats.
    pub fn values(values: impl IntoIterator<Item = bool>) -> StandIn {
        StandIn::statuses(values.into_iter().map(Status::from))
    }

    /// The same status on every tick.
    pub fn always(status: Status) -> StandIn {
        StandIn::statuses([status])
    }

    /// Whatever the closure answers for each [`Call`]. On a condition, a
    /// `Running` answer is reported as a failed property check and read as `Failure`.
    pub fn from_fn(f: impl FnMut(&Call) -> Status + 'static) -> StandIn {
        StandIn {
            script: Script::Fn(Box::new(f)),
        }
    }

    /// Why this script cannot stand in for a node of `kind`, if it cannot.
    pub(crate) fn unfit_for(&self, kind: NodeKind) -> Option<String> {
        if !matches!(
            kind,
            NodeKind::Condition | NodeKind::Action | NodeKind::Wait | NodeKind::WaitUntil
        ) {
            return Some(format!(
                "it is a `{}` node; only conditions, actions, `wait` and `wait_until` have stand-ins",
                kind.dsl_name()
            ));
        }
        let statuses: Vec<&Status> = match &self.script {
            Script::PerTick(s) => s.iter().collect(),
            Script::PerStart(runs) => {
                if runs.iter().any(Vec::is_empty) {
                    return Some("one of its runs is empty".into());
                }
                runs.iter().flatten().collect()
            }
            Script::Fn(_) => return None,
        };
        if statuses.is_empty() {
            return Some("the script is empty".into());
        }
        if kind == NodeKind::Condition && statuses.contains(&&Status::Running) {
            return Some("a condition cannot be Running (give it values)".into());
        }
        None
    }

    fn answer(&mut self, call: &Call, ticks: u32) -> Status {
        fn at(s: &[Status], i: u32) -> Status {
            s[(i as usize).min(s.len() - 1)]
        }
        match &mut self.script {
            Script::PerTick(s) => at(s, ticks),
            Script::PerStart(runs) => at(&runs[(call.start as usize).min(runs.len() - 1)], call.tick_of_start),
            Script::Fn(f) => f(call),
        }
    }
}

impl fmt::Debug for StandIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.script {
            Script::PerTick(s) => f.debug_tuple("StandIn::statuses").field(s).finish(),
            Script::PerStart(r) => f.debug_tuple("StandIn::per_start").field(r).finish(),
            Script::Fn(_) => f.write_str("StandIn::from_fn(..)"),
        }
    }
}

/// One installed stand-in and where its script stands.
#[derive(Debug)]
struct Slot {
    stand_in: StandIn,
    condition: bool,
    /// It stands for the condition of a `wait_until`: `Failure` waits on.
    wait_until: bool,
    ticks: u32,
    starts: u32,
    tick_of_start: u32,
}

/// The stand-ins of one test tree, by node id, and the tick they answer in.
#[derive(Debug, Default)]
pub(crate) struct StandIns {
    slots: Vec<Option<Slot>>,
    tick: u64,
    now: f64,
    /// A condition's closure answered `Running`: (tick, node).
    pub(crate) running_condition: Option<(u64, NodeId)>,
}

impl StandIns {
    pub(crate) fn new(nodes: usize) -> StandIns {
        StandIns {
            slots: (0..nodes).map(|_| None).collect(),
            ..StandIns::default()
        }
    }

    pub(crate) fn install(&mut self, node: NodeId, stand_in: StandIn, kind: NodeKind) {
        self.slots[node.index()] = Some(Slot {
            stand_in,
            condition: kind == NodeKind::Condition,
            wait_until: kind == NodeKind::WaitUntil,
            ticks: 0,
            starts: 0,
            tick_of_start: 0,
        });
    }

    pub(crate) fn start_tick(&mut self, tick: u64, now: f64) {
        self.tick = tick;
        self.now = now;
    }

    pub(crate) fn answer(&mut self, node: NodeId, call: LeafCall) -> Option<Status> {
        let slot = self.slots.get_mut(node.index())?.as_mut()?;
        let LeafCall::Tick { entering } = call else {
            // The real leaf never ran, so its `halt` must not either.
            return Some(Status::Failure);
        };
        if entering {
            slot.tick_of_start = 0;
        }
        let info = Call {
            tick: self.tick,
            now: self.now,
            entering,
            start: slot.starts,
            tick_of_start: slot.tick_of_start,
        };
        let mut status = slot.stand_in.answer(&info, slot.ticks);
        if slot.wait_until && status == Status::Failure {
            status = Status::Running;
        }
        slot.ticks += 1;
        slot.tick_of_start += 1;
        if status.is_done() || slot.condition {
            slot.starts += 1;
        }
        if slot.condition && status == Status::Running {
            self.running_condition.get_or_insert((self.tick, node));
            status = Status::Failure;
        }
        Some(status)
    }

    /// A running stand-in was halted: its next tick starts a new activation.
    pub(crate) fn halted(&mut self, node: NodeId) {
        if let Some(Some(slot)) = self.slots.get_mut(node.index()) {
            slot.starts += 1;
        }
    }
}

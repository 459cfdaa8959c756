//! A tree written by hand implements [`Tree`] alone (its methods are all
//! public and documented) and is run through the same API as a `behave!`
//! tree: ticked tick by tick, observed, reset, scheduled by `behaved-sched`
//! and tested by `behaved-testing`. The hand-written tree here is
//! `sequence { wait(2.0), Shout }` and must match the generated one event for
//! event.
#![allow(missing_docs)]

use behaved::prelude::*;
use behaved::{LeafCall, NodeKind};
use behaved_sched::{Config, Scheduler};
use behaved_testing::{Scenario, StandIn, TestTree};

use Status::{Running as R, Success as S};

#[derive(Default)]
struct Ctx {
    shouts: u32,
    log: Vec<&'static str>,
}

/// Running on its first tick, Success on its second.
#[derive(Default)]
struct Shout {
    ticks: u32,
}

impl Action<Ctx> for Shout {
    fn enter(&mut self, ctx: &mut Ctx) {
        self.ticks = 0;
        ctx.log.push("enter");
    }
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        self.ticks += 1;
        if self.ticks < 2 {
            return R;
        }
        ctx.shouts += 1;
        S
    }
    fn halt(&mut self, ctx: &mut Ctx) {
        ctx.log.push("halt");
    }
    fn reset(&mut self, ctx: &mut Ctx) {
        ctx.log.push("reset");
    }
}

behave! {
    tree Generated for Ctx { sequence { wait(2.0), Shout::default() } }
}

/// The same tree by hand.
#[derive(Default)]
struct ByHand {
    /// The running child (0: the wait, 1: the shout), while the root runs.
    child: u8,
    running: bool,
    started: f64,
    shout: Shout,
}

const WAIT: NodeId = NodeId(1);
const SHOUT: NodeId = NodeId(2);

static NODES: [NodeInfo; 3] = [
    NodeInfo {
        id: NodeId(0),
        parent: None,
        kind: NodeKind::Sequence,
        label: "sequence",
        line: 0,
    },
    NodeInfo {
        id: WAIT,
        parent: Some(NodeId(0)),
        kind: NodeKind::Wait,
        label: "wait(2.0)",
        line: 0,
    },
    NodeInfo {
        id: SHOUT,
        parent: Some(NodeId(0)),
        kind: NodeKind::Action,
        label: "Shout::default()",
        line: 0,
    },
];

impl ByHand {
    /// Ticks leaf `id` (entered or resumed), asking the observer for a stand-in first.
    fn leaf<O: Observer + ?Sized>(&mut self, id: NodeId, entering: bool, ctx: &mut Ctx, now: f64, o: &mut O) -> Status {
        if entering {
            o.entered(id);
        }
        let status = match o.stand_in(id, LeafCall::Tick { entering }) {
            Some(status) => status,
            None if id == WAIT => {
                if entering {
                    self.started = now;
                }
                if !entering && now - self.started >= 2.0 { S } else { R }
            }
            None => {
                if entering {
                    self.shout.enter(ctx);
                }
                self.shout.tick(ctx)
            }
        };
        o.ticked(id, status);
        status
    }
}

impl Tree<Ctx> for ByHand {
    type Row = NodeInfo;

    fn nodes(&self) -> &[NodeInfo] {
        &NODES
    }

    fn tick_observed<O: Observer + ?Sized>(&mut self, ctx: &mut Ctx, now: f64, o: &mut O) -> Status {
        o.tick_started(now);
        let entering = !self.running;
        if entering {
            o.entered(NodeId(0));
            self.child = 0;
        }
        let status = if self.child == 0 {
            match self.leaf(WAIT, entering, ctx, now, o) {
                S => {
                    self.child = 1;
                    self.leaf(SHOUT, true, ctx, now, o)
                }
                waiting => waiting,
            }
        } else {
            self.leaf(SHOUT, false, ctx, now, o)
        };
        o.ticked(NodeId(0), status);
        self.running = status == R;
        o.tick_finished(status);
        status
    }

    fn reset_observed<O: Observer + ?Sized>(&mut self, ctx: &mut Ctx, o: &mut O) {
        if self.running {
            self.running = false;
            if self.child == 0 {
                o.halted(WAIT);
            } else {
                if o.stand_in(SHOUT, LeafCall::Halt).is_none() {
                    self.shout.halt(ctx);
                }
                o.halted(SHOUT);
            }
            o.halted(NodeId(0));
        }
        self.shout.reset(ctx);
    }

    fn is_running(&self) -> bool {
        self.running
    }

    fn next_wake(&self, now: f64) -> Wake {
        match (self.running, self.child) {
            (true, 0) => Wake::after(self.started, 2.0, now),
            (true, _) => self.shout.next_wake(now),
            (false, _) => Wake::NextTick,
        }
    }
}

/// Every event an observer is told, as text.
#[derive(Default)]
struct Recorder(Vec<String>);

impl Observer for Recorder {
    fn tick_started(&mut self, now: f64) {
        self.0.push(format!("start {now}"));
    }
    fn entered(&mut self, node: NodeId) {
        self.0.push(format!("enter {}", node.0));
    }
    fn ticked(&mut self, node: NodeId, status: Status) {
        self.0.push(format!("{} {status:?}", node.0));
    }
    fn halted(&mut self, node: NodeId) {
        self.0.push(format!("halt {}", node.0));
    }
    fn tick_finished(&mut self, status: Status) {
        self.0.push(format!("finish {status:?}"));
    }
}

/// What one form did over a run: per tick the status, the wake, the
/// events, the leaves' log; then the reset's events and log.
fn run<T: Tree<Ctx>>(tree: &mut T, times: &[f64], reset_after: usize) -> Vec<String> {
    let mut ctx = Ctx::default();
    let mut out = Vec::new();
    for (i, &now) in times.iter().enumerate() {
        let mut rec = Recorder::default();
        let status = tree.tick_observed(&mut ctx, now, &mut rec);
        out.push(format!(
            "{now}: {status:?} {:?} running={} {:?} {:?}",
            tree.next_wake(now),
            tree.is_running(),
            rec.0,
            std::mem::take(&mut ctx.log)
        ));
        if i + 1 == reset_after {
            let mut rec = Recorder::default();
            tree.reset_observed(&mut ctx, &mut rec);
            out.push(format!("reset: {:?} {:?}", rec.0, std::mem::take(&mut ctx.log)));
        }
    }
    out.push(format!("shouts {}", ctx.shouts));
    out
}

#[test]
fn the_hand_written_tree_ticks_tick_by_tick() {
    let mut tree = ByHand::default();
    let mut ctx = Ctx::default();
    // `tick_at`, `step` and `run_at` are the trait's defaults over `tick_observed`.
    assert_eq!(tree.tick_at(&mut ctx, 0.0), R, "the wait starts");
    assert_eq!(
        tree.next_wake(0.0),
        Wake::after(0.0, 2.0, 0.0),
        "asleep until the wait ends"
    );
    assert_eq!(tree.tick_at(&mut ctx, 1.0), R, "still waiting");
    assert_eq!(tree.tick_at(&mut ctx, 2.0), R, "the wait ends, the shout starts");
    assert_eq!(ctx.log, ["enter"]);
    let ticked = tree.step(&mut ctx, 2.5);
    assert_eq!((ticked.status, ticked.wake), (S, Wake::NextTick), "the shout is done");
    assert_eq!(ctx.shouts, 1);
    assert_eq!(tree.run_at(&mut ctx, 10.0, 1), Run::TickLimit, "a new wait starts");
    tree.reset(&mut ctx);
    assert!(!tree.is_running());
    assert_eq!(
        ctx.log,
        ["enter", "reset"],
        "the reset's callback, no halt of the idle shout"
    );
}

#[test]
fn the_hand_written_tree_matches_the_generated_one_event_for_event() {
    let times = [0.0, 1.0, 1.999, 2.0, 2.5, 3.0, 3.5, 5.5, 6.0];
    for reset_after in [0, 1, 4, 8] {
        let generated = run(&mut Generated::new(), &times, reset_after);
        let by_hand = run(&mut ByHand::default(), &times, reset_after);
        assert_eq!(by_hand, generated, "reset after {reset_after} ticks");
    }
    let rows = |t: &[NodeInfo]| t.iter().map(|n| (n.id, n.parent, n.kind, n.label)).collect::<Vec<_>>();
    assert_eq!(rows(ByHand::default().nodes()), rows(Generated::new().nodes()));
}

/// Both forms as agents of a scheduler: each ticks only when its wake is due.
fn scheduled<T: Tree<Ctx>>(make: fn() -> T) -> (usize, u32) {
    let mut sched = Scheduler::new(Config::default()).unwrap();
    for id in 0..3 {
        sched.insert(id, make(), 0).unwrap();
    }
    let mut ctx = Ctx::default();
    let mut ticks = 0;
    for frame in 0..=300 {
        ticks += sched.frame_on(f64::from(frame) / 60.0, &mut ctx).ticked;
    }
    (ticks, ctx.shouts)
}

#[test]
fn a_scheduler_runs_the_hand_written_tree_as_it_runs_a_generated_one() {
    let (ticks, shouts) = scheduled(ByHand::default);
    assert_eq!((ticks, shouts), scheduled(Generated::new));
    // Five seconds at 60 Hz, per agent: the start (frame 0), the wait's end
    // (120), the shout's second tick (121), twice (122, 242, 243), and the
    // third start (244), whose wait runs past the end: 3 agents x 7 ticks,
    // not 3 x 301.
    assert_eq!((ticks, shouts), (3 * 7, 3 * 2));
}

#[test]
fn the_test_kit_tests_the_hand_written_tree() -> Result<(), behaved_testing::Error> {
    let mut t = TestTree::new(ByHand::default());
    assert_eq!(t.name(), "ByHand");
    t.stand_in("Shout::default()", StandIn::statuses([S]))?;
    Scenario::new("the wait, then the stood-in shout")
        .tick(0.0)
        .expect(R)
        .ran("wait(2.0)")
        .not_ran("Shout::default()")
        .tick(2.0)
        .expect(S)
        .returned("Shout::default()", S)
        .holds("the shout's own tick never ran", |c: &Ctx| c.shouts == 0)
        .run(&mut t, &mut Ctx::default())?;
    t.check_properties()
}

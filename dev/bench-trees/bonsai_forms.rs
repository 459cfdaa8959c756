//! The three trees in bonsai-bt 0.14, driven with the same leaves.
//!
//! bonsai-bt's tree finishes for good once its root completes (`tick` then
//! returns `None`) and `reset_bt` rebuilds it from a clone of the definition,
//! so each root is wrapped in `While(WaitForever, [..])` and never finishes:
//!
//! - T1, `loop { sequence {..} }`: `While(WaitForever, [Yield, AlwaysSucceed(sequence)])`,
//!   where `Yield` succeeds once per tick and is Running otherwise: the body
//!   starts at most once per tick, as our `loop` does.
//! - T2 and T3: `While(WaitForever, [AlwaysSucceed(root), EndTick])`, where
//!   `EndTick` is Running when reached and succeeds when resumed on the next
//!   tick: a completed root starts again on the next tick, as ours does.
//!
//! T1 and T3 use bonsai's memory mode (`Sequence`, `Select`: resume the running
//! child); T2, which is reactive, its reactive mode (`.memory(false)`: re-walk
//! from the first child every tick). bonsai has no enter or halt hooks, so the
//! guard's walk is not told when it starts or is interrupted. Actions return
//! no leftover time (they consume the tick), so `Wait(1.0)` counts from the
//! tick after it is entered, like our `wait(1.0)`. Every action is a plain
//! enum value; the closure given to `tick` runs it on the context.

use behaved::Action as _;
use behaved::prelude::*;
use bonsai_bt::Behavior::{Action, AlwaysSucceed, Select, Sequence, Wait, WaitForever, While};
use bonsai_bt::{ActionArgs, BT, Behavior, Event, UpdateArgs};

use super::forms::Form;
use super::guard::{AtPost, GuardCtx, HasBribe, IsNight, Line, MoveToPost, QuestActive, Say};
use super::synthetic::SynCtx;
use super::wild_dog::{AttackIfAdjacent, DogCtx, FaceTarget, FindTarget, MoveAdjacent};

type Outcome = (bonsai_bt::Status, bonsai_bt::Float);

/// Our status as bonsai's, with no leftover time.
#[inline(always)]
fn outcome(s: Status) -> Outcome {
    let s = match s {
        Status::Success => bonsai_bt::Status::Success,
        Status::Failure => bonsai_bt::Status::Failure,
        Status::Running => bonsai_bt::Status::Running,
    };
    (s, 0.0)
}

/// The wrapper's helper actions and their state.
#[derive(Debug, Default, Clone, Copy)]
struct Wrapper {
    /// Ticks so far (identifies the current tick).
    tick: u64,
    /// The tick in which `Yield` last succeeded.
    yielded: u64,
    /// `EndTick` was reached and is Running.
    ending: bool,
}

impl Wrapper {
    /// Succeeds the first time it is reached in a tick, Running after that.
    #[inline(always)]
    fn yield_once(&mut self) -> Outcome {
        if self.yielded == self.tick {
            bonsai_bt::RUNNING
        } else {
            self.yielded = self.tick;
            (bonsai_bt::Status::Success, 0.0)
        }
    }

    /// Running when reached, Success when resumed (on the next tick).
    #[inline(always)]
    fn end_tick(&mut self) -> Outcome {
        self.ending = !self.ending;
        if self.ending {
            bonsai_bt::RUNNING
        } else {
            (bonsai_bt::Status::Success, 0.0)
        }
    }
}

/// A bonsai-bt tree, its wrapper state, and the update event it is ticked with.
pub struct Bonsai<A: Clone> {
    bt: BT<A, ()>,
    wrapper: Wrapper,
    event: Event,
}

impl<A: Clone> Bonsai<A> {
    fn new(root: Behavior<A>, dt: f64) -> Self {
        Bonsai {
            bt: BT::new(root, ()),
            wrapper: Wrapper::default(),
            event: UpdateArgs { dt }.into(),
        }
    }

    /// Ticks the tree, running its actions with `leaf`.
    #[inline(always)]
    fn tick_with(&mut self, mut leaf: impl FnMut(&A, &mut Wrapper) -> Outcome) -> Status {
        self.wrapper.tick += 1;
        let wrapper = &mut self.wrapper;
        let out = self
            .bt
            .tick(&self.event, &mut |args: ActionArgs<Event, A>, _: &mut ()| {
                leaf(args.action, wrapper)
            });
        match out {
            Some((bonsai_bt::Status::Running, _)) => Status::Running,
            other => panic!("the wrapped root never finishes, got {other:?}"),
        }
    }
}

/// T1's actions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DogAction {
    /// The wrapper's once-per-tick gate.
    Yield,
    /// `cond(FindTarget)`.
    FindTarget,
    /// `FaceTarget`.
    FaceTarget,
    /// `MoveAdjacent`.
    MoveAdjacent,
    /// `AttackIfAdjacent`.
    AttackIfAdjacent,
}

/// T1 in bonsai-bt (memory mode).
pub fn t1() -> Bonsai<DogAction> {
    use DogAction::*;
    let body = Sequence(vec![
        Action(FindTarget),
        Action(FaceTarget),
        Action(MoveAdjacent),
        Action(FaceTarget),
        Action(AttackIfAdjacent),
        Wait(1.0),
    ]);
    Bonsai::new(
        While(
            Box::new(WaitForever),
            vec![Action(Yield), AlwaysSucceed(Box::new(body))],
        ),
        super::wild_dog::DT,
    )
}

impl Form<DogCtx> for Bonsai<DogAction> {
    #[inline(always)]
    fn tick(&mut self, ctx: &mut DogCtx, _now: f64) -> Status {
        self.tick_with(|action, wrapper| match action {
            DogAction::Yield => wrapper.yield_once(),
            DogAction::FindTarget => outcome(Status::from(FindTarget.check(ctx))),
            DogAction::FaceTarget => outcome(FaceTarget.tick(ctx)),
            DogAction::MoveAdjacent => outcome(MoveAdjacent.tick(ctx)),
            DogAction::AttackIfAdjacent => outcome(AttackIfAdjacent.tick(ctx)),
        })
    }
}

/// T2's actions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GuardAction {
    /// The wrapper's end of a root's run.
    EndTick,
    /// `cond(QuestActive)`.
    QuestActive,
    /// `cond(IsNight)`.
    IsNight,
    /// `cond(AtPost)`.
    AtPost,
    /// `cond(HasBribe)`.
    HasBribe,
    /// `Say(line)`.
    Say(Line),
    /// `MoveToPost` (its tick; bonsai has no enter or halt).
    MoveToPost,
}

/// T2 in bonsai-bt (reactive mode).
pub fn t2() -> Bonsai<GuardAction> {
    use GuardAction::*;
    let night = Sequence(vec![
        Action(IsNight),
        Select(vec![
            Sequence(vec![Action(AtPost), Action(Say(Line::Night))]),
            Action(MoveToPost),
        ])
        .memory(false),
    ])
    .memory(false);
    let root = Select(vec![
        Sequence(vec![Action(QuestActive), Action(Say(Line::BrushOff))]),
        night,
        Sequence(vec![Action(HasBribe), Action(Say(Line::Bribe))]),
        Action(Say(Line::Default)),
    ])
    .memory(false);
    Bonsai::new(
        While(
            Box::new(WaitForever),
            vec![AlwaysSucceed(Box::new(root)), Action(EndTick)],
        ),
        0.0,
    )
}

impl Form<GuardCtx> for Bonsai<GuardAction> {
    #[inline(always)]
    fn tick(&mut self, ctx: &mut GuardCtx, _now: f64) -> Status {
        self.tick_with(|action, wrapper| match *action {
            GuardAction::EndTick => wrapper.end_tick(),
            GuardAction::QuestActive => outcome(Status::from(QuestActive.check(ctx))),
            GuardAction::IsNight => outcome(Status::from(IsNight.check(ctx))),
            GuardAction::AtPost => outcome(Status::from(AtPost.check(ctx))),
            GuardAction::HasBribe => outcome(Status::from(HasBribe.check(ctx))),
            GuardAction::Say(line) => outcome(Say(line).tick(ctx)),
            GuardAction::MoveToPost => outcome(MoveToPost.tick(ctx)),
        })
    }
}

/// T3's actions: a leaf id, or the wrapper's end of a root's run (`u32::MAX`).
pub type SynAction = u32;

const END_TICK: SynAction = u32::MAX;

/// T3 in bonsai-bt (memory mode), built from the same generator shape.
pub fn t3() -> Bonsai<SynAction> {
    fn build(node: &super::synthetic_gen::Node) -> Behavior<SynAction> {
        match node {
            super::synthetic_gen::Node::Leaf(id) => Action(*id),
            super::synthetic_gen::Node::Composite(selector, kids) => {
                let kids = kids.iter().map(build).collect();
                if *selector { Select(kids) } else { Sequence(kids) }
            }
        }
    }
    let root = build(&super::synthetic_gen::tree(5, 4, usize::MAX));
    Bonsai::new(
        While(
            Box::new(WaitForever),
            vec![AlwaysSucceed(Box::new(root)), Action(END_TICK)],
        ),
        0.0,
    )
}

impl Form<SynCtx> for Bonsai<SynAction> {
    #[inline(always)]
    fn tick(&mut self, ctx: &mut SynCtx, _now: f64) -> Status {
        self.tick_with(|&id, wrapper| {
            if id == END_TICK {
                wrapper.end_tick()
            } else {
                outcome(ctx.leaf(id))
            }
        })
    }
}

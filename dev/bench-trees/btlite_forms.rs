//! The three trees in behavior-tree-lite 0.3.2 (a `Box<dyn BehaviorNode>`
//! interpreter), driven with the same leaves.
//!
//! Its nodes reach the world through the tick's callback (`&mut dyn
//! FnMut(&dyn Any) -> Option<Box<dyn Any>>`), the crate's way to talk to an
//! environment with a lifetime: a leaf sends a [`Visit`] naming its function,
//! the callback runs it on the context and leaves the status in the message.
//! The crate has `Sequence`/`Fallback` (with memory) and their reactive
//! variants but no loop and no wait, so T1's `loop` and `wait` are custom nodes
//! with our semantics (`LoopNode`, `WaitNode`). It has no enter or halt
//! hooks: the guard's walk is not told when it starts or is interrupted.
//! A root that completes simply starts again on the next tick.

use std::any::Any;
use std::cell::Cell;

use behaved::prelude::*;
use behavior_tree_lite::{
    BehaviorCallback, BehaviorNode, BehaviorNodeContainer, BehaviorResult, Context, FallbackNode, NumChildren,
    Registry, SequenceNode,
};

use super::forms::Form;
use super::guard::{AtPost, GuardCtx, HasBribe, IsNight, Line, MoveToPost, QuestActive, Say};
use super::synthetic::SynCtx;
use super::wild_dog::{AttackIfAdjacent, DogCtx, FaceTarget, FindTarget, MoveAdjacent};

/// What a leaf asks of the callback: run `f(ctx, arg)` and put the status in `out`.
pub struct Visit<C: 'static> {
    f: fn(&mut C, u32) -> Status,
    arg: u32,
    out: Cell<BehaviorResult>,
}

/// What `WaitNode` asks of the callback: the time of this tick.
pub struct Now(Cell<f64>);

/// A leaf: a function on the context with an argument.
struct Leaf<C: 'static> {
    f: fn(&mut C, u32) -> Status,
    arg: u32,
}

impl<C: 'static> BehaviorNode for Leaf<C> {
    fn tick(&mut self, arg: BehaviorCallback, _ctx: &mut Context) -> BehaviorResult {
        let visit = Visit {
            f: self.f,
            arg: self.arg,
            out: Cell::new(BehaviorResult::Fail),
        };
        arg(&visit);
        visit.out.get()
    }
}

/// `loop { body }` with our one-start-per-tick rule.
#[derive(Default)]
struct LoopNode {
    body_running: bool,
}

impl BehaviorNode for LoopNode {
    fn tick(&mut self, arg: BehaviorCallback, ctx: &mut Context) -> BehaviorResult {
        let mut fresh = !self.body_running;
        loop {
            if ctx.tick_child(0, arg) == Some(BehaviorResult::Running) {
                self.body_running = true;
                return BehaviorResult::Running;
            }
            self.body_running = false;
            if fresh {
                return BehaviorResult::Running;
            }
            fresh = true;
        }
    }

    fn max_children(&self) -> NumChildren {
        NumChildren::Finite(1)
    }
}

/// `wait(d)`: Running on entry, Success on the first later tick at which `d` has passed.
struct WaitNode {
    d: f64,
    start: Option<f64>,
}

impl BehaviorNode for WaitNode {
    fn tick(&mut self, arg: BehaviorCallback, _ctx: &mut Context) -> BehaviorResult {
        let now = Now(Cell::new(0.0));
        arg(&now);
        let now = now.0.get();
        match self.start {
            None => {
                self.start = Some(now);
                BehaviorResult::Running
            }
            Some(start) if now - start >= self.d => {
                self.start = None;
                BehaviorResult::Success
            }
            Some(_) => BehaviorResult::Running,
        }
    }
}

/// A behavior-tree-lite tree and its (empty) blackboard context.
pub struct BtLite<C: 'static> {
    root: BehaviorNodeContainer,
    ctx: Context,
    _ctx: core::marker::PhantomData<fn(&mut C)>,
}

impl<C: 'static> BtLite<C> {
    fn new(root: BehaviorNodeContainer) -> Self {
        BtLite {
            root,
            ctx: Context::default(),
            _ctx: core::marker::PhantomData,
        }
    }
}

impl<C: 'static> BtLite<C> {
    /// One tick of the peer on `ctx` at time `now`.
    #[inline(always)]
    fn tick(&mut self, ctx: &mut C, now: f64) -> Status {
        let mut callback = |message: &dyn Any| -> Option<Box<dyn Any>> {
            if let Some(visit) = message.downcast_ref::<Visit<C>>() {
                visit.out.set(match (visit.f)(ctx, visit.arg) {
                    Status::Success => BehaviorResult::Success,
                    Status::Failure => BehaviorResult::Fail,
                    Status::Running => BehaviorResult::Running,
                });
            } else if let Some(time) = message.downcast_ref::<Now>() {
                time.0.set(now);
            }
            None
        };
        match self.root.tick(&mut callback, &mut self.ctx) {
            BehaviorResult::Success => Status::Success,
            BehaviorResult::Fail => Status::Failure,
            BehaviorResult::Running => Status::Running,
        }
    }
}

/// `BtLite` as a [`Form`] on each workload's context (one impl per context:
/// an impl for every `C` would overlap the one [`Form`] has for every tree).
macro_rules! forms {
    ($($ctx:ty),*) => {$(
        impl Form<$ctx> for BtLite<$ctx> {
            #[inline(always)]
            fn tick(&mut self, ctx: &mut $ctx, now: f64) -> Status {
                BtLite::tick(self, ctx, now)
            }
        }
    )*};
}
forms!(DogCtx, GuardCtx, SynCtx);

fn node(n: impl BehaviorNode + 'static, kids: Vec<BehaviorNodeContainer>) -> BehaviorNodeContainer {
    with_kids(BehaviorNodeContainer::new_node(n), kids)
}

fn with_kids(mut parent: BehaviorNodeContainer, kids: Vec<BehaviorNodeContainer>) -> BehaviorNodeContainer {
    for kid in kids {
        parent.add_child(kid).expect("within the node's arity");
    }
    parent
}

/// A node type from the crate's registry (its reactive nodes are not exported).
fn registered(name: &str, kids: Vec<BehaviorNodeContainer>) -> BehaviorNodeContainer {
    let n = Registry::default().build(name).expect("a built-in node type");
    with_kids(BehaviorNodeContainer::new_raw(n), kids)
}

fn leaf<C: 'static>(f: fn(&mut C, u32) -> Status, arg: u32) -> BehaviorNodeContainer {
    BehaviorNodeContainer::new_node(Leaf { f, arg })
}

/// T1 in behavior-tree-lite.
pub fn t1() -> BtLite<DogCtx> {
    let body = node(
        SequenceNode::default(),
        vec![
            leaf(|c: &mut DogCtx, _| Status::from(FindTarget.check(c)), 0),
            leaf(|c: &mut DogCtx, _| FaceTarget.tick(c), 0),
            leaf(|c: &mut DogCtx, _| MoveAdjacent.tick(c), 0),
            leaf(|c: &mut DogCtx, _| FaceTarget.tick(c), 0),
            leaf(|c: &mut DogCtx, _| AttackIfAdjacent.tick(c), 0),
            node(WaitNode { d: 1.0, start: None }, vec![]),
        ],
    );
    BtLite::new(node(LoopNode::default(), vec![body]))
}

fn say(c: &mut GuardCtx, line: u32) -> Status {
    let line = [Line::BrushOff, Line::Night, Line::Bribe, Line::Default][line as usize];
    Say(line).tick(c)
}

/// T2 in behavior-tree-lite (reactive nodes where ours are reactive).
pub fn t2() -> BtLite<GuardCtx> {
    let branch = |check: fn(&mut GuardCtx, u32) -> Status, line: Line| {
        node(SequenceNode::default(), vec![leaf(check, 0), leaf(say, line as u32)])
    };
    let night = registered(
        "ReactiveSequence",
        vec![
            leaf(|c: &mut GuardCtx, _| Status::from(IsNight.check(c)), 0),
            registered(
                "ReactiveFallback",
                vec![
                    branch(|c, _| Status::from(AtPost.check(c)), Line::Night),
                    leaf(|c: &mut GuardCtx, _| MoveToPost.tick(c), 0),
                ],
            ),
        ],
    );
    BtLite::new(registered(
        "ReactiveFallback",
        vec![
            branch(|c, _| Status::from(QuestActive.check(c)), Line::BrushOff),
            night,
            branch(|c, _| Status::from(HasBribe.check(c)), Line::Bribe),
            leaf(say, Line::Default as u32),
        ],
    ))
}

/// T3 in behavior-tree-lite (memory nodes), built from the same generator shape.
pub fn t3() -> BtLite<SynCtx> {
    fn build(n: &super::synthetic_gen::Node) -> BehaviorNodeContainer {
        match n {
            super::synthetic_gen::Node::Leaf(id) => leaf(|c: &mut SynCtx, id| c.leaf(id), *id),
            super::synthetic_gen::Node::Composite(true, kids) => {
                node(FallbackNode::default(), kids.iter().map(build).collect())
            }
            super::synthetic_gen::Node::Composite(false, kids) => {
                node(SequenceNode::default(), kids.iter().map(build).collect())
            }
        }
    }
    BtLite::new(build(&super::synthetic_gen::tree(5, 4, usize::MAX)))
}

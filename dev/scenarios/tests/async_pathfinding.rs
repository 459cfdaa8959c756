//! The async action scenario (`behaved_scenarios::sentry`): a guard awaits a path
//! search on a worker thread while its tree keeps reacting; an intruder
//! halts the walk and cancels the search. Compiled and interpreted forms, and
//! agents that sleep in a scheduler until their search wakes them.
//! Rules: `SEMANTICS.md#async`.
//!
//! Nothing here depends on timing: the worker is held (`spawn_paused`) where
//! a search must not finish yet, and the tests block on the search's waker
//! (`WakeQueue::wait`) where it must.

use behaved::prelude::*;
use behaved_interp::{Agent, NoParams, Registry};
use behaved_scenarios::hex::Hex;
use behaved_scenarios::pathfind::{Grid, PathService, PathStats};
use behaved_scenarios::sentry::{Courier, FindRoute, Sentry, SentryTree, walk};
use behaved_sched::{Config, Scheduler, WakeQueue};

/// A wall between the sentry and its post, so the route bends.
fn grid() -> Grid {
    Grid {
        radius: 6,
        walls: [Hex::new(0, -1), Hex::new(0, 0), Hex::new(0, 1)].into(),
    }
}

const START: Hex = Hex::new(-3, 0);
const POST: Hex = Hex::new(3, 0);

/// Something that ticks a sentry: the compiled tree or an interpreted agent.
trait Sentinel {
    fn tick(&mut self, s: &mut Sentry) -> Status;
    fn wake(&self) -> Wake;
}
impl Sentinel for SentryTree {
    fn tick(&mut self, s: &mut Sentry) -> Status {
        self.tick_at(s, 0.0)
    }
    fn wake(&self) -> Wake {
        self.next_wake(0.0)
    }
}
impl Sentinel for Agent<Sentry> {
    fn tick(&mut self, s: &mut Sentry) -> Status {
        self.tick_at(s, 0.0)
    }
    fn wake(&self) -> Wake {
        self.next_wake(0.0)
    }
}

/// The sentry's tree in JSON, with the search registered as an async action.
fn interpreted() -> Agent<Sentry> {
    let mut registry = Registry::<Sentry>::new();
    registry
        .condition("intruderInSight", |_: NoParams| InSight)
        .condition("atPost", |_: NoParams| AtPost)
        .action("raiseAlarm", |_: NoParams| Alarm)
        .action("walk", |_: NoParams| Walk)
        .async_action("findRoute", |_: NoParams| FindRoute);
    let tree = registry
        .load(
            r#"{"type": "reactiveSelector", "children": [
                {"type": "sequence", "children": [
                    {"type": "condition", "condition": "intruderInSight"},
                    {"type": "action", "action": "raiseAlarm"}]},
                {"type": "selector", "children": [
                    {"type": "condition", "condition": "atPost"},
                    {"type": "sequence", "children": [
                        {"type": "action", "action": "findRoute"},
                        {"type": "action", "action": "walk"}]}]}]}"#,
        )
        .unwrap();
    Agent::new(tree)
}

struct InSight;
impl Condition<Sentry> for InSight {
    fn check(&self, s: &Sentry) -> bool {
        s.intruder.is_some()
    }
}
struct AtPost;
impl Condition<Sentry> for AtPost {
    fn check(&self, s: &Sentry) -> bool {
        s.pos == s.post
    }
}
#[derive(Clone)]
struct Alarm;
impl Action<Sentry> for Alarm {
    fn tick(&mut self, s: &mut Sentry) -> Status {
        s.alarms += 1;
        Status::Success
    }
}
#[derive(Clone)]
struct Walk;
impl Action<Sentry> for Walk {
    fn tick(&mut self, s: &mut Sentry) -> Status {
        walk(s)
    }
}

/// The tree keeps reacting while the search is pending; the intruder halts
/// the walk branch, which drops the future, which cancels the search.
fn an_intruder_cancels_the_search(mut tree: impl Sentinel) {
    let service = PathService::spawn_paused(grid());
    let mut s = Sentry::new(START, POST, service.client());
    // The worker is held: the search stays pending, the tree keeps running.
    for tick in 0..5 {
        assert_eq!(tree.tick(&mut s), Status::Running, "tick {tick}");
        assert_eq!((s.searches, s.pos, s.alarms), (1, START, 0), "one search, no step yet");
    }
    // An intruder: the alarm branch wins on this very tick.
    s.intruder = Some(Hex::new(1, 1));
    assert_eq!(tree.tick(&mut s), Status::Success);
    assert_eq!(
        (s.alarms, s.cancelled, s.pos),
        (1, 1, START),
        "walk halted, search cancelled"
    );
    // The worker finds the search cancelled and never runs it.
    service.resume();
    assert_eq!(
        service.shutdown(),
        PathStats {
            completed: 0,
            cancelled: 1
        }
    );
}

#[test]
fn compiled_an_intruder_cancels_the_search() {
    an_intruder_cancels_the_search(SentryTree::new());
}

#[test]
fn interpreted_an_intruder_cancels_the_search() {
    an_intruder_cancels_the_search(interpreted());
}

/// Without interruption the route comes back and the sentry walks it, one
/// cell per tick, then stays at its post. Its tree is reactive (ticked on
/// every frame), so it polls the search on every tick until it completes.
fn the_sentry_walks_the_route_it_awaited(mut tree: impl Sentinel) {
    let service = PathService::spawn(grid());
    let mut s = Sentry::new(START, POST, service.client());
    let mut steps = 0;
    let status = loop {
        let before = s.pos;
        let status = tree.tick(&mut s);
        assert_eq!(tree.wake(), Wake::NextTick, "a reactive tree is ticked on every frame");
        if status != Status::Running {
            break status;
        }
        if s.pos == before {
            // The search is still on the worker (the tree reacted and went on).
            assert!(s.route.is_empty());
            std::thread::yield_now();
        } else {
            assert_eq!(before.distance(s.pos), 1, "one cell per tick");
            steps += 1;
            assert!(steps < 50, "the walk ends");
        }
    };
    assert_eq!((status, s.pos, s.searches, s.cancelled), (Status::Success, POST, 1, 0));
    // The route bends around the wall: longer than the six-cell straight line.
    assert!(steps > 6, "{steps} steps");
    assert_eq!(tree.tick(&mut s), Status::Success, "at its post: nothing to search");
    assert_eq!(s.searches, 1);
    assert_eq!(
        service.shutdown(),
        PathStats {
            completed: 1,
            cancelled: 0
        }
    );
}

#[test]
fn compiled_the_sentry_walks_the_route_it_awaited() {
    the_sentry_walks_the_route_it_awaited(SentryTree::new());
}

#[test]
fn interpreted_the_sentry_walks_the_route_it_awaited() {
    the_sentry_walks_the_route_it_awaited(interpreted());
}

/// Couriers waiting on their searches sleep in the scheduler (their wake is
/// `Never`) and are ticked again only when the search's waker wakes them.
#[test]
fn agents_awaiting_a_search_sleep_until_its_waker_wakes_them() {
    let service = PathService::spawn_paused(grid());
    let queue = WakeQueue::new();
    let mut sched = Scheduler::new(Config::default()).unwrap();
    for id in 0..3u64 {
        let mut s = Sentry::new(Hex::new(-3, id as i32), POST, service.client());
        s.waker = Some(queue.waker(id));
        sched.insert(id, (Courier::new(), s), 0).unwrap();
    }
    let frame = |sched: &mut Scheduler<(Courier, Sentry)>| {
        sched.frame(0.0, |_, (tree, s)| {
            let status = tree.tick_at(s, 0.0);
            assert_ne!(status, Status::Failure);
            tree.next_wake(0.0)
        })
    };
    let first = frame(&mut sched);
    assert_eq!(
        (first.ticked, first.parked),
        (3, 3),
        "all three wait on their search, asleep"
    );
    for _ in 0..10 {
        assert_eq!(
            frame(&mut sched).ticked,
            0,
            "nobody is ticked while the searches are held"
        );
    }
    service.resume();
    let mut arrived = 0;
    for _ in 0..200 {
        if queue.is_empty() && sched.iter().all(|(_, (tree, _))| tree.next_wake(0.0) == Wake::Never) {
            // Everybody sleeps on a search: wait for a waker.
            queue.wait();
        }
        queue.wake_into(&mut sched);
        frame(&mut sched);
        arrived = sched.iter().filter(|(_, (_, s))| s.pos == POST).count();
        if arrived == 3 {
            break;
        }
    }
    assert_eq!(arrived, 3);
    // A courier that arrived early starts its errand again (from its post):
    // every search asked for ran to its end.
    let searches = sched.iter().map(|(_, (_, s))| s.searches).sum();
    assert!(searches >= 3);
    assert_eq!(
        service.shutdown(),
        PathStats {
            completed: searches,
            cancelled: 0
        }
    );
}

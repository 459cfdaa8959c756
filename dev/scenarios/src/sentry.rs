//! A guard that awaits a path search on a worker thread while its tree keeps
//! reacting: the async action scenario.
//!
//! The sentry walks back to its post along a route that [`FindRoute`], an
//! async action, asks of a [`PathService`](crate::pathfind::PathService).
//! Its tree is a reactive selector, so while the search runs on the worker
//! the tree is ticked as usual and keeps watching for intruders. When one
//! comes into sight, the alarm branch takes over: the selector halts the
//! walk branch, which drops the search's future, which cancels the search on
//! the worker.
//!
//! [`Courier`] is the same errand without the watch: while its search runs
//! it needs no tick at all (its wake is `Never`), so a scheduler parks it
//! until the search's waker wakes it (`behaved_sched::WakeQueue`).

use std::task::Waker;

use behaved::prelude::*;

use crate::hex::Hex;
use crate::pathfind::{PathClient, PathSearch, Route};

/// The sentry's context: where it is, where its post is, what it saw.
#[derive(Debug)]
pub struct Sentry {
    /// Where the sentry stands.
    pub pos: Hex,
    /// Where it should stand.
    pub post: Hex,
    /// The route being walked (the next cell first).
    pub route: Route,
    /// An intruder in sight.
    pub intruder: Option<Hex>,
    /// Ticks spent raising the alarm.
    pub alarms: u32,
    /// Searches started.
    pub searches: u32,
    /// Searches cancelled by an interruption.
    pub cancelled: u32,
    /// Where searches go.
    pub paths: PathClient,
    /// The agent's waker, when a scheduler may put it to sleep.
    pub waker: Option<Waker>,
}

impl Sentry {
    /// A sentry at `pos` whose post is `post`, searching on `paths`.
    pub fn new(pos: Hex, post: Hex, paths: PathClient) -> Sentry {
        Sentry {
            pos,
            post,
            route: Route::new(),
            intruder: None,
            alarms: 0,
            searches: 0,
            cancelled: 0,
            paths,
            waker: None,
        }
    }
}

/// Asks the worker for a route from the sentry to its post; succeeds with
/// the route stored in [`Sentry::route`], fails when there is none. Its
/// future ([`PathSearch`]) is a named type, stored inline: nothing is
/// allocated in the tree, per start or per tick.
#[derive(Debug, Clone, Copy, Default)]
pub struct FindRoute;

impl Task for FindRoute {
    type Future = PathSearch;
}

impl AsyncAction<Sentry> for FindRoute {
    fn start(&mut self, s: &mut Sentry) -> PathSearch {
        s.searches += 1;
        s.paths.request(s.pos, s.post)
    }

    fn finish(&mut self, s: &mut Sentry, route: Option<Route>) -> Status {
        match route {
            Some(route) => {
                s.route = route;
                s.route.reverse();
                Status::Success
            }
            None => Status::Failure,
        }
    }

    fn waker<'c>(&self, s: &'c Sentry) -> Option<&'c Waker> {
        s.waker.as_ref()
    }

    fn cancelled(&mut self, s: &mut Sentry) {
        s.cancelled += 1;
    }
}

/// One step along the route per tick; `Success` at the post.
pub fn walk(s: &mut Sentry) -> Status {
    if let Some(next) = s.route.pop() {
        s.pos = next;
    }
    if s.pos == s.post {
        Status::Success
    } else {
        Status::Running
    }
}

behave! {
    /// Raises the alarm while an intruder is in sight; otherwise stays at its
    /// post, or searches a route to it and walks it.
    pub tree SentryTree for Sentry {
        reactive selector {
            sequence { cond(|s| s.intruder.is_some()), act(|s| s.alarms += 1) },
            selector {
                cond(|s| s.pos == s.post),
                sequence { act(async FindRoute), act(walk) },
            },
        }
    }

    /// Searches a route to the post and walks it; nothing else to watch, so
    /// it sleeps while the search runs.
    pub tree Courier for Sentry {
        sequence { act(async FindRoute), act(walk) }
    }
}

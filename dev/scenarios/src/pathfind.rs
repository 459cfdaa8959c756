//! Path search on a worker thread, awaited by trees as a future.
//!
//! A [`PathService`] owns one worker thread (plain `std::thread`: one
//! thread and a channel are all this needs, so no executor is pulled in).
//! [`PathClient::request`] queues a search and returns a [`PathSearch`], a
//! future that completes with the route. Dropping the future before it
//! completes **cancels** the search: the worker skips it if it has not
//! started, or stops it between two expanded cells, and counts it in
//! [`PathStats::cancelled`].

use std::collections::{HashMap, HashSet, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};
use std::thread::JoinHandle;

use crate::hex::{Heading, Hex};

/// A hex map for path search: cells within `radius` of the origin, minus walls.
#[derive(Debug, Clone, Default)]
pub struct Grid {
    /// How far from the origin the map reaches.
    pub radius: i32,
    /// Cells that cannot be entered.
    pub walls: HashSet<Hex>,
}

impl Grid {
    /// Whether `hex` is on the map and not a wall.
    pub fn is_open(&self, hex: Hex) -> bool {
        hex.distance(Hex::ORIGIN) <= self.radius.unsigned_abs() && !self.walls.contains(&hex)
    }
}

/// A route: the cells to step through, the start excluded, the goal last.
pub type Route = Vec<Hex>;

/// Breadth-first search from `from` to `to` on `grid`; `None` when no route
/// exists or when `cancelled` became true during the search.
pub fn find_path(grid: &Grid, from: Hex, to: Hex, cancelled: &AtomicBool) -> Option<Route> {
    let mut came_from: HashMap<Hex, Hex> = HashMap::new();
    let mut frontier = VecDeque::from([from]);
    came_from.insert(from, from);
    while let Some(at) = frontier.pop_front() {
        if cancelled.load(Ordering::Relaxed) {
            return None;
        }
        if at == to {
            let mut route = vec![to];
            let mut cell = to;
            while came_from[&cell] != from {
                cell = came_from[&cell];
                route.push(cell);
            }
            route.reverse();
            if from == to {
                route.clear();
            }
            return Some(route);
        }
        for next in Heading::ALL.map(|h| at.neighbor(h)) {
            if grid.is_open(next) && !came_from.contains_key(&next) {
                came_from.insert(next, at);
                frontier.push_back(next);
            }
        }
    }
    None
}

/// What the worker has done so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PathStats {
    /// Searches run to their end (route found or not).
    pub completed: u32,
    /// Searches dropped because their future was dropped first.
    pub cancelled: u32,
}

/// One search's shared state: the worker writes the result, the future reads it.
#[derive(Debug, Default)]
struct Slot {
    state: Mutex<SlotState>,
    cancelled: AtomicBool,
}

#[derive(Debug, Default)]
struct SlotState {
    /// `Some` once the worker is done: the route, or `None` when there is none.
    result: Option<Option<Route>>,
    /// The waker of the last poll that found no result.
    waker: Option<Waker>,
}

struct Job {
    from: Hex,
    to: Hex,
    slot: Arc<Slot>,
}

impl Job {
    /// Hands the result to the future and wakes it.
    fn complete(&self, route: Option<Route>) {
        let waker = {
            let mut state = self.slot.state.lock().unwrap_or_else(PoisonError::into_inner);
            state.result.get_or_insert(route);
            state.waker.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

impl Drop for Job {
    /// A job dropped unrun (the worker stopped first) completes with no
    /// route, so that nobody awaits it forever.
    fn drop(&mut self) {
        self.complete(None);
    }
}

/// What the worker receives.
enum Message {
    Search(Job),
    Stop,
}

/// Whether the worker may take jobs (see [`PathService::spawn_paused`]).
#[derive(Debug, Default)]
struct Gate {
    open: Mutex<bool>,
    changed: Condvar,
}

/// A path-search worker thread. Dropping the service (or
/// [`PathService::shutdown`]) lets the worker finish the jobs queued so far
/// and stop; a search queued after that completes with no route.
#[derive(Debug)]
pub struct PathService {
    jobs: Sender<Message>,
    worker: Option<JoinHandle<PathStats>>,
    gate: Arc<Gate>,
}

impl PathService {
    /// Starts the worker on `grid`.
    pub fn spawn(grid: Grid) -> PathService {
        let service = PathService::spawn_paused(grid);
        service.resume();
        service
    }

    /// Starts the worker on `grid`, holding it before its first job until
    /// [`resume`](PathService::resume): lets a test interrupt a search that
    /// has certainly not finished, without depending on timing.
    pub fn spawn_paused(grid: Grid) -> PathService {
        let (jobs, queue) = channel();
        let gate = Arc::new(Gate::default());
        let worker_gate = Arc::clone(&gate);
        let worker = std::thread::spawn(move || work(&grid, &queue, &worker_gate));
        PathService {
            jobs,
            worker: Some(worker),
            gate,
        }
    }

    /// Lets a paused worker take jobs.
    pub fn resume(&self) {
        *self.gate.open.lock().unwrap_or_else(PoisonError::into_inner) = true;
        self.gate.changed.notify_all();
    }

    /// A handle that queues searches on this worker, for the agents' contexts.
    pub fn client(&self) -> PathClient {
        PathClient {
            jobs: self.jobs.clone(),
        }
    }

    /// Lets the worker finish its queue, stops it and returns what it did.
    pub fn shutdown(mut self) -> PathStats {
        self.stop()
    }

    fn stop(&mut self) -> PathStats {
        // Clients may outlive the service: tell the worker to stop after the
        // jobs queued so far (any queued later are dropped unrun).
        let _ = self.jobs.send(Message::Stop);
        self.resume();
        self.worker.take().and_then(|w| w.join().ok()).unwrap_or_default()
    }
}

impl Drop for PathService {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Queues searches on a [`PathService`]'s worker; cheap to clone.
#[derive(Debug, Clone)]
pub struct PathClient {
    jobs: Sender<Message>,
}

impl PathClient {
    /// Queues a search from `from` to `to`; the returned future completes
    /// with its route, and cancels it when dropped first. A search queued
    /// after the worker stopped completes at once with no route.
    pub fn request(&self, from: Hex, to: Hex) -> PathSearch {
        let slot = Arc::new(Slot::default());
        let job = Job {
            from,
            to,
            slot: Arc::clone(&slot),
        };
        // A send to a stopped worker gives the job back, and dropping it
        // completes the search with no route.
        let _ = self.jobs.send(Message::Search(job));
        PathSearch { slot }
    }
}

/// The worker: waits at the gate, then runs each job unless it was cancelled.
fn work(grid: &Grid, queue: &Receiver<Message>, gate: &Gate) -> PathStats {
    let open = gate.open.lock().unwrap_or_else(PoisonError::into_inner);
    drop(
        gate.changed
            .wait_while(open, |open| !*open)
            .unwrap_or_else(PoisonError::into_inner),
    );
    let mut stats = PathStats::default();
    for message in queue {
        let Message::Search(job) = message else { break };
        let route = find_path(grid, job.from, job.to, &job.slot.cancelled);
        if job.slot.cancelled.load(Ordering::Relaxed) {
            stats.cancelled += 1;
            continue;
        }
        stats.completed += 1;
        job.complete(route);
    }
    stats
}

/// A queued or running path search: completes with its route (`None`: no
/// route exists). Dropping it before it completes cancels the search.
#[derive(Debug)]
pub struct PathSearch {
    slot: Arc<Slot>,
}

impl Future for PathSearch {
    type Output = Option<Route>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Route>> {
        let mut state = self.slot.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(result) = state.result.take() {
            return Poll::Ready(result);
        }
        // Keep the waker; clone it only when it changed (a clone of the same
        // waker is a reference count, but skipping it is cheaper still).
        match &state.waker {
            Some(w) if w.will_wake(cx.waker()) => {}
            _ => state.waker = Some(cx.waker().clone()),
        }
        Poll::Pending
    }
}

impl Drop for PathSearch {
    fn drop(&mut self) {
        self.slot.cancelled.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walled() -> Grid {
        // A wall across the straight line from (-3, 0) to (3, 0).
        Grid {
            radius: 5,
            walls: [Hex::new(0, -1), Hex::new(0, 0), Hex::new(0, 1), Hex::new(0, 2)].into(),
        }
    }

    #[test]
    fn a_route_goes_around_walls_one_step_at_a_time() {
        let never = AtomicBool::new(false);
        let route = find_path(&walled(), Hex::new(-3, 0), Hex::new(3, 0), &never).unwrap();
        assert_eq!(route.last(), Some(&Hex::new(3, 0)));
        assert!(route.len() > 6, "the wall makes it longer than the straight line");
        let mut at = Hex::new(-3, 0);
        for &step in &route {
            assert_eq!(at.distance(step), 1);
            assert!(walled().is_open(step));
            at = step;
        }
        assert_eq!(find_path(&walled(), at, at, &never), Some(vec![]));
    }

    #[test]
    fn a_cancelled_search_finds_nothing() {
        let cancelled = AtomicBool::new(true);
        assert_eq!(find_path(&walled(), Hex::new(-3, 0), Hex::new(3, 0), &cancelled), None);
    }

    #[test]
    fn the_worker_skips_searches_whose_future_was_dropped() {
        let service = PathService::spawn_paused(walled());
        let paths = service.client();
        let dropped = paths.request(Hex::new(-3, 0), Hex::new(3, 0));
        let mut kept = paths.request(Hex::new(-3, 0), Hex::new(3, 0));
        drop(dropped);
        service.resume();
        // Block on the kept search with a thread-parking waker.
        let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
        let mut cx = Context::from_waker(&waker);
        let route = loop {
            match Pin::new(&mut kept).poll(&mut cx) {
                Poll::Ready(route) => break route,
                Poll::Pending => std::thread::park(),
            }
        };
        assert!(route.is_some());
        drop(kept);
        assert_eq!(
            service.shutdown(),
            PathStats {
                completed: 1,
                cancelled: 1
            }
        );
    }

    struct Unpark(std::thread::Thread);
    impl std::task::Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
}

//! Wakers that wake scheduled agents: the bridge between futures (an async
//! action's work on another thread) and [`Scheduler::wake`].

use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::task::{Wake as WakeFn, Waker};

use crate::Scheduler;

/// Collects the ids of agents whose futures woke them, from any thread, until
/// the game loop hands them to its scheduler ([`WakeQueue::wake_into`],
/// before each frame).
///
/// An agent's [`waker`](WakeQueue::waker) is made once, when the agent is
/// created (one allocation), and kept in its context, where its async
/// actions find it (`AsyncAction::waker`). While such an action waits, the
/// agent's tree reports `Wake::Never` and the scheduler parks it; when the
/// future is woken, the id lands here, and the next `wake_into` makes the
/// agent due again. A wake that comes while the agent is still being ticked
/// is not lost: it waits here for the next frame.
///
/// ```
/// use behaved_sched::WakeQueue;
///
/// let queue = WakeQueue::new();
/// let waker = queue.waker(7);
/// std::thread::spawn(move || waker.wake()).join().unwrap();
/// let mut woken = Vec::new();
/// queue.drain(|id| woken.push(id));
/// assert_eq!(woken, [7]);
/// ```
#[derive(Debug, Clone, Default)]
pub struct WakeQueue {
    shared: Arc<Shared>,
}

#[derive(Debug, Default)]
struct Shared {
    woken: Mutex<Vec<u64>>,
    signal: Condvar,
}

/// The waker of one agent.
struct AgentWaker {
    id: u64,
    shared: Arc<Shared>,
}

impl WakeFn for AgentWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        let mut woken = self.shared.woken.lock().unwrap_or_else(PoisonError::into_inner);
        woken.push(self.id);
        self.shared.signal.notify_all();
    }
}

impl WakeQueue {
    /// An empty queue.
    pub fn new() -> WakeQueue {
        WakeQueue::default()
    }

    /// A waker that queues `id` when woken, from any thread. Allocates once.
    pub fn waker(&self, id: u64) -> Waker {
        Waker::from(Arc::new(AgentWaker {
            id,
            shared: Arc::clone(&self.shared),
        }))
    }

    /// Calls `f` with each queued id, in the order they were woken, and
    /// empties the queue (an agent woken twice comes twice).
    pub fn drain(&self, mut f: impl FnMut(u64)) {
        let mut woken = self.shared.woken.lock().unwrap_or_else(PoisonError::into_inner);
        for id in woken.drain(..) {
            f(id);
        }
    }

    /// Wakes every queued agent in `scheduler` ([`Scheduler::wake`]) and
    /// empties the queue; an id the scheduler no longer has (a removed
    /// agent) is skipped. Returns how many wakes were handed over.
    pub fn wake_into<A>(&self, scheduler: &mut Scheduler<A>) -> usize {
        let mut count = 0;
        self.drain(|id| {
            if scheduler.wake(id).is_ok() {
                count += 1;
            }
        });
        count
    }

    /// Blocks the calling thread until some agent has been woken (returns at
    /// once if one already has): for a loop with nothing to do but wait.
    pub fn wait(&self) {
        let woken = self.shared.woken.lock().unwrap_or_else(PoisonError::into_inner);
        let _woken = self
            .shared
            .signal
            .wait_while(woken, |w| w.is_empty())
            .unwrap_or_else(PoisonError::into_inner);
    }

    /// `true` when no wake is queued.
    pub fn is_empty(&self) -> bool {
        self.shared
            .woken
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Wake};

    #[test]
    fn a_woken_agent_is_ticked_on_the_next_frame_and_not_before() {
        let queue = WakeQueue::new();
        let mut sched = Scheduler::new(Config::default()).unwrap();
        sched.insert(3, (), 0).unwrap();
        // The agent parks itself.
        assert_eq!(sched.frame(0.0, |_, _| Wake::Never).ticked, 1);
        assert_eq!(sched.frame(0.1, |_, _| Wake::Never).ticked, 0);
        let waker = queue.waker(3);
        let stray = queue.waker(99);
        std::thread::spawn(move || {
            waker.wake_by_ref();
            stray.wake();
        })
        .join()
        .unwrap();
        queue.wait();
        assert_eq!(queue.wake_into(&mut sched), 1, "the removed/unknown id 99 is skipped");
        assert!(queue.is_empty());
        assert_eq!(sched.frame(0.2, |_, _| Wake::Never).ticked, 1);
    }
}

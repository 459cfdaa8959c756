//! A frame scheduler for many behavior-tree agents: tick only the agents that
//! need it.
//!
//! Each frame, [`Scheduler::frame`] ticks the agents that are due, in index
//! order, and asks each for its [`Wake`]:
//!
//! - `NextTick`: due again on the next frame of its level of detail. Level
//!   `l` ticks every `intervals[l]` frames, and agent `id` on the frames
//!   `f ≡ hash(id) (mod interval)`, so a thousand distant NPCs ticking every
//!   eighth frame spread evenly over the eight.
//! - `At(t)`: asleep in a timer wheel until the first frame whose time is at
//!   or after `t`.
//! - `Never`: parked until [`Scheduler::wake`] (an event: the agent was hit,
//!   a condition's input changed).
//! - `Watch { reads, at }` (a reactive tree whose conditions' inputs are
//!   known): asleep until `at` (parked when it is infinite), or until
//!   [`Scheduler::changed`] or [`Scheduler::changed_all`] marks a change of
//!   one of `reads`.
//!
//! [`wake`](Scheduler::wake) and [`changed`](Scheduler::changed) find the
//! agent by id (a hash lookup); a game that wakes many agents a frame keeps
//! each one's [`Slot`] ([`Scheduler::slot`], once) and wakes through it
//! ([`wake_slot`](Scheduler::wake_slot), [`changed_slot`](Scheduler::changed_slot)):
//! two array reads, no hashing.
//!
//! A [`Budget`] caps the ticks (or the time) of one frame; agents left over
//! stay due and go first on the next frame (the scan resumes where it
//! stopped), so nobody starves. The order of ticks depends only on the
//! inputs (ids, wakes, times and calls), never on addresses or hashing
//! seeds: two runs of the same game give the same ticks, so a run replays.
//! (A [`Budget::Time`] depends on the machine's speed, of course.)
//!
//! An agent that awaits a future (an async action, `act(async ..)`) sleeps
//! with `Never` while the future is pending; the future's waker, made by a
//! [`WakeQueue`], queues the agent's id from any thread, and
//! [`WakeQueue::wake_into`] hands the queued ids to [`Scheduler::wake`]
//! before the next frame.
//!
//! Compiled trees and interpreted agents both implement
//! [`Tree`]: its `step` ticks and reports the wake in one call.
//!
//! ```
//! use behaved::prelude::*;
//! use behaved_sched::{Config, Scheduler};
//!
//! struct Npc { now: f64, naps: u32 }
//! impl Clock for Npc { fn now(&self) -> f64 { self.now } }
//!
//! behave! {
//!     tree Napper for Npc { loop { sequence { act(|n| n.naps += 1), wait(1.0) } } }
//! }
//!
//! // Each agent is a tree and its NPC.
//! let mut sched = Scheduler::new(Config::default()).unwrap();
//! for id in 0..100 {
//!     sched.insert(id, (Napper::new(), Npc { now: 0.0, naps: 0 }), 0).unwrap();
//! }
//! let mut ticks = 0;
//! for frame in 0..121 {
//!     let now = frame as f64 / 60.0;
//!     let stats = sched.frame(now, |_id, (tree, npc)| {
//!         npc.now = now;
//!         tree.step(npc, now).wake
//!     });
//!     ticks += stats.ticked;
//! }
//! // Two seconds at 60 Hz: each napper ticks when it starts and when each
//! // nap ends (the next one starts in the same tick): 3 ticks, not 121.
//! assert_eq!(ticks, 100 * 3);
//! ```
#![forbid(unsafe_code)]

mod wakers;
mod wheel;

use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;

pub use behaved_runtime::{Reads, Ticked, Tree, Wake};
pub use wakers::WakeQueue;

use wheel::{Timer, Wheel};

/// How much work one frame may do. What is left over stays due and goes
/// first on the next frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Budget {
    /// Every due agent is ticked.
    Unlimited,
    /// At most this many ticks per frame.
    Ticks(usize),
    /// Stop starting ticks once this much wall time has passed in the frame
    /// (checked every 32 ticks). Not deterministic: it depends on the machine.
    Time(Duration),
}

/// How a [`Scheduler`] runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The tick interval, in frames, of each level of detail (level 0
    /// first): `[1, 4, 16]` ticks level 1 every 4th frame, level 2 every 16th.
    pub intervals: Vec<u32>,
    /// The work one frame may do.
    pub budget: Budget,
    /// The width of a timer-wheel slot, in seconds (about a frame's length).
    pub resolution: f64,
    /// The number of timer-wheel slots (rounded up to a power of two); with
    /// `resolution` it sets one turn of the wheel. Timers further away than a turn are passed over once
    /// per turn until their time comes.
    pub slots: usize,
}

impl Default for Config {
    /// Level 0 ticks every frame, no budget, a 1/60 s wheel of 4096 slots (68 s a turn).
    fn default() -> Config {
        Config {
            intervals: vec![1],
            budget: Budget::Unlimited,
            resolution: 1.0 / 60.0,
            slots: 4096,
        }
    }
}

/// What went wrong.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// An agent with this id is already registered.
    Duplicate(u64),
    /// No agent has this id.
    Unknown(u64),
    /// The level of detail is not one of the configured intervals.
    Level {
        /// The level asked for.
        level: u8,
        /// The number of levels configured.
        levels: usize,
    },
    /// The configuration cannot work (the message says why).
    Config(&'static str),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Duplicate(id) => write!(f, "an agent with id {id} is already registered"),
            Error::Unknown(id) => write!(f, "no agent has id {id}"),
            Error::Level { level, levels } => {
                write!(
                    f,
                    "level of detail {level} does not exist (levels 0..{levels} are configured)"
                )
            }
            Error::Config(why) => write!(f, "invalid scheduler configuration: {why}"),
        }
    }
}

impl std::error::Error for Error {}

/// What one frame did, and where the agents stand after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FrameStats {
    /// The frame's number (0 for the first).
    pub frame: u64,
    /// Agents ticked in this frame.
    pub ticked: usize,
    /// Agents due but left for the next frame by the budget.
    pub backlog: usize,
    /// Agents waiting for a later frame of their level of detail (those due
    /// on every frame included).
    pub waiting: usize,
    /// Agents asleep until a time.
    pub sleeping: usize,
    /// Agents parked until woken.
    pub parked: usize,
}

/// Where an agent stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Due,
    Waiting,
    Sleeping,
    Parked,
}

/// A registered agent's place in a [`Scheduler`], from
/// [`Scheduler::slot`]: [`wake_slot`](Scheduler::wake_slot) and
/// [`changed_slot`](Scheduler::changed_slot) reach the agent through it
/// with two array reads and no hashing, the cheap way for a game that wakes
/// many agents a frame (a Bevy plugin keeps one per entity). It stays valid
/// while the agent is registered, whoever else comes and goes; once the
/// agent is removed it names nobody (its id is checked on every use).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Slot {
    handle: u32,
    id: u64,
}

impl Slot {
    /// The id of the agent this slot names.
    pub fn id(self) -> u64 {
        self.id
    }
}

/// A free entry of [`Scheduler`]'s handle table.
const FREE: u32 = u32::MAX;

/// Per-agent scheduling data besides the agent itself: everything a frame
/// reads or writes for one due agent, in 16 bytes (one cache line touched
/// per agent when the due ones are far apart in memory).
#[derive(Debug, Clone, Copy)]
struct Meta {
    id: u64,
    /// The ticket of the agent's one standing ring entry or timer; entries
    /// with another ticket are stale. Tickets come from one counter, so an
    /// agent moved into a removed one's index never revives its entries.
    ticket: u32,
    level: u8,
    state: State,
}

/// Agents registered by id, ticked when due (see the crate docs).
///
/// Agents live in one dense array (in insertion order; removing one moves
/// the last into its place), so a frame walks the due ones in memory order.
/// A frame's cost grows with the agents it makes due and ticks, not with
/// the agents registered: sleepers wait in the timer wheel and level-of-detail
/// waiters in a ring of frames, both lists of indices that are visited only
/// when their time comes; the only per-agent state scanned is one due bit
/// per agent (1M agents: 16,000 words).
#[derive(Debug)]
pub struct Scheduler<A> {
    agents: Vec<A>,
    meta: Vec<Meta>,
    /// The last ticket handed out.
    tickets: u32,
    /// Ids to indices (Fx hashing: ids are plain integers, and only
    /// `insert`, `remove`, `wake` and the lookups by id hash; frames and
    /// [`Slot`]s never do).
    index: FxHashMap<u64, u32>,
    /// Per [`Slot`] handle: the agent's index, or `FREE`. Handles stay put
    /// when agents move (a removal moves the last agent).
    handles: Vec<u32>,
    /// Per index: the agent's handle (moved with it).
    owners: Vec<u32>,
    /// Handles of removed agents, for the next ones registered.
    free: Vec<u32>,
    /// One bit per index: due now.
    due: Vec<u64>,
    /// Per index: the inputs a sleeping or parked agent watches
    /// ([`Wake::Watch`]); 0 for none.
    watch: Vec<u64>,
    /// The number of non-zero entries of `watch`: a game with no watching
    /// agent skips its search for changes.
    watching: usize,
    /// Where the next frame's scan starts (after the last agent the budget allowed).
    cursor: usize,
    /// Agents waiting for a frame: slot `f % len` holds those due at frame `f`.
    ring: Vec<Vec<(u32, u32)>>,
    wheel: Wheel,
    /// Scratch: the timers that fired this frame (kept for its capacity).
    fired: Vec<(u32, u32)>,
    /// Scratch: the indices of the last batch (kept for its capacity).
    batch: Vec<u32>,
    config: Config,
    /// The number of the next frame.
    frame: u64,
    counts: [usize; 4],
}

/// The phase of agent `id` (SplitMix64: fixed, so runs replay).
fn hash(id: u64) -> u32 {
    let mut z = id.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) as u32
}

impl<A> Scheduler<A> {
    /// An empty scheduler; the configuration is checked.
    pub fn new(config: Config) -> Result<Scheduler<A>, Error> {
        if config.intervals.is_empty() || config.intervals.len() > 256 {
            return Err(Error::Config("between 1 and 256 levels of detail"));
        }
        if config.intervals.contains(&0) {
            return Err(Error::Config("a tick interval is at least 1 frame"));
        }
        if !(config.resolution.is_finite() && config.resolution > 0.0) {
            return Err(Error::Config("the wheel's resolution is a positive number of seconds"));
        }
        if config.slots == 0 {
            return Err(Error::Config("the wheel has at least one slot"));
        }
        if config.budget == Budget::Ticks(0) {
            return Err(Error::Config("a budget of 0 ticks would never tick"));
        }
        let longest = *config.intervals.iter().max().expect("not empty") as usize;
        Ok(Scheduler {
            agents: Vec::new(),
            meta: Vec::new(),
            tickets: 0,
            index: FxHashMap::default(),
            handles: Vec::new(),
            owners: Vec::new(),
            free: Vec::new(),
            due: Vec::new(),
            watch: Vec::new(),
            watching: 0,
            cursor: 0,
            // A power of two of slots (at least the longest interval): a mask, not a division.
            ring: (0..longest.next_power_of_two()).map(|_| Vec::new()).collect(),
            wheel: Wheel::new(config.slots, config.resolution),
            fired: Vec::new(),
            batch: Vec::new(),
            config,
            frame: 0,
            counts: [0; 4],
        })
    }

    /// The number of agents.
    pub fn len(&self) -> usize {
        self.agents.len()
    }

    /// Whether no agent is registered.
    pub fn is_empty(&self) -> bool {
        self.agents.is_empty()
    }

    /// Makes room for `additional` more agents, so that registering them
    /// does not grow the arrays and the id map step by step.
    pub fn reserve(&mut self, additional: usize) {
        self.agents.reserve(additional);
        self.meta.reserve(additional);
        self.index.reserve(additional);
        self.owners.reserve(additional);
        self.due.reserve(additional.div_ceil(64));
    }

    /// The number of agents whose last tick reported a [`Wake::Watch`] and
    /// that no change has woken since: with none, a game need not look for
    /// changes at all.
    pub fn watching(&self) -> usize {
        self.watching
    }

    /// The number of the next frame.
    pub fn next_frame(&self) -> u64 {
        self.frame
    }

    /// Registers agent `id` at level of detail `level`; it is first ticked
    /// on the next frame of its phase.
    pub fn insert(&mut self, id: u64, agent: A, level: u8) -> Result<(), Error> {
        self.level_ok(level)?;
        if self.index.contains_key(&id) {
            return Err(Error::Duplicate(id));
        }
        let idx = self.agents.len();
        self.index.insert(id, idx as u32);
        let handle = match self.free.pop() {
            Some(h) => h,
            None => {
                self.handles.push(FREE);
                (self.handles.len() - 1) as u32
            }
        };
        self.handles[handle as usize] = idx as u32;
        self.owners.push(handle);
        self.agents.push(agent);
        self.watch.push(0);
        self.meta.push(Meta {
            id,
            ticket: 0,
            level,
            state: State::Parked,
        });
        self.counts[State::Parked as usize] += 1;
        if self.due.len() * 64 <= idx {
            self.due.push(0);
        }
        self.wait_for_frame(idx);
        Ok(())
    }

    /// Unregisters agent `id` and gives it back. The last agent moves into
    /// its place and is ticked on the next frame (once early, which a tree
    /// allows).
    pub fn remove(&mut self, id: u64) -> Result<A, Error> {
        let idx = self.index.remove(&id).ok_or(Error::Unknown(id))? as usize;
        let last = self.agents.len() - 1;
        self.set_state(idx, None);
        let agent = self.agents.swap_remove(idx);
        self.meta.swap_remove(idx);
        if self.watch.swap_remove(idx) != 0 {
            self.watching -= 1;
        }
        let handle = self.owners.swap_remove(idx);
        self.handles[handle as usize] = FREE;
        self.free.push(handle);
        if idx != last {
            self.handles[self.owners[idx] as usize] = idx as u32;
        }
        if idx != last {
            // The moved agent's entries name `last`: stale now (its new
            // ticket makes them so). Due it here.
            let moved_state = self.meta[idx].state;
            self.counts[moved_state as usize] -= 1;
            if moved_state == State::Due {
                self.due[last / 64] &= !(1 << (last % 64));
            }
            self.counts[State::Parked as usize] += 1;
            self.meta[idx].state = State::Parked;
            self.index.insert(self.meta[idx].id, idx as u32);
            self.make_due(idx);
        }
        Ok(agent)
    }

    /// Wakes agent `id` (an event concerns it): it is ticked on the next
    /// frame, whatever it was waiting for.
    pub fn wake(&mut self, id: u64) -> Result<(), Error> {
        let idx = *self.index.get(&id).ok_or(Error::Unknown(id))? as usize;
        self.make_due(idx);
        Ok(())
    }

    /// Agent `id`'s [`Slot`], for waking it without a lookup by id (one
    /// lookup here, at registration, instead of one per wake).
    pub fn slot(&self, id: u64) -> Option<Slot> {
        let idx = *self.index.get(&id)? as usize;
        Some(Slot {
            handle: self.owners[idx],
            id,
        })
    }

    /// The index of the agent `slot` names, if it is still registered.
    #[inline]
    fn slot_index(&self, slot: Slot) -> Result<usize, Error> {
        match self.handles.get(slot.handle as usize) {
            Some(&idx) if idx != FREE && self.meta[idx as usize].id == slot.id => Ok(idx as usize),
            _ => Err(Error::Unknown(slot.id)),
        }
    }

    /// [`wake`](Scheduler::wake) through a [`Slot`]: no hashing.
    pub fn wake_slot(&mut self, slot: Slot) -> Result<(), Error> {
        let idx = self.slot_index(slot)?;
        self.make_due(idx);
        Ok(())
    }

    /// [`changed`](Scheduler::changed) through a [`Slot`]: no hashing.
    /// Returns whether the agent was woken (it slept on a watch of one of
    /// `changed`).
    pub fn changed_slot(&mut self, slot: Slot, changed: Reads) -> Result<bool, Error> {
        let idx = self.slot_index(slot)?;
        Ok(self.changed_at(idx, changed))
    }

    /// Marks a change of `changed` in what agent `id`'s tree reads: if it
    /// sleeps on a [`Wake::Watch`] of one of them, it is ticked on the next
    /// frame; otherwise nothing happens (its wake does not depend on them).
    pub fn changed(&mut self, id: u64, changed: Reads) -> Result<(), Error> {
        let idx = *self.index.get(&id).ok_or(Error::Unknown(id))? as usize;
        self.changed_at(idx, changed);
        Ok(())
    }

    /// Marks a change of `changed` for every agent (a change of the world
    /// they all read): those watching one of them are ticked on the next
    /// frame. One pass over a word per agent, with no lookup.
    pub fn changed_all(&mut self, changed: Reads) {
        for idx in 0..self.watch.len() {
            if self.watch[idx] & changed.0 != 0 {
                self.changed_at(idx, changed);
            }
        }
    }

    /// Wakes agent `idx` if it sleeps or is parked on a watch of one of `changed`.
    #[inline]
    fn changed_at(&mut self, idx: usize, changed: Reads) -> bool {
        if self.watch[idx] & changed.0 != 0 && matches!(self.meta[idx].state, State::Parked | State::Sleeping) {
            self.watch[idx] = 0;
            self.watching -= 1;
            self.make_due(idx);
            true
        } else {
            false
        }
    }

    /// Moves agent `id` to level of detail `level`. A waiting agent is
    /// rescheduled to its phase at the new interval; a sleeping or parked
    /// one keeps its wake.
    pub fn set_level(&mut self, id: u64, level: u8) -> Result<(), Error> {
        self.level_ok(level)?;
        let idx = *self.index.get(&id).ok_or(Error::Unknown(id))? as usize;
        self.meta[idx].level = level;
        if self.meta[idx].state == State::Waiting {
            self.wait_for_frame(idx);
        }
        Ok(())
    }

    /// Agent `id`, if registered.
    pub fn get(&self, id: u64) -> Option<&A> {
        self.index.get(&id).map(|&i| &self.agents[i as usize])
    }

    /// Agent `id`, if registered. Changing what its tree waits for calls
    /// for a [`wake`](Scheduler::wake).
    pub fn get_mut(&mut self, id: u64) -> Option<&mut A> {
        self.index.get(&id).map(|&i| &mut self.agents[i as usize])
    }

    /// Every agent with its id, in index order (for reading the world, not
    /// for ticking).
    pub fn iter(&self) -> impl Iterator<Item = (u64, &A)> {
        self.meta.iter().map(|m| m.id).zip(&self.agents)
    }

    /// Runs frame `now` (seconds; never earlier than the last frame's): makes
    /// due the agents whose frame or time has come, then ticks due agents in
    /// index order, starting where the last frame's budget stopped, calling
    /// `tick(id, agent)`, which ticks the agent and returns its [`Wake`].
    pub fn frame(&mut self, now: f64, mut tick: impl FnMut(u64, &mut A) -> Wake) -> FrameStats {
        let frame = self.begin(now);
        let deadline = match self.config.budget {
            Budget::Time(d) => Some((Instant::now(), d)),
            _ => None,
        };
        let due = self.counts[State::Due as usize];
        let ticked = self.walk_due(deadline, |s, idx| {
            let wake = tick(s.meta[idx].id, &mut s.agents[idx]);
            s.schedule(idx, wake, now);
        });
        self.stats(frame, ticked, due - ticked)
    }

    /// The first half of frame `now` for agents ticked elsewhere (by an
    /// ECS, on worker threads): makes due the agents whose frame or time has
    /// come and lists those [`frame`](Scheduler::frame) would tick, in its
    /// order and within a [`Budget::Ticks`]. Tick them, then give their
    /// wakes to [`Batch::finish`]. A [`Budget::Time`] is not applied here
    /// (the ticks happen outside). A batch dropped unfinished leaves its
    /// agents due for the next frame.
    pub fn batch(&mut self, now: f64) -> Batch<'_, A> {
        let frame = self.begin(now);
        let mut due = std::mem::take(&mut self.batch);
        due.clear();
        let backlog = self.counts[State::Due as usize];
        let ticked = self.walk_due(None, |_, idx| due.push(idx as u32));
        debug_assert_eq!(ticked, due.len());
        Batch {
            sched: self,
            due,
            frame,
            now,
            backlog: backlog - ticked,
        }
    }

    /// Puts agent `id` where a tick at `now` that returned `wake` would put
    /// it: to sleep until a time (e.g. its first tick, spread over an
    /// interval), parked, or due on its next frame.
    pub fn set_wake(&mut self, id: u64, wake: Wake, now: f64) -> Result<(), Error> {
        let idx = *self.index.get(&id).ok_or(Error::Unknown(id))? as usize;
        self.schedule(idx, wake, now);
        Ok(())
    }

    /// [`set_wake`](Scheduler::set_wake) through a [`Slot`]: no hashing
    /// (an agent ticked outside a frame, e.g. on a change its game found).
    pub fn set_wake_slot(&mut self, slot: Slot, wake: Wake, now: f64) -> Result<(), Error> {
        let idx = self.slot_index(slot)?;
        self.schedule(idx, wake, now);
        Ok(())
    }

    /// Starts frame `now`: makes due the agents whose frame or time has come.
    fn begin(&mut self, now: f64) -> u64 {
        let frame = self.frame;
        self.frame += 1;
        self.collect_due(frame, now);
        frame
    }

    /// Calls `visit` on each due agent in turn, from the cursor round to it,
    /// within the budget; moves the cursor to the first one left over.
    /// Returns the number visited.
    fn walk_due(&mut self, deadline: Option<(Instant, Duration)>, mut visit: impl FnMut(&mut Self, usize)) -> usize {
        let len = self.agents.len();
        let limit = match self.config.budget {
            Budget::Ticks(n) => n,
            _ => usize::MAX,
        };
        let mut ticked = 0;
        let start = if self.cursor < len { self.cursor } else { 0 };
        let mut stopped = None;
        // Two passes: from the cursor to the end, then from 0 to the cursor.
        'passes: for (from, to) in [(start, len), (0, start)] {
            let mut at = from;
            while let Some(idx) = self.next_due(at, to) {
                if ticked == limit || (ticked % 32 == 31 && deadline.is_some_and(|(t0, d)| t0.elapsed() >= d)) {
                    stopped = Some(idx);
                    break 'passes;
                }
                visit(self, idx);
                ticked += 1;
                at = idx + 1;
            }
        }
        self.cursor = stopped.unwrap_or(start);
        ticked
    }

    /// What frame `frame` did; `backlog` of the due agents were left over
    /// by the budget (the other due ones were ticked and are due next frame).
    fn stats(&self, frame: u64, ticked: usize, backlog: usize) -> FrameStats {
        FrameStats {
            frame,
            ticked,
            backlog,
            waiting: self.counts[State::Waiting as usize] + (self.counts[State::Due as usize] - backlog),
            sleeping: self.counts[State::Sleeping as usize],
            parked: self.counts[State::Parked as usize],
        }
    }

    /// [`frame`](Scheduler::frame) for agents that tick on one shared
    /// context (a world): each due agent is stepped on `ctx` at `now`.
    pub fn frame_on<C: ?Sized>(&mut self, now: f64, ctx: &mut C) -> FrameStats
    where
        A: Tree<C>,
    {
        self.frame(now, |_, agent| agent.step(ctx, now).wake)
    }

    fn level_ok(&self, level: u8) -> Result<(), Error> {
        if (level as usize) < self.config.intervals.len() {
            Ok(())
        } else {
            Err(Error::Level {
                level,
                levels: self.config.intervals.len(),
            })
        }
    }

    /// The first due index in `from..to`.
    fn next_due(&self, from: usize, to: usize) -> Option<usize> {
        let mut word = from / 64;
        if from >= to {
            return None;
        }
        let mut bits = self.due[word] & (!0u64 << (from % 64));
        loop {
            if bits != 0 {
                let idx = word * 64 + bits.trailing_zeros() as usize;
                return (idx < to).then_some(idx);
            }
            word += 1;
            if word * 64 >= to {
                return None;
            }
            bits = self.due[word];
        }
    }

    /// Moves agent `idx` into `state` (`None`: out of every count), keeping the counts.
    fn set_state(&mut self, idx: usize, state: Option<State>) {
        let old = self.meta[idx].state;
        self.counts[old as usize] -= 1;
        if old == State::Due {
            self.due[idx / 64] &= !(1 << (idx % 64));
        }
        if let Some(s) = state {
            self.counts[s as usize] += 1;
            self.meta[idx].state = s;
            if s == State::Due {
                self.due[idx / 64] |= 1 << (idx % 64);
            }
        }
    }

    /// A new ticket for agent `idx`: its standing entries become stale.
    fn new_ticket(&mut self, idx: usize) -> u32 {
        self.tickets = self.tickets.wrapping_add(1);
        self.meta[idx].ticket = self.tickets;
        self.tickets
    }

    fn make_due(&mut self, idx: usize) {
        if self.meta[idx].state != State::Due {
            self.new_ticket(idx);
            self.set_state(idx, Some(State::Due));
        }
    }

    /// Puts agent `idx` in the ring at the next frame of its phase.
    fn wait_for_frame(&mut self, idx: usize) {
        let m = self.meta[idx];
        let k = u64::from(self.config.intervals[m.level as usize]);
        let from = self.frame;
        let target = if k == 1 {
            from
        } else {
            from + (u64::from(hash(m.id)) % k + k - from % k) % k
        };
        let ticket = self.new_ticket(idx);
        let slot = (target as usize) & (self.ring.len() - 1);
        self.ring[slot].push((idx as u32, ticket));
        self.set_state(idx, Some(State::Waiting));
    }

    fn schedule(&mut self, idx: usize, wake: Wake, now: f64) {
        let watch = match wake {
            Wake::Watch { reads, .. } => reads.0,
            _ => 0,
        };
        match (self.watch[idx] != 0, watch != 0) {
            (false, true) => self.watching += 1,
            (true, false) => self.watching -= 1,
            _ => {}
        }
        self.watch[idx] = watch;
        match wake {
            Wake::Never => self.park(idx),
            Wake::At(t) | Wake::Watch { at: t, .. } if t == f64::INFINITY => self.park(idx),
            Wake::At(t) | Wake::Watch { at: t, .. } if t > now => {
                let ticket = self.new_ticket(idx);
                self.wheel.insert(Timer {
                    t,
                    idx: idx as u32,
                    ticket,
                });
                self.set_state(idx, Some(State::Sleeping));
            }
            // Also a time already passed, or not a number: tick soon rather than never.
            _ if self.config.intervals[self.meta[idx].level as usize] == 1 => {
                // Due on the very next frame: it stays due (the walk that
                // ticked it has passed it), with nothing to queue and collect.
                if self.meta[idx].state != State::Due {
                    self.make_due(idx);
                }
            }
            _ => self.wait_for_frame(idx),
        }
    }

    /// Parks agent `idx` until woken.
    fn park(&mut self, idx: usize) {
        self.new_ticket(idx);
        self.set_state(idx, Some(State::Parked));
    }

    /// Makes due the agents waiting for frame `frame` and the timers at or before `now`.
    fn collect_due(&mut self, frame: u64, now: f64) {
        let slot = (frame as usize) & (self.ring.len() - 1);
        let mut entries = std::mem::take(&mut self.ring[slot]);
        for (idx, ticket) in entries.drain(..) {
            self.wake_entry(idx, ticket, State::Waiting);
        }
        self.ring[slot] = entries;
        let mut fired = std::mem::take(&mut self.fired);
        self.wheel.expire(now, |t| fired.push((t.idx, t.ticket)));
        for (idx, ticket) in fired.drain(..) {
            self.wake_entry(idx, ticket, State::Sleeping);
        }
        self.fired = fired;
    }

    /// Makes agent `idx` due if the entry (`ticket`, found where agents in
    /// `state` wait) still stands.
    fn wake_entry(&mut self, idx: u32, ticket: u32, state: State) {
        let idx = idx as usize;
        if let Some(m) = self.meta.get(idx)
            && m.ticket == ticket
            && m.state == state
        {
            self.set_state(idx, Some(State::Due));
        }
    }
}

/// The due agents of one frame, to be ticked outside the scheduler (see
/// [`Scheduler::batch`]); the scheduler is borrowed until it is finished.
#[derive(Debug)]
pub struct Batch<'a, A> {
    sched: &'a mut Scheduler<A>,
    /// Indices of the due agents, in tick order.
    due: Vec<u32>,
    frame: u64,
    now: f64,
    /// Due agents left out by the budget.
    backlog: usize,
}

impl<A> Batch<'_, A> {
    /// The number of due agents.
    pub fn len(&self) -> usize {
        self.due.len()
    }

    /// Whether no agent is due.
    pub fn is_empty(&self) -> bool {
        self.due.is_empty()
    }

    /// The due agents with their ids, in the order `frame` would tick them.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &A)> {
        self.due
            .iter()
            .map(|&i| (self.sched.meta[i as usize].id, &self.sched.agents[i as usize]))
    }

    /// Ends the frame: `wake(id, agent)` returns the wake each due agent's
    /// tick reported, and the agent is scheduled by it, as in `frame`.
    pub fn finish(mut self, mut wake: impl FnMut(u64, &mut A) -> Wake) -> FrameStats {
        let due = std::mem::take(&mut self.due);
        for &i in &due {
            let idx = i as usize;
            let w = wake(self.sched.meta[idx].id, &mut self.sched.agents[idx]);
            self.sched.schedule(idx, w, self.now);
        }
        let stats = self.sched.stats(self.frame, due.len(), self.backlog);
        self.due = due;
        stats
    }
}

impl<A> Drop for Batch<'_, A> {
    /// Gives the list's memory back to the scheduler for the next batch.
    fn drop(&mut self) {
        self.sched.batch = std::mem::take(&mut self.due);
    }
}

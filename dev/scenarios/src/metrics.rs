//! The validation criteria of ADR-006/ADR-012, measured while the simulation
//! runs: sequence completion (counted by an observer on the dogs' trees, as
//! ADR-006 Phase 6 describes: "sequences completed vs. sequences restarted"),
//! attack intervals, queue fill times, lock changes and failed checks.

use behaved::prelude::*;
use behaved::{NodeKind, NodeRow};

use crate::clock::FPS;
use crate::event::{CheckFailure, Event, EventKind, ReleaseReason};
use crate::id::PlayerId;
use crate::reaction::ResolveReason;

/// How the dogs' main sequence ended, over all dogs and all loop iterations.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SequenceStats {
    /// Runs started (the sequence entered).
    pub started: u64,
    /// Runs that reached the end (the sequence succeeded).
    pub completed: u64,
    /// Runs cut short by a failing leaf (the loop restarts the sequence).
    pub failed: u64,
    /// Of `failed`: runs in which `FindOrKeepTarget` found nobody (an idle
    /// dog scanning, not a combat failure).
    pub no_target: u64,
}

impl SequenceStats {
    /// Completed / (completed + restarted); `None` before any run ended.
    pub fn completion_rate(&self) -> Option<f64> {
        ratio(self.completed, self.completed + self.failed)
    }

    /// The same, leaving out idle scans (runs with no target in range).
    pub fn engaged_completion_rate(&self) -> Option<f64> {
        ratio(self.completed, self.completed + self.failed - self.no_target)
    }
}

fn ratio(n: u64, d: u64) -> Option<f64> {
    (d > 0).then(|| n as f64 / d as f64)
}

/// An [`Observer`] on dog trees that counts runs of the main sequence into
/// [`SequenceStats`]. Finds the nodes in the tree's node table, so it works
/// for any tree built around one `sequence` with a `FindOrKeepTarget`.
pub struct SequenceCounter<'s> {
    seq: Option<NodeId>,
    find: Option<NodeId>,
    stats: &'s mut SequenceStats,
}

impl<'s> SequenceCounter<'s> {
    /// Counts into `stats` for a tree whose node table is `nodes`.
    pub fn new<R: NodeRow>(nodes: &[R], stats: &'s mut SequenceStats) -> SequenceCounter<'s> {
        let id_of = |n: &R| NodeId(n.id());
        let seq = nodes.iter().find(|n| n.kind() == NodeKind::Sequence).map(id_of);
        let find = nodes
            .iter()
            .find(|n| n.label().starts_with("FindOrKeepTarget"))
            .map(id_of);
        SequenceCounter { seq, find, stats }
    }
}

impl Observer for SequenceCounter<'_> {
    fn entered(&mut self, node: NodeId) {
        if Some(node) == self.seq {
            self.stats.started += 1;
        }
    }

    fn ticked(&mut self, node: NodeId, status: Status) {
        if Some(node) == self.seq {
            match status {
                Status::Success => self.stats.completed += 1,
                Status::Failure => self.stats.failed += 1,
                Status::Running => {}
            }
        } else if Some(node) == self.find && status == Status::Failure {
            self.stats.no_target += 1;
        }
    }
}

/// Count, minimum, maximum and mean of a series of durations.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spread {
    /// Samples.
    pub count: u64,
    /// Smallest sample (0 when none).
    pub min: f64,
    /// Largest sample (0 when none).
    pub max: f64,
    /// Sum of the samples.
    pub sum: f64,
}

impl Spread {
    /// Adds a sample.
    pub fn add(&mut self, x: f64) {
        if self.count == 0 {
            (self.min, self.max) = (x, x);
        } else {
            self.min = self.min.min(x);
            self.max = self.max.max(x);
        }
        self.count += 1;
        self.sum += x;
    }

    /// The mean, `None` without samples.
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum / self.count as f64)
    }
}

/// Bins of a [`Histogram`], each one frame (1/60 s) wide.
const BINS: usize = 600;

/// Durations counted in one-frame bins up to 10 s (longer ones in the last
/// bin): bounded memory however long the run, and a median to the frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    bins: Vec<u64>,
    count: u64,
}

impl Default for Histogram {
    fn default() -> Histogram {
        Histogram {
            bins: vec![0; BINS],
            count: 0,
        }
    }
}

impl Histogram {
    /// Adds a sample (in seconds; negative ones count as 0).
    pub fn add(&mut self, x: f64) {
        let bin = ((x.max(0.0) * FPS).round() as usize).min(BINS - 1);
        self.bins[bin] += 1;
        self.count += 1;
    }

    /// The median, to the nearest frame; `None` without samples.
    pub fn median(&self) -> Option<f64> {
        let half = self.count.div_ceil(2);
        let mut seen = 0;
        for (i, n) in self.bins.iter().enumerate() {
            seen += n;
            if seen >= half && self.count > 0 {
                return Some(i as f64 / FPS);
            }
        }
        None
    }

    /// Samples at most `x` seconds (to the nearest frame).
    pub fn at_most(&self, x: f64) -> u64 {
        let last = ((x.max(0.0) * FPS).round() as usize).min(BINS - 1);
        self.bins[..=last].iter().sum()
    }
}

/// Failed `UseAbilityIfAdjacent` checks, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CheckCounts {
    /// No target.
    pub no_target: u64,
    /// GCD running.
    pub gcd: u64,
    /// Target despawned.
    pub target_gone: u64,
    /// Target not adjacent.
    pub not_adjacent: u64,
    /// Target outside the facing cone.
    pub not_facing: u64,
}

/// Target locks released, by reason (ADR-006: only these three).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReleaseCounts {
    /// The target died.
    pub died: u64,
    /// The target left the world.
    pub despawned: u64,
    /// The target went beyond the leash.
    pub leash: u64,
}

/// Everything measured over a run of the simulation.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metrics {
    /// Runs of the dogs' main sequence.
    pub sequences: SequenceStats,
    /// Attacks the server executed.
    pub attacks: u64,
    /// Time between two consecutive attacks of the same dog.
    pub attack_interval: Spread,
    /// The same, binned.
    pub attack_intervals: Histogram,
    /// Abilities the server refused.
    pub refusals: u64,
    /// Checks `UseAbilityIfAdjacent` failed.
    pub checks_failed: CheckCounts,
    /// Per player, time from its first queued threat to its queue's first fill.
    pub queue_fill: Spread,
    /// Players whose queue was ever full.
    pub queues_filled: u64,
    /// Threats resolved by overflow.
    pub overflows: u64,
    /// Threats resolved by their timer.
    pub expired: u64,
    /// Damage dealt to players.
    pub damage: u64,
    /// Dodges.
    pub dodges: u64,
    /// Player deaths.
    pub deaths: u64,
    /// Players despawned.
    pub despawns: u64,
    /// Recalls (players gone far away at once).
    pub recalls: u64,
    /// Locks acquired.
    pub locks_acquired: u64,
    /// Locks released, by reason.
    pub locks_released: ReleaseCounts,
    /// Locks replaced while still held (a dog switching targets without a
    /// release: what TargetLock exists to prevent).
    pub lock_switches: u64,
    locked: Vec<Option<PlayerId>>,
    last_attack: Vec<Option<f64>>,
    first_threat: Vec<Option<f64>>,
    filled: Vec<bool>,
}

impl Metrics {
    /// Folds one event into the measures.
    pub fn record(&mut self, e: &Event) {
        match e.kind {
            EventKind::AbilityUsed { dog, .. } => {
                self.attacks += 1;
                if let Some(last) = slot(&mut self.last_attack, dog.0).replace(e.at) {
                    self.attack_interval.add(e.at - last);
                    self.attack_intervals.add(e.at - last);
                }
            }
            EventKind::AbilityFailed { .. } => self.refusals += 1,
            EventKind::CheckFailed { reason, .. } => {
                let c = &mut self.checks_failed;
                *match reason {
                    CheckFailure::NoTarget => &mut c.no_target,
                    CheckFailure::Gcd => &mut c.gcd,
                    CheckFailure::TargetGone => &mut c.target_gone,
                    CheckFailure::NotAdjacent => &mut c.not_adjacent,
                    CheckFailure::NotFacing => &mut c.not_facing,
                } += 1;
            }
            EventKind::ThreatQueued { player, .. } => {
                slot(&mut self.first_threat, player.0).get_or_insert(e.at);
            }
            EventKind::QueueFull { player } => {
                let first = slot(&mut self.first_threat, player.0).unwrap_or(e.at);
                let filled = slot(&mut self.filled, player.0);
                if !*filled {
                    *filled = true;
                    self.queues_filled += 1;
                    self.queue_fill.add(e.at - first);
                }
            }
            EventKind::ThreatResolved { damage, reason, .. } => {
                self.damage += u64::from(damage);
                match reason {
                    ResolveReason::QueueOverflow => self.overflows += 1,
                    ResolveReason::TimerExpired => self.expired += 1,
                }
            }
            EventKind::Dodged { .. } => self.dodges += 1,
            EventKind::PlayerDied { .. } => self.deaths += 1,
            EventKind::PlayerDespawned { .. } => self.despawns += 1,
            EventKind::Recalled { .. } => self.recalls += 1,
            EventKind::LockAcquired { dog, target } => {
                self.locks_acquired += 1;
                if slot(&mut self.locked, dog.0).replace(target).is_some() {
                    self.lock_switches += 1;
                }
            }
            EventKind::LockReleased { dog, reason, .. } => {
                *slot(&mut self.locked, dog.0) = None;
                let r = &mut self.locks_released;
                *match reason {
                    ReleaseReason::Died => &mut r.died,
                    ReleaseReason::Despawned => &mut r.despawned,
                    ReleaseReason::Leash => &mut r.leash,
                } += 1
            }
        }
    }
}

/// The entry for id `i`, growing the table as needed.
fn slot<T: Default>(v: &mut Vec<T>, i: u32) -> &mut T {
    let i = i as usize;
    if v.len() <= i {
        v.resize_with(i + 1, T::default);
    }
    &mut v[i]
}

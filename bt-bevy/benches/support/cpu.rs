//! The CPU time of timed updates (Linux's `schedstat`, less the cost of
//! reading it): a figure that a busy machine inflates less than wall time.
//! Shared by the `bevy_dogs` bench and its bevy_behave peer
//! (`benches/bevy_behave`), so that the two measure alike.
#![allow(dead_code)]

/// Reads the CPU time of the thread that runs the schedules (one compute
/// thread) or of every thread of the process (more), less what a reading
/// costs.
pub struct CpuClock {
    /// Whether every thread's time is summed (idle workers' spinning included).
    all_threads: bool,
    /// The CPU time that a pair of readings adds between them (median of 200).
    overhead: u64,
}

impl CpuClock {
    /// The clock for a compute pool of `threads` threads: with one, the
    /// schedules run on the main thread and its time is the AI's share of
    /// one core.
    pub fn new(threads: usize) -> Self {
        let mut clock = CpuClock {
            all_threads: threads > 1,
            overhead: 0,
        };
        let mut pairs: Vec<u64> = (0..200)
            .filter_map(|_| Some(clock.now()?.abs_diff(clock.now()?)))
            .collect();
        pairs.sort_unstable();
        clock.overhead = pairs.get(pairs.len() / 2).copied().unwrap_or(0);
        clock
    }

    /// Whose time it reads, for the report: "the one thread" or "all threads".
    pub fn whose(&self) -> &'static str {
        if self.all_threads {
            "all threads"
        } else {
            "the one thread"
        }
    }

    /// The CPU time so far, in nanoseconds; `None` where it cannot be read
    /// (not Linux).
    pub fn now(&self) -> Option<u64> {
        if self.all_threads {
            process_cpu_ns()
        } else {
            thread_cpu_ns()
        }
    }

    /// Adds the CPU time since `before` (a [`now`](Self::now) reading), less
    /// the reading's cost, to `total`; `None` once a reading failed.
    pub fn add_since(&self, total: Option<u64>, before: Option<u64>) -> Option<u64> {
        match (total, before, self.now()) {
            (Some(sum), Some(a), Some(b)) => Some(sum + b.saturating_sub(a).saturating_sub(self.overhead)),
            _ => None,
        }
    }
}

/// The CPU time of this thread so far, in nanoseconds (Linux); `None` elsewhere.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// The CPU time of every thread of this process so far, in nanoseconds
/// (Linux); `None` elsewhere.
fn process_cpu_ns() -> Option<u64> {
    let mut total = 0;
    for entry in std::fs::read_dir("/proc/self/task").ok()? {
        let text = std::fs::read_to_string(entry.ok()?.path().join("schedstat")).ok()?;
        total += text.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(total)
}

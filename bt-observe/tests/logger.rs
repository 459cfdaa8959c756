//! The console logger writes one line per state change, with tick and time.
mod support;

use std::io;

use behaved::prelude::*;
use behaved_observe::ConsoleLogger;
use support::*;

/// Ticks 1-3 of the Patrol scenario (walk, wait, alarm) and a reset, logged to `logger`.
fn scenario<O: Observer>(logger: &mut O) {
    let (mut tree, mut world) = patrol_three_ticks(logger);
    tree.reset_observed(&mut world, logger);
}

#[test]
fn one_line_per_change() {
    let mut logger = ConsoleLogger::fmt(Patrol::NODES, String::new()).unwrap();
    scenario(&mut logger);
    assert!(logger.error().is_none());
    assert_eq!(
        logger.into_inner().0,
        r#"[tick 1 @ 0.000] #2 cond(|w| w.alarm) idle -> failure
[tick 1 @ 0.000] #2 cond(|w| w.alarm) failure -> idle
[tick 1 @ 0.000] #1 reactive sequence idle -> failure
[tick 1 @ 0.000] #5 Act("walk")       idle -> running
[tick 1 @ 0.000] #4 sequence          idle -> running
[tick 1 @ 0.000] #0 reactive selector idle -> running
[tick 2 @ 0.500] #2 cond(|w| w.alarm) idle -> failure
[tick 2 @ 0.500] #2 cond(|w| w.alarm) failure -> idle
[tick 2 @ 0.500] #5 Act("walk")       running -> success
[tick 2 @ 0.500] #6 wait(1.0)         idle -> running
[tick 3 @ 1.000] #2 cond(|w| w.alarm) idle -> success
[tick 3 @ 1.000] #3 Act("chase")      idle -> running
[tick 3 @ 1.000] #1 reactive sequence failure -> running
[tick 3 @ 1.000] #6 wait(1.0)         running -> idle (halted)
[tick 3 @ 1.000] #5 Act("walk")       success -> idle
[tick 3 @ 1.000] #4 sequence          running -> idle (halted)
[tick 3 @ 1.000] #3 Act("chase")      running -> idle (halted)
[tick 3 @ 1.000] #2 cond(|w| w.alarm) success -> idle
[tick 3 @ 1.000] #1 reactive sequence running -> idle (halted)
[tick 3 @ 1.000] #0 reactive selector running -> idle (halted)
"#
    );
}

#[test]
fn without_ends_the_log_tells_what_each_node_returned() {
    let mut logger = ConsoleLogger::io(Patrol::NODES, Vec::new()).unwrap().show_ended(false);
    scenario(&mut logger);
    // The condition's failure on tick 2 repeats tick 1's: not logged again.
    assert_eq!(
        String::from_utf8(logger.into_inner().0).unwrap(),
        r#"[tick 1 @ 0.000] #2 cond(|w| w.alarm) idle -> failure
[tick 1 @ 0.000] #1 reactive sequence idle -> failure
[tick 1 @ 0.000] #5 Act("walk")       idle -> running
[tick 1 @ 0.000] #4 sequence          idle -> running
[tick 1 @ 0.000] #0 reactive selector idle -> running
[tick 2 @ 0.500] #5 Act("walk")       running -> success
[tick 2 @ 0.500] #6 wait(1.0)         idle -> running
[tick 3 @ 1.000] #2 cond(|w| w.alarm) failure -> success
[tick 3 @ 1.000] #3 Act("chase")      idle -> running
[tick 3 @ 1.000] #1 reactive sequence failure -> running
[tick 3 @ 1.000] #6 wait(1.0)         running -> idle (halted)
[tick 3 @ 1.000] #4 sequence          running -> idle (halted)
[tick 3 @ 1.000] #3 Act("chase")      running -> idle (halted)
[tick 3 @ 1.000] #1 reactive sequence running -> idle (halted)
[tick 3 @ 1.000] #0 reactive selector running -> idle (halted)
"#
    );
}

/// A writer that accepts `budget` writes, then fails.
struct Flaky {
    budget: usize,
    written: usize,
}

impl io::Write for Flaky {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.budget == 0 {
            return Err(io::Error::other("disk full"));
        }
        self.budget -= 1;
        self.written += 1;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_write_error_stops_logging_and_is_kept() {
    let mut logger = ConsoleLogger::io(Patrol::NODES, Flaky { budget: 3, written: 0 }).unwrap();
    scenario(&mut logger);
    assert_eq!(logger.error().map(|e| e.to_string()), Some("disk full".to_string()));
    assert_eq!(logger.get_ref().0.written, 3, "nothing written after the error");
    // The logger's picture stays right even though it stopped writing.
    assert_eq!(logger.snapshot().statuses(), states("I I I I I I I I"));
}

//! # behaved-testing: test your own trees
//!
//! A kit for the tests of a game's AI, on compiled trees (`behave!`) and
//! interpreted agents (`behaved-interp`) alike:
//!
//! - **Stand-ins** ([`StandIn`]): replace any condition, action (async
//!   actions included), `wait` or `wait_until`, found by label, JSON `"name"`,
//!   path (with sibling indices: `sequence/Chase[1]`) or id,
//!   with a script: statuses per tick or per activation, condition values, or
//!   a closure. Composites and decorators (`latch`, `sequence_always`, ..)
//!   run as they are, over their stood-in leaves.
//! - **Scenarios** ([`Scenario`]): a script of ticks with context changes
//!   and times, asserting the root's status, which leaves ran or were halted,
//!   and facts about the context; a failure names the tick and lists its events.
//! - **Golden traces** ([`TestTree::golden`], [`golden`]): a run recorded in
//!   `behaved-observe`'s trace format and compared later, naming the first tick,
//!   node and event that differ; `BEHAVED_GOLDEN=overwrite` rewrites the files.
//! - **Coverage** ([`Coverage`]): which nodes ran, what each returned, which
//!   branches of selectors, `if`, `match` and `random` were taken, what was
//!   never reached, as a table; carried in the trace format and merged across
//!   test processes (`BEHAVED_COVERAGE=<dir>`, then `behaved-coverage <dir>`).
//! - **Properties** ([`TestTree::check_properties`], [`TestTree::limit_running`],
//!   [`Coverage::require_all_reached`]): lifecycle rules checked on every
//!   tick, Running limits, and reachability over many seeds.
//!
//! ```
//! use behaved::prelude::*;
//! use behaved_testing::{Scenario, StandIn, TestTree};
//!
//! struct Ctx { alarm: bool }
//! struct Chase;
//! impl Action<Ctx> for Chase {
//!     fn tick(&mut self, _: &mut Ctx) -> Status { unreachable!("stood in for") }
//! }
//!
//! behave! {
//!     tree Guard for Ctx {
//!         reactive selector { sequence { cond(|c| c.alarm), Chase }, wait(5.0) }
//!     }
//! }
//!
//! let mut guard = TestTree::new(Guard::new());
//! guard.stand_in("Chase", StandIn::statuses([Status::Running, Status::Success]))?;
//! Scenario::new("the alarm interrupts the wait")
//!     .tick(0.0).expect(Status::Running).ran("wait(5.0)").not_ran("Chase")
//!     .set(|c: &mut Ctx| c.alarm = true)
//!     .tick(1.0).expect(Status::Running).ran("Chase").halted("wait(5.0)")
//!     .tick(2.0).expect(Status::Success)
//!     .run(&mut guard, &mut Ctx { alarm: false })?;
//! # Ok::<(), behaved_testing::Error>(())
//! ```
//!
//! ## Why stand-ins cost production code nothing
//!
//! A generated tree has two tick paths: `tick`/`tick_at`, which report to no
//! observer, and `tick_observed`, which reports every event to an
//! [`Observer`](behaved_runtime::Observer). The substitution hook is one more
//! observer method, [`Observer::stand_in`](behaved_runtime::Observer::stand_in),
//! asked before each condition, action, `wait` and `wait_until` on the observed path only;
//! its default answers `None` and is inlined away, and the production path
//! never asks. So the user's code needs no change (no test-only
//! constructor, no generic leaf parameters, no `cfg(test)` in the tree), the
//! same tree value is tested that ships, and the production tick's
//! instructions are unchanged (measured with `benches/callgrind.sh`, see
//! BENCHMARKS.md). The interpreter asks the same hook at the same places.
//! The price is paid only by observed ticks with an observer that overrides
//! the hook: one call per leaf. A stand-in answers from its script and does
//! not see the context.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod checks;
pub mod coverage;
mod error;
pub mod golden;
mod marks;
mod scenario;
mod select;
mod stand_in;
mod test_tree;

pub use checks::Violation;
pub use coverage::{Branch, Coverage};
pub use error::Error;
pub use marks::{MarkCheck, UnmarkedChange};
pub use scenario::Scenario;
pub use select::path as node_path;
pub use stand_in::{Call, StandIn};
pub use test_tree::{DEFAULT_TRACE_CAPACITY, TestTree};

/// Merges the coverage of every test tree of every process of a suite, as
/// saved under `BEHAVED_COVERAGE=<dir>`, and prints one table per tree.
pub fn print_coverage_dir(dir: &std::path::Path) -> Result<(), Error> {
    for coverage in Coverage::load_dir(dir)? {
        println!("{coverage}");
    }
    Ok(())
}

//! `pick`'s rules that both forms keep, as scripts over any tree of the
//! [`Camp`]: `tests/pick.rs` runs them on a compiled tree and
//! `bt-interp/tests/pick.rs` on an interpreted agent. Each tree given is
//! the weakest target still standing (`max 3`; the lower a standing
//! target's health, the higher its score; a downed one scores 0) with a
//! body that attacks the chosen target ([`Camp::attack`]).

use behaved_runtime::{Status, Tree};

use crate::camp::Camp;
use crate::script::log;

use Status::{Failure as F, Running as R, Success as S};

/// On entry every candidate is scored and the best runs, the first on ties;
/// no re-pick while the body runs; entered again, it picks again.
pub fn best_runs_the_first_on_ties(mut t: impl Tree<Camp>) {
    let mut c = Camp::with_health(&[5, 2, 7], [0.0, 0.0, 0.6, 0.0, 0.0, 0.2, 0.0, 0.2]);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["attack 5"]), "5 and 7 tie: the first");
    c.health[2] = 0.01;
    assert_eq!(t.tick_at(&mut c, 1.0), R);
    assert_eq!(c.take(), log(&["attack 5"]), "not re-picked while the body runs");
    c.status = S;
    assert_eq!(t.tick_at(&mut c, 2.0), S, "the body's status");
    assert_eq!(c.take(), log(&["attack 5"]));
    c.status = R;
    assert_eq!(t.tick_at(&mut c, 3.0), R);
    assert_eq!(c.take(), log(&["attack 2"]), "entered again: picked again");
}

/// A `max 3` pick never reads the fourth target, which would score best.
pub fn reads_at_most_max_candidates(mut t: impl Tree<Camp>) {
    let mut c = Camp::with_health(&[2, 5, 7, 1], [0.0, 0.1, 0.6, 0.0, 0.0, 0.5, 0.0, 0.4]);
    t.tick_at(&mut c, 0.0);
    assert_eq!(
        c.take(),
        log(&["attack 7"]),
        "7 scores best of the first three; 1 is the fourth"
    );
}

/// With no candidate above zero, or none at all, it fails without ticking
/// the body. `tree` makes a fresh tree.
pub fn fails_with_no_candidate_above_zero<T: Tree<Camp>>(tree: impl Fn() -> T) {
    let (mut t, mut c) = (
        tree(),
        Camp::with_health(&[1, 2], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    );
    assert_eq!(t.tick_at(&mut c, 0.0), F, "1 at full health (0), 2 down (0)");
    assert_eq!(c.take(), log(&[]));
    assert!(!t.is_running());
    let (mut t, mut c) = (tree(), Camp::with_health(&[], [0.0; 8]));
    assert_eq!(t.tick_at(&mut c, 0.0), F, "no candidates at all");
}

/// Saved mid-body and loaded by `save_and_load`, it goes on with the
/// candidate it chose, though the candidates have changed since.
pub fn keeps_its_choice_when_saved_and_loaded<T: Tree<Camp>>(mut t: T, save_and_load: impl FnOnce(&T) -> T) {
    let mut c = Camp::with_health(&[5, 2], [0.0, 0.0, 0.75, 0.0, 0.0, 0.5, 0.0, 0.0]);
    t.tick_at(&mut c, 0.0);
    assert_eq!(c.take(), log(&["attack 5"]));
    let mut loaded = save_and_load(&t);
    c.targets = vec![1];
    c.health[2] = 0.01;
    assert!(loaded.is_running());
    loaded.tick_at(&mut c, 1.0);
    assert_eq!(c.take(), log(&["attack 5"]), "the loaded tree goes on with its choice");
}

//! Rules both forms keep, as scripts over any tree of the scripted [`Ctx`]:
//! the compiled form's tests (`tests/`) and the interpreter's
//! (`bt-interp/tests/`) run the same script on their twin trees, so the two
//! cannot drift apart.

use behaved_runtime::{Status, Tree};

use crate::script::{Ctx, log};

use Status::{Failure as F, Running as R, Success as S};

/// `SEMANTICS.md#hooks`, `SEMANTICS.md#reset`: halting is not resetting.
/// `t` is `reactive selector { cond(guard), RecWithReset("ra") }` with the
/// action's `on_exit` logging `"exit-hook"` and its `on_reset`
/// `"reset-hook"`. Halted by the reactive switch, the running action gets
/// `halt` and `on_exit`, never the reset callbacks; `reset` halts it the
/// same way, then runs `on_reset` and `Action::reset`; on an idle tree
/// only the callbacks run.
pub fn a_halt_runs_no_reset_callback(mut t: impl Tree<Ctx>, guard: &'static str) {
    let mut c = Ctx::new();
    c.set(guard, F).set("ra", R);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter ra", "ra"]));
    c.set(guard, S);
    assert_eq!(t.tick_at(&mut c, 0.0), S);
    assert_eq!(
        c.take(),
        log(&["halt ra", "exit-hook"]),
        "halted by the switch: no reset callback"
    );
    c.set(guard, F);
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter ra", "ra"]));
    t.reset(&mut c);
    assert_eq!(
        c.take(),
        log(&["halt ra", "exit-hook", "reset-hook", "reset ra"]),
        "reset: the halt first, then the reset callbacks"
    );
    t.reset(&mut c);
    assert_eq!(c.take(), log(&["reset-hook", "reset ra"]), "idle: only the callbacks");
    assert_eq!(t.tick_at(&mut c, 0.0), R);
    assert_eq!(c.take(), log(&["enter ra", "ra"]), "after a reset, ticks start afresh");
}

//! An action that never ends on its own, for any context: the child a test
//! keeps running until the tree halts it (a `utility` node's jobs, whose
//! scores alone decide which one runs).
use behaved_runtime::{Action, Status};

/// Answers [`Status::Running`] on every tick, whatever the context, until
/// halted.
pub struct Endless;

impl<C> Action<C> for Endless {
    fn tick(&mut self, _: &mut C) -> Status {
        Status::Running
    }
}

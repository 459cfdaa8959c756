//! Deep trees. Every stage walks the tree recursively, and an unoptimised
//! proc macro's frames are large (syn's expression parser most of all): a
//! tree nested about 200 deep overflowed rustc's stack. So each recursive
//! step goes through [`grow`], which moves onto a fresh stack segment when
//! little is left (as rustc itself does), and the parser stops at
//! [`MAX_DEPTH`] with an error at the node instead of going on without end.

use std::cell::Cell;

/// The deepest nesting `behave!` takes: nodes on the path from the root to
/// the deepest node. Deeper parts belong in trees of their own (`subtree`).
pub const MAX_DEPTH: usize = 1024;

/// Runs `f`, first moving to a new stack segment if less than 256 KiB are left.
pub fn grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(256 * 1024, 4 * 1024 * 1024, f)
}

/// Runs `f` on a stack with at least 16 MiB free, for code of other crates
/// that recurses once per level (`behaved-format`'s writer, serde_json's).
pub fn grow_large<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(16 * 1024 * 1024, 64 * 1024 * 1024, f)
}

thread_local! {
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// One level of nesting while parsing a node; dropping it leaves the level.
pub struct Level(());

impl Level {
    /// Enters a level, or says how deep the node is when that is too deep.
    pub fn enter() -> Result<Level, usize> {
        let depth = DEPTH.with(|d| d.get()) + 1;
        if depth > MAX_DEPTH {
            return Err(depth);
        }
        DEPTH.with(|d| d.set(depth));
        Ok(Level(()))
    }
}

impl Drop for Level {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get() - 1));
    }
}

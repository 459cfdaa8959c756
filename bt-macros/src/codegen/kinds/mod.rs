//! Each node kind's generated code, one module per kind or small family of
//! kinds that share code. The dispatch is one `match` per phase: the tick's
//! in `tick.rs` ([`Gen::tick_body`](super::Gen)), the halt's in `halt.rs`,
//! the wake's in `wake.rs`. A new kind is a module here and a line in each.

mod branches;
mod chains;
mod decorators;
mod leaves;
mod loops;
mod parallel;
mod pick;
mod random;
mod timing;
mod utility;

//! The simulation's fixed step, which the world advances by and the
//! metrics bin their times with.

/// Frames per second of the simulation.
pub const FPS: f64 = 60.0;
/// The fixed step of the simulation, in seconds.
pub const FRAME: f64 = 1.0 / FPS;

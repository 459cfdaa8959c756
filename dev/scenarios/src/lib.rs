//! The scenarios of `behaved`'s original design documents (the ADRs: architecture
//! decision records of the game `behaved` was first written for), as a small headless simulation
//! (plain Rust structs, fixed time step, seeded randomness):
//!
//! - the **Wild Dog** combat AI of ADR-006/ADR-012: a hex grid ([`hex`]), the
//!   combat components ([`combat`]), the reaction queue ([`reaction`]), the
//!   server's `execute_ability` ([`ability`]), the dog's leaves and tree
//!   ([`dog`]; the same tree read from JSON: [`dog_json`]) and the world that runs them ([`world`]) at a fixed step
//!   ([`clock`]), measured against the ADRs' validation criteria
//!   ([`metrics`]); players and dogs ([`actor`]) are referred to by [`id`];
//! - the **guard NPC** of ADR-017 ([`guard`]), run on interaction and continuously,
//!   and its JSON form's leaves ([`guard_json`]);
//! - ClosureBT's **reactive flee** example ([`flee`]);
//! - **villagers** with needs choosing what to do by utility ([`village`]);
//! - a **sentry** that awaits a path search on a worker thread ([`pathfind`])
//!   while its tree keeps reacting ([`sentry`]): async actions.
//!
//! ```
//! use behaved_scenarios::hex::Hex;
//! use behaved_scenarios::world::World;
//!
//! let mut world: World = World::new(7);
//! let ana = world.spawn_player("Ana", Hex::new(0, 0)).unwrap();
//! world.spawn_dog(Hex::new(4, 0)).unwrap();
//! world.run_for(3.0);
//! let m = world.metrics();
//! assert!(m.attacks >= 2);
//! assert!(world.player(ana).unwrap().health.current < world.player(ana).unwrap().health.max);
//! ```

pub mod ability;
pub mod actor;
pub mod clock;
pub mod combat;
pub mod dog;
pub mod dog_json;
pub mod event;
pub mod flee;
pub mod guard;
pub mod guard_json;
pub mod hex;
pub mod id;
pub mod metrics;
pub mod movement;
pub mod pathfind;
pub mod reaction;
pub mod sentry;
pub mod spatial;
pub mod village;
pub mod world;

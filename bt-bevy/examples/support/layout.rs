//! Where the Wild Dog arena's players and dogs stand: shared by `pack.rs`'s
//! arena (the `bevy_npcs` example, the `bevy_dogs` bench) and the bevy_behave
//! peer of that bench (`benches/bevy_behave`), so that both run the same
//! arena.
#![allow(dead_code)]

use behaved_scenarios::actor::{Dog, Player, Players};
use behaved_scenarios::hex::Hex;
use behaved_scenarios::id::DogId;
use behaved_scenarios::spatial::{Occupancy, PlayerIndex};

/// The arena before any app holds it.
pub struct Layout {
    /// Every player, standing at its home.
    pub players: Players,
    /// The players by position.
    pub index: PlayerIndex,
    /// The hexes the players and dogs stand on.
    pub occupancy: Occupancy,
    /// The dogs' bodies, in spawn order (ids 0, 1, ..).
    pub dogs: Vec<Dog>,
}

/// `count` players 12 hexes apart on a square grid, and four dogs around
/// each, 5 hexes from it (on the nearest free hex).
pub fn lay_out(count: usize) -> Layout {
    let mut players = Players::new();
    let mut occupancy = Occupancy::new();
    let side = (count as f64).sqrt().ceil() as i32;
    let mut dogs = Vec::new();
    for i in 0..count as i32 {
        let home = Hex::new(12 * (i % side), 12 * (i / side));
        players.spawn(|id| Player::new(id, format!("player{}", id.0), home));
        occupancy.take(home);
        for offset in [Hex::new(5, 0), Hex::new(-5, 0), Hex::new(0, 5), Hex::new(0, -5)] {
            let at = occupancy.nearest_free(home + offset);
            occupancy.take(at);
            dogs.push(Dog::new(DogId(dogs.len() as u32), at));
        }
    }
    let mut index = PlayerIndex::new();
    index.rebuild(&players);
    Layout {
        players,
        index,
        occupancy,
        dogs,
    }
}

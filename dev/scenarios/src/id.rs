//! The ids of the actors: what events, threats and target locks refer to
//! them by.

/// A player's id: its slot in the world's list of players. Never reused, so
/// a despawned player's id stays dangling (as a despawned ECS entity would).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub u32);

/// A dog's id: its index among the world's dogs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DogId(pub u32);

//! Spatial look-ups the dogs need every frame: the nearest living player within
//! a range (a bucket grid, standing in for the game's NNTree) and which hexes
//! are taken (actors do not share a hex).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use crate::actor::Players;
use crate::hex::Hex;
use crate::id::PlayerId;

/// A small multiply-rotate hasher for grid keys: deterministic and much
/// cheaper than SipHash for a few integers (no untrusted keys here).
#[derive(Debug, Clone, Copy, Default)]
pub struct GridHasher(u64);

impl Hasher for GridHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_i32(&mut self, x: i32) {
        self.write_u64(u64::from(x as u32));
    }
}

type GridBuild = BuildHasherDefault<GridHasher>;

/// Side of a bucket of [`PlayerIndex`], in hexes.
const CELL: i32 = 16;

fn cell_of(q: i32, r: i32) -> (i32, i32) {
    (q.div_euclid(CELL), r.div_euclid(CELL))
}

/// Living players bucketed by position; rebuilt once per frame.
#[derive(Debug, Clone, Default)]
pub struct PlayerIndex {
    cells: HashMap<(i32, i32), Vec<PlayerId>, GridBuild>,
}

impl PlayerIndex {
    /// An empty index.
    pub fn new() -> PlayerIndex {
        PlayerIndex::default()
    }

    /// Re-buckets every living player (keeps the buckets' allocations).
    pub fn rebuild(&mut self, players: &Players) {
        for bucket in self.cells.values_mut() {
            bucket.clear();
        }
        for p in players.iter().filter(|p| p.health.is_alive()) {
            self.cells.entry(cell_of(p.loc.q, p.loc.r)).or_default().push(p.id);
        }
    }

    /// The living player nearest to `from` within `dist` hexes; on a tie the
    /// lowest id, so the choice is deterministic.
    pub fn nearest_within(&self, players: &Players, from: Hex, dist: u32) -> Option<PlayerId> {
        let d = dist.min(i32::MAX as u32 / 4) as i32;
        let (lo, hi) = (cell_of(from.q - d, from.r - d), cell_of(from.q + d, from.r + d));
        let mut best: Option<(u32, PlayerId)> = None;
        for cq in lo.0..=hi.0 {
            for cr in lo.1..=hi.1 {
                let Some(bucket) = self.cells.get(&(cq, cr)) else {
                    continue;
                };
                for &id in bucket {
                    let Some(p) = players.get(id).filter(|p| p.health.is_alive()) else {
                        continue;
                    };
                    let pd = from.distance(p.loc);
                    if pd <= dist && best.is_none_or(|b| (pd, id) < b) {
                        best = Some((pd, id));
                    }
                }
            }
        }
        best.map(|(_, id)| id)
    }
}

/// The hexes taken by living actors.
#[derive(Debug, Clone, Default)]
pub struct Occupancy {
    taken: HashSet<Hex, GridBuild>,
}

impl Occupancy {
    /// Nothing taken.
    pub fn new() -> Occupancy {
        Occupancy::default()
    }

    /// `true` when no actor stands on `hex`.
    pub fn is_free(&self, hex: Hex) -> bool {
        !self.taken.contains(&hex)
    }

    /// Takes `hex`; `false` if it was already taken.
    pub fn take(&mut self, hex: Hex) -> bool {
        self.taken.insert(hex)
    }

    /// Frees `hex`.
    pub fn free(&mut self, hex: Hex) {
        self.taken.remove(&hex);
    }

    /// Moves an actor from `from` to `to` (which the caller checked is free).
    pub fn relocate(&mut self, from: Hex, to: Hex) {
        self.taken.remove(&from);
        self.taken.insert(to);
    }

    /// The free hex nearest to `at` (searching rings outward; `at` itself first).
    pub fn nearest_free(&self, at: Hex) -> Hex {
        for radius in 0.. {
            for q in -radius..=radius {
                for r in (-radius).max(-q - radius)..=radius.min(-q + radius) {
                    let h = at + Hex::new(q, r);
                    if at.distance(h) == radius as u32 && self.is_free(h) {
                        return h;
                    }
                }
            }
        }
        unreachable!("the grid is unbounded, so some ring has a free hex")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actor::Player;

    #[test]
    fn nearest_within_range_across_buckets() {
        let mut players = Players::new();
        let far = players.spawn(|id| Player::new(id, "far", Hex::new(40, 0)));
        let near = players.spawn(|id| Player::new(id, "near", Hex::new(-17, 0)));
        let mut index = PlayerIndex::new();
        index.rebuild(&players);
        assert_eq!(index.nearest_within(&players, Hex::ORIGIN, 20), Some(near));
        assert_eq!(index.nearest_within(&players, Hex::ORIGIN, 16), None);
        assert_eq!(index.nearest_within(&players, Hex::new(30, 0), 20), Some(far));
        players.get_mut(far).unwrap().health.current = 0;
        index.rebuild(&players);
        assert_eq!(
            index.nearest_within(&players, Hex::new(30, 0), 20),
            None,
            "the dead are not targets"
        );
    }

    #[test]
    fn nearest_free_walks_rings() {
        let mut occ = Occupancy::new();
        assert!(occ.take(Hex::ORIGIN));
        assert!(!occ.take(Hex::ORIGIN));
        let h = occ.nearest_free(Hex::ORIGIN);
        assert_eq!(h.distance(Hex::ORIGIN), 1);
    }
}

//! A small, fast, seedable random number generator for the random nodes.

/// SplitMix64: 8 bytes of state, good statistical quality for game AI choices,
/// identical results on every platform for the same seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// The seed used by `Tree::new()`.
    pub const DEFAULT_SEED: u64 = 0x5EED_B7B7_0000_0001;

    /// A generator that starts from `seed`.
    #[inline]
    pub const fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (Lemire's multiply-shift; `n` must be > 0).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0, "Rng::below(0)");
        ((u64::from(self.next_u64() as u32) * u64::from(n)) >> 32) as u32
    }
}

impl Default for Rng {
    fn default() -> Rng {
        Rng::new(Rng::DEFAULT_SEED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence_different_seed_different_sequence() {
        let (mut a, mut b, mut c) = (Rng::new(7), Rng::new(7), Rng::new(8));
        let xs: [u64; 4] = core::array::from_fn(|_| a.next_u64());
        let ys: [u64; 4] = core::array::from_fn(|_| b.next_u64());
        let zs: [u64; 4] = core::array::from_fn(|_| c.next_u64());
        assert_eq!(xs, ys);
        assert_ne!(xs, zs);
    }

    #[test]
    fn below_is_in_range_and_roughly_uniform() {
        let mut rng = Rng::new(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[rng.below(6) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
    }
}

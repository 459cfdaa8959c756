//! What a condition reads, and what the game changed: the inputs that let a
//! reactive tree sleep until one of them changes (`SEMANTICS.md`, "Sleeping
//! on inputs").

/// A set of inputs: the context fields a condition reads, or those the game
/// changed. One bit per input; an input is named by its field's name
/// ([`Reads::field`]), whose bit is a hash of the name, so the macro, the
/// interpreter and the game name the same field alike with nothing
/// declared in between. Two names may share a bit: a change of one then
/// wakes the readers of the other too, which costs a tick and changes
/// nothing (ticking early is always allowed); it never misses a wake.
///
/// Only the top-level field counts: `c.pos.x` reads `pos`.
///
/// ```
/// use behaved_runtime::Reads;
/// const NIGHT: Reads = Reads::field("night");
/// let guard = NIGHT | Reads::field("pos");
/// assert!(guard.meets(NIGHT));
/// assert!(!Reads::NONE.meets(NIGHT));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Reads(pub u64);

impl Reads {
    /// No input: what a constant condition (`|_| true`) reads.
    pub const NONE: Reads = Reads(0);
    /// Every input: a change the game cannot name (wakes every watcher).
    pub const ALL: Reads = Reads(u64::MAX);

    /// The input of the context field `name` (a hash of the name into one
    /// of 64 bits; FNV-1a, fixed, so every build and form agree).
    #[must_use]
    pub const fn field(name: &str) -> Reads {
        let bytes = name.as_bytes();
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut i = 0;
        while i < bytes.len() {
            h ^= bytes[i] as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
            i += 1;
        }
        Reads(1 << ((h ^ (h >> 32)) & 63))
    }

    /// The inputs of several fields.
    #[must_use]
    pub const fn fields(names: &[&str]) -> Reads {
        let mut r = 0;
        let mut i = 0;
        while i < names.len() {
            r |= Reads::field(names[i]).0;
            i += 1;
        }
        Reads(r)
    }

    /// Both sets.
    #[inline]
    #[must_use]
    pub const fn union(self, other: Reads) -> Reads {
        Reads(self.0 | other.0)
    }

    /// Whether the two sets share an input: whether a change of `changed`
    /// may change what these reads give.
    #[inline]
    #[must_use]
    pub const fn meets(self, changed: Reads) -> bool {
        self.0 & changed.0 != 0
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl core::ops::BitOr for Reads {
    type Output = Reads;
    #[inline]
    fn bitor(self, other: Reads) -> Reads {
        self.union(other)
    }
}

impl core::ops::BitOrAssign for Reads {
    #[inline]
    fn bitor_assign(&mut self, other: Reads) {
        self.0 |= other.0;
    }
}

/// Both reads when both are known (generated code: the reads of a
/// reactive node's re-checked conditions, some declared by `Condition`
/// values at run time).
#[doc(hidden)]
#[inline]
pub fn both(a: Option<Reads>, b: Option<Reads>) -> Option<Reads> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a | b),
        _ => None,
    }
}

/// The wake of re-checked conditions reading `reads`: a watch of them, or
/// `NextTick` when they are unknown (generated code).
#[doc(hidden)]
#[inline]
pub fn watching(reads: Option<Reads>) -> crate::Wake {
    match reads {
        Some(r) => crate::Wake::watch(r),
        None => crate::Wake::NextTick,
    }
}

#[cfg(test)]
mod tests {
    use super::Reads;

    #[test]
    fn a_field_is_one_bit_and_the_same_in_every_form() {
        for name in ["night", "pos", "hp", "seen", "a", ""] {
            assert_eq!(Reads::field(name).0.count_ones(), 1, "{name}");
            assert_eq!(Reads::field(name), Reads::fields(&[name]));
        }
        const NIGHT: Reads = Reads::field("night");
        assert_eq!(NIGHT, Reads::field("night"));
    }

    #[test]
    fn sets_meet_when_they_share_an_input() {
        let a = Reads::field("night");
        let b = Reads::fields(&["night", "pos"]);
        assert!(b.meets(a) && a.meets(b));
        assert!(!Reads::NONE.meets(Reads::ALL));
        assert!(Reads::ALL.meets(a));
        assert_eq!(a | Reads::field("pos"), b);
    }
}

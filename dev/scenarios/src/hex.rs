//! The hex grid: axial coordinates, hex distance, the six headings and the
//! 60-degree facing cone of ADR-004 (quoted in ADR-006).
//!
//! Hexes are pointy-top. Angles are compass bearings in degrees, clockwise from
//! north, as in ADR-006 (`NE = 30°, E = 90°, ...`).

use core::ops::{Add, Sub};

/// A hex in axial coordinates (`q` grows east, `r` grows south-east);
/// the implied third cube coordinate is `s = -q - r`. Serialized as `{ "q": .., "r": .. }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, serde::Serialize)]
pub struct Hex {
    /// Column axis.
    pub q: i32,
    /// Row axis.
    pub r: i32,
}

impl Hex {
    /// The hex at the origin.
    pub const ORIGIN: Hex = Hex { q: 0, r: 0 };

    /// The hex `(q, r)`.
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The third cube coordinate.
    pub const fn s(self) -> i32 {
        -self.q - self.r
    }

    /// The number of steps between two hexes (ADR-006 `Loc::distance`).
    pub const fn distance(self, other: Hex) -> u32 {
        let (dq, dr) = (self.q - other.q, self.r - other.r);
        let ds = -dq - dr;
        (dq.unsigned_abs() + dr.unsigned_abs() + ds.unsigned_abs()) / 2
    }

    /// The neighbour one step away in direction `heading`.
    pub const fn neighbor(self, heading: Heading) -> Hex {
        let d = heading.delta();
        Hex::new(self.q + d.q, self.r + d.r)
    }

    /// The compass bearing of this hex seen as a vector from the origin, in
    /// degrees in `[0, 360)`; `None` for the origin itself, which has no direction.
    pub fn bearing(self) -> Option<f64> {
        if self == Hex::ORIGIN {
            return None;
        }
        // Pointy-top layout: x east, y south.
        let x = 3f64.sqrt() * (f64::from(self.q) + f64::from(self.r) / 2.0);
        let y = 1.5 * f64::from(self.r);
        Some(x.atan2(-y).to_degrees().rem_euclid(360.0))
    }
}

impl Add for Hex {
    type Output = Hex;
    fn add(self, rhs: Hex) -> Hex {
        Hex::new(self.q + rhs.q, self.r + rhs.r)
    }
}

impl Sub for Hex {
    type Output = Hex;
    fn sub(self, rhs: Hex) -> Hex {
        Hex::new(self.q - rhs.q, self.r - rhs.r)
    }
}

impl core::fmt::Display for Hex {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "({},{})", self.q, self.r)
    }
}

/// One of the six directions an actor can face (ADR-006 `Heading`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Heading {
    /// North-east, 30°.
    NE,
    /// East, 90°.
    #[default]
    E,
    /// South-east, 150°.
    SE,
    /// South-west, 210°.
    SW,
    /// West, 270°.
    W,
    /// North-west, 330°.
    NW,
}

impl Heading {
    /// All headings, clockwise from north-east.
    pub const ALL: [Heading; 6] = [
        Heading::NE,
        Heading::E,
        Heading::SE,
        Heading::SW,
        Heading::W,
        Heading::NW,
    ];

    /// The axial step one hex in this direction.
    pub const fn delta(self) -> Hex {
        match self {
            Heading::NE => Hex::new(1, -1),
            Heading::E => Hex::new(1, 0),
            Heading::SE => Hex::new(0, 1),
            Heading::SW => Hex::new(-1, 1),
            Heading::W => Hex::new(-1, 0),
            Heading::NW => Hex::new(0, -1),
        }
    }

    /// The compass bearing of this heading in degrees (`NE = 30`, `E = 90`, ...).
    pub const fn to_angle(self) -> f64 {
        match self {
            Heading::NE => 30.0,
            Heading::E => 90.0,
            Heading::SE => 150.0,
            Heading::SW => 210.0,
            Heading::W => 270.0,
            Heading::NW => 330.0,
        }
    }

    /// The heading closest to the direction of `delta` (ADR-006
    /// `Heading::new(direction_qrz)`); when two are equally close (a target
    /// exactly between two headings) the first in [`Heading::ALL`] order wins.
    /// `None` for a zero delta.
    pub fn towards(delta: Hex) -> Option<Heading> {
        let bearing = delta.bearing()?;
        closest(Heading::ALL.into_iter(), bearing)
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Heading {
        match self {
            Heading::NE => Heading::SW,
            Heading::E => Heading::W,
            Heading::SE => Heading::NW,
            Heading::SW => Heading::NE,
            Heading::W => Heading::E,
            Heading::NW => Heading::SE,
        }
    }
}

/// Of `headings`, the one closest in angle to `bearing`; bearings computed in
/// floating point make exact ties come out a hair apart, so differences
/// within [`CONE_EPSILON`] count as ties, won by the first heading.
pub(crate) fn closest(headings: impl Iterator<Item = Heading>, bearing: f64) -> Option<Heading> {
    let mut best: Option<(Heading, f64)> = None;
    for h in headings {
        let off = angle_between(h.to_angle(), bearing);
        if best.is_none_or(|(_, b)| off < b - CONE_EPSILON) {
            best = Some((h, off));
        }
    }
    best.map(|(h, _)| h)
}

/// Half the width of the facing cone: 60° in all, ±30° around the heading.
pub const FACING_HALF_ANGLE: f64 = 30.0;

/// Tolerance for targets that sit exactly on the cone's edge (bearings are
/// computed in floating point).
const CONE_EPSILON: f64 = 1e-9;

/// `true` when `target` lies within the 60° cone in front of an actor at
/// `caster` facing `heading` (ADR-004's `is_in_facing_cone`). A target on the
/// caster's own hex has no direction and is not in the cone.
pub fn is_in_facing_cone(heading: Heading, caster: Hex, target: Hex) -> bool {
    match (target - caster).bearing() {
        Some(b) => angle_between(heading.to_angle(), b) <= FACING_HALF_ANGLE + CONE_EPSILON,
        None => false,
    }
}

/// The absolute difference of two bearings, in `[0, 180]`.
fn angle_between(a: f64, b: f64) -> f64 {
    let d = (a - b).abs() % 360.0;
    if d > 180.0 { 360.0 - d } else { d }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_steps() {
        assert_eq!(Hex::ORIGIN.distance(Hex::new(3, -1)), 3);
        assert_eq!(Hex::new(2, 2).distance(Hex::new(-2, -2)), 8);
        for h in Heading::ALL {
            assert_eq!(Hex::ORIGIN.distance(Hex::ORIGIN.neighbor(h)), 1);
        }
    }

    #[test]
    fn each_neighbor_lies_on_its_heading() {
        for h in Heading::ALL {
            let b = h.delta().bearing().unwrap();
            assert!((b - h.to_angle()).abs() < 1e-9, "{h:?}: {b}");
            assert_eq!(Heading::towards(h.delta()), Some(h));
            assert!(is_in_facing_cone(h, Hex::ORIGIN, h.delta()));
        }
    }

    #[test]
    fn cone_is_sixty_degrees() {
        // (2,-1) is at 60°: on the edge of both the NE and the E cones.
        let edge = Hex::new(2, -1);
        assert!(is_in_facing_cone(Heading::NE, Hex::ORIGIN, edge));
        assert!(is_in_facing_cone(Heading::E, Hex::ORIGIN, edge));
        assert!(!is_in_facing_cone(Heading::SE, Hex::ORIGIN, edge));
        // A neighbour one heading off is 60° away: outside.
        assert!(!is_in_facing_cone(Heading::NE, Hex::ORIGIN, Heading::E.delta()));
        assert!(!is_in_facing_cone(Heading::E, Hex::ORIGIN, Hex::ORIGIN));
    }

    #[test]
    fn ties_go_to_the_first_heading() {
        for (delta, h) in [
            (Hex::new(2, -1), Heading::NE),
            (Hex::new(1, 1), Heading::E),
            (Hex::new(-1, -1), Heading::W),
        ] {
            assert_eq!(Heading::towards(delta), Some(h), "{delta}");
        }
        for h in Heading::ALL {
            assert_eq!(h.opposite().opposite(), h);
            assert_eq!(h.delta() + h.opposite().delta(), Hex::ORIGIN);
        }
    }

    #[test]
    fn towards_always_faces_the_target() {
        for q in -4..=4 {
            for r in -4..=4 {
                let t = Hex::new(q, r);
                if let Some(h) = Heading::towards(t) {
                    assert!(is_in_facing_cone(h, Hex::ORIGIN, t), "{t}");
                }
            }
        }
    }
}

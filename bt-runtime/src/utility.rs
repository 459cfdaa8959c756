//! Utility scoring and choosing, shared by both engines: the compiled
//! `utility { .. }` node and the interpreter's `"utility"` call these
//! functions, so a tree chooses the same child in both forms. The rules are
//! in `SEMANTICS.md#utility`.
//!
//! - A score is an `f32`. A [`Consideration`] gives one (closures
//!   `Fn(&C) -> f32` are considerations).
//! - A [`Curve`] ([`CurveOf`]) is data (the same parameters in the DSL and in JSON) that maps
//!   an input to `0..=1`; [`Curve::of`] applies it to a consideration.
//! - [`all`] multiplies considerations with the usual compensation for their
//!   number ("infinite axis" utility); [`Consideration::weight`] scales one.
//! - [`best`], [`draw`] and [`keep_or_switch`] choose among scores held in a
//!   slice on the stack: nothing is allocated.

use crate::Rng;

/// A number that says how good a choice is for the context, higher being
/// better; a choice scoring zero or less (or NaN) is never made.
///
/// ```
/// use behaved_runtime::utility::Consideration;
/// struct Ctx { hunger: f32 }
/// struct Hunger;
/// impl Consideration<Ctx> for Hunger {
///     fn score(&self, ctx: &Ctx) -> f32 { ctx.hunger }
/// }
/// assert_eq!(Hunger.score(&Ctx { hunger: 0.25 }), 0.25);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a consideration on `{C}`",
    label = "used as a score here",
    note = "implement `behaved::utility::Consideration<{C}>` for `{Self}` (fn score(&self, ctx: &{C}) -> f32), or write a closure `|c| ..` returning an `f32`"
)]
pub trait Consideration<C: ?Sized> {
    /// The score for `ctx`.
    fn score(&self, ctx: &C) -> f32;

    /// The score for `ctx` (the same value as [`score`](Consideration::score),
    /// to the bit), giving `each` the value of each of its parts in order:
    /// what an observer that [`considers`](crate::Observer::considers) sees
    /// as `considered` events. A part is a factor of the compensated product
    /// ([`all`]: each of its considerations' own score, after its curve and
    /// weight, before the product clamps it); any other score is one part,
    /// itself. [`Weighted`] passes its inner score's parts through (the
    /// weight scales the product, not a part) when that score
    /// [`is_product`](Consideration::is_product). Only observed ticks call it.
    fn score_parts(&self, ctx: &C, each: &mut dyn FnMut(f32)) -> f32 {
        let v = self.score(ctx);
        each(v);
        v
    }

    /// Whether the score is a product of parts ([`all`], or one weighted):
    /// then [`score_parts`](Consideration::score_parts) reports its factors,
    /// not itself.
    fn is_product(&self) -> bool {
        false
    }

    /// This consideration's score times `w` (a child's weight).
    fn weight(self, w: f32) -> Weighted<Self>
    where
        Self: Sized,
    {
        Weighted { inner: self, w }
    }
}

impl<C: ?Sized, F: Fn(&C) -> f32> Consideration<C> for F {
    #[inline(always)]
    fn score(&self, ctx: &C) -> f32 {
        self(ctx)
    }
}

/// The score of one candidate of a `pick` (`pick t: T in .. by Nearest { .. }`):
/// a [`Consideration`] that also sees the candidate. Closures
/// `Fn(&C, &T) -> f32` are ones too (`by |c, t| ..`).
///
/// ```
/// use behaved_runtime::utility::CandidateConsideration;
/// struct Ctx { at: f32 }
/// struct Near;
/// impl CandidateConsideration<Ctx, f32> for Near {
///     fn score(&self, ctx: &Ctx, x: &f32) -> f32 { 1.0 / (1.0 + (ctx.at - x).abs()) }
/// }
/// assert_eq!(Near.score(&Ctx { at: 2.0 }, &3.0), 0.5);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not score candidates of type `{T}` on `{C}`",
    label = "used as a pick's score here",
    note = "implement `behaved::utility::CandidateConsideration<{C}, {T}>` for `{Self}` (fn score(&self, ctx: &{C}, candidate: &{T}) -> f32), or write a closure `|c, t| ..` returning an `f32`"
)]
pub trait CandidateConsideration<C: ?Sized, T: ?Sized> {
    /// The score of `candidate` in `ctx`.
    fn score(&self, ctx: &C, candidate: &T) -> f32;

    /// The score of `candidate` (the same value as
    /// [`score`](CandidateConsideration::score)), giving `each` its parts'
    /// values in order, as [`Consideration::score_parts`] does: by default
    /// one part, itself. Only observed ticks call it.
    fn score_parts(&self, ctx: &C, candidate: &T, each: &mut dyn FnMut(f32)) -> f32 {
        let v = self.score(ctx, candidate);
        each(v);
        v
    }
}

impl<C: ?Sized, T: ?Sized, F: Fn(&C, &T) -> f32> CandidateConsideration<C, T> for F {
    #[inline(always)]
    fn score(&self, ctx: &C, candidate: &T) -> f32 {
        self(ctx, candidate)
    }
}

/// A consideration scaled by a weight ([`Consideration::weight`]).
#[derive(Debug, Clone, Copy)]
pub struct Weighted<S> {
    inner: S,
    w: f32,
}

impl<C: ?Sized, S: Consideration<C>> Consideration<C> for Weighted<S> {
    #[inline]
    fn score(&self, ctx: &C) -> f32 {
        self.inner.score(ctx) * self.w
    }

    fn score_parts(&self, ctx: &C, each: &mut dyn FnMut(f32)) -> f32 {
        if self.inner.is_product() {
            self.inner.score_parts(ctx, each) * self.w
        } else {
            let v = self.score(ctx);
            each(v);
            v
        }
    }

    fn is_product(&self) -> bool {
        self.inner.is_product()
    }
}

/// A response curve: maps an input to a value, clamped to `0..=1`. Curves
/// are data, written with the same parameters in the DSL and in JSON
/// (`{"curve": "logistic", "steepness": 10, "midpoint": 0.5}`). `P` holds a
/// piecewise curve's points: a `&'static` slice in a compiled tree, a `Vec`
/// in a loaded one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CurveOf<P> {
    /// `slope * x + intercept`.
    Linear {
        /// The change per unit of input.
        slope: f32,
        /// The value at 0.
        intercept: f32,
    },
    /// `slope * (x - shift)^exponent + intercept`, with `x - shift` below 0
    /// taken as 0.
    Polynomial {
        /// The power (finite, above 0).
        exponent: f32,
        /// The factor.
        slope: f32,
        /// Where the curve starts on the input axis.
        shift: f32,
        /// The value added.
        intercept: f32,
    },
    /// `1 / (1 + e^(-steepness * (x - midpoint)))`: an S rising around
    /// `midpoint` (falling for a negative steepness).
    Logistic {
        /// How sharp the S is (finite, not 0).
        steepness: f32,
        /// Where the value is one half.
        midpoint: f32,
    },
    /// `high` from `threshold` on (`x >= threshold`), `low` below it.
    Step {
        /// Where the value changes.
        threshold: f32,
        /// The value below `threshold`.
        low: f32,
        /// The value at and above `threshold`.
        high: f32,
    },
    /// Straight lines between points `(x, y)` in increasing `x` (at least
    /// one); before the first point its `y`, after the last the last `y`.
    Piecewise(P),
}

/// Every curve's name and its parameters, in the order the DSL writes them
/// (`points` for a piecewise curve: `[[x, y], ..]` in JSON): what tools list
/// and edit (the studio's editor reads it from its catalogue).
pub const CURVES: [(&str, &[&str]); 5] = [
    ("linear", &["slope", "intercept"]),
    ("polynomial", &["exponent", "slope", "shift", "intercept"]),
    ("logistic", &["steepness", "midpoint"]),
    ("step", &["threshold", "low", "high"]),
    ("piecewise", &["points"]),
];

/// A curve written in code, its piecewise points a `&'static` slice:
/// `Curve::Logistic { steepness: 10.0, midpoint: 0.5 }`.
pub type Curve = CurveOf<&'static [(f32, f32)]>;

/// Why a curve's parameters are refused ([`Curve::check`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CurveError {
    /// A parameter is NaN or infinite; the name of the parameter.
    NotFinite(&'static str),
    /// A polynomial's exponent is 0 or less.
    Exponent,
    /// A logistic curve's steepness is 0 (a flat line at one half).
    Steepness,
    /// A piecewise curve with no points.
    NoPoints,
    /// A piecewise curve's points are not in strictly increasing `x`; the index
    /// of the first point out of order.
    Unordered(usize),
}

impl core::fmt::Display for CurveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CurveError::NotFinite(p) => write!(f, "the curve's `{p}` must be a finite number"),
            CurveError::Exponent => f.write_str("a polynomial curve's `exponent` must be above 0"),
            CurveError::Steepness => f.write_str("a logistic curve's `steepness` must not be 0"),
            CurveError::NoPoints => f.write_str("a piecewise curve needs at least one point"),
            CurveError::Unordered(i) => write!(
                f,
                "a piecewise curve's points must be in strictly increasing x: point {i} is not after point {}",
                i - 1
            ),
        }
    }
}

impl<P: AsRef<[(f32, f32)]>> CurveOf<P> {
    /// The curve's name in the DSL and in JSON (`"linear"`, `"polynomial"`,
    /// `"logistic"`, `"step"`, `"piecewise"`).
    pub fn name(&self) -> &'static str {
        match self {
            CurveOf::Linear { .. } => "linear",
            CurveOf::Polynomial { .. } => "polynomial",
            CurveOf::Logistic { .. } => "logistic",
            CurveOf::Step { .. } => "step",
            CurveOf::Piecewise(_) => "piecewise",
        }
    }

    /// Whether the parameters make a curve: every one finite, a polynomial's
    /// exponent above 0, a logistic's steepness not 0, a piecewise curve's
    /// points (at least one) in strictly increasing `x`. The macro checks a
    /// curve written with literals at compile time, the loader every JSON curve.
    pub fn check(&self) -> Result<(), CurveError> {
        let finite = |v: f32, name| {
            if v.is_finite() {
                Ok(())
            } else {
                Err(CurveError::NotFinite(name))
            }
        };
        for (name, value) in self.numbers() {
            finite(value, name)?;
        }
        match *self {
            // Finite by now: not above 0 is at or below it.
            CurveOf::Polynomial { exponent, .. } if exponent <= 0.0 => Err(CurveError::Exponent),
            CurveOf::Logistic { steepness: 0.0, .. } => Err(CurveError::Steepness),
            CurveOf::Piecewise(ref points) => {
                let points = points.as_ref();
                if points.is_empty() {
                    return Err(CurveError::NoPoints);
                }
                for (i, &(x, y)) in points.iter().enumerate() {
                    finite(x, "x")?;
                    finite(y, "y")?;
                    if i > 0 && x <= points[i - 1].0 {
                        return Err(CurveError::Unordered(i));
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The curve's numbers by name, in the order [`CURVES`] lists them
    /// (none for a piecewise curve, whose parameters are its points): what
    /// [`check`](CurveOf::check) checks and a writer writes, from this one list.
    pub fn numbers(&self) -> impl Iterator<Item = (&'static str, f32)> {
        let (names, values): (&'static [&'static str], [f32; 4]) = match *self {
            CurveOf::Linear { slope, intercept } => (CURVES[0].1, [slope, intercept, 0.0, 0.0]),
            CurveOf::Polynomial {
                exponent,
                slope,
                shift,
                intercept,
            } => (CURVES[1].1, [exponent, slope, shift, intercept]),
            CurveOf::Logistic { steepness, midpoint } => (CURVES[2].1, [steepness, midpoint, 0.0, 0.0]),
            CurveOf::Step { threshold, low, high } => (CURVES[3].1, [threshold, low, high, 0.0]),
            CurveOf::Piecewise(_) => (&[], [0.0; 4]),
        };
        names.iter().copied().zip(values)
    }

    /// The curve's value at `x`, clamped to `0..=1`; NaN in gives 0.
    /// Exponentials and powers come from `libm`, so every platform gets the
    /// same value.
    pub fn eval(&self, x: f32) -> f32 {
        let y = match *self {
            CurveOf::Linear { slope, intercept } => slope * x + intercept,
            CurveOf::Polynomial {
                exponent,
                slope,
                shift,
                intercept,
            } => slope * libm::powf((x - shift).max(0.0), exponent) + intercept,
            CurveOf::Logistic { steepness, midpoint } => 1.0 / (1.0 + libm::expf(-steepness * (x - midpoint))),
            CurveOf::Step { threshold, low, high } => {
                if x >= threshold {
                    high
                } else {
                    low
                }
            }
            CurveOf::Piecewise(ref points) => piecewise(points.as_ref(), x),
        };
        clamp01(y)
    }

    /// This curve applied to `input`'s score: a consideration whose value is
    /// `self.eval(input.score(ctx))`.
    pub fn of<I>(self, input: I) -> Curved<I, P> {
        Curved { curve: self, input }
    }
}

/// `y` clamped to `0..=1`, NaN to 0.
#[inline]
fn clamp01(y: f32) -> f32 {
    if y >= 1.0 {
        1.0
    } else if y > 0.0 {
        y
    } else {
        0.0
    }
}

fn piecewise(points: &[(f32, f32)], x: f32) -> f32 {
    let Some(&(x0, y0)) = points.first() else { return 0.0 };
    if x.is_nan() {
        return f32::NAN;
    }
    if x <= x0 {
        return y0;
    }
    for w in points.windows(2) {
        let ((xa, ya), (xb, yb)) = (w[0], w[1]);
        if x <= xb {
            return ya + (yb - ya) * (x - xa) / (xb - xa);
        }
    }
    points[points.len() - 1].1
}

/// A curve applied to a consideration ([`Curve::of`]).
#[derive(Debug, Clone, Copy)]
pub struct Curved<I, P = &'static [(f32, f32)]> {
    curve: CurveOf<P>,
    input: I,
}

impl<I, P> Curved<I, P> {
    /// The curve.
    pub const fn curve(&self) -> &CurveOf<P> {
        &self.curve
    }

    /// This score times `w` (also without `Consideration` in scope).
    pub const fn weight(self, w: f32) -> Weighted<Self> {
        Weighted { inner: self, w }
    }
}

impl<C: ?Sized, I: Consideration<C>, P: AsRef<[(f32, f32)]>> Consideration<C> for Curved<I, P> {
    #[inline]
    fn score(&self, ctx: &C) -> f32 {
        self.curve.eval(self.input.score(ctx))
    }
}

/// Several considerations multiplied with the compensation for their number
/// ([`compensated`]): `all((a, b, c))`.
pub const fn all<T>(considerations: T) -> All<T> {
    All(considerations)
}

/// Considerations combined by [`all`].
#[derive(Debug, Clone, Copy)]
pub struct All<T>(T);

impl<T> All<T> {
    /// This score times `w` (also without `Consideration` in scope).
    pub const fn weight(self, w: f32) -> Weighted<Self> {
        Weighted { inner: self, w }
    }
}

/// The product of `n` consideration values with the usual compensation for
/// their number (Dave Mark's "infinite axis" make-up value): each value `v`
/// becomes `v + (1 - v) * (1 - 1/n) * v` before multiplying, so that adding
/// considerations does not drag every score towards 0. Values are clamped to
/// `0..=1` first; `values` empty gives 1 (nothing against the choice).
pub fn compensated(values: &[f32]) -> f32 {
    let mut product = Compensated::new(values.len());
    for &v in values {
        product.push(v);
    }
    product.value()
}

/// A compensated product built one value at a time (as [`compensated`]
/// computes it, to the bit): the interpreter's scores use it without
/// gathering the values first.
#[derive(Debug, Clone, Copy)]
pub struct Compensated {
    make_up: f32,
    product: f32,
}

impl Compensated {
    /// A product of `n` values, none pushed yet.
    #[inline]
    pub fn new(n: usize) -> Compensated {
        Compensated {
            make_up: if n == 0 { 0.0 } else { 1.0 - 1.0 / n as f32 },
            product: 1.0,
        }
    }

    /// Multiplies in the next value (clamped to `0..=1`, then compensated).
    #[inline]
    pub fn push(&mut self, v: f32) {
        let v = clamp01(v);
        self.product *= v + (1.0 - v) * self.make_up * v;
    }

    /// The product so far.
    #[inline]
    pub fn value(&self) -> f32 {
        self.product
    }
}

macro_rules! all_tuple {
    ($($t:ident $i:tt),+) => {
        impl<C: ?Sized, $($t: Consideration<C>),+> Consideration<C> for All<($($t,)+)> {
            #[inline]
            fn score(&self, ctx: &C) -> f32 {
                compensated(&[$(self.0.$i.score(ctx)),+])
            }

            fn score_parts(&self, ctx: &C, each: &mut dyn FnMut(f32)) -> f32 {
                let values = [$(self.0.$i.score(ctx)),+];
                for &v in &values {
                    each(v);
                }
                compensated(&values)
            }

            fn is_product(&self) -> bool {
                true
            }
        }
    };
}
all_tuple!(A 0);
all_tuple!(A 0, B 1);
all_tuple!(A 0, B 1, D 2);
all_tuple!(A 0, B 1, D 2, E 3);
all_tuple!(A 0, B 1, D 2, E 3, F 4);
all_tuple!(A 0, B 1, D 2, E 3, F 4, G 5);
all_tuple!(A 0, B 1, D 2, E 3, F 4, G 5, H 6);
all_tuple!(A 0, B 1, D 2, E 3, F 4, G 5, H 6, I 7);

/// Whether a score can be chosen: above zero (NaN is not).
#[inline(always)]
pub fn eligible(score: f32) -> bool {
    score > 0.0
}

/// The index of the highest score above zero, the first on ties; `None` when
/// no score is above zero.
#[inline]
pub fn best(scores: &[f32]) -> Option<usize> {
    let mut b = Best::new();
    for (i, &s) in scores.iter().enumerate() {
        b.offer(i, s);
    }
    b.chosen()
}

/// [`best`] one score at a time, for scores that are not kept in an array
/// (a `pick` scores its candidates one after the other, in both forms).
#[derive(Debug, Clone, Copy)]
pub struct Best {
    chosen: Option<usize>,
    top: f32,
}

impl Default for Best {
    fn default() -> Self {
        Best::new()
    }
}

impl Best {
    /// Nothing offered yet.
    #[inline]
    pub const fn new() -> Best {
        Best { chosen: None, top: 0.0 }
    }

    /// Offers the score of candidate `i`: it is the best so far when above
    /// zero and above every score offered before (NaN never is).
    #[inline]
    pub fn offer(&mut self, i: usize, score: f32) {
        if score > self.top {
            self.top = score;
            self.chosen = Some(i);
        }
    }

    /// The candidate with the highest score above zero, the first on ties.
    #[inline]
    pub fn chosen(&self) -> Option<usize> {
        self.chosen
    }
}

/// Whether `i` is among the `k` best eligible scores (`k` 0: no limit):
/// fewer than `k` scores beat it, a score beating it when it is higher, or
/// equal and earlier.
fn in_best(scores: &[f32], i: usize, k: usize) -> bool {
    let s = scores[i];
    if !eligible(s) {
        return false;
    }
    if k == 0 {
        return true;
    }
    let beaten_by = scores
        .iter()
        .enumerate()
        .filter(|&(j, &t)| t > s || (t == s && j < i))
        .count();
    beaten_by < k
}

/// A draw in proportion to the scores above zero, among the `best_k` highest
/// (`0`: all of them; ties at the edge go to the earlier): one `u64` is
/// taken from `rng` when at least one score is eligible, none otherwise.
/// `None` when no score is above zero.
pub fn draw(scores: &[f32], best_k: usize, rng: &mut Rng) -> Option<usize> {
    let mut total = 0.0f64;
    let mut last = None;
    for i in 0..scores.len() {
        if in_best(scores, i, best_k) {
            total += f64::from(scores[i]);
            last = Some(i);
        }
    }
    let last = last?;
    // 53 random bits: a uniform number in [0, 1).
    let x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    let mut sum = 0.0f64;
    for i in 0..scores.len() {
        if in_best(scores, i, best_k) {
            sum += f64::from(scores[i]);
            if x < sum {
                return Some(i);
            }
        }
    }
    Some(last)
}

/// A reactive or interval re-scoring while child `running` runs: the child to
/// run now. The running child is kept unless another beats its score by more
/// than `margin` (then the best such, the first on ties) or its own score fell
/// to zero or less (then the best above zero). `None`: none is above zero.
#[inline]
pub fn keep_or_switch(running: usize, scores: &[f32], margin: f32) -> Option<usize> {
    let own = scores[running];
    if !eligible(own) {
        return best(scores);
    }
    let bar = own + margin;
    let mut chosen = running;
    let mut top = bar;
    for (i, &s) in scores.iter().enumerate() {
        if i != running && s > top {
            top = s;
            chosen = i;
        }
    }
    Some(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_takes_the_highest_above_zero_and_the_first_on_ties() {
        assert_eq!(best(&[0.2, 0.5, 0.5, 0.1]), Some(1));
        assert_eq!(best(&[0.0, -1.0, f32::NAN]), None);
        assert_eq!(best(&[f32::NAN, 0.1]), Some(1));
        assert_eq!(best(&[]), None);
    }

    #[test]
    fn draw_is_proportional_among_the_best_k_and_skips_zero() {
        let scores = [3.0, 0.0, 1.0, 0.5];
        let mut rng = Rng::new(9);
        let mut counts = [0u32; 4];
        for _ in 0..40_000 {
            counts[draw(&scores, 2, &mut rng).unwrap()] += 1;
        }
        assert_eq!((counts[1], counts[3]), (0, 0), "{counts:?}");
        // 3:1 between the two best.
        assert!((28_000..32_000).contains(&counts[0]), "{counts:?}");
        let mut all = [0u32; 4];
        for _ in 0..45_000 {
            all[draw(&scores, 0, &mut rng).unwrap()] += 1;
        }
        assert_eq!(all[1], 0);
        assert!((4_000..6_000).contains(&all[3]), "{all:?}");
        let before = rng;
        assert_eq!(draw(&[0.0, -2.0], 0, &mut rng), None);
        assert_eq!(rng, before, "no eligible score: nothing drawn");
    }

    #[test]
    fn best_k_ties_at_the_edge_go_to_the_earlier() {
        assert!(in_best(&[1.0, 1.0, 1.0], 1, 2));
        assert!(!in_best(&[1.0, 1.0, 1.0], 2, 2));
    }

    #[test]
    fn keep_or_switch_needs_more_than_the_margin() {
        assert_eq!(keep_or_switch(0, &[0.5, 0.6], 0.1), Some(0));
        assert_eq!(keep_or_switch(0, &[0.5, 0.61], 0.1), Some(1));
        assert_eq!(keep_or_switch(1, &[0.9, 0.0, 0.3], 0.5), Some(0));
        assert_eq!(keep_or_switch(1, &[0.0, 0.0, -0.3], 0.5), None);
        assert_eq!(keep_or_switch(0, &[0.5, 0.7, 0.7], 0.1), Some(1));
    }

    #[test]
    fn a_curves_numbers_are_its_own_by_the_names_curves_lists_for_its_name() {
        let curves = [
            Curve::Linear {
                slope: 1.0,
                intercept: 2.0,
            },
            Curve::Polynomial {
                exponent: 1.0,
                slope: 2.0,
                shift: 3.0,
                intercept: 4.0,
            },
            Curve::Logistic {
                steepness: 1.0,
                midpoint: 2.0,
            },
            Curve::Step {
                threshold: 1.0,
                low: 2.0,
                high: 3.0,
            },
        ];
        for c in curves {
            let listed = CURVES.iter().find(|(name, _)| *name == c.name()).unwrap().1;
            let numbers: Vec<_> = c.numbers().collect();
            let names: Vec<_> = numbers.iter().map(|&(n, _)| n).collect();
            assert_eq!(names, listed, "{c:?}");
            let values: Vec<_> = numbers.iter().map(|&(_, v)| v).collect();
            assert_eq!(values, [1.0, 2.0, 3.0, 4.0][..names.len()], "{c:?}: each in its place");
        }
        let points = Curve::Piecewise(&[(0.0, 1.0)]);
        assert_eq!(
            points.numbers().count(),
            0,
            "a piecewise curve's parameters are its points"
        );
    }

    #[test]
    fn curves_are_clamped_and_checked() {
        let lin = Curve::Linear {
            slope: 2.0,
            intercept: -0.5,
        };
        assert_eq!((lin.eval(0.0), lin.eval(0.5), lin.eval(1.0)), (0.0, 0.5, 1.0));
        let log = Curve::Logistic {
            steepness: 10.0,
            midpoint: 0.5,
        };
        assert_eq!(log.eval(0.5), 0.5);
        assert!(log.eval(1.0) > 0.99 && log.eval(0.0) < 0.01);
        let poly = Curve::Polynomial {
            exponent: 2.0,
            slope: 1.0,
            shift: 0.0,
            intercept: 0.0,
        };
        assert_eq!((poly.eval(0.5), poly.eval(-1.0)), (0.25, 0.0));
        let step = Curve::Step {
            threshold: 3.0,
            low: 0.1,
            high: 0.9,
        };
        assert_eq!((step.eval(2.9), step.eval(3.0)), (0.1, 0.9));
        let pw = Curve::Piecewise(&[(0.0, 0.0), (10.0, 1.0), (20.0, 0.0)]);
        assert_eq!(
            (pw.eval(-5.0), pw.eval(5.0), pw.eval(15.0), pw.eval(30.0)),
            (0.0, 0.5, 0.5, 0.0)
        );
        assert_eq!(pw.eval(f32::NAN), 0.0);
        assert_eq!(
            Curve::Logistic {
                steepness: 0.0,
                midpoint: 1.0
            }
            .check(),
            Err(CurveError::Steepness)
        );
        assert_eq!(
            Curve::Piecewise(&[(1.0, 0.0), (1.0, 1.0)]).check(),
            Err(CurveError::Unordered(1))
        );
        assert_eq!(Curve::Piecewise(&[]).check(), Err(CurveError::NoPoints));
        assert_eq!(
            Curve::Linear {
                slope: f32::NAN,
                intercept: 0.0
            }
            .check(),
            Err(CurveError::NotFinite("slope"))
        );
        assert!(pw.check().is_ok() && lin.check().is_ok());
    }

    #[test]
    fn compensation_lifts_products_of_many_considerations() {
        assert_eq!(compensated(&[]), 1.0);
        assert_eq!(compensated(&[0.5]), 0.5);
        // Two at 0.5: each becomes 0.5 + 0.5 * 0.5 * 0.5 = 0.625.
        assert_eq!(compensated(&[0.5, 0.5]), 0.625 * 0.625);
        assert_eq!(compensated(&[0.9, 0.0, 1.0]), 0.0);
        assert!(compensated(&[0.5; 4]) > 0.5f32.powi(4));
    }

    #[test]
    fn considerations_compose() {
        struct Ctx {
            hunger: f32,
            food: f32,
        }
        let ctx = Ctx { hunger: 0.5, food: 1.0 };
        let eat = all((
            Curve::Linear {
                slope: 1.0,
                intercept: 0.0,
            }
            .of(|c: &Ctx| c.hunger),
            |c: &Ctx| c.food,
        ))
        .weight(2.0);
        assert_eq!(eat.score(&ctx), compensated(&[0.5, 1.0]) * 2.0);
    }

    #[test]
    fn a_product_reports_its_factors_and_anything_else_itself() {
        struct Ctx {
            a: f32,
        }
        let ctx = Ctx { a: 0.5 };
        let parts = |s: &dyn Consideration<Ctx>| {
            let mut seen = Vec::new();
            let v = s.score_parts(&ctx, &mut |p| seen.push(p));
            assert_eq!(v.to_bits(), s.score(&ctx).to_bits(), "the same score, to the bit");
            seen
        };
        let half = Curve::Linear {
            slope: 1.0,
            intercept: 0.0,
        };
        // A weight inside `all` is the part's; one outside scales the product.
        let product = all((half.of(|c: &Ctx| c.a).weight(3.0), |c: &Ctx| c.a * 4.0)).weight(2.0);
        assert_eq!(parts(&product), [1.5, 2.0]);
        assert!(product.is_product());
        assert_eq!(parts(&(|c: &Ctx| c.a).weight(2.0)), [1.0], "one part, weighted");
        assert_eq!(
            parts(&half.of(all((|c: &Ctx| c.a,)))),
            [0.5],
            "a curve of a product is one part"
        );
        assert_eq!(
            parts(&all((all((|c: &Ctx| c.a, |c: &Ctx| c.a)), |c: &Ctx| c.a))).len(),
            2,
            "an inner product is one factor"
        );
    }
}

// behaved-studio's response curves of `utility` scores, as JSON writes them
// ({"curve": "logistic", "steepness": 10, "midpoint": 0.5}): their values, by
// the runtime's formulas (behaved_runtime::utility::Curve::eval), for the
// editor's plots. Pure: no page, tested by js-tests/curves.test.mjs.
// @ts-check

/**
 * A curve in its JSON form.
 * @typedef {{ curve: string, [param: string]: any }} CurveJson
 */

/** `y` clamped to 0..1, NaN to 0 (as the runtime does). */
const clamp01 = (y) => (y >= 1 ? 1 : y > 0 ? y : 0);

/**
 * The curve's value at `x`, clamped to 0..1; NaN for a curve this page does not know.
 * @param {CurveJson} c
 * @param {number} x
 * @returns {number}
 */
function evalCurve(c, x) {
  switch (c.curve) {
    case 'linear':
      return clamp01(c.slope * x + c.intercept);
    case 'polynomial':
      return clamp01(c.slope * Math.pow(Math.max(x - c.shift, 0), c.exponent) + c.intercept);
    case 'logistic':
      return clamp01(1 / (1 + Math.exp(-c.steepness * (x - c.midpoint))));
    case 'step':
      return clamp01(x >= c.threshold ? c.high : c.low);
    case 'piecewise':
      return clamp01(piecewise(c.points || [], x));
    default:
      return NaN;
  }
}

/** Straight lines between `points` ([[x, y], ..], increasing x), flat beyond the ends. */
function piecewise(points, x) {
  if (!points.length) return 0;
  if (x <= points[0][0]) return points[0][1];
  for (let i = 1; i < points.length; i++) {
    const [xa, ya] = points[i - 1], [xb, yb] = points[i];
    if (x <= xb) return ya + ((yb - ya) * (x - xa)) / (xb - xa);
  }
  return points[points.length - 1][1];
}

/**
 * The input range a plot of `c` shows: 0..1, widened to a piecewise curve's
 * points and to a step's threshold or a logistic's midpoint outside it.
 * @param {CurveJson} c
 * @returns {[number, number]}
 */
function plotRange(c) {
  let lo = 0, hi = 1;
  const take = (v) => {
    if (Number.isFinite(v)) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  };
  if (c.curve === 'piecewise') for (const [x] of c.points || []) take(x);
  if (c.curve === 'step') take(c.threshold);
  if (c.curve === 'logistic') take(c.midpoint);
  if (c.curve === 'polynomial') take(c.shift);
  return [lo, hi];
}

/**
 * `n + 1` evenly spaced samples `[x, y]` of `c` over `range`.
 * @param {CurveJson} c
 * @param {[number, number]} range
 * @param {number} n
 * @returns {Array<[number, number]>}
 */
function samples(c, [lo, hi], n) {
  /** @type {Array<[number, number]>} */
  const out = [];
  for (let i = 0; i <= n; i++) {
    const x = lo + ((hi - lo) * i) / n;
    out.push([x, evalCurve(c, x)]);
  }
  return out;
}

/**
 * A new curve of kind `name` with `params` (the catalogue's list), keeping
 * the values of `old` that the new kind shares and giving the others a start.
 * @param {string} name
 * @param {string[]} params
 * @param {CurveJson | undefined} old
 * @returns {CurveJson}
 */
function reshaped(name, params, old) {
  const starts = { slope: 1, intercept: 0, exponent: 2, shift: 0, steepness: 10, midpoint: 0.5, threshold: 0.5, low: 0, high: 1, points: [[0, 0], [1, 1]] };
  const c = { curve: name };
  for (const p of params) c[p] = old && old[p] !== undefined ? old[p] : starts[p] ?? 0;
  return c;
}

export { evalCurve, plotRange, samples, reshaped };

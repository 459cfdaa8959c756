// The editor's response curves (assets/curves.js): the runtime's formulas,
// clamped to 0..1, checked at points worked out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evalCurve, plotRange, samples, reshaped } from '../assets/curves.js';

const near = (a, b) => assert.ok(Math.abs(a - b) < 1e-9, `${a} is not ${b}`);

test('each curve has the runtime formula, clamped to 0..1', () => {
  near(evalCurve({ curve: 'linear', slope: 2, intercept: -0.5 }, 0.5), 0.5);
  near(evalCurve({ curve: 'linear', slope: 2, intercept: -0.5 }, 1), 1, 'clamped above');
  near(evalCurve({ curve: 'linear', slope: 2, intercept: -0.5 }, 0), 0, 'clamped below');
  near(evalCurve({ curve: 'polynomial', exponent: 2, slope: 1, shift: 0.5, intercept: 0 }, 1), 0.25);
  near(evalCurve({ curve: 'polynomial', exponent: 2, slope: 1, shift: 0.5, intercept: 0 }, 0.2), 0, 'below the shift: 0');
  near(evalCurve({ curve: 'logistic', steepness: 10, midpoint: 0.5 }, 0.5), 0.5);
  near(evalCurve({ curve: 'logistic', steepness: 10, midpoint: 0.5 }, 0.6), 1 / (1 + Math.exp(-1)));
  near(evalCurve({ curve: 'step', threshold: 0.3, low: 0.1, high: 0.9 }, 0.3), 0.9, 'at the threshold: high');
  near(evalCurve({ curve: 'step', threshold: 0.3, low: 0.1, high: 0.9 }, 0.29), 0.1);
  const pw = { curve: 'piecewise', points: [[0, 0], [0.5, 1], [1, 0.2]] };
  near(evalCurve(pw, 0.25), 0.5);
  near(evalCurve(pw, 0.75), 0.6);
  near(evalCurve(pw, -1), 0, 'flat before the first point');
  near(evalCurve(pw, 2), 0.2, 'flat after the last');
  assert.ok(Number.isNaN(evalCurve({ curve: 'unknown' }, 0.5)));
});

test('plots cover 0..1 and the points that lie outside it', () => {
  assert.deepEqual(plotRange({ curve: 'linear', slope: 1, intercept: 0 }), [0, 1]);
  assert.deepEqual(plotRange({ curve: 'piecewise', points: [[-2, 0], [5, 1]] }), [-2, 5]);
  assert.deepEqual(plotRange({ curve: 'logistic', steepness: -1, midpoint: 5 }), [0, 5]);
  const s = samples({ curve: 'linear', slope: 1, intercept: 0 }, [0, 1], 4);
  assert.deepEqual(s, [[0, 0], [0.25, 0.25], [0.5, 0.5], [0.75, 0.75], [1, 1]]);
});

test('a curve changed to another kind keeps the parameters they share', () => {
  const c = reshaped('polynomial', ['exponent', 'slope', 'shift', 'intercept'], { curve: 'linear', slope: 3, intercept: 0.2 });
  assert.deepEqual(c, { curve: 'polynomial', exponent: 2, slope: 3, shift: 0, intercept: 0.2 });
});

// behaved-studio's editor of a `utility` node's scores and a `pick` node's
// score (used by editor.js): per child (or for each candidate), what it
// considers, its response curve (kind and parameters, the kinds and their
// parameters from the catalogue) with a plot of it, and its weight; a product
// of scores (`all`) lists its parts the same way. Every change hands the
// whole new `scores` list (or `score`) to the editor as one step.
// @ts-check
import { html, svgEl } from './draw.js';
import { catalogue } from './catalogue.js';
import { evalCurve, plotRange, samples, reshaped } from './curves.js';

const PLOT_W = 220, PLOT_H = 70, PLOT_STEPS = 40;

/**
 * The scores editor of a `utility` node whose scores are `scores`;
 * `onChange(next)` gets the whole list after each change.
 * @param {HTMLElement} box
 * @param {any[]} scores
 * @param {(next: any[]) => void} onChange
 */
function scoresEditor(box, scores, onChange) {
  const section = html('section', { id: 'scores-editor' });
  section.append(html('h4', {}, 'Scores'));
  (scores || []).forEach((score, i) => {
    const set = (next) => onChange(scores.map((s, j) => (j === i ? next : s)));
    section.append(scoreEditor(score, `scores[${i}]`, `child ${i}`, set));
  });
  box.append(section);
}

/**
 * The score editor of a `pick` node whose score is `score` (one score, as a
 * `utility` child's, applied to each candidate); `onChange(next)` gets the
 * whole score after each change.
 * @param {HTMLElement} box
 * @param {any} score
 * @param {(next: any) => void} onChange
 */
function pickScoreEditor(box, score, onChange) {
  const section = html('section', { id: 'scores-editor' });
  section.append(html('h4', {}, 'Score (of each candidate)'));
  if (score !== null && typeof score === 'object' && !Array.isArray(score)) {
    section.append(scoreEditor(score, 'score', 'each candidate', onChange));
  } else {
    section.append(html('p', { class: 'hint' }, 'No score: write one in the node\'s JSON, {"consider": <registered consideration>}.'));
  }
  box.append(section);
}

/** One score's fieldset: its consideration and curve, or its parts; its weight. */
function scoreEditor(score, path, title, set) {
  const box = html('fieldset', { class: 'score', 'data-path': path });
  box.append(html('legend', {}, title));
  if (Array.isArray(score.all)) {
    box.append(html('p', { class: 'hint' }, 'all of (multiplied, with the compensation for their number):'));
    score.all.forEach((part, j) => {
      const setPart = (next) => set({ ...score, all: score.all.map((p, k) => (k === j ? next : p)) });
      box.append(scoreEditor(part, `${path}.all[${j}]`, `part ${j}`, setPart));
    });
  } else {
    const leaf = score.consider;
    box.append(html('div', { class: 'consider' }, `considers ${typeof leaf === 'string' ? leaf : JSON.stringify(leaf)}`));
    curveEditor(box, score.curve, (curve) => {
      const next = { ...score };
      if (curve === undefined) delete next.curve;
      else next.curve = curve;
      set(next);
    });
  }
  const weight = number(score.weight, 'weight', '1');
  box.append(html('label', {}, 'weight'), weight);
  weight.addEventListener('change', () => {
    const next = { ...score };
    const w = read(weight);
    if (w === undefined || w === 1) delete next.weight;
    else next.weight = w;
    set(next);
  });
  return box;
}

/** The curve's kind, its parameters and its plot; `set(curve | undefined)` on change. */
function curveEditor(box, curve, set) {
  const kinds = catalogue.curves;
  const select = html('select', { 'data-param': 'curve' });
  select.append(html('option', { value: '' }, '(no curve: the value as it is)'));
  for (const k of kinds) select.append(html('option', { value: k.name }, k.name));
  select.value = curve ? curve.curve : '';
  box.append(html('label', {}, 'curve'), select);
  select.addEventListener('change', () => {
    const kind = kinds.find((k) => k.name === select.value);
    set(kind ? reshaped(kind.name, kind.params, curve) : undefined);
  });
  if (!curve) return;
  const kind = kinds.find((k) => k.name === curve.curve);
  for (const p of kind ? kind.params : []) {
    let input;
    if (p === 'points') {
      input = html('input', { type: 'text', 'data-param': p, placeholder: 'x, y; x, y; ..' });
      input.value = (curve.points || []).map(([x, y]) => `${x}, ${y}`).join('; ');
      input.addEventListener('change', () => set({ ...curve, points: points(input.value) }));
    } else {
      input = number(curve[p], p, '');
      input.addEventListener('change', () => set({ ...curve, [p]: read(input) ?? 0 }));
    }
    box.append(html('label', {}, p), input);
  }
  box.append(plot(curve));
}

/**
 * The curve drawn over its plot range: `data-values` holds the plotted
 * values (at `data-from` + i * (`data-to` - `data-from`) / 40).
 * @returns {SVGElement}
 */
function plot(curve) {
  const range = plotRange(curve);
  const pts = samples(curve, range, PLOT_STEPS);
  const svg = svgEl('svg', {
    class: 'curve-plot', width: PLOT_W, height: PLOT_H, viewBox: `0 0 ${PLOT_W} ${PLOT_H}`,
    'data-from': range[0], 'data-to': range[1], 'data-values': pts.map(([, y]) => y).join(' '),
  });
  svgEl('rect', { x: 0, y: 0, width: PLOT_W, height: PLOT_H, class: 'plot-bg' }, svg);
  const x = (i) => 4 + (i / PLOT_STEPS) * (PLOT_W - 8);
  const y = (v) => PLOT_H - 4 - (Number.isFinite(v) ? v : 0) * (PLOT_H - 8);
  svgEl('polyline', { points: pts.map(([, v], i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '), fill: 'none', stroke: '#1f77b4', 'stroke-width': 1.5 }, svg);
  return svg;
}

/** A number input for `name` showing `value` (`placeholder` when unset). */
function number(value, name, placeholder) {
  const i = html('input', { type: 'number', step: 'any', 'data-param': name, placeholder });
  if (value !== undefined) i.value = String(value);
  return i;
}

/** An input's number, or undefined when empty. */
const read = (input) => (input.value.trim() === '' ? undefined : Number(input.value));

/** `"x, y; x, y"` as `[[x, y], ..]` (what does not read as two numbers is left out). */
function points(text) {
  return text
    .split(';')
    .map((p) => p.split(',').map((v) => Number(v.trim())))
    .filter((p) => p.length === 2 && p.every((v) => Number.isFinite(v)));
}

export { scoresEditor, pickScoreEditor };

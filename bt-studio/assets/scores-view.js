// behaved-studio's view of a `utility` node's scores, under the inspector: why
// the node chose what it runs. At the cursor, each child's score from the
// node's last scoring (the trace's `scored` events, trace-model.js scoresAt),
// the running child marked; below, a lane of every child's score over the
// window's ticks, with the cursor's tick marked. A `pick` node's scores are
// its candidates', the chosen one (the first highest above zero) marked.
// Under each score, its considerations' labels and values (the trace's
// `considered` events: each factor after its own curve and weight).
// @ts-check
import { html, svgEl } from './draw.js';
import * as Model from './trace-model.js';

const LANE_W = 320, LANE_H = 90;
/** A child's line colour in the lane, by its index. */
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf'];

/** A score as shown: three decimals, or "not a number". */
const shown = (s) => (Number.isNaN(s) ? 'not a number' : s.toFixed(3));

/**
 * The scores section of `utility` node `id` at the position (tick index `ti`,
 * `k` events applied), `state` being the nodes' states there.
 * @param {Model.Model} m
 * @param {number} ti
 * @param {number} k
 * @param {number} id
 * @param {Uint8Array} state
 * @returns {HTMLElement}
 */
function section(m, ti, k, id, state) {
  const node = m.nodes[id];
  const at = Model.scoresAt(m, ti, k, id);
  const box = html('section', { id: 'scores', 'data-node': id });
  if (!at) {
    box.dataset.tick = '';
    box.append(html('h4', {}, 'Scores'), html('p', { class: 'hint' }, 'The node has not scored its children in the shown ticks yet.'));
    return box;
  }
  const tick = m.ticks[at.ti].tick;
  box.dataset.tick = String(tick);
  box.dataset.now = String(m.ticks[at.ti].now);
  box.append(html('h4', {}, `Scores (scored in tick ${tick})`));
  const table = html('table', { id: 'scores-table' });
  const body = html('tbody');
  const finite = at.scores.filter((s) => Number.isFinite(s));
  const top = Math.max(1, ...finite);
  const candidates = node.kind === 'pick';
  const best = bestOf(at.scores);
  at.scores.forEach((score, i) => {
    const child = candidates ? undefined : node.children[i];
    const running = candidates ? i === best : child !== undefined && state[child] === Model.RUNNING;
    const row = html('tr', { class: 'score', 'data-child': i, 'data-score': String(score) });
    if (running) row.classList.add('chosen');
    const bar = html('span', { class: 'score-bar', style: `width: ${Math.max(0, (Number.isFinite(score) ? score : 0) / top) * 100}%; background: ${COLOURS[i % COLOURS.length]}` });
    const label = candidates ? `candidate ${i}` : child === undefined ? `child ${i}` : `#${child} ${m.nodes[child].label}`;
    row.append(
      html('td', { class: 'label', title: label }, label),
      html('td', { class: 'value' }, shown(score)),
      html('td', { class: 'bar' }),
      html('td', {}, running ? (candidates ? 'chosen' : 'running') : ''),
    );
    row.cells[2].append(bar);
    body.append(row);
    // The score's considerations: each part's label and value, under its score.
    (at.parts[i] || []).forEach((p, j) => {
      const part = html('tr', { class: 'part', 'data-child': i, 'data-part': j, 'data-value': String(p.value) });
      const name = p.label || `part ${j}`;
      part.append(
        html('td', { class: 'label part-label', title: name }, name),
        html('td', { class: 'value' }, shown(p.value)),
        html('td', {}),
        html('td', {}),
      );
      body.append(part);
    });
  });
  table.append(body);
  const lines = candidates ? Math.max(0, ...Model.scoreLanes(m, id).map((l) => (l ? l.length : 0))) : node.children.length;
  box.append(table, lane(m, ti, id, lines));
  return box;
}

/** The index of the highest score above zero, the first on ties (-1: none), as `pick` chooses. */
function bestOf(scores) {
  let best = -1;
  scores.forEach((s, i) => {
    if (s > 0 && (best < 0 || s > scores[best])) best = i;
  });
  return best;
}

/**
 * Every child's score over the window's ticks: one line per child, a point
 * per tick that scored, the cursor's tick marked.
 * @param {Model.Model} m
 * @param {number} ti
 * @param {number} id
 * @param {number} children
 * @returns {SVGElement}
 */
function lane(m, ti, id, children) {
  const lanes = Model.scoreLanes(m, id);
  const svg = svgEl('svg', { id: 'score-lane', width: LANE_W, height: LANE_H, viewBox: `0 0 ${LANE_W} ${LANE_H}` });
  const values = lanes.flatMap((l) => (l ? l.filter((s) => Number.isFinite(s)) : []));
  const top = Math.max(1, ...values);
  const x = (t) => (lanes.length < 2 ? LANE_W / 2 : (t / (lanes.length - 1)) * (LANE_W - 8) + 4);
  const y = (s) => LANE_H - 4 - (Math.max(0, s) / top) * (LANE_H - 8);
  svgEl('rect', { x: 0, y: 0, width: LANE_W, height: LANE_H, class: 'lane-bg' }, svg);
  for (let c = 0; c < children; c++) {
    const points = [];
    lanes.forEach((l, t) => {
      if (l && Number.isFinite(l[c])) points.push(`${x(t).toFixed(1)},${y(l[c]).toFixed(1)}`);
    });
    svgEl('polyline', { points: points.join(' '), 'data-child': c, fill: 'none', stroke: COLOURS[c % COLOURS.length], 'stroke-width': 1.5 }, svg);
  }
  const cursor = ti - m.first;
  svgEl('line', { x1: x(cursor), x2: x(cursor), y1: 0, y2: LANE_H, class: 'lane-cursor', 'data-tick': m.ticks[ti].tick }, svg);
  return svg;
}

export { section };

// behaved-studio's data-flow panel: what each node reads (as the game declared
// it), the inputs whose readers the tree outlines when one is chosen, and the
// wakes of the followed agent (when it woke and what woke it), the one at the
// cursor first. The model is dataflow.js; studio.js places the panel and
// paints the tree with `highlighted()` among its matches.
// @ts-check
import { html } from './draw.js';
import { flowRows, fieldsOf, readersOf, wakesOf, wakeAt, describeWake } from './dataflow.js';

/** The most wakes the panel lists (the newest). */
const WAKES_LISTED = 50;

/**
 * What the panel draws from.
 * @typedef {{
 *   flow: import('./dataflow.js').Flow | null,
 *   nodes: Array<{ id: number, label: string, kind: string }>,
 *   context: Array<{ tick: number, values: any }>,
 *   tick: number,
 * }} FlowState
 */

/**
 * The panel in `box`; `seek(tick)` moves the cursor to a tick, `changed()`
 * repaints the page after the chosen input changed.
 * @param {HTMLElement} box
 * @param {{ seek: (tick: number) => void, changed: () => void }} hooks
 */
export function create(box, hooks) {
  /** The input whose readers are outlined, if one is chosen. */
  let field = /** @type {string | null} */ (null);
  /** The state last drawn, and its flow's readers of `field`. */
  let drawn = /** @type {FlowState | null} */ (null);
  let drawnKey = '';
  let readers = /** @type {number[]} */ ([]);

  box.addEventListener('click', (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    const input = /** @type {HTMLElement | null} */ (target.closest('[data-field]'));
    if (input) {
      field = field === input.dataset.field ? null : input.dataset.field || null;
      drawnKey = '';
      hooks.changed();
      return;
    }
    const wake = /** @type {HTMLElement | null} */ (target.closest('[data-wake-tick]'));
    if (wake) hooks.seek(Number(wake.dataset.wakeTick));
  });

  /**
   * Draws `state` (redrawn only when something it shows changed).
   * @param {FlowState} state
   */
  function render(state) {
    const key = `${state.tick}|${state.context.length}|${state.nodes.length}|${field}`;
    if (drawn && drawn.flow === state.flow && drawn.nodes === state.nodes && drawnKey === key) return;
    drawn = state;
    drawnKey = key;
    const rows = flowRows(state.flow, state.nodes);
    if (field !== null && !fieldsOf(state.flow).includes(field)) field = null;
    readers = field === null ? [] : readersOf(state.flow, field);
    const wakes = wakesOf(state.context);
    const now = wakeAt(wakes, state.tick);
    const changedNow = new Set(now && now.cause === 'changed' ? now.inputs : []);
    const parts = [];

    // The wake at the cursor.
    const woke = html('p', { id: 'woke-now', 'data-tick': String(state.tick) });
    if (now) {
      woke.dataset.cause = now.cause;
      woke.dataset.inputs = now.inputs.join(',');
      woke.textContent = `Tick ${state.tick} was started by ${describeWake(now)}.`;
    } else {
      woke.textContent = `No wake recorded for tick ${state.tick} (the game records one with ObservedAgent::record_wake).`;
    }
    parts.push(html('h4', {}, 'Woke'), woke);

    // What each node reads.
    parts.push(html('h4', {}, 'What each node reads'));
    if (!rows) {
      parts.push(html('p', { class: 'hint', id: 'flow-none' }, 'The game declared no data flow for this tree (ObservedAgent::declare_data_flow).'));
    } else {
      const fields = fieldsOf(state.flow);
      const inputs = html('p', { id: 'flow-inputs' });
      inputs.append(html('span', { class: 'hint' }, fields.length ? 'Inputs (choose one to outline its readers): ' : 'No node names an input.'));
      for (const f of fields) {
        const b = html('button', { 'data-field': f, title: `Outline the nodes that read ${f}` }, f);
        if (f === field) b.className = 'current';
        if (changedNow.has(f)) b.classList.add('woke');
        inputs.append(b, ' ');
      }
      parts.push(inputs);
      const table = html('table', { id: 'flow-table' });
      table.append(html('thead'));
      table.tHead.append(html('tr'));
      for (const h of ['node', 'reads', 'blackboard']) table.tHead.rows[0].append(html('th', {}, h));
      const body = html('tbody');
      for (const r of rows) {
        const tr = html('tr', { 'data-node': String(r.id), 'data-reads': r.reads === null ? '?' : r.reads.join(',') });
        if (readers.includes(r.id)) tr.className = 'reader';
        const cell = html('td', { class: 'reads' });
        if (r.reads === null) cell.append(html('span', { class: 'unknown', title: 'What it reads is unknown: a reactive node re-checks it every tick' }, 'unknown'));
        else for (const f of r.reads) cell.append(html('button', { 'data-field': f, class: changedNow.has(f) ? 'woke' : '' }, f), ' ');
        const ports = html('td', { class: 'entries', 'data-entries-read': r.entriesRead.join(','), 'data-entries-written': r.entriesWritten.join(',') });
        const readOnly = r.entriesRead.filter((e) => !r.entriesWritten.includes(e));
        if (readOnly.length) ports.append(`reads ${readOnly.join(', ')}`);
        if (r.entriesWritten.length) ports.append(`${readOnly.length ? '; ' : ''}writes ${r.entriesWritten.join(', ')}`);
        tr.append(html('td', { class: 'label', title: r.label }, `#${r.id} ${r.label}`), cell, ports);
        body.append(tr);
      }
      table.append(body);
      parts.push(table);
    }

    // The recorded wakes, newest last.
    if (wakes.length) {
      const list = html('ol', { id: 'wake-list' });
      for (const w of wakes.slice(-WAKES_LISTED)) {
        const li = html('li', { 'data-wake-tick': String(w.tick), 'data-cause': w.cause, 'data-inputs': w.inputs.join(',') });
        if (w.tick === state.tick) li.className = 'current';
        li.append(html('button', {}, `tick ${w.tick}`), ` ${describeWake(w)}`);
        list.append(li);
      }
      parts.push(html('h4', {}, `Wakes (${wakes.length} in the window${wakes.length > WAKES_LISTED ? `, last ${WAKES_LISTED} listed` : ''})`), list);
    }
    box.replaceChildren(...parts);
  }

  /** The nodes that read the chosen input, which the tree outlines. */
  const highlighted = () => readers;

  return { render, highlighted };
}

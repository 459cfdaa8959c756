// A utility node's scores in the page's trace model (assets/trace-model.js):
// `scored` events change no state, and scoresAt / scoreLanes find the last
// scoring at a position and over the window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as M from '../assets/trace-model.js';

/** Three ticks of `utility(reactive) { |c| .. => Eat, |c| .. => Sleep }`: it chooses Eat, keeps it, then switches. */
function trace() {
  const scored = (child, score) => ({ event: 'scored', node: 0, child, score });
  return {
    format: 'bt-trace',
    version: 3,
    nodes: [
      { id: 0, parent: null, kind: 'utility', label: 'utility(reactive)', line: 1 },
      { id: 1, parent: 0, kind: 'action', label: 'Eat', line: 1 },
      { id: 2, parent: 0, kind: 'action', label: 'Sleep', line: 1 },
    ],
    start: { tick: 0, now: null, dropped_events: 0, statuses: ['idle', 'idle', 'idle'] },
    events: [
      { event: 'tick_started', tick: 1, now: 0 },
      { event: 'entered', node: 0 }, scored(0, 0.75), scored(1, 0.25),
      { event: 'entered', node: 1 }, { event: 'ticked', node: 1, status: 'running' },
      { event: 'ticked', node: 0, status: 'running' }, { event: 'tick_finished', status: 'running' },
      { event: 'tick_started', tick: 2, now: 1 },
      scored(0, 0.5), scored(1, null),
      { event: 'ticked', node: 1, status: 'running' }, { event: 'ticked', node: 0, status: 'running' },
      { event: 'tick_finished', status: 'running' },
      { event: 'tick_started', tick: 3, now: 2 },
      scored(0, 0.25), scored(1, 0.9),
      { event: 'halted', node: 1 }, { event: 'entered', node: 2 }, { event: 'ticked', node: 2, status: 'running' },
      { event: 'ticked', node: 0, status: 'running' }, { event: 'tick_finished', status: 'running' },
    ],
  };
}

test('scored events are events of their tick and change no state', () => {
  const m = M.build('utility', trace());
  assert.equal(m.ticks[1].to - m.ticks[1].from, 8);
  assert.equal(m.kind[2], M.EV_SCORED);
  assert.deepEqual([...M.stateAt(m, 1, 3)], [M.IDLE, M.IDLE, M.IDLE], 'entered and scored: nothing changed yet');
  assert.deepEqual([...M.stateAt(m, 1, 8)], [M.RUNNING, M.RUNNING, M.IDLE]);
});

test('scoresAt is the last whole scoring at or before the position', () => {
  const m = M.build('utility', trace());
  assert.equal(M.scoresAt(m, 1, 2, 0), null, 'before the first score');
  assert.deepEqual(M.scoresAt(m, 1, 3, 0), { ti: 1, scores: [0.75, 0.25] }, 'at the first child\'s score: the whole scoring');
  assert.deepEqual(M.scoresAt(m, 1, 8, 0), { ti: 1, scores: [0.75, 0.25] });
  assert.deepEqual(M.scoresAt(m, 2, 1, 0), { ti: 1, scores: [0.75, 0.25] }, 'the next tick before it scores: the last one');
  const second = M.scoresAt(m, 2, 3, 0);
  assert.equal(second.ti, 2);
  assert.equal(second.scores[0], 0.5);
  assert.ok(Number.isNaN(second.scores[1]), 'null is NaN');
  assert.deepEqual(M.scoresAt(m, 3, 9, 0).scores.map((s) => Math.round(s * 100)), [25, 90]);
  assert.equal(M.scoresAt(m, 3, 9, 1), null, 'a node that never scores');
});

test('scoreLanes has each tick\'s last scoring', () => {
  const m = M.build('utility', trace());
  const lanes = M.scoreLanes(m, 0).map((l) => l && l.map((s) => (Number.isNaN(s) ? null : Math.round(s * 100))));
  assert.deepEqual(lanes, [null, [75, 25], [50, null], [25, 90]]);
});

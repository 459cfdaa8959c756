// A utility node's scores in the page's trace model (assets/trace-model.js):
// `scored` events change no state, and scoresAt / scoreLanes find the last
// scoring at a position and over the window; scoresAt gives each score's
// parts (`considered` events) with their labels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as M from '../assets/trace-model.js';
import { traceOf } from './trace.mjs';

/** Three ticks of `utility(reactive) { |c| .. => Eat, |c| .. => Sleep }`: it chooses Eat, keeps it, then switches. */
function trace() {
  const scored = (child, score) => ({ event: 'scored', node: 0, child, score });
  return traceOf(3, [['utility', 'utility(reactive)', 1], ['action', 'Eat', 1], ['action', 'Sleep', 1]], [
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
  ]);
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
  assert.deepEqual(M.scoresAt(m, 1, 3, 0), { ti: 1, scores: [0.75, 0.25], parts: [] }, 'at the first child\'s score: the whole scoring');
  assert.deepEqual(M.scoresAt(m, 1, 8, 0), { ti: 1, scores: [0.75, 0.25], parts: [] });
  assert.deepEqual(M.scoresAt(m, 2, 1, 0), { ti: 1, scores: [0.75, 0.25], parts: [] }, 'the next tick before it scores: the last one');
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

test('scoresAt gives each score\'s parts, labelled, from the considered events before it', () => {
  const t = trace();
  const considered = (child, part, label, value) => ({ event: 'considered', node: 0, child, part, label, value });
  t.labels = ['Hunger (logistic)', 'Food', '|c| c.fatigue'];
  // Tick 1 again, its scores' parts before each: Eat's score a product of two, Sleep's one part.
  t.events.splice(2, 2,
    considered(0, 0, 0, 0.75), considered(0, 1, 1, 1), { event: 'scored', node: 0, child: 0, score: 0.75 },
    considered(1, 0, 2, null), { event: 'scored', node: 0, child: 1, score: 0.25 });
  const m = M.build('utility', t);
  assert.equal(m.kind[2], M.EV_CONSIDERED);
  assert.deepEqual([...M.stateAt(m, 1, 7)], [M.IDLE, M.IDLE, M.IDLE], 'considered changes no state');
  assert.equal(M.scoresAt(m, 1, 4, 0), null, 'a part before its score: no scoring yet');
  const at = M.scoresAt(m, 1, 5, 0);
  assert.deepEqual(at.scores, [0.75, 0.25], 'at the first score: the whole scoring');
  assert.deepEqual(at.parts[0], [{ label: 'Hunger (logistic)', value: 0.75 }, { label: 'Food', value: 1 }]);
  assert.equal(at.parts[1].length, 1);
  assert.equal(at.parts[1][0].label, '|c| c.fatigue');
  assert.ok(Number.isNaN(at.parts[1][0].value), 'null is NaN');
  assert.deepEqual(M.scoresAt(m, 1, 7, 0), at, 'at the last score: the same');
  assert.deepEqual(M.scoresAt(m, 2, 3, 0).parts, [], 'a scoring without parts has none');
  const lanes = M.scoreLanes(m, 0).map((l) => l && l.map((s) => (Number.isNaN(s) ? null : Math.round(s * 100))));
  assert.deepEqual(lanes, [null, [75, 25], [50, null], [25, 90]], 'the lanes plot the scores, not the parts');
});

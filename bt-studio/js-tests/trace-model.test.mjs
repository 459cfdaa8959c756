// The page's trace model (assets/trace-model.js), tick by tick, on a trace
// written by hand in behaved-observe's JSON form: a sequence whose first
// action succeeds and whose second runs, then fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as M from '../assets/trace-model.js';
import { traceOf } from './trace.mjs';

const { IDLE, RUNNING, SUCCESS, FAILURE } = M;

/** Two ticks of `sequence { Open, Walk }`. */
function trace() {
  return traceOf(1, [['sequence', 'sequence', 1], ['action', 'Open', 2], ['action', 'Walk', 3]], [
    { event: 'tick_started', tick: 1, now: 0 },
    { event: 'entered', node: 0 },
    { event: 'entered', node: 1 },
    { event: 'ticked', node: 1, status: 'success' },
    { event: 'entered', node: 2 },
    { event: 'ticked', node: 2, status: 'running' },
    { event: 'ticked', node: 0, status: 'running' },
    { event: 'tick_finished', status: 'running' },
    { event: 'tick_started', tick: 2, now: 0.5 },
    { event: 'ticked', node: 2, status: 'failure' },
    { event: 'ticked', node: 0, status: 'failure' },
    { event: 'tick_finished', status: 'failure' },
  ]);
}

test('the trace is split into its ticks after the start', () => {
  const m = M.build('patrol', trace());
  assert.equal(m.N, 3);
  assert.deepEqual(
    m.ticks.map((t) => [t.tick, t.from, t.to]),
    [[0, 0, 0], [1, 0, 8], [2, 8, 12]],
  );
  assert.deepEqual(m.nodes[0].children, [1, 2]);
  assert.deepEqual(m.nodes.map((n) => n.depth), [0, 1, 1]);
});

test('the state event by event is what the events say, and a finished sequence leaves its children idle', () => {
  const m = M.build('patrol', trace());
  const at = (ti, k) => [...M.stateAt(m, ti, k)];
  assert.deepEqual(at(1, 3), [IDLE, IDLE, IDLE], 'entered changes nothing yet');
  assert.deepEqual(at(1, 4), [IDLE, SUCCESS, IDLE]);
  assert.deepEqual(at(1, 6), [IDLE, SUCCESS, RUNNING]);
  assert.deepEqual(at(1, 8), [RUNNING, SUCCESS, RUNNING], 'the end of tick 1');
  assert.deepEqual(at(2, 0), at(1, 8), 'tick 2 starts where tick 1 ended');
  assert.deepEqual(at(2, 2), [RUNNING, SUCCESS, FAILURE]);
  assert.deepEqual(at(2, 3), [FAILURE, IDLE, IDLE], 'the sequence failed: its children are idle');
});

test('the visit order, the failures and a node\'s counts', () => {
  const m = M.build('patrol', trace());
  assert.deepEqual([...M.visitOrder(m, 1, 8)], [[0, 1], [1, 2], [2, 3]]);
  assert.deepEqual([...M.visitOrder(m, 2, 4)], [[0, 1], [2, 2]]);
  assert.deepEqual(M.failureTicks(m, null), [2]);
  assert.deepEqual(M.failureTicks(m, 1), [], 'Open never failed');
  assert.deepEqual(M.statsOf(m, 2), { entered: 1, success: 0, failure: 1, halts: 0, longestRun: 1 });
  assert.equal(M.haltedIn(m, 2, 4).size, 0);
});

test('a live window grows by its new events only', () => {
  const whole = trace();
  const first = { ...whole, events: whole.events.slice(0, 8) };
  const m = M.build('patrol', first);
  assert.equal(m.ticks.length, 2);
  M.extend(m, whole.events.slice(8));
  const built = M.build('patrol', whole);
  assert.deepEqual(m.ticks.map((t) => [t.tick, t.from, t.to]), built.ticks.map((t) => [t.tick, t.from, t.to]));
  assert.deepEqual([...M.stateAt(m, 2, 4)], [...M.stateAt(built, 2, 4)]);
});

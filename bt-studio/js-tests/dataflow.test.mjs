// The data-flow model (assets/dataflow.js): the rows of what each node reads,
// the readers of an input, and the wakes recorded in a trace's context.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WOKE_KEY, flowRows, fieldsOf, readersOf, wakesOf, wakeAt, describeWake } from '../assets/dataflow.js';

const nodes = [
  { id: 0, label: 'reactive selector', kind: 'reactiveSelector' },
  { id: 1, label: 'cond(|c| c.night)', kind: 'condition' },
  { id: 2, label: 'cond(|c| c.hp < 3 && c.night)', kind: 'condition' },
  { id: 3, label: 'Patrol', kind: 'action' },
];
const flow = { nodes: [{ reads: [] }, { reads: ['night'] }, { reads: ['hp', 'night'] }, { reads: null, entries_read: ['goal', 'path'], entries_written: ['path'] }] };

test('the rows are the nodes that read something or read what is unknown', () => {
  assert.deepEqual(flowRows(flow, nodes), [
    { id: 1, label: 'cond(|c| c.night)', kind: 'condition', reads: ['night'], entriesRead: [], entriesWritten: [] },
    { id: 2, label: 'cond(|c| c.hp < 3 && c.night)', kind: 'condition', reads: ['hp', 'night'], entriesRead: [], entriesWritten: [] },
    { id: 3, label: 'Patrol', kind: 'action', reads: null, entriesRead: ['goal', 'path'], entriesWritten: ['path'] },
  ]);
  assert.equal(flowRows(null, nodes), null, 'no flow declared');
  assert.equal(flowRows({ nodes: [{ reads: [] }] }, nodes), null, 'a flow of another table');
  const ported = { nodes: [{ reads: [] }, { reads: [], entries_read: ['goal'] }, { reads: [] }, { reads: [] }] };
  assert.deepEqual(flowRows(ported, nodes).map((r) => [r.id, r.entriesRead]), [[1, ['goal']]], 'a node whose ports name entries is listed');
});

test('the inputs and their readers', () => {
  assert.deepEqual(fieldsOf(flow), ['hp', 'night']);
  assert.deepEqual(readersOf(flow, 'night'), [1, 2]);
  assert.deepEqual(readersOf(flow, 'hp'), [2]);
  assert.deepEqual(readersOf(flow, 'pos'), []);
  assert.deepEqual(fieldsOf(null), []);
});

test('the wakes are read from the context, each at its tick', () => {
  const context = [
    { tick: 1, values: { hp: 5, [WOKE_KEY]: { cause: 'start' } } },
    { tick: 2, values: { hp: 5 } },
    { tick: 4, values: { [WOKE_KEY]: { cause: 'changed', inputs: ['night'] } } },
    { tick: 6, values: { [WOKE_KEY]: { cause: 'changed', inputs: [], unnamed: true } } },
    { tick: 7, values: 'not an object' },
    { tick: 9, values: { [WOKE_KEY]: { cause: 'timer' } } },
  ];
  const wakes = wakesOf(context);
  assert.deepEqual(wakes.map((w) => [w.tick, w.cause, w.inputs.join(','), w.unnamed]), [
    [1, 'start', '', false],
    [4, 'changed', 'night', false],
    [6, 'changed', '', true],
    [9, 'timer', '', false],
  ]);
  assert.equal(wakeAt(wakes, 4).cause, 'changed');
  assert.equal(wakeAt(wakes, 5), undefined);
  assert.equal(wakeAt(wakes, 10), undefined);
  assert.equal(describeWake(wakes[1]), 'a change of night');
  assert.equal(describeWake(wakes[2]), 'a change of inputs no node names');
  assert.equal(describeWake(wakes[3]), 'its timer');
  assert.deepEqual(wakesOf(undefined), []);
});

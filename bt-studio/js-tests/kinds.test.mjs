// Changing a node's kind in place (assets/kinds.js): what is kept, what the
// new kind gets by default, and the changes refused because children would be lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changeKind } from '../assets/kinds.js';

/** A few kinds of the catalogue, as /catalogue.js lists them. */
const kind = (type, arity, slots, fields) => ({ type, dsl: type, arity, group: '', icon: '', fields, slots, loop: false });
const kinds = [
  kind('sequence', 'many', 'children', ['children']),
  kind('selector', 'many', 'children', ['children']),
  kind('parallel', 'many', 'children', ['children', 'policy', 'success', 'failure']),
  kind('if', 'branches', 'branches', ['branches', 'else']),
  kind('inverter', 'one', 'child', ['child']),
  kind('retry', 'one', 'child', ['child', 'count', 'label']),
  kind('repeater', 'one', 'child', ['child', 'count', 'label']),
  kind('while', 'one', 'conditionChild', ['condition', 'child', 'label']),
  kind('success', 'leaf', 'none', []),
  kind('wait', 'leaf', 'none', ['seconds']),
];
const a = { type: 'success' };
const b = { type: 'failure' };

test('composites keep their children and name; fields the new kind lacks go', () => {
  const seq = { type: 'sequence', name: 'Guard', children: [a, b] };
  assert.deepEqual(changeKind(seq, 'selector', kinds, { children: [] }), { node: { type: 'selector', name: 'Guard', children: [a, b] } });
  const par = changeKind(seq, 'parallel', kinds, { children: [], success: 1 });
  assert.deepEqual(par, { node: { type: 'parallel', name: 'Guard', children: [a, b], success: 1 } });
  assert.deepEqual(changeKind(par.node, 'sequence', kinds, {}), { node: seq });
  assert.deepEqual(seq.children, [a, b], 'the node given is not changed');
});

test('a decorator keeps its one child, and its count where the new kind has one', () => {
  const retry = { type: 'retry', count: 3, child: a };
  assert.deepEqual(changeKind(retry, 'repeater', kinds, { count: 1 }), { node: { type: 'repeater', count: 3, child: a } });
  assert.deepEqual(changeKind(retry, 'inverter', kinds, {}), { node: { type: 'inverter', child: a } });
  assert.deepEqual(changeKind(retry, 'sequence', kinds, { children: [] }), { node: { type: 'sequence', children: [a] } });
  assert.deepEqual(changeKind({ type: 'sequence', children: [b] }, 'retry', kinds, { count: 1 }), { node: { type: 'retry', child: b, count: 1 } });
});

test('a leaf becomes a composite with no children, or another leaf with its defaults', () => {
  assert.deepEqual(changeKind(a, 'selector', kinds, { children: [] }), { node: { type: 'selector', children: [] } });
  assert.deepEqual(changeKind(a, 'wait', kinds, {}), { node: { type: 'wait' } });
  assert.deepEqual(changeKind({ type: 'sequence', children: [] }, 'success', kinds, {}), { node: { type: 'success' } });
});

test('a change that would lose children is refused with why', () => {
  const seq = { type: 'sequence', children: [a, b] };
  assert.deepEqual(changeKind(seq, 'inverter', kinds, {}), { error: 'cannot change sequence into inverter: inverter holds exactly one child; this sequence has 2' });
  assert.deepEqual(changeKind(seq, 'success', kinds, {}), { error: 'cannot change sequence into success: success holds no children; this sequence has 2' });
  assert.deepEqual(changeKind(seq, 'if', kinds, { branches: [] }), { error: 'cannot change sequence into if: if holds branches, not children; this sequence has 2' });
  assert.deepEqual(changeKind(a, 'inverter', kinds, {}), { error: 'cannot change success into inverter: inverter holds exactly one child; this success has none' });
  assert.deepEqual(changeKind({ type: 'while', condition: a, child: b }, 'retry', kinds, {}), { error: 'cannot change while into retry: its condition would be lost (retry has none)' });
  assert.deepEqual(changeKind(a, 'sequense', kinds, {}), { error: '"sequense" is not a node kind' });
});

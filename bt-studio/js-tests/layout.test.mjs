// The tree's layout (assets/layout.js): where each box goes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BOX_H, V_GAP, H_GAP, WRAP_INDENT, layout, edgePath } from '../assets/layout.js';

/** A root (0) over `n` leaves (1..n), each box 100 wide. */
function fan(n, options) {
  const kids = (id) => (id === 0 ? Array.from({ length: n }, (_, i) => i + 1) : []);
  return layout(0, kids, () => 100, options);
}

test('children sit side by side under their parent, which is centred over them', () => {
  const L = fan(3);
  assert.deepEqual(L.order, [0, 1, 2, 3]);
  assert.equal(L.width, 3 * 100 + 2 * H_GAP);
  assert.equal(L.height, 2 * (BOX_H + V_GAP) - V_GAP);
  const [root, a, b, c] = L.order.map((id) => L.pos.get(id));
  assert.deepEqual([a.x, b.x, c.x], [50, 50 + 100 + H_GAP, 50 + 2 * (100 + H_GAP)]);
  assert.equal(root.x, b.x, 'centred');
  assert.deepEqual([root.y, a.y, root.depth, a.depth, a.row], [0, BOX_H + V_GAP, 0, 1, 1]);
  assert.equal(a.via, undefined, 'one line: no spine');
});

test('a tree wider than allowed has its children wrapped into lines down a spine', () => {
  const natural = fan(100);
  assert.equal(natural.width, 100 * 100 + 99 * H_GAP);
  const L = fan(100, { maxWidth: 2000, aspect: 1 });
  assert.ok(L.width < natural.width / 4, `${L.width}`);
  const rows = new Set(L.order.slice(1).map((id) => L.pos.get(id).row));
  assert.ok(rows.size > 1, 'several lines');
  const first = L.pos.get(1), last = L.pos.get(100);
  assert.equal(first.via, undefined, 'the first line hangs from the parent');
  assert.equal(last.via, WRAP_INDENT / 2, 'later lines hang from the spine');
  // No two boxes of a line overlap.
  for (let id = 2; id <= 100; id++) {
    const p = L.pos.get(id - 1), q = L.pos.get(id);
    if (p.row === q.row) assert.ok(q.x - p.x >= 100 + H_GAP, `${id}`);
  }
});

test('an edge is a curve, or for a wrapped child a way down the spine', () => {
  assert.equal(edgePath({ x: 10, y: 0 }, { x: 30, y: 76 }), `M10,30 C10,53 30,53 30,76`);
  assert.equal(edgePath({ x: 10, y: 0 }, { x: 30, y: 152, via: 12 }), `M10,30 V53 H12 V129 H30 V152`);
});

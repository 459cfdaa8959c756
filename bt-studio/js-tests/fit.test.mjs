// The default view (assets/fit.js): readable at first sight.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { READABLE_SCALE, FOLD_ROOM, fitZoom, pathTo, collapsedAround } from '../assets/fit.js';
import { BOX_H, H_GAP, layout } from '../assets/layout.js';

/** A tree as the trace model has it, from each node's parent (pre-order ids). */
function tree(parents) {
  const nodes = parents.map((parent) => ({ parent, children: [] }));
  parents.forEach((p, id) => p !== null && nodes[p].children.push(id));
  return nodes;
}

/** 40 nodes wide across levels: a root over 3 composites, each over 3 composites of 3 leaves, and 3 more leaves under the first. */
function wide40() {
  const parents = [null];
  for (let a = 0; a < 3; a++) {
    const ai = parents.push(0) - 1;
    for (let b = 0; b < 3; b++) {
      const bi = parents.push(ai) - 1;
      for (let c = 0; c < 3; c++) parents.push(bi);
    }
  }
  while (parents.length < 40) parents.push(1);
  return tree(parents);
}

test('a tree that fits readably is fitted whole, centred, at most 1.5 times its size', () => {
  const z = fitZoom({ width: 400, height: 200 }, { w: 1000, h: 600 });
  assert.equal(z.whole, true);
  assert.equal(z.s, 1.5);
  assert.equal(z.x, (1000 - 400 * 1.5) / 2);
  const small = fitZoom({ width: 1000, height: 200 }, { w: 1000, h: 600 }, { min: READABLE_SCALE });
  assert.equal(small.whole, true);
  assert.ok(small.s >= READABLE_SCALE && small.s < 1);
});

test('a tree too big to read fitted is drawn at the readable scale, scrolled to the focus, with no empty side', () => {
  const size = { width: 5000, height: 300 }, box = { w: 1000, h: 600 };
  assert.ok(fitZoom(size, box).s < READABLE_SCALE, "the set-up: fitted whole, it is not readable");
  const z = fitZoom(size, box, { min: READABLE_SCALE, focus: { x: 2500, y: 0 } });
  assert.equal(z.whole, false);
  assert.equal(z.s, READABLE_SCALE);
  assert.equal(z.x + 2500 * z.s, 500, 'the focus is centred');
  assert.equal(z.y, 24);
  // A focus near an edge: the tree's edge stays at the padding, no wider gap.
  assert.equal(fitZoom(size, box, { min: READABLE_SCALE, focus: { x: 10, y: 0 } }).x, 24);
  const right = fitZoom(size, box, { min: READABLE_SCALE, focus: { x: 4990, y: 0 } });
  assert.equal(right.x + 5000 * right.s, 1000 - 24);
  // A focus below the view: its box is brought up to the bottom.
  const deep = fitZoom({ width: 5000, height: 3000 }, box, { min: READABLE_SCALE, focus: { x: 2500, y: 2000 } });
  assert.equal(deep.y + (2000 + BOX_H) * deep.s, 600 - 24);
  // A narrow tall tree is centred across.
  const tall = fitZoom({ width: 300, height: 3000 }, box, { min: READABLE_SCALE });
  assert.equal(tall.x, (1000 - 300 * READABLE_SCALE) / 2);
  assert.ok(FOLD_ROOM > 0);
});

test('the path to the focus is the focus and its ancestors', () => {
  const nodes = tree([null, 0, 1, 1, 0, 4]);
  assert.deepEqual([...pathTo(nodes, [3])].sort(), [0, 1, 3]);
  assert.deepEqual([...pathTo(nodes, [3, 5])].sort(), [0, 1, 3, 4, 5]);
});

test('a tree that fits is not collapsed; one that does not keeps its path and the most that fits, nearest the root', () => {
  const nodes = wide40();
  assert.equal(nodes.length, 40);
  const leafOnPath = nodes.findIndex((n, id) => id > 30 && !n.children.length);
  const path = pathTo(nodes, [leafOnPath]);
  const width = (collapsed) =>
    layout(0, (id) => (collapsed.has(id) ? [] : nodes[id].children), () => 100).width;
  assert.deepEqual(collapsedAround(nodes, [leafOnPath], () => true), new Set());
  // Room for 12 boxes side by side.
  const room = 12 * 100 + 11 * H_GAP;
  assert.ok(width(new Set()) > room, 'the set-up: the whole tree is wider');
  const asked = [];
  const collapsed = collapsedAround(nodes, [leafOnPath], (c) => (asked.push(c.size), width(c) <= room));
  assert.ok(width(collapsed) <= room, 'it fits');
  for (const id of path) assert.ok(!collapsed.has(id), `${id} on the path is open`);
  for (const id of collapsed) assert.ok(nodes[id].children.length, `${id} collapsed has children`);
  const depth = (id) => (nodes[id].parent === null ? 0 : 1 + depth(nodes[id].parent));
  // The most that fits: opening the next collapsed node, breadth first, would not.
  const next = [...collapsed].sort((a, b) => depth(a) - depth(b) || a - b)[0];
  const more = new Set(collapsed);
  more.delete(next);
  assert.ok(width(more) > room, `opening ${next} too would fit`);
  // Breadth first: no collapsed node is shallower than an opened node off the path.
  const opened = nodes.map((_, id) => id).filter((id) => nodes[id].children.length && !collapsed.has(id) && !path.has(id));
  for (const o of opened) for (const c of collapsed) assert.ok(depth(c) >= depth(o), `${c} collapsed above ${o} opened`);
  assert.ok(asked.length <= 1 + Math.ceil(Math.log2(nodes.length)) + 1, `${asked.length} layouts`);
  // With no room at all, all but the path is collapsed.
  const least = collapsedAround(nodes, [leafOnPath], () => false);
  for (let id = 0; id < nodes.length; id++) assert.equal(least.has(id), nodes[id].children.length > 0 && !path.has(id), `${id}`);
});

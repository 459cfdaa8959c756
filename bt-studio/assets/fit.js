// behaved-studio's default view of a tree: readable at first sight. Pure (no
// page): unit-tested with node --test (bt-studio/js-tests/fit.test.mjs).
//
// Fitting a whole tree into the view draws a tree wide across levels so small
// that its labels cannot be read (4-6 px for 40 nodes in a laptop's pane). The
// default view never scales labels below READABLE_PX: it keeps open the path
// to what runs (the running leaves, or the last node the tick reached, and the
// selected node) and as many other subtrees as fit, nearest the root first,
// collapsing the rest (a click on their ⊞ opens them); when even that does not
// fit, it draws at the readable size, scrolled to the path.
// @ts-check
import { BOX_H } from './layout.js';

/** The labels' font size in CSS pixels (studio.css's `.node text`), and the smallest the default view draws it. */
const LABEL_PX = 12, READABLE_PX = 11;
/** The smallest scale of the default view. */
const READABLE_SCALE = READABLE_PX / LABEL_PX;
/** Room under the lowest row for the collapsed nodes' fold marks. */
const FOLD_ROOM = 12;

/**
 * The zoom (`s`, and the layout's origin at `x`, `y` in the view) that fits a
 * laid-out tree of `size` in a view of `box`, with `pad` pixels round it and
 * at most `max` times its size. `whole`: the whole tree is in view at a scale
 * of at least `min`. When it is not, the scale is `min` and the view is
 * scrolled to `focus` (a point of the layout: its x centred, its y in view),
 * with no empty margin wider than `pad` on a side the tree overflows.
 * @param {{ width: number, height: number }} size
 * @param {{ w: number, h: number }} box
 * @param {{ pad?: number, max?: number, min?: number, focus?: { x: number, y: number } }} [options]
 * @returns {{ s: number, x: number, y: number, whole: boolean }}
 */
function fitZoom(size, box, options = {}) {
  const { pad = 24, max = 1.5, min = 0 } = options;
  const whole = Math.min((box.w - 2 * pad) / size.width, (box.h - 2 * pad) / (size.height + FOLD_ROOM), max);
  if (whole >= min) return { s: whole, x: (box.w - size.width * whole) / 2, y: pad, whole: true };
  const s = min, focus = options.focus || { x: size.width / 2, y: 0 };
  const treeW = size.width * s, treeH = (size.height + FOLD_ROOM) * s;
  const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
  const x = treeW + 2 * pad <= box.w ? (box.w - treeW) / 2 : clamp(box.w / 2 - focus.x * s, box.w - pad - treeW, pad);
  // The top of the tree unless the focus would be below the view: then the focus's box at the bottom.
  const low = (focus.y + BOX_H) * s + pad > box.h - pad;
  const y = treeH + 2 * pad <= box.h || !low ? pad : clamp(box.h - pad - (focus.y + BOX_H) * s, box.h - pad - treeH, pad);
  return { s, x, y, whole: false };
}

/**
 * The path to the focus: the `focus` nodes and their ancestors, in `nodes`
 * (each `{ parent, children }`, ids their indexes).
 * @param {ReadonlyArray<{ parent: number | null, children: number[] }>} nodes
 * @param {number[]} focus
 * @returns {Set<number>}
 */
function pathTo(nodes, focus) {
  const path = new Set();
  for (const f of focus) {
    for (let id = f; id !== null && !path.has(id); id = nodes[id].parent) path.add(id);
  }
  return path;
}

/**
 * Which nodes the default view collapses: none if `fits(collapsed)` says the
 * tree fits with none collapsed; else every node with children that is not
 * on the path to `focus`, except the most of them, taken breadth first from
 * the root, that still `fits` (found by halving: opening more never makes a
 * tree smaller). The path itself stays open even when it does not fit.
 * @param {ReadonlyArray<{ parent: number | null, children: number[] }>} nodes
 * @param {number[]} focus
 * @param {(collapsed: Set<number>) => boolean} fits
 * @returns {Set<number>}
 */
function collapsedAround(nodes, focus, fits) {
  const none = new Set();
  if (!nodes.length || fits(none)) return none;
  const path = pathTo(nodes, focus);
  // The nodes that can be opened, breadth first: a parent before its children.
  const order = [], queue = [0];
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i];
    if (!nodes[id].children.length) continue;
    if (!path.has(id)) order.push(id);
    for (const c of nodes[id].children) queue.push(c);
  }
  const collapsedPast = (k) => new Set(order.slice(k));
  let lo = 0, hi = order.length - 1; // the first k nodes of `order` open: k = lo fits (or is the least), k = order.length does not.
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(collapsedPast(mid))) lo = mid;
    else hi = mid - 1;
  }
  return collapsedPast(lo);
}

export { LABEL_PX, READABLE_PX, READABLE_SCALE, FOLD_ROOM, fitZoom, pathTo, collapsedAround };

// behaved-studio's top-down layout of a tree, shared by the viewer and the
// editor through draw.js: where each node's box goes, and the way of the edge
// between two boxes. Pure (no page): unit-tested with node --test
// (bt-studio/js-tests/layout.test.mjs).
// @ts-check

/**
 * Where a node's box goes: its centre `x`, top `y`, width `w`, depth and
 * row, and for a child in a wrapped line the x of the spine its edge runs
 * down (`via`).
 * @typedef {{ x: number, y: number, w: number, depth: number, row: number, via?: number }} Place
 */

const BOX_H = 30, V_GAP = 46, H_GAP = 14, LABEL_MAX = 40;
/** @type {(label: string) => string} A label cut to what a box shows. */
const shorten = (label) => (label.length > LABEL_MAX ? label.slice(0, LABEL_MAX - 1) + '…' : label);

/** Room left of a node's wrapped lines of children, for the spine their edges run down. */
const WRAP_INDENT = 24;

/**
 * Top-down layout. `kids(id)` lists the shown children of a node,
 * `boxWidth(id)` the width of its box. Returns the nodes in pre-order and each
 * one's centre x, top y, width, depth and row (y is row * (BOX_H + V_GAP)),
 * with the whole tree's width and height.
 *
 * Every subtree gets a block as wide as its widest line of children, and
 * parents sit centred over it: a layered tree, as before, for any tree
 * whose natural width is at most `options.maxWidth` (no limit unless
 * given). A layered tree is as wide as its widest row (a 10,000-node tree
 * of fan-out 7 has 7,000 leaves side by side), so a wider one has its
 * children wrapped into lines, the way text is wrapped and org charts lay
 * out wide teams (the aspect-ratio tree layout): one limit on the width of
 * a line for the whole tree, the one that gives the shape nearest
 * `options.aspect` (width over height, 1.6 unless given). A child in a
 * line after the first gets `via`, the x of the spine left of its parent's
 * lines that its edge runs down (see `edge`).
 * @template Id
 * @param {Id} root
 * @param {(id: Id) => Id[]} kids
 * @param {(id: Id) => number} boxWidth
 * @param {{ maxWidth?: number, aspect?: number }} [options]
 * @returns {{ order: Id[], pos: Map<Id, Place>, width: number, height: number }}
 */
function layout(root, kids, boxWidth, options = {}) {
  const order = [];
  const stack = [root];
  while (stack.length) {
    const id = stack.pop();
    order.push(id);
    const ks = kids(id);
    for (let i = ks.length - 1; i >= 0; i--) stack.push(ks[i]);
  }
  const n = order.length, index = new Map();
  order.forEach((id, i) => index.set(id, i));
  const w = new Float64Array(n), children = new Array(n);
  let widest = 0;
  for (let i = 0; i < n; i++) {
    w[i] = boxWidth(order[i]);
    widest = Math.max(widest, w[i]);
    children[i] = kids(order[i]).map((c) => index.get(c));
  }
  const natural = blocks(w, children, Infinity);
  let chosen = natural;
  if (natural.width[0] > (options.maxWidth || Infinity)) {
    // Lines ever narrower (by a tenth each time) until the tree is no wider than the view's shape: the nearer of the last two.
    const aspect = options.aspect || 1.6;
    const miss = (b) => Math.abs(Math.log(b.width[0] / heightOf(b.rows[0]) / aspect));
    for (let line = natural.width[0] * 0.9; line >= widest + WRAP_INDENT; line *= 0.9) {
      const b = blocks(w, children, line);
      if (miss(b) < miss(chosen)) chosen = b;
      if (b.width[0] / heightOf(b.rows[0]) <= aspect) break;
    }
  }
  const pos = place(order, w, children, chosen);
  return { order, pos, width: chosen.width[0], height: heightOf(chosen.rows[0]) };
}

const heightOf = (rows) => rows * (BOX_H + V_GAP) - V_GAP;

/**
 * Each subtree's block (its width, and its height in rows) when no line of
 * children may be wider than `line`, and where each node's children break
 * into lines (`breaks[i]`: the indices into its children that start a new
 * line; null when they are all on one). Children come after their parent
 * in pre-order, so one pass from the end sees them first.
 */
function blocks(w, children, line) {
  const n = w.length, width = new Float64Array(n), rows = new Uint32Array(n), breaks = new Array(n).fill(null);
  for (let i = n - 1; i >= 0; i--) {
    const ks = children[i];
    if (!ks.length) {
      width[i] = w[i];
      rows[i] = 1;
      continue;
    }
    let sum = H_GAP * (ks.length - 1), tallest = 0;
    for (const c of ks) {
      sum += width[c];
      tallest = Math.max(tallest, rows[c]);
    }
    if (sum <= line) {
      width[i] = Math.max(w[i], sum);
      rows[i] = 1 + tallest;
      continue;
    }
    const starts = [];
    let lineW = 0, lineRows = 0, widestLine = 0, total = 0;
    ks.forEach((c, k) => {
      if (k > 0 && lineW + H_GAP + width[c] > line - WRAP_INDENT) {
        starts.push(k);
        widestLine = Math.max(widestLine, lineW);
        total += lineRows;
        lineW = width[c];
        lineRows = rows[c];
      } else {
        lineW += (k > 0 ? H_GAP : 0) + width[c];
        lineRows = Math.max(lineRows, rows[c]);
      }
    });
    widestLine = Math.max(widestLine, lineW);
    total += lineRows;
    width[i] = Math.max(w[i], WRAP_INDENT + widestLine);
    rows[i] = 1 + total;
    breaks[i] = starts.length ? starts : null;
  }
  return { width, rows, breaks };
}

/** Places every node in its block (from `blocks`): the root's block at the top left. */
function place(order, w, children, { width, rows, breaks }) {
  const pos = new Map();
  const ROW = BOX_H + V_GAP;
  const todo = [[0, 0, 0, 0, undefined]];
  while (todo.length) {
    const [i, left, row, depth, via] = todo.pop();
    const p = { x: left + width[i] / 2, y: row * ROW, w: w[i], depth, row };
    if (via !== undefined) p.via = via;
    pos.set(order[i], p);
    const ks = children[i];
    if (!ks.length) continue;
    // The lines of children: all on one, centred under the node, or wrapped right of the spine.
    const starts = breaks[i] || [];
    const inset = starts.length ? WRAP_INDENT : 0;
    let r = row + 1;
    for (let l = 0; l <= starts.length; l++) {
      const from = l === 0 ? 0 : starts[l - 1], to = l < starts.length ? starts[l] : ks.length;
      let lineW = H_GAP * (to - from - 1), lineRows = 0;
      for (let k = from; k < to; k++) {
        lineW += width[ks[k]];
        lineRows = Math.max(lineRows, rows[ks[k]]);
      }
      let x = left + inset + (width[i] - inset - lineW) / 2;
      for (let k = from; k < to; k++) {
        todo.push([ks[k], x, r, depth + 1, l > 0 ? left + inset / 2 : undefined]);
        x += width[ks[k]] + H_GAP;
      }
      r += lineRows;
    }
  }
  return pos;
}

/**
 * The way from the bottom of parent box `q` to the top of child box `p`:
 * a curve, or for a child in a wrapped line (`p.via`), down into the gap
 * under the parent, along it to the spine, down the spine to the gap above
 * the child's line, and along that to the child. Returns an SVG path's
 * text or, given `path` (a canvas Path2D), draws into it.
 * @param {Place | { x: number, y: number }} q
 * @param {Place | { x: number, y: number, via?: number }} p
 * @param {Path2D} [path]
 * @returns {string | null}
 */
function edgePath(q, p, path) {
  const y0 = q.y + BOX_H, y1 = p.y;
  if (p.via === undefined) {
    if (path) {
      path.moveTo(q.x, y0);
      path.lineTo(p.x, y1);
      return null;
    }
    const ym = (y0 + y1) / 2;
    return `M${q.x},${y0} C${q.x},${ym} ${p.x},${ym} ${p.x},${y1}`;
  }
  const top = y0 + V_GAP / 2, bus = y1 - V_GAP / 2;
  if (path) {
    path.moveTo(q.x, y0);
    path.lineTo(q.x, top);
    path.lineTo(p.via, top);
    path.lineTo(p.via, bus);
    path.lineTo(p.x, bus);
    path.lineTo(p.x, y1);
    return null;
  }
  return `M${q.x},${y0} V${top} H${p.via} V${bus} H${p.x} V${y1}`;
}

export { BOX_H, V_GAP, H_GAP, WRAP_INDENT, shorten, layout, edgePath };

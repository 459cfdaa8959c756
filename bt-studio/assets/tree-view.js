// behaved-studio's viewer tree (used by studio.js): draws only the nodes in view.
//
// A tree of 10,000 nodes as SVG is some 80,000 elements that the browser
// creates, styles and repaints on every step. So the tree is virtualised: the
// nodes whose boxes are in view (found with a per-row index of the layout)
// are SVG elements, made when they scroll into view and removed when they
// leave it, as long as there are at most `svgLimit` of them. More than that
// (a big tree zoomed out, where labels cannot be read anyway) are painted as
// boxes on a canvas under the SVG, coloured by status, which costs a few
// milliseconds for 10,000. A step writes only the elements whose look changed.
//
// Test hooks: every SVG node carries data-id, data-status and data-halted (see
// studio.js), every SVG edge data-child (the id of the node it leads to); in
// canvas mode `#tree-canvas[data-mode='canvas']`, and `boxOnScreen(id)` says
// where a node's box is drawn.
// @ts-check
import * as BtDraw from './draw.js';

const { svgEl, BOX_H, V_GAP } = BtDraw;
const ROW = BOX_H + V_GAP;
const STATE_NAMES = ['idle', 'running', 'success', 'failure'];
const GLYPHS = ['·', '▶', '✓', '✗'];
const HALT_GLYPH = '■';
/** The canvas's box fills: idle, running, success, failure, then halted (studio.css's status colours). */
const FILLS = ['#d4d4d4', '#0072b2', '#009e73', '#d55e00', '#cc79a7'];
const HALTED = 4;

/**
 * A tree view drawing into `svg` (its `viewport` group takes the zoom) and
 * `canvas` (the same size, under it). `describe(id)` gives a node's
 * `{ kind, label, title, children, hidden }` (its shown label, tooltip,
 * whether it has children, and how many nodes a collapsed node hides, or -1).
 * @param {SVGSVGElement} svg
 * @param {SVGGElement} viewport
 * @param {HTMLCanvasElement} canvas
 * @param {(id: number) => { kind: string, label: string, title: string, children: boolean, hidden: number }} describe
 */
function create(svg, viewport, canvas, describe) {
  const v = {
    layout: null,
    zoom: { x: 20, y: 20, s: 1 },
    /** Per row of the layout: the ids in x order and their centres. */
    rows: [],
    maxW: 0,
    /** The view's size in CSS pixels (read on layout and resize only). */
    box: { w: 800, h: 500 },
    svgLimit: 1500,
    mode: 'svg',
    /** Drawn SVG nodes (id to element record) and edges (child id to path). */
    els: new Map(),
    edges: new Map(),
    edgesG: null,
    nodesG: null,
    shown: [],
    look: null,
    stamp: null,
    round: 0,
    canvasUsed: false,
  };

  /**
   * Takes a new layout (BtDraw.layout's) of a tree of `N` nodes, whose
   * `parentOf(id)` is an id or null and `kidsOf(id)` the shown children,
   * and forgets what was drawn.
   */
  function setLayout(layout, N, parentOf, kidsOf) {
    v.layout = layout;
    v.parentOf = parentOf;
    v.kidsOf = kidsOf;
    v.rows = [];
    v.maxW = 0;
    for (const id of layout.order) {
      const p = layout.pos.get(id);
      (v.rows[p.row] || (v.rows[p.row] = { ids: [], xs: [] })).ids.push(id);
      v.maxW = Math.max(v.maxW, p.w);
    }
    // Pre-order visits each row from left to right (wrapped lines of children take rows of their own).
    for (let r = 0; r < v.rows.length; r++) {
      const row = v.rows[r] || (v.rows[r] = { ids: [], xs: [] });
      row.xs = Float64Array.from(row.ids, (id) => layout.pos.get(id).x);
    }
    v.stamp = new Uint32Array(N);
    viewport.replaceChildren();
    v.edgesG = svgEl('g', { class: 'edges' }, viewport);
    v.nodesG = svgEl('g', { class: 'nodes' }, viewport);
    v.els = new Map();
    v.edges = new Map();
  }

  /**
   * Reads the view's size. A view with no size yet (not laid out, or
   * hidden) keeps a guess of 800 x 500 and says so (`false`): the page
   * measures again when `whenResized`'s callback runs.
   */
  function measure() {
    const sized = svg.clientWidth > 0 && svg.clientHeight > 0;
    v.box.w = svg.clientWidth || 800;
    v.box.h = svg.clientHeight || 500;
    return sized;
  }

  /** Calls `then` whenever the view's size changes (a window resize, a pane shown or resized). */
  function whenResized(then) {
    new ResizeObserver(then).observe(svg);
  }

  /** The first index of `xs` at or after `x`. */
  function lowerBound(xs, x) {
    let lo = 0, hi = xs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The ids of the nodes whose boxes are (partly) in view. */
  function inView() {
    const z = v.zoom, L = v.layout, out = [];
    // The view in layout units; a box of width w centred at x overlaps it if x is within w / 2 of it.
    const x0 = -z.x / z.s, x1 = (v.box.w - z.x) / z.s;
    const y0 = -z.y / z.s - BOX_H - 14, y1 = (v.box.h - z.y) / z.s;
    for (let d = Math.max(0, Math.ceil(y0 / ROW)); d < v.rows.length && d * ROW <= y1; d++) {
      const { ids, xs } = v.rows[d];
      for (let i = lowerBound(xs, x0 - v.maxW / 2); i < ids.length && xs[i] <= x1 + v.maxW / 2; i++) {
        const p = L.pos.get(ids[i]);
        if (p.x + p.w / 2 >= x0 && p.x - p.w / 2 <= x1) out.push(ids[i]);
      }
    }
    return out;
  }

  function makeNode(id, parent) {
    const p = v.layout.pos.get(id), d = describe(id);
    const g = BtDraw.box(parent, p, d.kind, d.label, d.title, { class: 'node idle', 'data-id': id });
    const glyph = svgEl('text', { class: 'glyph', x: p.w - 16, y: BOX_H / 2 }, g);
    if (d.children) {
      const fold = svgEl('text', { class: 'fold', x: p.w / 2, y: BOX_H + 10, 'text-anchor': 'middle' }, g);
      fold.textContent = d.hidden >= 0 ? `⊞ +${d.hidden}` : '⊟';
      fold.dataset.fold = id;
    }
    // The visit badge is made when first needed; `cls` and `visit` are what was last written.
    return { g, glyph, badge: null, badgeText: null, cls: null, visit: 0 };
  }

  /** Makes the SVG of the nodes in view (and their edges), removes the rest. */
  function syncSvg(ids) {
    const round = ++v.round, L = v.layout;
    for (const id of ids) v.stamp[id] = round;
    for (const [id, el] of v.els) {
      if (v.stamp[id] !== round) {
        el.g.remove();
        v.els.delete(id);
      }
    }
    const wanted = new Set();
    for (const id of ids) {
      if (!v.els.has(id)) v.els.set(id, makeNode(id, v.nodesG));
      if (v.parentOf(id) !== null) wanted.add(id);
      for (const c of v.kidsOf(id)) wanted.add(c);
    }
    for (const [c, e] of v.edges) {
      if (!wanted.has(c)) {
        e.path.remove();
        v.edges.delete(c);
      }
    }
    for (const c of wanted) {
      if (!v.edges.has(c)) {
        const path = BtDraw.edge(v.edgesG, L.pos.get(v.parentOf(c)), L.pos.get(c));
        path.dataset.child = c;
        v.edges.set(c, { path, active: false });
      }
    }
  }

  function clearSvg() {
    for (const el of v.els.values()) el.g.remove();
    for (const e of v.edges.values()) e.path.remove();
    v.els.clear();
    v.edges.clear();
  }

  /** Finds what is in view, draws it in the right mode, and paints the last look. */
  function render() {
    if (!v.layout) return;
    v.shown = inView();
    const mode = v.shown.length > v.svgLimit ? 'canvas' : 'svg';
    if (mode === 'canvas') clearSvg();
    else syncSvg(v.shown);
    v.mode = mode;
    canvas.dataset.mode = mode;
    if (v.look) paint(v.look);
  }

  /**
   * Draws the nodes' states: `look` has `state` (per node, 0 to 3),
   * `halted` and `matches` (sets of ids), `visits` (id to visit number),
   * `selected` and `lastNode` (ids or null / -1), and optionally `forced`
   * (id to the status forced on it in this tick) and `breaks` (ids with a
   * breakpoint), marked on the node in the SVG drawing.
   */
  function paint(look) {
    v.look = look;
    if (v.mode === 'canvas') paintCanvas(look);
    else paintSvg(look);
  }

  /** Writes node `id`'s look into its elements `el`, where it changed. */
  function updateNode(el, id, look) {
    const { state, halted, visits, matches, selected, lastNode, forced, breaks } = look;
    const s = state[id];
    const wasHalted = s === 0 && halted.has(id);
    let cls = 'node ' + (wasHalted ? 'halted' : STATE_NAMES[s]);
    if (id === selected) cls += ' selected';
    if (matches.has(id)) cls += ' match';
    if (id === lastNode) cls += ' last-event';
    const force = forced ? forced.get(id) : undefined;
    if (force !== undefined) cls += ' forced';
    if (breaks && breaks.has(id)) cls += ' breakpoint';
    if (el.cls !== cls) {
      el.cls = cls;
      el.g.setAttribute('class', cls);
      if (force !== undefined) el.g.dataset.forced = force;
      else delete el.g.dataset.forced;
      el.g.dataset.status = STATE_NAMES[s];
      if (wasHalted) el.g.dataset.halted = 'true';
      else delete el.g.dataset.halted;
      el.glyph.textContent = wasHalted ? HALT_GLYPH : GLYPHS[s];
    }
    const visit = visits.get(id) || 0;
    if (el.visit !== visit) {
      el.visit = visit;
      if (visit && !el.badge) {
        el.badge = svgEl('g', { class: 'visit', transform: 'translate(-2,-2)' }, el.g);
        svgEl('circle', { r: 8 }, el.badge);
        el.badgeText = svgEl('text', {}, el.badge);
      }
      if (el.badge) el.badge.style.display = visit ? '' : 'none';
      if (visit) el.badgeText.textContent = String(visit);
    }
  }

  function paintSvg(look) {
    if (v.canvasUsed) {
      clearCanvas();
      v.canvasUsed = false;
    }
    const { visits } = look;
    for (const [id, el] of v.els) updateNode(el, id, look);
    for (const [c, e] of v.edges) {
      const active = visits.has(c);
      if (e.active !== active) {
        e.active = active;
        e.path.setAttribute('class', active ? 'edge active' : 'edge');
      }
    }
  }

  /** Sizes the canvas to the view and clears it; returns its context, in CSS pixels. */
  function clearCanvas() {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(v.box.w * dpr), h = Math.round(v.box.h * dpr);
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, w, h);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    return ctx;
  }

  function paintCanvas(look) {
    const ctx = clearCanvas(), z = v.zoom, L = v.layout;
    v.canvasUsed = true;
    const { state, halted, visits, matches, selected } = look;
    ctx.translate(z.x, z.y);
    ctx.scale(z.s, z.s);
    // Edges: one path for all, one for the visited.
    const plain = new Path2D(), active = new Path2D();
    for (const id of v.shown) {
      const p = L.pos.get(id), parent = v.parentOf(id);
      if (parent === null) continue;
      BtDraw.edgePath(L.pos.get(parent), p, visits.has(id) ? active : plain);
    }
    ctx.lineWidth = 1 / z.s;
    ctx.strokeStyle = '#c4c4c4';
    ctx.stroke(plain);
    ctx.lineWidth = 2 / z.s;
    ctx.strokeStyle = '#555';
    ctx.stroke(active);
    // Boxes, fill by fill (fillRect: a path of thousands of rectangles is slower to fill).
    const byFill = FILLS.map(() => []);
    for (const id of v.shown) {
      const s = state[id];
      byFill[s === 0 && halted.has(id) ? HALTED : s].push(id);
    }
    byFill.forEach((ids, i) => {
      ctx.fillStyle = FILLS[i];
      for (const id of ids) {
        const p = L.pos.get(id);
        ctx.fillRect(p.x - p.w / 2, p.y, p.w, BOX_H);
      }
    });
    // Glyphs as well as colours, where a box is big enough to hold one.
    if (BOX_H * z.s >= 12) {
      ctx.font = `bold 14px system-ui, sans-serif`;
      ctx.textBaseline = 'middle';
      ctx.fillStyle = '#fff';
      for (const id of v.shown) {
        const p = L.pos.get(id), s = state[id];
        ctx.fillText(s === 0 && halted.has(id) ? HALT_GLYPH : GLYPHS[s], p.x + p.w / 2 - 16, p.y + BOX_H / 2);
      }
    }
    const marked = [...matches];
    if (selected !== null) marked.push(selected);
    ctx.strokeStyle = '#f0b400';
    ctx.lineWidth = Math.max(3, 3 / z.s);
    for (const id of marked) {
      const p = L.pos.get(id);
      if (p) ctx.strokeRect(p.x - p.w / 2 - 4, p.y - 4, p.w + 8, BOX_H + 8);
    }
  }

  /** The whole tree (every shown node, in view or not) as SVG, drawn with the last look, in layout units. */
  function wholeTree() {
    const L = v.layout, g = svgEl('g', {});
    const edges = svgEl('g', { class: 'edges' }, g), nodes = svgEl('g', { class: 'nodes' }, g);
    for (const id of L.order) {
      const parent = v.parentOf(id);
      if (parent !== null) {
        const path = BtDraw.edge(edges, L.pos.get(parent), L.pos.get(id));
        if (v.look && v.look.visits.has(id)) path.setAttribute('class', 'edge active');
      }
      const el = makeNode(id, nodes);
      if (v.look) updateNode(el, id, v.look);
    }
    return g;
  }

  /** The node whose box is at client point (x, y), or null. */
  function nodeAt(clientX, clientY) {
    if (!v.layout) return null;
    const rect = svg.getBoundingClientRect(), z = v.zoom;
    const x = (clientX - rect.left - z.x) / z.s, y = (clientY - rect.top - z.y) / z.s;
    const d = Math.floor(y / ROW);
    if (d < 0 || d >= v.rows.length || y - d * ROW > BOX_H) return null;
    const { ids, xs } = v.rows[d];
    const i = lowerBound(xs, x - v.maxW / 2);
    for (let j = i; j < ids.length && xs[j] <= x + v.maxW / 2; j++) {
      const p = v.layout.pos.get(ids[j]);
      if (Math.abs(p.x - x) <= p.w / 2) return ids[j];
    }
    return null;
  }

  /** Where node `id`'s box is drawn, in CSS pixels from the view's top left. */
  function boxOnScreen(id) {
    const p = v.layout.pos.get(id), z = v.zoom;
    if (!p) return null;
    return { x: z.x + (p.x - p.w / 2) * z.s, y: z.y + p.y * z.s, w: p.w * z.s, h: BOX_H * z.s };
  }

  return { v, setLayout, measure, whenResized, render, paint, nodeAt, boxOnScreen, wholeTree };
}

export { create, STATE_NAMES, FILLS };

// behaved-studio: replays a bt-trace (behaved-observe's TRACE_FORMAT.md) in the browser.
//
// The server checks every trace with behaved-observe's reader; this page replays
// the checked events (trace-model.js) with the same rules as behaved-observe's
// StatusSnapshot and Cursor, and draws the tree with tree-view.js. A position
// is a tick and a number of that tick's events applied (all of them: the
// tick's end state, as Cursor shows it). A live window is replayed as it
// grows, not rebuilt (timings.builds counts the builds).
//
// Test hooks: body[data-state] is "loading", "ready" or "error";
// #position carries data-tick, data-event, data-events and data-node; every
// drawn node carries data-id and data-status (and data-halted when it was
// halted in the shown part of the tick). The context table (#context) has a
// row per value: data-key, data-value (JSON) and data-changes (the ticks
// where it changed, comma-separated); #context[data-tick] is the tick whose
// values are shown.
// @ts-check
import * as Model from './trace-model.js';
import * as BtDraw from './draw.js';
import * as BtTreeView from './tree-view.js';
import * as Fit from './fit.js';
import * as Compare from './compare.js';
import * as ScoresView from './scores-view.js';
import * as FlowView from './dataflow-view.js';
import { limits } from './catalogue.js';
import { traceBytesPastLimit, tracePastLimits } from './limits.js';

const { IDLE, RUNNING, SUCCESS, FAILURE, EV_START, EV_TICKED, EV_FINISHED, EV_SCORED, EVENT_KINDS } = Model;
const { stateAt, visitOrder, haltedIn } = Model;
const STATE_NAMES = ['idle', 'running', 'success', 'failure'];
const COLORS = ['#9a9a9a', '#0072b2', '#009e73', '#d55e00'];
const HALT_COLOR = '#cc79a7';
const MAX_TABLE_ROWS = 500;
const { ICONS, svgEl, html, all, onDroppedFile, BOX_H, shorten } = BtDraw;
const $ = (sel) => document.querySelector(sel);

// ---------------------------------------------------------------- view state

/**
 * What the page shows: the model of the trace (`m`), the position (tick
 * index `ti`, `k` events of it applied), the selected node, the collapsed
 * nodes, the layout and the zoom, and what the tools keep.
 */
const view = {
  /** @type {import('./trace-model.js').Model | null} */
  m: null,
  ti: 0,
  k: 0,
  /** @type {number | null} */
  selected: null,
  /** @type {Set<number>} */
  collapsed: new Set(),
  /** The nodes the default view collapsed (see fit.js), which Fit opens again. */
  autoCollapsed: new Set(),
  /** Whether wide lines of children wrap to the view's width at the readable scale (the default view) or only past what a far view shows (Fit). */
  wrapReadable: true,
  /** @type {ReturnType<typeof BtDraw.layout<number>> | null} */
  layout: null,
  zoom: { x: 20, y: 20, s: 1 },
  /** Set while the tree was laid out without a size (hidden, or not laid out yet): `{ fitting }`, whether to fit once it has one. */
  unsized: null,
  playing: null,
  diff: null,
  matches: [],
  matchAt: -1,
  markersImage: null,
  /** The node whose failures the markers show (null: any node's), and the tick indexes marked. */
  markersOf: null,
  failureMarks: [],
  lanesScratch: null,
  lanesRows: [],
  laneMasks: new Map(),
};
const tickLen = (ti) => view.m.ticks[ti].to - view.m.ticks[ti].from;
/** The index of tick number `tick` in the window, or -1. */
function tickIndex(tick) {
  const m = view.m;
  for (let ti = m.first; ti < m.ticks.length; ti++) if (m.ticks[ti].tick === tick) return ti;
  return -1;
}

// ---------------------------------------------------------------- loading

function showError(name, message) {
  $('#warning').hidden = true;
  const box = $('#error');
  box.hidden = false;
  box.textContent = `${name} cannot be shown: ${message}`;
  document.body.dataset.state = 'error';
}

/** Where the view is in `m`: at its newest tick, or at which tick. */
const positionIn = (m) => ({ atHead: view.ti === m.ticks.length - 1, tick: m.ticks[view.ti].tick });

/** Whether a model's nodes are those of node table `table`. */
function sameTable(nodes, table) {
  return nodes.length === table.length && table.every((n, i) => n.parent === nodes[i].parent && n.kind === nodes[i].kind && n.label === nodes[i].label);
}

/**
 * Shows a trace. A live window (`live`) of the tree already shown keeps the
 * selection, collapse and zoom, and stays at the newest tick if it was
 * there (or at `position`, where the view was before the model changed).
 */
function loadPayload(payload, live, position) {
  if (payload.error !== undefined) {
    showError(payload.name, payload.error);
    return;
  }
  const tooBig = tracePastLimits(payload.trace, limits);
  if (tooBig !== null) {
    showError(payload.name, tooBig);
    return;
  }
  $('#error').hidden = true;
  // The server's check (agreement.rs): the first event where the table and the events disagree.
  $('#warning').hidden = payload.disagreement === undefined;
  $('#warning').textContent = payload.disagreement === undefined ? '' : `${payload.name} may be drawn wrong: ${payload.disagreement}.`;
  flushFragment();
  const old = view.m;
  // The same agent's tree again (a hot reload brings another table: laid out afresh).
  const again = live && old !== null && old.name === payload.name && sameTable(old.nodes, payload.trace.nodes);
  const pos = again ? position || positionIn(old) : null;
  timings.modelStart = performance.now();
  view.trace = payload.trace;
  try {
    view.m = Model.build(payload.name, payload.trace);
    timings.builds = (timings.builds || 0) + 1;
  } catch (e) {
    showError(payload.name, `the page failed to replay it: ${e}`);
    return;
  }
  timings.modelBuilt = performance.now();
  show(pos, live);
}

/**
 * Applies a live window's increment (`append`, see appendWindow) to the
 * model shown: replays only the new events. Builds the model afresh from
 * the window when it cannot (or when it holds too many dropped ticks).
 */
function extendShown(append) {
  const m = view.m;
  // Where the view was before the first change not drawn yet.
  const pos = live.pending || positionIn(m);
  const rebuild = () => {
    live.pending = null;
    loadPayload({ name: m.name, trace: live.trace }, true, pos);
  };
  if (append.start && !Model.dropFront(m, append.start)) return rebuild();
  if (append.labels) m.labels = append.labels;
  Model.extend(m, append.events);
  if (Model.needsCompaction(m)) return rebuild();
  // The context table is worked out again once, when next painted, not for every message.
  live.staleContext = m;
  view.trace = live.trace;
  showLater(pos);
}

/**
 * The least time between two drawings of a followed agent (ms): its ticks
 * (20 a second or more) are applied to the model as they come, and drawn
 * together at the next animation frame after this much time since the last
 * drawing, so that following an agent costs the page a few percent of a core
 * (BENCHMARKS.md, "behaved-studio's page while following one agent").
 */
const LIVE_FRAME_MS = 333;

/** Draws the followed agent's model once, at the next frame due; `pos`: where the view was before the first change not yet drawn. */
function showLater(pos) {
  if (live.pending) return;
  live.pending = pos;
  const wait = Math.max(0, live.drawnAt + LIVE_FRAME_MS - performance.now());
  setTimeout(() => requestAnimationFrame(drawPending), wait);
}
function drawPending() {
  const pos = live.pending;
  if (!pos || !view.m) return;
  live.pending = null;
  live.drawnAt = performance.now();
  show(pos, true);
  if (live.latest) liveStatus();
  // For the benchmark: how many drawings, and the milliseconds of script they took.
  timings.liveDraws = (timings.liveDraws || 0) + 1;
  timings.liveMs = (timings.liveMs || 0) + performance.now() - live.drawnAt;
}

/** Draws the model, after a new one (`pos` null) or after a change to the one shown. */
function show(pos, live) {
  const m = view.m;
  document.title = `${m.name} · behaved-studio`;
  $('#title').textContent = m.name;
  view.ti = m.ticks.length - 1;
  if (pos && !pos.atHead) view.ti = Math.max(m.first, tickIndex(pos.tick));
  view.k = tickLen(view.ti);
  $('#slider').min = String(m.first);
  $('#slider').max = String(m.ticks.length - 1);
  if (pos) {
    drawLanes();
  } else {
    const kinds = $('#filter-kind');
    kinds.replaceChildren(html('option', { value: '' }, 'any kind'), ...m.kinds.map((k) => html('option', { value: k }, k)));
    view.collapsed.clear();
    view.autoCollapsed.clear();
    view.selected = null;
    measureTimeline();
    if (!live) applyFragment(false);
    relayout('readable');
  }
  timings.laidOut = performance.now();
  renderTransitions();
  paint();
  document.body.dataset.state = 'ready';
}

/**
 * When the script started, the last trace was asked for, received, parsed,
 * replayed (modelStart to modelBuilt), laid out, shown and drawn on screen
 * (ms since the page's start), for the benchmark.
 */
const timings = { script: performance.now() };

/** Asks for `url`, noting when (for the benchmark); returns the promise of the response. */
function request(url, options) {
  timings.requested = performance.now();
  return fetch(url, options);
}

/**
 * The response `requested` brings, or null (said on the page) when the
 * server cannot be reached.
 * @param {Promise<Response>} requested
 * @returns {Promise<Response | null>}
 */
async function reached(requested) {
  try {
    return await requested;
  } catch (e) {
    showError('the trace', `the behaved-studio server cannot be reached (${e.message})`);
    return null;
  }
}

/** Shows the trace (or the error) that `requested`, a promise of a response, brings. */
async function fetchPayload(requested) {
  document.body.dataset.state = 'loading';
  const response = await reached(requested);
  if (!response) return;
  const text = await response.text();
  timings.received = performance.now();
  let payload;
  try {
    payload = JSON.parse(text);
  } catch (e) {
    showError('the trace', `the server answered ${response.status}: ${text}`);
    return;
  }
  timings.parsed = performance.now();
  loadPayload(payload);
  timings.shown = performance.now();
  requestAnimationFrame(() => setTimeout(() => (timings.drawn = performance.now()), 0));
}

function openFile(file) {
  if (!file) return;
  view.diff = null;
  $('#diff').hidden = true;
  compare.setTrace('', null);
  delete document.body.dataset.trace;
  const tooBig = traceBytesPastLimit(file.size, limits);
  if (tooBig !== null) {
    showError(file.name, tooBig);
    return;
  }
  fetchPayload(request(`/api/parse?name=${encodeURIComponent(file.name)}`, { method: 'POST', body: file }));
}

// ---------------------------------------------------------------- layout and drawing

const shortLabel = (n) => shorten(n.label);
const visibleChildren = (id) => (view.collapsed.has(id) ? [] : view.m.nodes[id].children);

/** A node's look in the tree view: kind, shown label, tooltip, whether it has children, how many a collapse hides. */
const describeNode = (id) => {
  const n = view.m.nodes[id];
  return {
    kind: n.kind,
    label: shortLabel(n),
    title: `#${id} ${n.kind}: ${n.label}${n.line ? ` (line ${n.line})` : ''}`,
    children: n.children.length > 0,
    hidden: view.collapsed.has(id) ? n.end - id - 1 : -1,
  };
};
/** The tree view (tree-view.js): draws the nodes in view only. */
const tree = BtTreeView.create($('#tree'), $('#viewport'), $('#tree-canvas'), describeNode);
tree.v.zoom = view.zoom;
/** The other run of a diff, beside this one (compare.js). */
const compare = Compare.create(describeNode);

/**
 * Lays the tree out and draws it; `fitting` first fits it in view: `true`
 * the whole tree (so a big tree is drawn far, without its labels),
 * `'readable'` the default view (fit.js: labels never below 11 px, the path
 * to what runs open and as much else as fits).
 * @param {boolean | 'readable'} [fitting]
 */
function relayout(fitting) {
  const m = view.m;
  // A view with no size yet is laid out (and fitted) again once it has one: see `tree.whenResized` below.
  const sized = tree.measure();
  view.unsized = sized ? null : { fitting: fitting || (view.unsized && view.unsized.fitting) || false };
  if (fitting === 'readable') view.wrapReadable = true;
  if (fitting === 'readable' && sized) collapseToRead();
  view.layout = layoutWith(visibleChildren);
  tree.setLayout(view.layout, m.N, (id) => m.nodes[id].parent, visibleChildren);
  compare.setLayout(view.layout, view.zoom, visibleChildren);
  if (fitting === 'readable') fitReadable();
  else if (fitting) fit();
  else tree.render();
  drawLanes();
}

/**
 * The layout of the tree with `kids` as each node's shown children. A tree
 * wider than the view at the readable scale (the default view), or too wide
 * to read fitted across the view (after Fit), is wrapped to the view's shape.
 */
function layoutWith(kids) {
  const m = view.m, { w, h } = tree.v.box;
  const maxWidth = view.wrapReadable ? Math.max(1, w - 2 * FIT_PAD) / Fit.READABLE_SCALE : w / FAR;
  return BtDraw.layout(0, kids, (id) => shortLabel(m.nodes[id]), { maxWidth, aspect: w / h });
}
const FIT_PAD = 24;

/** What the default view keeps open: the running leaves (else the last node the position reached) and the selected node. */
function focusNodes() {
  const m = view.m, state = stateAt(m, view.ti, view.k), out = [];
  for (let id = 0; id < m.N; id++) {
    if (state[id] === RUNNING && !m.nodes[id].children.some((c) => state[c] === RUNNING)) out.push(id);
  }
  if (!out.length && view.k > 0) out.push(m.node[m.ticks[view.ti].from + view.k - 1]);
  if (view.selected !== null) out.push(view.selected);
  const known = out.filter((id) => Number.isInteger(id) && id >= 0 && id < m.N);
  return known.length ? known : [0];
}

/** Collapses what the default view cannot show readably (fit.js's `collapsedAround`). */
function collapseToRead() {
  const m = view.m, box = fitBox();
  const chosen = Fit.collapsedAround(m.nodes, focusNodes(), (collapsed) => {
    const L = layoutWith((id) => (collapsed.has(id) ? [] : m.nodes[id].children));
    return Fit.fitZoom(L, box, { min: Fit.READABLE_SCALE }).whole;
  });
  for (const id of view.autoCollapsed) view.collapsed.delete(id);
  view.autoCollapsed = chosen;
  for (const id of chosen) view.collapsed.add(id);
}

/** The default view's zoom: the whole tree if it is readable so, else the readable size scrolled to the path to what runs. */
function fitReadable() {
  const L = view.layout;
  if (!L) return;
  if (!tree.measure()) {
    view.unsized = { fitting: 'readable' };
    return;
  }
  const path = [...Fit.pathTo(view.m.nodes, focusNodes())].map((id) => L.pos.get(id)).filter((p) => p);
  const xs = path.map((p) => p.x), deepest = path.reduce((a, p) => (p.y > a.y ? p : a), path[0]);
  const focus = { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: deepest.y };
  const { s, x, y } = Fit.fitZoom(L, fitBox(), { min: Fit.READABLE_SCALE, focus });
  Object.assign(view.zoom, { s, x, y });
  applyZoom();
}

/** The room the default view fits the tree in: the tree's view, no taller than the other run's beside it in a diff. */
function fitBox() {
  const { w, h } = tree.v.box, other = compare.height();
  return { w, h: other > 0 ? Math.min(h, other) : h };
}

/** The Fit button: the whole tree in view, with what the default view collapsed opened again. */
function fitWhole() {
  if (!view.m) return;
  if (view.autoCollapsed.size || view.wrapReadable) {
    for (const id of view.autoCollapsed) view.collapsed.delete(id);
    view.autoCollapsed = new Set();
    view.wrapReadable = false;
    relayout(true);
    paint();
  } else {
    fit();
  }
}

/** Below this scale labels are too small to read: they are not drawn (a big tree stays quick to draw). */
const FAR = 0.3;

/**
 * Applies the zoom and draws what came into view: at once, or (`later`,
 * while dragging or wheeling) at the next frame, once for many moves.
 */
let renderFrame = null;
function applyZoom(later) {
  const z = view.zoom;
  $('#viewport').setAttribute('transform', `translate(${z.x},${z.y}) scale(${z.s})`);
  $('#tree').classList.toggle('far', z.s < FAR);
  if (!later) {
    tree.render();
    compare.applyZoom();
  } else if (renderFrame === null) {
    renderFrame = requestAnimationFrame(() => {
      renderFrame = null;
      tree.render();
      compare.applyZoom();
    });
  }
}

function fit() {
  const L = view.layout;
  if (!L) return;
  if (!tree.measure()) {
    view.unsized = { fitting: true };
    return;
  }
  const { w: W, h: H } = tree.v.box, pad = 24;
  const s = Math.min((W - 2 * pad) / L.width, (H - 2 * pad) / (L.height + 12), 1.5);
  Object.assign(view.zoom, { s, x: (W - L.width * s) / 2, y: pad });
  applyZoom();
}

/** Zooms by `factor` about the point (cx, cy) of the view: the selected node's box, else the view's centre, unless told. */
function zoomBy(factor, cx, cy, later) {
  const z = view.zoom;
  const p = view.selected === null ? undefined : view.layout.pos.get(view.selected);
  if (cx === undefined && p) {
    cx = z.x + p.x * z.s;
    cy = z.y + (p.y + BOX_H / 2) * z.s;
  } else if (cx === undefined) {
    cx = tree.v.box.w / 2;
    cy = tree.v.box.h / 2;
  }
  const s = Math.min(8, Math.max(0.002, z.s * factor));
  z.x = cx - ((cx - z.x) * s) / z.s;
  z.y = cy - ((cy - z.y) * s) / z.s;
  z.s = s;
  applyZoom(later);
}

/** Pans so that node `id` is in view (expanding its collapsed ancestors). */
function reveal(id) {
  let changed = false;
  for (let p = view.m.nodes[id].parent; p !== null; p = view.m.nodes[p].parent) {
    if (view.collapsed.delete(p)) changed = true;
  }
  if (changed) relayout();
  const p = view.layout.pos.get(id), z = view.zoom;
  const x = z.x + p.x * z.s, y = z.y + (p.y + BOX_H / 2) * z.s;
  const { w: W, h: H } = tree.v.box;
  if (x < 40 || x > W - 40 || y < 30 || y > H - 30) {
    z.x = W / 2 - p.x * z.s;
    z.y = H / 2 - (p.y + BOX_H / 2) * z.s;
    applyZoom();
  }
}

// ---------------------------------------------------------------- painting a position

function paint() {
  const m = view.m;
  if (!m) return;
  if (live.staleContext === m) {
    Model.setContext(m, (view.trace && view.trace.context) || []);
    live.staleContext = null;
  }
  const { ti, k } = view;
  const t = m.ticks[ti];
  const state = stateAt(m, ti, k);
  const halted = haltedIn(m, ti, k);
  const visits = visitOrder(m, ti, k);
  const lastNode = k > 0 ? m.node[t.from + k - 1] : -1;
  const forced = forcedAt(t.tick);
  flowView.render({ flow: live.flow, nodes: m.nodes, context: (view.trace && view.trace.context) || [], tick: t.tick });
  const matches = new Set([...view.matches, ...flowView.highlighted()]);
  tree.paint({ state, halted, visits, lastNode, matches, selected: view.selected, forced, breaks: live.breakNodes });
  compare.paint(t.tick, k, state);
  const pos = $('#position');
  pos.dataset.tick = String(t.tick);
  pos.dataset.event = String(k);
  pos.dataset.events = String(t.to - t.from);
  pos.dataset.node = view.selected === null ? '' : String(view.selected);
  const now = t.now === null || t.now === undefined ? '' : ` · t = ${t.now.toFixed(2)} s`;
  const root = t.root === null ? '' : ` · root ${STATE_NAMES[t.root]}`;
  pos.textContent = `tick ${t.tick} (${m.ticks[m.first].tick}–${m.ticks[m.ticks.length - 1].tick})${now} · event ${k}/${t.to - t.from}${root}`;
  $('#slider').value = String(ti);
  paintMarkers();
  paintLanes();
  renderInspector(state, halted);
  renderEvents();
  markCurrentTransitions();
  writeFragment();
}

/** The data-flow panel (dataflow-view.js): what each node reads, and the agent's wakes. */
const flowView = FlowView.create(/** @type {HTMLElement} */ ($('#dataflow')), {
  seek: (tick) => {
    const ti = tickIndex(tick);
    if (ti >= 0) seek(ti);
  },
  changed: () => paint(),
});

/** The context key under which the live view records the results forced in a tick (behaved_studio::FORCED_KEY). */
const FORCED_KEY = 'behaved.forced';

/**
 * The results forced in tick `tick` (node id to status), as the trace's
 * context records them.
 * @returns {Map<number, string>}
 */
function forcedAt(tick) {
  const entries = (view.trace && view.trace.context) || [];
  let lo = 0, hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid].tick < tick) lo = mid + 1;
    else hi = mid;
  }
  const entry = entries[lo];
  const list = entry && entry.tick === tick && entry.values && typeof entry.values === 'object' ? entry.values[FORCED_KEY] : undefined;
  return new Map(Array.isArray(list) ? list.map((f) => [f.node, f.status]) : []);
}

// ---------------------------------------------------------------- moving

function seek(ti, k) {
  const m = view.m;
  if (!m) return;
  $('#failure-note').textContent = '';
  ti = Math.max(m.first, Math.min(m.ticks.length - 1, ti));
  view.ti = ti;
  view.k = k === undefined ? tickLen(ti) : Math.max(0, Math.min(tickLen(ti), k));
  paint();
}
const stepTick = (d) => seek(view.ti + d);
function stepEvent(d) {
  const { ti, k } = view;
  if (d > 0) {
    if (k < tickLen(ti)) seek(ti, k + 1);
    else if (ti + 1 < view.m.ticks.length) seek(ti + 1, Math.min(1, tickLen(ti + 1)));
  } else if (k > 1) seek(ti, k - 1);
  else if (ti > view.m.first) seek(ti - 1);
  else seek(ti, 0);
}
function togglePlay() {
  if (view.playing) {
    clearTimeout(view.playing);
    view.playing = null;
    $('#play').textContent = '▶ play';
    return;
  }
  if (view.ti === view.m.ticks.length - 1) seek(view.m.first);
  $('#play').textContent = '⏸ pause';
  const step = () => {
    if (view.ti >= view.m.ticks.length - 1) {
      view.playing = 1;
      togglePlay();
      return;
    }
    stepTick(1);
    view.playing = setTimeout(step, 1000 / Number($('#speed').value));
  };
  view.playing = setTimeout(step, 1000 / Number($('#speed').value));
}
function select(id, center) {
  view.selected = id;
  if (id !== null && center) reveal(id);
  paint();
}
function toggleCollapse(id) {
  if (!view.m.nodes[id].children.length) return;
  if (!view.collapsed.delete(id)) view.collapsed.add(id);
  view.autoCollapsed.delete(id);
  relayout();
  paint();
}

// ---------------------------------------------------------------- timeline

/**
 * The timeline's width and the lanes box's height, read when a trace is
 * shown and on resize only: reading them while painting would make the
 * browser lay out a big tree in the middle of every step.
 */
const timelineBox = { w: 800, h: 150 };
function measureTimeline() {
  timelineBox.w = $('#markers').clientWidth || 800;
  timelineBox.h = $('#lanes-box').clientHeight || 150;
}

/** Sizes `canvas` to the timeline's width and `cssHeight` (only when they changed: a new size reallocates it) and clears it. */
function sizeCanvas(canvas, cssHeight) {
  const dpr = window.devicePixelRatio || 1;
  const w = timelineBox.w;
  const W = Math.round(w * dpr), H = Math.round(cssHeight * dpr), css = `${cssHeight}px`;
  if (canvas.width !== W || canvas.height !== H) {
    canvas.width = W;
    canvas.height = H;
  }
  if (canvas.style.height !== css) canvas.style.height = css;
  const ctx = canvas.getContext('2d');
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, W, H);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { ctx, w };
}
const LANE_LABEL = 200, LANE_H = 12;
/** The ticks the timeline shows (the window's). */
const shownTicks = () => view.m.ticks.length - view.m.first;
const tickX = (ti, x0, w) => x0 + ((ti - view.m.first) / shownTicks()) * (w - x0);

/** The markers' height: root completions and halts above, the failures (of the selected node, or of any) below. */
const MARKERS_H = 28;

/**
 * Draws the root completions and halts of every tick, and the ticks where
 * the selected node (any node when none is) failed, once into an offscreen
 * canvas; again when the selection changes.
 */
function drawMarkers() {
  const m = view.m, canvas = document.createElement('canvas');
  const w = timelineBox.w, dpr = window.devicePixelRatio || 1;
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(MARKERS_H * dpr);
  const ctx = canvas.getContext('2d');
  ctx.scale(dpr, dpr);
  ctx.fillStyle = '#555';
  ctx.font = '10px system-ui';
  ctx.fillText('root / halts', 4, 12);
  const of = view.selected;
  ctx.fillText(of === null ? '✗ failures (any node)' : `✗ failures of ${`#${of} ${shortLabel(m.nodes[of])}`.slice(0, 24)}`, 4, 26);
  // One mark per pixel column and kind, however many ticks share it.
  const cw = Math.max(1, (w - LANE_LABEL) / shownTicks());
  const seen = new Uint8Array(Math.ceil(w) + 1);
  for (let ti = m.first; ti < m.ticks.length; ti++) {
    const t = m.ticks[ti];
    const x = tickX(ti, LANE_LABEL, w), col = Math.floor(x);
    const bits = (t.root === SUCCESS ? 1 : t.root === FAILURE ? 2 : 0) | (t.halts ? 4 : 0);
    if (cw < 1 && (seen[col] & bits) === bits) continue;
    seen[col] |= bits;
    if (bits & 1) {
      ctx.fillStyle = COLORS[SUCCESS];
      ctx.fillRect(x, 1, cw, 8);
    }
    if (bits & 2) {
      ctx.fillStyle = COLORS[FAILURE];
      ctx.fillRect(x, 5, cw, 8);
    }
    if (bits & 4) {
      ctx.fillStyle = HALT_COLOR;
      ctx.fillRect(x, 13, cw, 4);
    }
  }
  // Failures stand out however many ticks share a pixel: a triangle pointing down at the tick.
  view.failureMarks = Model.failureTicks(m, of);
  ctx.fillStyle = COLORS[FAILURE];
  for (const ti of view.failureMarks) {
    const x = tickX(ti, LANE_LABEL, w) + cw / 2;
    ctx.beginPath();
    ctx.moveTo(x - 4, 19);
    ctx.lineTo(x + 4, 19);
    ctx.lineTo(x, MARKERS_H);
    ctx.fill();
  }
  view.markersImage = canvas;
  view.markersOf = of;
}

function paintMarkers() {
  const canvas = $('#markers');
  if (view.markersOf !== view.selected) drawMarkers();
  const { ctx, w } = sizeCanvas(canvas, MARKERS_H);
  if (view.markersImage) ctx.drawImage(view.markersImage, 0, 0, w, MARKERS_H);
  const cw = Math.max(1, (w - LANE_LABEL) / shownTicks());
  ctx.fillStyle = '#000';
  ctx.fillRect(tickX(view.ti, LANE_LABEL, w) + cw / 2 - 1, 0, 2, MARKERS_H);
}

// The lanes are virtualised: a canvas as tall as the box stays in view
// (sticky) over a spacer as tall as all the lanes, and paints only the rows
// scrolled into view. Each row is reduced once to pixel columns (which
// states and halts fall in each), so drawing a row costs its width, not its
// number of changes.
const MASK_HALT = 16, MASK_FAILED = 32;

/** Starts the lanes afresh for the current layout and width (rows are reduced when first shown). */
function drawLanes() {
  view.lanesRows = view.layout.order;
  view.laneMasks = new Map();
  const box = $('#lanes-box'), total = view.lanesRows.length * LANE_H;
  const shown = Math.min(total, timelineBox.h);
  $('#lanes-spacer').style.height = `${Math.max(0, total - shown)}px`;
  drawMarkers();
}

/** Row `id`'s states per pixel column (bit 1 << state, and MASK_HALT), for lanes `w` wide. */
function laneMask(id, w) {
  let mask = view.laneMasks.get(id);
  if (mask) return mask;
  const m = view.m, lane = m.changes[id];
  mask = new Uint8Array(Math.ceil(w) + 1);
  lane.forEach(([from, s], j) => {
    const to = j + 1 < lane.length ? lane[j + 1][0] : m.ticks.length;
    if (s === IDLE || to <= m.first) return;
    const x0 = Math.floor(tickX(Math.max(from, m.first), LANE_LABEL, w));
    const x1 = Math.max(x0 + 1, Math.floor(tickX(to, LANE_LABEL, w)));
    for (let x = x0; x < x1 && x < mask.length; x++) mask[x] |= 1 << s;
  });
  for (const ti of m.halts[id]) if (ti > m.first) mask[Math.floor(tickX(ti, LANE_LABEL, w))] |= MASK_HALT;
  // A failure often lasts no longer than its tick (a failed sequence resets its children): marked apart.
  for (const ti of Model.failureTicks(m, id)) mask[Math.floor(tickX(ti, LANE_LABEL, w))] |= MASK_FAILED;
  view.laneMasks.set(id, mask);
  return mask;
}

/** Draws lane `id` at height `y`. */
function drawLane(ctx, id, r, y, w) {
  const n = view.m.nodes[id];
  if (r % 2) {
    ctx.fillStyle = '#f6f6f6';
    ctx.fillRect(0, y, w, LANE_H);
  }
  ctx.fillStyle = '#333';
  ctx.fillText(`${' '.repeat(n.depth)}#${id} ${shortLabel(n)}`.slice(0, 38), 2, y + 9);
  const mask = laneMask(id, w);
  // Shape as well as colour: running fills the lane, success its lower half, failure its upper half.
  for (const s of [RUNNING, SUCCESS, FAILURE]) {
    ctx.fillStyle = COLORS[s];
    const bit = 1 << s;
    for (let x = LANE_LABEL; x < mask.length; x++) {
      if (!(mask[x] & bit)) continue;
      let end = x + 1;
      while (end < mask.length && mask[end] & bit) end++;
      if (s === RUNNING) ctx.fillRect(x, y + 1, end - x, LANE_H - 2);
      else if (s === SUCCESS) ctx.fillRect(x, y + LANE_H / 2, end - x, LANE_H / 2 - 1);
      else ctx.fillRect(x, y + 1, end - x, LANE_H / 2 - 1);
      x = end;
    }
  }
  ctx.fillStyle = COLORS[FAILURE];
  for (let x = LANE_LABEL; x < mask.length; x++) if (mask[x] & MASK_FAILED) ctx.fillRect(x, y, 2, LANE_H);
  ctx.fillStyle = HALT_COLOR;
  for (let x = LANE_LABEL; x < mask.length; x++) {
    if (!(mask[x] & MASK_HALT)) continue;
    ctx.beginPath();
    ctx.moveTo(x, y + 1);
    ctx.lineTo(x + 4, y + LANE_H / 2);
    ctx.lineTo(x, y + LANE_H - 1);
    ctx.fill();
  }
}

function paintLanes() {
  const canvas = $('#lanes'), box = $('#lanes-box'), rows = view.lanesRows;
  const height = Math.max(LANE_H, Math.min(rows.length * LANE_H, timelineBox.h));
  const w = timelineBox.w, dpr = window.devicePixelRatio || 1;
  // The rows are drawn on a canvas outside the document: its text needs no
  // style from the page, whose restyling (a big tree's) would come first.
  const scratch = view.lanesScratch || (view.lanesScratch = document.createElement('canvas'));
  if (scratch.width !== Math.round(w * dpr) || scratch.height !== Math.round(height * dpr)) {
    scratch.width = Math.round(w * dpr);
    scratch.height = Math.round(height * dpr);
  }
  const ctx = scratch.getContext('2d');
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, scratch.width, scratch.height);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const top = box.scrollTop;
  ctx.font = '10px system-ui';
  const first = Math.floor(top / LANE_H), last = Math.min(rows.length, Math.ceil((top + height) / LANE_H));
  for (let r = first; r < last; r++) drawLane(ctx, rows[r], r, r * LANE_H - top, w);
  const cw = Math.max(1, (w - LANE_LABEL) / shownTicks());
  const x = tickX(view.ti, LANE_LABEL, w);
  ctx.fillStyle = '#0001';
  ctx.fillRect(x, 0, cw, height);
  ctx.fillStyle = '#000';
  ctx.fillRect(x + cw / 2 - 1, 0, 2, height);
  const r = view.selected === null ? -1 : rows.indexOf(view.selected);
  if (r >= first && r < last) {
    ctx.strokeStyle = '#f0b400';
    ctx.lineWidth = 2;
    ctx.strokeRect(1, r * LANE_H - top + 1, w - 2, LANE_H - 2);
  }
  const shown = sizeCanvas(canvas, height).ctx;
  shown.setTransform(1, 0, 0, 1, 0, 0);
  shown.drawImage(scratch, 0, 0);
}

function tickFromCanvas(event, canvas) {
  const rect = canvas.getBoundingClientRect();
  const x = event.clientX - rect.left;
  if (x < LANE_LABEL) return null;
  return view.m.first + Math.floor(((x - LANE_LABEL) / (rect.width - LANE_LABEL)) * shownTicks());
}

// ---------------------------------------------------------------- side panels

const stateSpan = (name) => html('span', { class: `st ${name}` }, name);

function renderInspector(state, halted) {
  const box = $('#inspector'), m = view.m, id = view.selected;
  if (id === null) {
    box.replaceChildren(html('p', { class: 'hint' }, 'Click a node to inspect it (↑ ↓ [ ] move the selection).'));
    renderContext(box);
    return;
  }
  const n = m.nodes[id], st = Model.statsOf(m, id);
  const h = html('h3', {}, `${ICONS[n.kind] || ''} #${id} ${n.label}`);
  const dl = html('dl');
  const row = (k, v) => {
    dl.append(html('dt', {}, k));
    const dd = html('dd');
    if (v instanceof Node) dd.append(v);
    else dd.textContent = v;
    dl.append(dd);
  };
  row('kind', n.kind);
  row('label', n.label);
  row('source line', n.line ? String(n.line) : 'unknown');
  row('parent', n.parent === null ? '— (the root)' : `#${n.parent} ${m.nodes[n.parent].label}`);
  row('children', String(n.children.length));
  row('state now', stateSpan(state[id] === IDLE && halted.has(id) ? 'halted' : STATE_NAMES[state[id]]));
  row('activations', String(st.entered));
  row('successes', String(st.success));
  row('failures', String(st.failure));
  row('halts', String(st.halts));
  row('longest run', `${st.longestRun} tick${st.longestRun === 1 ? '' : 's'} running`);
  const history = Model.windowTransitions(m).filter((tr) => tr.node === id);
  const table = html('table', { id: 'history' });
  table.append(html('thead'));
  table.tHead.append(html('tr'));
  for (const c of ['tick', 'event', 'from', 'to']) table.tHead.rows[0].append(html('th', {}, c));
  const body = html('tbody');
  for (const tr of history.slice(-200)) body.append(transitionRow(tr, false));
  table.append(body);
  box.replaceChildren(h, dl);
  if (n.kind === 'utility' || n.kind === 'pick') box.append(ScoresView.section(m, view.ti, view.k, id, state));
  renderContext(box);
  box.append(html('h4', {}, `Status history (${history.length} changes${history.length > 200 ? ', last 200 shown' : ''})`), table);
}

/**
 * The context values at the cursor, under the inspector: each name, its
 * value and the ticks where it changed (click one to go there). Within a
 * tick, before its last event, the values are those after the tick before.
 */
function renderContext(box) {
  const m = view.m, c = m.context;
  if (!c.keys.length) return;
  const ti = view.k < tickLen(view.ti) && view.ti > m.first ? view.ti - 1 : view.ti;
  const e = c.at[ti];
  const shown = e < 0 ? new Map() : c.values[e];
  const tick = m.ticks[ti].tick;
  const section = html('section', { id: 'context', 'data-tick': String(tick) });
  const from = e < 0 ? 'none recorded yet' : `after tick ${tick}`;
  section.append(html('h4', {}, `Context (${from})`));
  const table = html('table', { id: 'context-table' });
  table.append(html('thead'));
  table.tHead.append(html('tr'));
  for (const h of ['value', 'now', 'changed at tick']) table.tHead.rows[0].append(html('th', {}, h));
  const body = html('tbody');
  for (const key of c.keys) {
    const value = shown.get(key);
    const changes = c.changes.get(key);
    const row = html('tr', { 'data-key': key, 'data-changes': changes.map(([t]) => m.ticks[t].tick).join(',') });
    if (value !== undefined) row.dataset.value = value;
    if (changes.some(([t]) => t === ti)) row.className = 'changed';
    const ticksCell = html('td', { class: 'ticks' });
    const recent = changes.slice(-8);
    if (changes.length > recent.length) ticksCell.append(html('span', { class: 'hint' }, `${changes.length - recent.length} earlier… `));
    for (const [t, v] of recent) {
      const link = html('button', { 'data-ti': t, title: v === undefined ? 'no longer recorded' : `became ${v}` }, String(m.ticks[t].tick));
      if (t === ti) link.className = 'current';
      ticksCell.append(link);
    }
    const valueCell = html('td', { class: 'value', title: value || '' }, value === undefined ? '—' : value);
    const type = live.mayControl ? live.setters.get(key) : undefined;
    if (type) {
      row.dataset.editable = type;
      valueCell.append(' ', html('button', { class: 'edit', 'data-edit': key, title: `Set ${key} in the game (a ${type}, through the setter it provides)` }, 'edit'));
    }
    row.append(html('td', { class: 'label', title: key }, key), valueCell, ticksCell);
    body.append(row);
  }
  table.append(body);
  section.append(table);
  box.append(section);
}

function transitionRow(tr, full) {
  const m = view.m;
  const row = html('tr', { 'data-ti': tr.ti, 'data-k': tr.k, 'data-node': tr.node });
  if (tr.ti === view.ti && tr.k === view.k) row.className = 'current';
  row.append(html('td', {}, String(m.ticks[tr.ti].tick)), html('td', {}, String(tr.k)));
  if (full) {
    const n = m.nodes[tr.node];
    row.append(html('td', { class: 'label', title: n.label }, `#${n.id} ${n.label}`), html('td', {}, n.kind));
  }
  const to = tr.cause === 'halted' ? 'halted' : STATE_NAMES[tr.to];
  row.append(html('td', {}).appendChild(stateSpan(STATE_NAMES[tr.from])).parentNode);
  row.append(html('td', {}).appendChild(stateSpan(to)).parentNode);
  return row;
}

function renderEvents() {
  const box = $('#events'), m = view.m, t = m.ticks[view.ti];
  // Drawn when its tab is shown (a followed agent's ticks would rebuild it hidden, 20 times a second).
  if (!box.classList.contains('active')) return;
  const table = html('table', { id: 'events-table' });
  const body = html('tbody');
  for (let i = t.from; i < t.to; i++) {
    const j = i - t.from + 1;
    const n = m.node[i];
    const row = html('tr', { 'data-k': j });
    if (j === view.k) row.className = 'current';
    const name = Object.keys(EVENT_KINDS)[m.kind[i]];
    let what = '';
    if (m.kind[i] === EV_START) what = `tick ${t.tick}${t.now === null ? '' : ` at ${t.now} s`}`;
    else if (n >= 0) what = `#${n} ${m.nodes[n].label}`;
    if (m.kind[i] === EV_SCORED) what += `: child ${m.child[i]} scored ${Number.isNaN(m.score[i]) ? 'not a number' : m.score[i].toFixed(3)}`;
    const status = m.kind[i] === EV_TICKED || m.kind[i] === EV_FINISHED ? stateSpan(STATE_NAMES[m.status[i]]) : html('span');
    row.append(html('td', {}, String(j)), html('td', {}, name), html('td', { class: 'label', title: what }, what));
    row.append(html('td', {}).appendChild(status).parentNode);
    body.append(row);
  }
  table.append(body);
  const note = t.to === t.from ? html('p', { class: 'hint' }, 'No events in this tick.') : html('p', { class: 'hint' }, `Events of tick ${t.tick}; click one to show the tree just after it.`);
  box.replaceChildren(note, table);
}

function filteredTransitions() {
  const m = view.m;
  const q = $('#filter-node').value.trim().toLowerCase();
  const kind = $('#filter-kind').value, status = $('#filter-status').value;
  const idQuery = q.startsWith('#') ? Number(q.slice(1)) : NaN;
  return Model.windowTransitions(m).filter((tr) => {
    const n = m.nodes[tr.node];
    if (kind && n.kind !== kind) return false;
    if (status === 'halted' && tr.cause !== 'halted') return false;
    if (status && status !== 'halted' && (tr.cause === 'halted' || STATE_NAMES[tr.to] !== status)) return false;
    if (!q) return true;
    if (!Number.isNaN(idQuery)) return n.id === idQuery;
    return n.label.toLowerCase().includes(q);
  });
}

/** Fills the transitions table: now if its tab is shown, else when it is (a big trace has many). */
let transitionsStale = false;
function renderTransitions() {
  if (!view.m) return;
  transitionsStale = !$('#transitions').classList.contains('active');
  if (transitionsStale) {
    $('#transitions-table tbody').replaceChildren();
    return;
  }
  const rows = filteredTransitions();
  const body = $('#transitions-table tbody');
  body.replaceChildren(...rows.slice(0, MAX_TABLE_ROWS).map((tr) => transitionRow(tr, true)));
  const count = $('#transitions-count');
  count.textContent = `${rows.length} transition${rows.length === 1 ? '' : 's'}${rows.length > MAX_TABLE_ROWS ? `, first ${MAX_TABLE_ROWS} shown: narrow the filter` : ''}`;
  count.dataset.count = String(rows.length);
}

function markCurrentTransitions() {
  for (const row of all('#transitions-table tbody tr')) {
    row.classList.toggle('current', Number(row.dataset.ti) === view.ti && Number(row.dataset.k) === view.k);
  }
}

// ---------------------------------------------------------------- search and navigation

function runSearch() {
  const m = view.m, q = $('#search').value.trim().toLowerCase();
  view.matches = [];
  view.matchAt = -1;
  if (m && q) {
    const id = q.startsWith('#') ? Number(q.slice(1)) : /^\d+$/.test(q) ? Number(q) : NaN;
    for (const n of m.nodes) {
      if (n.id === id || n.label.toLowerCase().includes(q) || n.kind.toLowerCase() === q) view.matches.push(n.id);
    }
  }
  $('#search-count').textContent = q ? `${view.matches.length} found` : '';
  paint();
}
function nextMatch() {
  if (!view.matches.length) return;
  view.matchAt = (view.matchAt + 1) % view.matches.length;
  $('#search-count').textContent = `${view.matchAt + 1}/${view.matches.length}`;
  select(view.matches[view.matchAt], true);
}
function jumpToRunning() {
  const m = view.m;
  const state = stateAt(m, view.ti, view.k);
  const leaves = [];
  for (let id = 0; id < m.N; id++) {
    if (state[id] === RUNNING && !m.nodes[id].children.some((c) => state[c] === RUNNING)) leaves.push(id);
  }
  if (!leaves.length) return;
  const next = leaves.find((id) => view.selected === null || id > view.selected);
  select(next === undefined ? leaves[0] : next, true);
}
/**
 * Goes to the next (`dir` 1) or previous (-1) failure of the selected node,
 * or of any node when none is selected or `any` is set: to the event that
 * ticked it to failure, where it is drawn failed. Says so when there is none.
 */
function jumpToFailure(dir, any) {
  const m = view.m;
  const id = any ? null : view.selected;
  const at = Model.failureNear(m, view.ti, view.k, id, dir);
  const whose = id === null ? 'of any node' : `of #${id} ${m.nodes[id].label}`;
  const note = $('#failure-note');
  if (at === null) {
    note.textContent = `No ${dir > 0 ? 'later' : 'earlier'} failure ${whose} in ${live.following === null ? 'the trace' : 'the window'}.`;
    return;
  }
  reveal(at.node);
  seek(at.ti, at.k);
}
function moveSelection(how) {
  const m = view.m;
  if (view.selected === null) return select(0, true);
  const n = m.nodes[view.selected];
  const siblings = n.parent === null ? [0] : m.nodes[n.parent].children;
  const at = siblings.indexOf(n.id);
  let next = null;
  if (how === 'parent') next = n.parent;
  else if (how === 'child') next = visibleChildren(n.id)[0];
  else if (how === 'prev') next = siblings[at - 1];
  else if (how === 'next') next = siblings[at + 1];
  if (next !== null && next !== undefined) select(next, true);
}

// ---------------------------------------------------------------- permalinks

/** Links the address to the position shown, a moment after the last move (writing the address is slow). */
let fragmentTimer = null;
function writeFragment() {
  // A live window's position is no permalink (the next load has another window), and writing the address costs the browser a little each time.
  if (document.body.dataset.mode === 'live') return;
  if (fragmentTimer === null) {
    fragmentTimer = setTimeout(() => {
      fragmentTimer = null;
      if (view.m) linkPosition();
    }, 100);
  }
}
/** Writes a pending address now (before another trace replaces the position it names). */
function flushFragment() {
  if (fragmentTimer === null) return;
  clearTimeout(fragmentTimer);
  fragmentTimer = null;
  if (view.m) linkPosition();
}
function linkPosition() {
  const t = view.m.ticks[view.ti];
  let f = live.following === null ? `#tick=${t.tick}` : `#agent=${live.following}&tick=${t.tick}`;
  if (view.k !== t.to - t.from) f += `&event=${view.k}`;
  if (view.selected !== null) f += `&node=${view.selected}`;
  if (location.hash !== f) history.replaceState(null, '', f);
}
/** Goes to the tick, event and node of the address's fragment; `show`: pans to the node (false before the first layout). */
function applyFragment(show = true) {
  const m = view.m;
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.has('tick')) {
    const ti = tickIndex(Number(params.get('tick')));
    if (ti >= 0) {
      view.ti = ti;
      view.k = params.has('event') ? Math.min(Number(params.get('event')) || 0, tickLen(ti)) : tickLen(ti);
    }
  }
  const node = Number(params.get('node'));
  if (params.has('node') && Number.isInteger(node) && node >= 0 && node < m.N) {
    view.selected = node;
    if (show) reveal(node);
  }
}

// ---------------------------------------------------------------- export

/** The drawn tree as a standalone SVG document, with the page's tree styles inlined. */
function exportSvgText() {
  const L = view.layout, pad = 16;
  const svg = $('#tree').cloneNode(false);
  svg.removeAttribute('id');
  svg.removeAttribute('class');
  svg.append(tree.wholeTree());
  svg.setAttribute('viewBox', `${-pad} ${-pad} ${L.width + 2 * pad} ${L.height + 2 * pad + 14}`);
  svg.setAttribute('width', String(Math.round(L.width + 2 * pad)));
  svg.setAttribute('height', String(Math.round(L.height + 2 * pad + 14)));
  const rules = [];
  for (const sheet of document.styleSheets) {
    for (const rule of sheet.cssRules) {
      if (/^(:root|\.node|\.edge|\.visit)/.test(/** @type {CSSStyleRule} */ (rule).selectorText || '')) rules.push(rule.cssText);
    }
  }
  const style = svgEl('style', {});
  style.textContent = rules.join('\n') + '\ntext { font-family: system-ui, sans-serif; }';
  svg.insertBefore(style, svg.firstChild);
  return new XMLSerializer().serializeToString(svg);
}
function exportSvg() {
  if (!view.m) return;
  const blob = new Blob([exportSvgText()], { type: 'image/svg+xml' });
  const a = html('a', { href: URL.createObjectURL(blob), download: `${view.m.name.replace(/\.json$/, '')}.tick-${view.m.ticks[view.ti].tick}.svg` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// ---------------------------------------------------------------- wiring

function legend() {
  const box = $('#legend');
  box.replaceChildren(...['running', 'success', 'failure', 'halted', 'idle'].map(stateSpan));
}

function wire() {
  const on = (sel, ev, f) => $(sel).addEventListener(ev, f);
  on('#first', 'click', () => seek(view.m.first));
  on('#last', 'click', () => seek(view.m.ticks.length - 1));
  on('#prev-tick', 'click', () => stepTick(-1));
  on('#next-tick', 'click', () => stepTick(1));
  on('#prev-event', 'click', () => stepEvent(-1));
  on('#next-event', 'click', () => stepEvent(1));
  on('#play', 'click', togglePlay);
  on('#slider', 'input', (e) => seek(Number(e.target.value)));
  on('#fit', 'click', fitWhole);
  on('#zoom-in', 'click', () => zoomBy(1.25));
  on('#zoom-out', 'click', () => zoomBy(0.8));
  on('#export', 'click', exportSvg);
  on('#jump-running', 'click', jumpToRunning);
  on('#prev-failure', 'click', (e) => jumpToFailure(-1, e.shiftKey));
  on('#next-failure', 'click', (e) => jumpToFailure(1, e.shiftKey));
  on('#diff-go', 'click', goToDifference);
  on('#agent-filter', 'input', renderAgents);
  on('#agent-list', 'click', (e) => {
    const li = e.target.closest('li[data-agent]');
    if (li) follow(Number(li.dataset.agent));
  });
  on('#live-pause', 'click', togglePause);
  on('#live-save', 'click', saveWindow);
  on('#live-edit', 'click', replayInEditor);
  on('#game-pause', 'click', () => sendCommand({ control: 'pause' }));
  on('#game-resume', 'click', () => runGame('resume'));
  on('#game-step-frame', 'click', () => runGame('step-frame'));
  on('#game-step-event', 'click', () => runGame('step-event'));
  on('#break-toggle', 'click', toggleBreakpoint);
  on('#force-set', 'click', forceResult);
  on('#context-edit', 'submit', (e) => {
    e.preventDefault();
    sendEdit();
  });
  on('#edit-close', 'click', () => ($('#context-edit').hidden = true));
  on('#break-any-failure', 'change', (e) => sendCommand({ anyFailure: e.target.checked }));
  on('#diff-a', 'click', () => showSide('a'));
  on('#diff-b', 'click', () => showSide('b'));
  on('#open', 'click', () => $('#file').click());
  on('#file', 'change', (e) => openFile(e.target.files[0]));
  on('#search', 'input', runSearch);
  on('#search', 'keydown', (e) => {
    if (e.key === 'Enter') nextMatch();
    if (e.key === 'Escape') e.target.blur();
  });
  on('#help-button', 'click', () => ($('#help').hidden = !$('#help').hidden));
  on('#help-close', 'click', () => ($('#help').hidden = true));
  for (const id of ['#filter-node', '#filter-kind', '#filter-status']) {
    on(id, 'input', renderTransitions);
    on(id, 'change', renderTransitions);
  }
  on('#transitions-table', 'click', (e) => {
    const row = e.target.closest('tr[data-ti]');
    if (!row) return;
    view.selected = Number(row.dataset.node);
    seek(Number(row.dataset.ti), Number(row.dataset.k));
  });
  on('#inspector', 'click', (e) => {
    const edit = e.target.closest('button[data-edit]');
    if (edit) return openEdit(edit.dataset.edit, edit.closest('tr').dataset.value);
    const change = e.target.closest('button[data-ti]');
    if (change) return seek(Number(change.dataset.ti));
    const row = e.target.closest('tr[data-ti]');
    if (row) seek(Number(row.dataset.ti), Number(row.dataset.k));
  });
  on('#events', 'click', (e) => {
    const row = e.target.closest('tr[data-k]');
    if (row) seek(view.ti, Number(row.dataset.k));
  });
  on('#tabs', 'click', (e) => {
    const tab = e.target.dataset.tab;
    if (!tab) return;
    for (const b of all('#tabs button')) b.classList.toggle('active', b.dataset.tab === tab);
    for (const s of all('.tab')) s.classList.toggle('active', s.id === tab);
    if (tab === 'events' && view.m) renderEvents();
    if (tab === 'transitions' && transitionsStale) {
      renderTransitions();
      markCurrentTransitions();
    }
  });
  let lanesFrame = null;
  on('#lanes-box', 'scroll', () => {
    if (view.m && lanesFrame === null) {
      lanesFrame = requestAnimationFrame(() => {
        lanesFrame = null;
        paintLanes();
      });
    }
  });
  on('#markers', 'click', (e) => {
    const ti = tickFromCanvas(e, e.target);
    if (ti !== null) seek(ti);
  });
  on('#lanes', 'click', (e) => {
    const rect = e.target.getBoundingClientRect();
    const id = view.lanesRows[Math.floor((e.clientY - rect.top + $('#lanes-box').scrollTop) / LANE_H)];
    if (id !== undefined) view.selected = id;
    const ti = tickFromCanvas(e, e.target);
    if (ti !== null) seek(ti, view.ti === ti ? view.k : undefined);
    else paint();
  });

  // The tree: click selects, the fold mark or a double click collapses, drag pans, the wheel zooms.
  const svg = $('#tree');
  /** The node clicked: its SVG, or (drawn on the canvas) the box under the pointer. */
  const nodeAt = (e) => {
    const g = e.target.closest('.node');
    return g ? Number(g.dataset.id) : tree.nodeAt(e.clientX, e.clientY);
  };
  let drag = null;
  svg.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY, zx: view.zoom.x, zy: view.zoom.y, moved: false };
  });
  svg.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 4) return;
    if (!drag.moved) svg.setPointerCapture(e.pointerId);
    drag.moved = true;
    svg.classList.add('panning');
    view.zoom.x = drag.zx + dx;
    view.zoom.y = drag.zy + dy;
    applyZoom(true);
  });
  svg.addEventListener('pointerup', (e) => {
    const moved = drag && drag.moved;
    drag = null;
    svg.classList.remove('panning');
    if (moved || !view.m) return;
    const fold = e.target.closest('[data-fold]');
    if (fold) return toggleCollapse(Number(fold.dataset.fold));
    select(nodeAt(e), false);
  });
  svg.addEventListener('dblclick', (e) => {
    const id = nodeAt(e);
    if (id !== null) toggleCollapse(id);
  });
  svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    const rect = svg.getBoundingClientRect();
    zoomBy(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX - rect.left, e.clientY - rect.top, true);
  }, { passive: false });

  document.addEventListener('keydown', (e) => {
    if (!view.m || e.ctrlKey || e.metaKey || e.altKey) return;
    if (/** @type {Element} */ (e.target).closest('input, select, textarea')) return;
    const keys = {
      ArrowRight: () => (e.shiftKey ? stepEvent(1) : stepTick(1)),
      ArrowLeft: () => (e.shiftKey ? stepEvent(-1) : stepTick(-1)),
      Home: () => seek(view.m.first),
      End: () => seek(view.m.ticks.length - 1),
      ' ': togglePlay,
      ArrowUp: () => moveSelection('parent'),
      ArrowDown: () => moveSelection('child'),
      '[': () => moveSelection('prev'),
      ']': () => moveSelection('next'),
      Enter: () => view.selected !== null && toggleCollapse(view.selected),
      r: jumpToRunning,
      n: () => jumpToFailure(1, false),
      p: () => jumpToFailure(-1, false),
      N: () => jumpToFailure(1, true),
      P: () => jumpToFailure(-1, true),
      f: fitWhole,
      '+': () => zoomBy(1.25),
      '=': () => zoomBy(1.25),
      '-': () => zoomBy(0.8),
      '/': () => $('#search').focus(),
      '?': () => ($('#help').hidden = !$('#help').hidden),
      Escape: () => ($('#help').hidden = true),
    };
    const f = keys[e.key];
    if (f) {
      e.preventDefault();
      f();
    }
  });
  window.addEventListener('hashchange', () => {
    if (!view.m) return;
    applyFragment();
    paint();
  });
  window.addEventListener('resize', () => {
    if (!view.m) return;
    measureTimeline();
    drawLanes();
  });
  // The tree's view: resized with the window, or given its first size after being laid out without one.
  tree.whenResized(() => {
    if (!view.m) return;
    if (view.unsized) {
      relayout(view.unsized.fitting);
    } else if (!tree.measure()) {
      view.unsized = { fitting: false };
      return;
    } else {
      tree.render();
    }
    paint();
  });
  onDroppedFile(window, openFile);
}

// ---------------------------------------------------------------- two traces

/** Shows `which` ("a" or "b") of the compared traces, at the same position. */
function showSide(which) {
  const payload = view.diff[which], other = view.diff[which === 'a' ? 'b' : 'a'];
  for (const side of ['a', 'b']) $(`#diff-${side}`).classList.toggle('active', side === which);
  document.body.dataset.trace = which;
  // The other run beside this one, when both are traces of the same tree.
  const c = view.diff.comparison, both = c && c.error === undefined && payload.error === undefined && other.error === undefined;
  compare.setTrace(other.name, both ? other.trace : null);
  loadPayload(payload);
}

function showDiff(diff) {
  view.diff = diff;
  const c = diff.comparison;
  $('#diff').hidden = false;
  $('#diff-a').textContent = `first: ${diff.a.name}`;
  $('#diff-b').textContent = `second: ${diff.b.name}`;
  let text;
  if (c === null) text = 'The traces cannot be compared: one of them is not a valid trace.';
  else if (c.error !== undefined) text = `The traces cannot be compared: ${c.error}.`;
  else text = `${c.text[0].toUpperCase()}${c.text.slice(1)}.`;
  $('#diff-text').textContent = text;
  $('#diff-go').hidden = !(c && c.tick !== undefined);
  if (diff.b.error !== undefined) $('#diff-text').textContent += ` The second: ${diff.b.error}`;
  showSide('a');
  // Opened at the first difference (unless the address names a place).
  if (c && c.tick !== undefined && !new URLSearchParams(location.hash.slice(1)).has('tick')) goToDifference();
}

function goToDifference() {
  const c = view.diff && view.diff.comparison;
  if (!c || c.tick === undefined || !view.m) return;
  if (c.node !== null) view.selected = c.node;
  const ti = tickIndex(c.tick);
  if (c.node !== null) reveal(c.node);
  seek(ti, c.event);
}

// ---------------------------------------------------------------- live view

const live = {
  agents: [], version: 0, shown: false, socket: null, following: null, latest: null, trace: null, paused: false,
  /** Where the view was before the changes not drawn yet (see showLater), and when the last drawing was. */
  pending: null, drawnAt: -Infinity, stop: null, breakNodes: new Set(),
  /** The model whose context values (m.context) lag its ticks until it is next painted (see extendShown). */
  staleContext: null,
  /** Whether this page may control the game, and the values the game provides setters for (key: its JSON type). */
  mayControl: false, setters: new Map(),
  /** What showControl last showed (its arguments as JSON, with the stop), and for which model. */
  controlShown: '', controlModel: null,
  /** What the followed agent's nodes read, as the game declared it (null: not declared). @type {import('./dataflow.js').Flow | null} */
  flow: null,
};

function renderAgents() {
  const q = $('#agent-filter').value.trim().toLowerCase();
  const shown = live.agents.filter((a) => a.name.toLowerCase().includes(q));
  const items = shown.slice(0, MAX_TABLE_ROWS).map((a) => {
    const li = html('li', { 'data-agent': a.id });
    li.append(html('span', {}, a.name), html('span', { class: 'hint' }, `${a.nodes} nodes`));
    if (a.id === live.following) li.classList.add('current');
    if (a.gone) li.classList.add('gone');
    return li;
  });
  $('#agent-list').replaceChildren(...items);
  const more = shown.length > MAX_TABLE_ROWS ? `, first ${MAX_TABLE_ROWS} shown: narrow the filter` : '';
  $('#agents-count').textContent = `${shown.length} of ${live.agents.length} agents${more}`;
  $('#agents-count').dataset.count = String(shown.length);
}

/** Takes the agents that changed from a `/api/agents` answer (ids are places in the list). */
function mergeAgents(answer) {
  for (const a of answer.agents) live.agents[a.id] = a;
  live.version = answer.version;
  return answer.agents.length > 0;
}

/** Asks for the agents registered or gone since the last answer; redraws the list only if some did. */
async function refreshAgents() {
  try {
    const response = await fetch(`/api/agents?since=${live.version}`);
    if (mergeAgents(await response.json())) renderAgents();
  } catch (e) {
    $('#live-status').textContent = `The game's studio cannot be reached (${e.message}).`;
  }
}

function liveStatus() {
  const msg = live.latest;
  const agent = live.agents.find((a) => a.id === live.following);
  if (!msg) {
    $('#live-status').textContent = `Following ${agent ? agent.name : live.following}; waiting for its next tick.`;
    return;
  }
  const t = msg.trace;
  const last = t.events.length ? view.m.ticks[view.m.ticks.length - 1].tick : t.start.tick;
  const parts = [`Following ${msg.name}: ticks ${t.start.tick}–${last} in the window`];
  if (t.start.dropped_events) parts.push(`${t.start.dropped_events} older events left the window`);
  if (msg.dropped) parts.push(`${msg.dropped} events dropped because the page fell behind (history restarted ${msg.restarts}×)`);
  if (msg.gone) parts.push('the agent is gone');
  if (live.paused) parts.push('paused');
  $('#live-status').textContent = parts.join(' · ') + '.';
  $('#live-status').dataset.dropped = String(msg.dropped);
}

/**
 * Applies what the server sends after the first window: the new events and
 * context entries (an entry for the tick of the last one replaces it), and,
 * when the window dropped its oldest ticks, its new start (as many events
 * leave the front as the server folded into it).
 */
function appendWindow(t, a) {
  if (a.start) {
    t.events.splice(0, a.start.dropped_events - t.start.dropped_events);
    t.start = a.start;
    t.context = (t.context || []).filter((c) => c.tick >= a.start.tick);
  }
  for (const e of a.events) t.events.push(e);
  if (a.labels) t.labels = a.labels;
  const ctx = t.context || (t.context = []);
  for (const c of a.context) {
    const last = ctx.length ? ctx[ctx.length - 1].tick : -1;
    if (c.tick === last) ctx[ctx.length - 1] = c;
    else if (c.tick > last) ctx.push(c);
  }
}

/** The secret a game that opted in printed (`#token=` in the URL opened): a page on another machine controls the game with it. */
const CONTROL_TOKEN = new URLSearchParams(location.hash.slice(1)).get('token');

function follow(id) {
  if (live.socket) live.socket.close();
  live.following = id;
  live.setters = new Map();
  live.flow = null;
  $('#context-edit').hidden = true;
  live.latest = null;
  live.trace = null;
  live.shown = false;
  delete document.body.dataset.following;
  renderAgents();
  liveStatus();
  const query = CONTROL_TOKEN ? `?token=${encodeURIComponent(CONTROL_TOKEN)}` : '';
  const socket = new WebSocket(`ws://${location.host}/api/live/${id}${query}`);
  live.socket = socket;
  socket.onmessage = (message) => {
    if (socket !== live.socket) return;
    const msg = JSON.parse(message.data);
    if (msg.following !== undefined) {
      document.body.dataset.following = String(id);
      $('#game-controls').hidden = !msg.mayControl;
      live.mayControl = msg.mayControl;
      return;
    }
    if (msg.error !== undefined) {
      $('#game-state').textContent = `The game refused: ${msg.error}.`;
      live.controlShown = ''; // the next message shows the game's state again
      if (!$('#context-edit').hidden) {
        $('#edit-state').textContent = `The game refused: ${msg.error}.`;
        $('#edit-state').dataset.state = 'refused';
      }
      return;
    }
    const whole = msg.trace !== undefined;
    if (msg.flow !== undefined) live.flow = msg.flow;
    if (whole) live.trace = msg.trace;
    else if (msg.append && live.trace) appendWindow(live.trace, msg.append);
    if (!live.trace) return;
    msg.trace = live.trace;
    live.latest = msg;
    if (!live.paused) {
      // The model shown is this window's until a pause: then only a whole build catches up.
      const current = !whole && live.shown && view.m && view.m.name === msg.name;
      if (current && msg.append) extendShown(msg.append);
      else if (!current) {
        live.pending = null;
        loadPayload({ name: msg.name, trace: live.trace }, true);
      }
      live.shown = true;
    }
    if (msg.stops && msg.stops.length) showStop(msg.stops[0]);
    if (msg.setters) live.setters = new Map(msg.setters.map((/** @type {{key: string, type: string}} */ v) => [v.key, v.type]));
    if (msg.control) showControl(msg.control, msg.breaks);
    if (!live.pending) liveStatus();
  };
  socket.onclose = () => {
    if (socket === live.socket) $('#live-status').textContent += ' Disconnected from the game.';
  };
}

/**
 * The live view, with the agents listed; `editor`: the game serves the
 * editor too (`Studio::serve_with_editor`), at /edit.
 * @param {any} list
 * @param {boolean} editor
 */
function startLive(list, editor) {
  document.body.dataset.mode = 'live';
  mergeAgents(list);
  $('#agents-tab').hidden = false;
  $('#agents-tab').click();
  renderAgents();
  setInterval(refreshAgents, 2000);
  document.body.dataset.state = 'ready';
  $('#live-edit').hidden = !editor;
  const agent = new URLSearchParams(location.hash.slice(1)).get('agent');
  if (agent !== null && live.agents.some((a) => String(a.id) === agent)) follow(Number(agent));
}

/** Sends a command to the game through the followed agent's WebSocket (see the live routes' `command`). */
function sendCommand(command) {
  if (live.socket && live.socket.readyState === WebSocket.OPEN) live.socket.send(JSON.stringify(command));
}

const STOP_REASONS = { breakpoint: 'a breakpoint', anyFailure: 'a failure', nextEvent: 'a step to the next event' };

/**
 * The game stopped at an event of the followed agent (`stop`: event `event`
 * of tick `tick`, 0 its start): the view pauses there, on that event.
 */
function showStop(stop) {
  live.stop = stop;
  // A drawing still waiting (showLater) would move the view off the stop.
  live.pending = null;
  if (!live.paused) togglePause();
  else if (live.latest) loadPayload({ name: live.latest.name, trace: live.latest.trace }, true);
  seek(tickIndex(stop.tick), stop.event);
  document.body.dataset.stoppedAt = `${stop.tick}:${stop.event}`;
}

/** Shows the game's state (paused, its frame) and the agent's breakpoints. */
function showControl(control, breaks) {
  // Most messages of a followed agent change none of it: the panel is left alone then.
  const shown = JSON.stringify([control, breaks, live.stop]);
  if (shown === live.controlShown && live.controlModel === view.m) return;
  live.controlShown = shown;
  live.controlModel = view.m;
  document.body.dataset.gamePaused = String(control.paused);
  document.body.dataset.gameFrame = String(control.frame);
  let text = control.paused ? `Game paused at frame ${control.frame}` : `Game running (frame ${control.frame})`;
  if (control.paused && control.stoppedIn && live.stop) {
    text += `, stopped by ${STOP_REASONS[control.stoppedIn.reason] || control.stoppedIn.reason} at tick ${live.stop.tick}, event ${live.stop.event}`;
  }
  $('#game-state').textContent = text + '.';
  if (!breaks || !view.m) return;
  $('#break-any-failure').checked = breaks.anyFailure;
  const m = view.m;
  const items = breaks.nodes.flatMap((b) =>
    b.on.map((on) => {
      const label = m.nodes[b.node] ? m.nodes[b.node].label : `#${b.node}`;
      const li = html('li', { 'data-node': b.node, 'data-on': on }, `${label} (#${b.node}) ${on}`);
      const remove = html('button', { title: 'Remove this breakpoint' }, '×');
      remove.addEventListener('click', () => sendCommand({ break: { node: b.node, on, set: false } }));
      li.append(' ', remove);
      return li;
    }),
  );
  $('#break-list').replaceChildren(...items);
  live.breakNodes = new Set(breaks.nodes.map((b) => b.node));
  const forces = (breaks.forces || []).map((f) => {
    const label = m.nodes[f.node] ? m.nodes[f.node].label : `#${f.node}`;
    const li = html('li', { 'data-node': f.node, 'data-status': f.status }, `${label} (#${f.node}) forced ${f.status}${f.once ? ', once' : ''}`);
    const clear = html('button', { title: 'Let the leaf run its own code again' }, '×');
    clear.addEventListener('click', () => sendCommand({ force: { node: f.node, clear: true } }));
    li.append(' ', clear);
    return li;
  });
  $('#force-list').replaceChildren(...forces);
}

/** Opens the form that sets the game's value `key` (a context value with a setter), showing `value` (its JSON text now). */
function openEdit(key, value) {
  const form = $('#context-edit');
  form.hidden = false;
  form.dataset.key = key;
  $('#edit-key').textContent = key;
  $('#edit-type').textContent = live.setters.get(key) || '';
  $('#edit-value').value = value === undefined ? '' : value;
  $('#edit-state').textContent = '';
  delete $('#edit-state').dataset.state;
  $('#edit-value').focus();
}

/**
 * Sends the edit in the form: the text as JSON where it is (`3`, `true`,
 * `"Rex"`), else as a string; the server checks it against the setter's
 * type and answers what is wrong (shown in #edit-state).
 */
function sendEdit() {
  const key = $('#context-edit').dataset.key, text = $('#edit-value').value;
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    value = text;
  }
  if (live.setters.get(key) === 'string' && typeof value !== 'string') value = text;
  sendCommand({ set: { key, value } });
  $('#edit-state').textContent = `Sent ${key} = ${JSON.stringify(value)}: the game sets it at its next frame.`;
  $('#edit-state').dataset.state = 'sent';
}

/** Forces the selected leaf's result, as `#force-status` and `#force-once` say. */
function forceResult() {
  if (view.selected === null) {
    $('#game-state').textContent = 'Select a leaf first: its result is forced.';
    live.controlShown = ''; // the next message shows the game's state again
    return;
  }
  sendCommand({ force: { node: view.selected, status: $('#force-status').value, once: $('#force-once').checked } });
}

/** A breakpoint on the selected node, on what `#break-on` says (set, or cleared if set). */
function toggleBreakpoint() {
  if (view.selected === null) {
    $('#game-state').textContent = 'Select a node first: the breakpoint is on it.';
    live.controlShown = ''; // the next message shows the game's state again
    return;
  }
  const on = $('#break-on').value;
  const set = !$(`#break-list li[data-node='${view.selected}'][data-on='${on}']`);
  sendCommand({ break: { node: view.selected, on, set } });
}

/**
 * Sends the game `control` (resume, step-frame, step-event), and follows
 * it again with the view: a stop by an event, if one comes, pauses it there.
 */
function runGame(control) {
  live.stop = null;
  delete document.body.dataset.stoppedAt;
  sendCommand({ control });
  if (live.paused) togglePause();
}

function togglePause() {
  live.paused = !live.paused;
  if (live.paused) live.shown = false;
  drawPending();
  $('#live-pause').classList.toggle('paused', live.paused);
  $('#live-pause').textContent = live.paused ? 'Resume' : 'Pause';
  if (!live.paused && live.latest) {
    loadPayload({ name: live.latest.name, trace: live.latest.trace }, true);
    live.shown = true;
  }
  if (live.latest) liveStatus();
}

function saveWindow() {
  if (!live.latest) return;
  const blob = new Blob([JSON.stringify(live.latest.trace)], { type: 'application/json' });
  const a = html('a', { href: URL.createObjectURL(blob), download: `${live.latest.name.replace(/[^\w.#-]+/g, '_')}.trace.json` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** Where the live view hands a window to the editor's page (same origin): editor.js takes it once. */
const RECORDING_KEY = 'behaved-studio.recording';

/** Opens the editor in a new tab with the followed agent's window as the recording its previews replay. */
function replayInEditor() {
  if (!live.latest) {
    $('#live-status').textContent = 'Follow an agent first: its window is what the editor replays.';
    return;
  }
  try {
    localStorage.setItem(RECORDING_KEY, JSON.stringify({ name: live.latest.name, trace: live.latest.trace }));
  } catch (e) {
    $('#live-status').textContent = `The window is too big to hand to the editor (${e.name}): save it (Save window) and open it there with Recording….`;
    return;
  }
  window.open('/edit#recording', '_blank');
}

/**
 * Starts the page as its server says (`GET /api/mode`): the live view
 * (agents), two traces compared (a diff) or one trace. Only what the mode
 * serves is asked for, so no request of a page load fails.
 */
async function start() {
  const answer = await reached(request('/api/mode'));
  if (!answer) return;
  /** @type {{ mode: 'live' | 'diff' | 'trace', editor?: boolean }} */
  const { mode, editor } = await answer.json();
  if (mode === 'live') {
    const agents = await reached(fetch('/api/agents'));
    if (agents) startLive(await agents.json(), !!editor);
    return;
  }
  if (mode === 'trace') return fetchPayload(request('/api/trace'));
  const response = await reached(fetch('/api/diff'));
  if (response) showDiff(await response.json());
}

window.btStudio = {
  exportSvgText,
  timings,
  seek: (tick, event) => seek(tickIndex(tick), event),
  /** The ticks the timeline marks as failures, and whose (a node id, or null: any node's). */
  failureMarks: () => ({ of: view.markersOf, ticks: view.failureMarks.map((ti) => view.m.ticks[ti].tick) }),
  /** Where node `id`'s box is drawn (CSS pixels in the tree's view), for the tests of the canvas. */
  boxOnScreen: (id) => tree.boxOnScreen(id),
  /** The canvas's fill of each status (and of halted), to read its pixels back. */
  canvasFills: Object.fromEntries(['idle', 'running', 'success', 'failure', 'halted'].map((name, i) => [name, BtTreeView.FILLS[i]])),
  /** Draws on the canvas whenever more than `n` nodes are in view (1,500 unless told). */
  setSvgLimit: (n) => {
    tree.v.svgLimit = n;
    tree.render();
  },
};
legend();
wire();
start();

// behaved-studio's diff, side by side (used by studio.js): the other run of
// two compared traces, drawn beside the one the page replays, at the same
// tick and event, with the same layout and zoom (the traces share their node
// table), and its status lanes under it. The nodes whose state differs from
// the replayed run's at that position are outlined.
//
// Test hooks: #compare[data-tick][data-event] is the position drawn; its
// nodes are `#viewport-b .node` with data-id and data-status (tree-view.js);
// #lanes-b[data-rows] is the number of lanes drawn.
// @ts-check
import * as Model from './trace-model.js';
import * as BtTreeView from './tree-view.js';

const { IDLE, RUNNING, SUCCESS, FAILURE, stateAt, haltedIn, visitOrder } = Model;
const COLORS = ['#9a9a9a', '#0072b2', '#009e73', '#d55e00'];
const LANE_LABEL = 120, LANE_H = 12;
/** @type {(sel: string) => any} */
const $ = (sel) => document.querySelector(sel);

/**
 * The other run's pane. `describe(id)` gives a node's look as studio.js's
 * tree view has it (the tables are the same).
 * @param {(id: number) => { kind: string, label: string, title: string, children: boolean, hidden: number }} describe
 */
function create(describe) {
  const tree = BtTreeView.create($('#tree-b'), $('#viewport-b'), $('#tree-canvas-b'), describe);
  /** @type {{ m: import('./trace-model.js').Model | null, name: string, rows: number[] }} */
  const side = { m: null, name: '', rows: [] };

  /** Shows trace `trace` (named `name`) beside the page's; null hides the pane. */
  function setTrace(name, trace) {
    $('#compare').hidden = trace === null;
    side.m = trace === null ? null : Model.build(name, trace);
    side.name = name;
    $('#compare-title').textContent = trace === null ? '' : name;
  }

  /** Takes the page's layout (of the same table), its zoom object and each node's shown children. */
  function setLayout(layout, zoom, kidsOf) {
    if (!side.m) return;
    const m = side.m;
    tree.measure();
    tree.v.zoom = zoom;
    tree.setLayout(layout, m.N, (id) => m.nodes[id].parent, kidsOf);
    side.rows = layout.order;
  }

  /** Applies the page's zoom and draws what came into view. */
  function applyZoom() {
    if (!side.m || !tree.v.layout) return;
    const z = tree.v.zoom;
    $('#viewport-b').setAttribute('transform', `translate(${z.x},${z.y}) scale(${z.s})`);
    $('#tree-b').classList.toggle('far', $('#tree').classList.contains('far'));
    tree.measure();
    tree.render();
  }

  /**
   * Draws the other run after event `k` of tick number `tick` (all of its
   * events if it has fewer), outlining the nodes whose state differs from
   * `state` (the replayed run's there), and its lanes with the cursor there.
   * @param {number} tick
   * @param {number} k
   * @param {ArrayLike<number>} state
   */
  function paint(tick, k, state) {
    const m = side.m;
    if (!m || !tree.v.layout) return;
    let ti = -1;
    for (let i = m.first; i < m.ticks.length; i++) if (m.ticks[i].tick === tick) ti = i;
    const pane = $('#compare');
    if (ti < 0) {
      pane.dataset.tick = '';
      pane.dataset.event = '';
      $('#compare-note').textContent = `${side.name} has no tick ${tick}.`;
      return;
    }
    const t = m.ticks[ti], kb = Math.min(k, t.to - t.from);
    const mine = stateAt(m, ti, kb), halted = haltedIn(m, ti, kb), visits = visitOrder(m, ti, kb);
    const differs = new Set();
    for (let id = 0; id < m.N; id++) if (mine[id] !== state[id]) differs.add(id);
    const lastNode = kb > 0 ? m.node[t.from + kb - 1] : -1;
    tree.paint({ state: mine, halted, visits, lastNode, matches: differs, selected: null });
    pane.dataset.tick = String(tick);
    pane.dataset.event = String(kb);
    $('#compare-note').textContent = differs.size ? `${differs.size} node${differs.size > 1 ? 's' : ''} differ here (outlined)` : 'the same here';
    paintLanes(ti);
  }

  /** The other run's lanes: each shown node's state tick by tick (running full, success low, failure high), the cursor at `ti`. */
  function paintLanes(ti) {
    const m = side.m, canvas = $('#lanes-b'), dpr = window.devicePixelRatio || 1;
    const w = canvas.clientWidth || 400, h = canvas.clientHeight || 120;
    const rows = side.rows.slice(0, Math.floor(h / LANE_H));
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.font = '10px system-ui';
    const n = m.ticks.length - m.first, x = (i) => LANE_LABEL + ((i - m.first) / n) * (w - LANE_LABEL);
    rows.forEach((id, r) => {
      const y = r * LANE_H;
      ctx.fillStyle = '#333';
      ctx.fillText(`#${id} ${m.nodes[id].label}`.slice(0, 22), 2, y + 9);
      const lane = m.changes[id];
      lane.forEach(([from, s], j) => {
        const to = j + 1 < lane.length ? lane[j + 1][0] : m.ticks.length;
        if (s === IDLE || to <= m.first) return;
        const x0 = x(Math.max(from, m.first)), x1 = Math.max(x0 + 1, x(to));
        ctx.fillStyle = COLORS[s];
        if (s === RUNNING) ctx.fillRect(x0, y + 1, x1 - x0, LANE_H - 2);
        else if (s === SUCCESS) ctx.fillRect(x0, y + LANE_H / 2, x1 - x0, LANE_H / 2 - 1);
        else if (s === FAILURE) ctx.fillRect(x0, y + 1, x1 - x0, LANE_H / 2 - 1);
      });
    });
    ctx.fillStyle = '#000';
    ctx.fillRect(x(ti) + (w - LANE_LABEL) / n / 2 - 1, 0, 2, h);
    canvas.dataset.rows = String(rows.length);
  }

  /** The height of the other run's tree view (0 when hidden). */
  const height = () => (side.m ? $('#tree-b').clientHeight : 0);

  return { side, setTrace, setLayout, applyZoom, paint, height };
}

export { create };

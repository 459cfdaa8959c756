// behaved-studio's model of a trace (used by studio.js): the events as typed
// arrays, split into ticks, replayed once with the rules of behaved-observe's
// StatusSnapshot and Cursor: the state "at tick t" is the state after every
// event before tick t + 1's tick_started. A position is a tick index and a
// number of that tick's events applied.
//
// A live window grows at its end and drops its oldest ticks: `extend`
// replays only the new events and `dropFront` only moves where the window
// starts (`m.first`, the tick whose end state is the window's start). The
// dropped ticks' data stays until `needsCompaction` says the model holds more
// dropped ticks than shown ones; then the page builds it afresh from the
// window, so each event costs a bounded amount of work however long the game
// runs.
// @ts-check

/**
 * The model of a trace (see `build`): its nodes with their children, the
 * events as typed arrays, the ticks, the transitions and failures, the
 * window's start and the context values.
 * @typedef {{ name: string, nodes: Array<TraceNode & { children: number[], end: number, depth: number }>, N: number, E: number, kind: Uint8Array, node: Int32Array, status: Uint8Array, child: Int32Array, score: Float32Array, ticks: Array<{ tick: number, now: number | null, from: number, to: number, root: number | null, halts: number }>, first: number, [more: string]: any }} Model
 */
/**
 * A node of a trace's table (behaved-observe's JSON form).
 * @typedef {{ id: number, parent: number | null, kind: string, label: string, line: number }} TraceNode
 */
/**
 * One event (behaved-observe's JSON form): `event` is tick_started,
 * entered, ticked, halted, scored (a `utility` node's score of its child
 * `child`; `score` null when not a number), considered (part `part` of that
 * score, `value`, its label the trace's `labels[label]`) or tick_finished.
 * @typedef {{ event: string, tick?: number, now?: number, node?: number, status?: string, child?: number, score?: number | null, part?: number, label?: number, value?: number | null }} TraceEvent
 */
/**
 * A trace as the server sends it.
 * @typedef {{ nodes: TraceNode[], start: { tick: number, now: number | null, statuses: string[] }, labels?: string[], events: TraceEvent[], context?: Array<{ tick: number, values: unknown }> }} Trace
 */

const IDLE = 0, RUNNING = 1, SUCCESS = 2, FAILURE = 3;
const STATE_CODES = { idle: IDLE, running: RUNNING, success: SUCCESS, failure: FAILURE };
const EV_START = 0, EV_ENTERED = 1, EV_TICKED = 2, EV_HALTED = 3, EV_FINISHED = 4, EV_SCORED = 5, EV_CONSIDERED = 6;
const EVENT_KINDS = { tick_started: EV_START, entered: EV_ENTERED, ticked: EV_TICKED, halted: EV_HALTED, tick_finished: EV_FINISHED, scored: EV_SCORED, considered: EV_CONSIDERED };
const CHECKPOINT_EVERY = 32;
/** Dropped ticks kept at most before the model is built afresh (and never more than it shows). */
const COMPACT_AFTER = 4096;

/**
 * The model of `trace` (behaved-observe's JSON form): its tree, start and events.
 * @param {string} name
 * @param {Trace} trace
 * @returns {Model}
 */
function build(name, trace) {
  const nodes = trace.nodes.map((n) => ({ ...n, children: [], end: n.id + 1, depth: 0 }));
  for (const n of nodes) {
    if (n.parent !== null) {
      nodes[n.parent].children.push(n.id);
      n.depth = nodes[n.parent].depth + 1;
    }
  }
  for (let i = nodes.length - 1; i > 0; i--) {
    const p = nodes[i].parent;
    nodes[p].end = Math.max(nodes[p].end, nodes[i].end);
  }
  const N = nodes.length;
  const start = Uint8Array.from(trace.start.statuses, (s) => STATE_CODES[s]);
  const m = {
    name, nodes, N,
    E: 0,
    kind: new Uint8Array(0), node: new Int32Array(0), status: new Uint8Array(0),
    // A scored event's child and score (NaN: not a number), a considered
    // event's child, value and label (an index in `labels`); unused by other events.
    child: new Int32Array(0), score: new Float32Array(0), label: new Int32Array(0),
    labels: trace.labels || [],
    // Tick index 0 is the start: the events before the first tick_started (normally none).
    ticks: [{ tick: trace.start.tick, now: trace.start.now, from: 0, to: 0, root: null, halts: 0 }],
    end: Int32Array.from(nodes, (n) => n.end),
    /** The first tick index of the window, and the state at its end. */
    first: 0,
    base: start,
    /** The state after tick index 32 c, by c. */
    checkpoints: [],
    /** Every change of a node's state; those of the window from index `transFrom`. */
    transitions: [],
    transFrom: 0,
    changes: nodes.map((n) => [[0, start[n.id]]]), // per node: [tick index, state at that tick's end]
    halts: nodes.map(() => []), // per node: tick indexes with a halted event
    /** The index of every event that ticked a node to failure; `failuresOf[n]` those of node n. */
    failures: [],
    failuresOf: nodes.map(() => []),
    kinds: [...new Set(nodes.map((n) => n.kind))].sort(),
    context: null,
    /** The replay's state after the last event, and the nodes it changed in the last tick. */
    replay: { state: start.slice(), touched: new Set() },
  };
  extend(m, trace.events);
  setContext(m, trace.context || []);
  return m;
}

/** Room for `n` events in the typed arrays (grown by doubling). */
function reserve(m, n) {
  if (m.kind.length >= n) return;
  const cap = Math.max(n, 2 * m.kind.length, 1024);
  const grow = (old, Type) => {
    const a = new Type(cap);
    a.set(old.subarray(0, m.E));
    return a;
  };
  m.kind = grow(m.kind, Uint8Array);
  m.node = grow(m.node, Int32Array);
  m.status = grow(m.status, Uint8Array);
  m.child = grow(m.child, Int32Array);
  m.score = grow(m.score, Float32Array);
  m.label = grow(m.label, Int32Array);
}

/**
 * Appends `events` (JSON) and replays them: transitions, lanes, markers and checkpoints.
 * @param {Model} m
 * @param {TraceEvent[]} events
 */
function extend(m, events) {
  reserve(m, m.E + events.length);
  const { state, touched } = m.replay;
  const { kind, node, status, ticks, transitions, halts, failures, failuresOf } = m;
  let ti = ticks.length - 1, t = ticks[ti], i = m.E;
  const onChange = (d, from, to, cause) => {
    transitions.push({ ti, k: i - t.from + 1, node: d, from, to, cause });
    touched.add(d);
  };
  for (const e of events) {
    const k = EVENT_KINDS[e.event];
    kind[i] = k;
    node[i] = e.node === undefined ? -1 : e.node;
    status[i] = e.status === undefined ? 0 : STATE_CODES[e.status];
    if (k === EV_SCORED) {
      m.child[i] = e.child ?? -1;
      m.score[i] = typeof e.score === 'number' ? e.score : NaN;
    } else if (k === EV_CONSIDERED) {
      m.child[i] = e.child ?? -1;
      m.score[i] = typeof e.value === 'number' ? e.value : NaN;
      m.label[i] = e.label ?? -1;
    }
    if (k === EV_START) {
      t.to = i;
      finishTick(m, ti);
      ti++;
      t = { tick: e.tick, now: e.now, from: i, to: i, root: null, halts: 0 };
      ticks.push(t);
    } else if (k === EV_HALTED) {
      halts[node[i]].push(ti);
      t.halts++;
    } else if (k === EV_FINISHED) {
      t.root = status[i];
    } else if (k === EV_TICKED && status[i] === FAILURE) {
      failures.push(i);
      failuresOf[node[i]].push(i);
    }
    applyEvent(m, state, i, onChange);
    i++;
  }
  t.to = i;
  m.E = i;
  // The last tick may go on in the next events: finishing it again then corrects its lanes and checkpoint.
  finishTick(m, ti);
}

/** Notes the state at the end of tick index `ti`: the lanes of the nodes it changed, and a checkpoint. */
function finishTick(m, ti) {
  const { state, touched } = m.replay;
  for (const d of touched) {
    const lane = m.changes[d];
    if (lane[lane.length - 1][1] !== state[d]) {
      if (lane[lane.length - 1][0] === ti) lane.pop();
      if (lane.length === 0 || lane[lane.length - 1][1] !== state[d]) lane.push([ti, state[d]]);
    }
  }
  touched.clear();
  if (ti % CHECKPOINT_EVERY === 0) m.checkpoints[ti / CHECKPOINT_EVERY] = state.slice();
}

/**
 * Starts the window at `start` (behaved-observe's TraceStart: the tick whose end
 * state it holds): that tick becomes the window's first, with no events of
 * its own. False if the model does not hold that tick (build it afresh).
 * @param {Model} m
 * @param {{ tick: number, now: number | null, statuses: string[] }} start
 * @returns {boolean}
 */
function dropFront(m, start) {
  let f = m.first;
  while (f < m.ticks.length && m.ticks[f].tick !== start.tick) f++;
  if (f === m.ticks.length) return false;
  const t = m.ticks[f];
  Object.assign(t, { now: start.now, from: t.to, root: null, halts: 0 });
  m.first = f;
  m.base = Uint8Array.from(start.statuses, (s) => STATE_CODES[s]);
  while (m.transFrom < m.transitions.length && m.transitions[m.transFrom].ti <= f) m.transFrom++;
  return true;
}

/** Whether the model holds more dropped ticks than it is worth keeping. */
const needsCompaction = (m) => m.first > COMPACT_AFTER && m.first > m.ticks.length - m.first;

/** The transitions in the window. */
const windowTransitions = (m) => (m.transFrom ? m.transitions.slice(m.transFrom) : m.transitions);

/** `value` as named leaves: objects are opened (`pos.x`), anything else is one value shown as JSON. */
function flatten(value, prefix, out) {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length) {
    for (const k of Object.keys(value)) flatten(value[k], prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.set(prefix || 'value', JSON.stringify(value));
  }
  return out;
}

/**
 * Takes the window's context entries (a few per tick at most; cheap to
 * take again when they change): `at[ti]` is the entry in force at the end
 * of tick index ti (the tick's own, or the last before it; -1: none),
 * `values[e]` entry e's named values, and `changes` per name the tick
 * indexes where its value changed (appeared, or went: `undefined`).
 * @param {Model} m
 * @param {Array<{ tick: number, values: unknown }>} entries
 */
function setContext(m, entries) {
  const ticks = m.ticks;
  const at = new Int32Array(ticks.length).fill(-1);
  const values = [], changes = new Map();
  let e = 0, last = new Map();
  while (e < entries.length && entries[e].tick < ticks[m.first].tick) e++;
  for (let ti = m.first; ti < ticks.length; ti++) {
    if (e < entries.length && entries[e].tick === ticks[ti].tick) {
      const now = flatten(entries[e].values, '', new Map());
      for (const [k, v] of now) {
        if (last.get(k) !== v) {
          if (!changes.has(k)) changes.set(k, []);
          changes.get(k).push([ti, v]);
        }
      }
      for (const [k] of last) if (!now.has(k)) changes.get(k).push([ti, undefined]);
      values.push(now);
      last = now;
      e++;
    }
    at[ti] = values.length - 1;
  }
  m.context = { at, values, changes, keys: [...changes.keys()] };
}

/** Applies event `i` to `state`; `onChange(node, from, to, cause)` hears every change. */
function applyEvent(m, state, i, onChange) {
  const k = m.kind[i], n = m.node[i];
  const set = (d, s, cause) => {
    if (state[d] !== s) {
      if (onChange) onChange(d, state[d], s, cause);
      state[d] = s;
    }
  };
  if (k === EV_TICKED) {
    const s = m.status[i];
    if (s !== RUNNING) {
      for (let d = n + 1; d < m.end[n]; d++) if (state[d] !== IDLE) set(d, IDLE, 'reset');
    }
    set(n, s, 'ticked');
  } else if (k === EV_HALTED) {
    for (let d = n; d < m.end[n]; d++) if (state[d] !== IDLE) set(d, IDLE, 'halted');
  }
}

/**
 * The state after the first `k` events of tick index `ti` (at or after `m.first`).
 * @param {Model} m
 * @param {number} ti
 * @param {number} k
 * @returns {Uint8Array}
 */
function stateAt(m, ti, k) {
  let state, t0;
  const c = Math.floor((ti - 1) / CHECKPOINT_EVERY);
  if (ti === m.first) {
    state = m.base.slice();
    t0 = ti;
  } else if (c * CHECKPOINT_EVERY >= m.first) {
    state = m.checkpoints[c].slice();
    t0 = c * CHECKPOINT_EVERY + 1;
  } else {
    state = m.base.slice();
    t0 = m.first + 1;
  }
  for (let t = t0; t < ti; t++) {
    for (let i = m.ticks[t].from; i < m.ticks[t].to; i++) applyEvent(m, state, i);
  }
  const t = m.ticks[ti];
  for (let i = t.from; i < t.from + k; i++) applyEvent(m, state, i);
  return state;
}

/**
 * The nodes visited in the first `k` events of tick `ti`, numbered in visit order.
 * @param {Model} m
 * @param {number} ti
 * @param {number} k
 * @returns {Map<number, number>}
 */
function visitOrder(m, ti, k) {
  const order = new Map();
  const t = m.ticks[ti];
  const visit = (n) => {
    if (order.has(n)) return;
    const p = m.nodes[n].parent;
    if (p !== null) visit(p);
    order.set(n, order.size + 1);
  };
  for (let i = t.from; i < t.from + k; i++) {
    if (m.kind[i] === EV_ENTERED || m.kind[i] === EV_TICKED) visit(m.node[i]);
  }
  return order;
}

/**
 * The nodes with a halted event in the first `k` events of tick `ti`.
 * @param {Model} m
 * @param {number} ti
 * @param {number} k
 * @returns {Set<number>}
 */
function haltedIn(m, ti, k) {
  const halted = new Set();
  const t = m.ticks[ti];
  for (let i = t.from; i < t.from + k; i++) if (m.kind[i] === EV_HALTED) halted.add(m.node[i]);
  return halted;
}

/**
 * Node `id`'s counts in the window: activations, successes, failures, halts and its longest run (in ticks).
 * @param {Model} m
 * @param {number} id
 */
function statsOf(m, id) {
  const st = { entered: 0, success: 0, failure: 0, halts: 0, longestRun: 0 };
  for (let i = m.ticks[m.first].from; i < m.E; i++) {
    if (m.node[i] !== id) continue;
    const k = m.kind[i];
    if (k === EV_ENTERED) st.entered++;
    else if (k === EV_TICKED && m.status[i] === SUCCESS) st.success++;
    else if (k === EV_TICKED && m.status[i] === FAILURE) st.failure++;
    else if (k === EV_HALTED) st.halts++;
  }
  const lane = m.changes[id];
  lane.forEach(([from, s], j) => {
    if (s !== RUNNING) return;
    const to = j + 1 < lane.length ? lane[j + 1][0] : m.ticks.length;
    st.longestRun = Math.max(st.longestRun, to - Math.max(from, m.first));
  });
  return st;
}

/** The first index in `lo..hi` for which `before` is false (`before` holds for a prefix of them). */
function partitionPoint(lo, hi, before) {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The tick index of event `i` (of the window): the last tick that starts at or before it. */
const tickOf = (m, i) =>
  Math.max(m.first, partitionPoint(m.first, m.ticks.length, (t) => m.ticks[t].from <= i) - 1);

/** The failure events of node `id` (of any node when `id` is null), ascending; those before the window included. */
const failureEvents = (m, id) => (id === null ? m.failures : m.failuresOf[id]);

/**
 * The nearest failure of node `id` (any node when null) in the window
 * after (`dir` 1) or before (`dir` -1) the position `ti`, `k`: the position
 * just after its ticked event, `{ ti, k, node }`, where the failed node is
 * drawn failed; null when there is none.
 * @param {Model} m
 * @param {number} ti
 * @param {number} k
 * @param {number | null} id
 * @param {1 | -1} dir
 * @returns {{ ti: number, k: number, node: number } | null}
 */
function failureNear(m, ti, k, id, dir) {
  const list = failureEvents(m, id);
  const at = m.ticks[ti].from + k; // events applied at the position
  const first = m.ticks[m.first].from;
  // The first failure event at or after `at` (applying it moves past the position).
  const lo = partitionPoint(0, list.length, (j) => list[j] < at);
  // Before: the last one whose position (event + 1) is before `at`.
  let j = dir > 0 ? lo : lo - 1;
  if (dir < 0 && j >= 0 && list[j] + 1 >= at) j--;
  if (j < 0 || j >= list.length || list[j] < first) return null;
  const i = list[j], fti = tickOf(m, i);
  return { ti: fti, k: i - m.ticks[fti].from + 1, node: m.node[i] };
}

/**
 * The tick indexes of the window in which node `id` (any node when null) failed, ascending, each once.
 * @param {Model} m
 * @param {number | null} id
 * @returns {number[]}
 */
function failureTicks(m, id) {
  const out = [], first = m.ticks[m.first].from;
  let ti = m.first;
  for (const i of failureEvents(m, id)) {
    if (i < first) continue;
    while (ti + 1 < m.ticks.length && m.ticks[ti + 1].from <= i) ti++;
    if (out[out.length - 1] !== ti) out.push(ti);
  }
  return out;
}

/**
 * The last scoring of `utility` node `id` at or before the position (tick index
 * `ti`, `k` events applied) within the window: the tick index it happened in and
 * each child's score in child order (NaN: not a number), or null when the
 * window holds none; with each child's parts (`parts[c]`: label and value, in
 * order; none when the recorder did not consider). A scoring is the run of the
 * node's `scored` events, one per child, each after its `considered` parts,
 * that the tree reports at once.
 * @param {Model} m
 * @param {number} ti
 * @param {number} k
 * @param {number} id
 * @returns {{ ti: number, scores: number[], parts: Array<Array<{ label: string, value: number }>> } | null}
 */
function scoresAt(m, ti, k, id) {
  const first = m.ticks[m.first].from;
  let i = m.ticks[ti].from + k - 1;
  while (i >= first && !(m.kind[i] === EV_SCORED && m.node[i] === id)) i--;
  if (i < first) return null;
  // Back to the scoring's first score, then over its first child's parts (reported just before it).
  const ofScoring = (j) => (m.kind[j] === EV_SCORED || m.kind[j] === EV_CONSIDERED) && m.node[j] === id;
  while (i > first && !(m.kind[i] === EV_SCORED && m.child[i] === 0) && ofScoring(i - 1)) i--;
  while (i > first && m.kind[i - 1] === EV_CONSIDERED && m.node[i - 1] === id && m.child[i - 1] === 0) i--;
  /** @type {number[]} */
  const scores = [];
  /** @type {Array<Array<{ label: string, value: number }>>} */
  const parts = [];
  for (let j = i; j < m.E && ofScoring(j) && m.child[j] === scores.length; j++) {
    if (m.kind[j] === EV_SCORED) {
      scores.push(m.score[j]);
    } else {
      (parts[m.child[j]] ||= []).push({ label: m.labels[m.label[j]] ?? '', value: m.score[j] });
    }
  }
  let at = ti;
  while (at > m.first && m.ticks[at].from > i) at--;
  return { ti: at, scores, parts };
}

/**
 * Each child's score of `utility` node `id` over the window, for a lane: per
 * tick index from `m.first` on, the tick's last scoring (null when the node did
 * not score in that tick).
 * @param {Model} m
 * @param {number} id
 * @returns {Array<number[] | null>}
 */
function scoreLanes(m, id) {
  const lanes = [];
  for (let ti = m.first; ti < m.ticks.length; ti++) {
    const t = m.ticks[ti];
    let last = null;
    for (let i = t.from; i < t.to; i++) {
      if (m.kind[i] !== EV_SCORED || m.node[i] !== id) continue;
      if (m.child[i] === 0) last = [];
      if (last) last.push(m.score[i]);
    }
    lanes.push(last);
  }
  return lanes;
}

export {
  IDLE, RUNNING, SUCCESS, FAILURE, EV_START, EV_ENTERED, EV_TICKED, EV_HALTED, EV_FINISHED, EV_SCORED, EV_CONSIDERED, EVENT_KINDS,
  scoresAt, scoreLanes,
  build, extend, dropFront, needsCompaction, windowTransitions, setContext, stateAt, visitOrder, haltedIn, statsOf,
  failureNear, failureTicks,
};

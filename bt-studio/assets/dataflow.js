// behaved-studio's data flow, without the page: what each node reads (as the
// game declared it, behaved_observe::DataFlow) and why the agent woke at each
// tick (the wake recorded in the tick's context under behaved_observe::WOKE_KEY).
// Pure: the page's data-flow panel (dataflow-view.js) draws what this works out.
// @ts-check

/** The context key under which a tick's wake is recorded (behaved_observe::WOKE_KEY). */
export const WOKE_KEY = 'behaved.woke';

/**
 * A data flow as the server sends it: per node, its reads (`null`: unknown),
 * and the blackboard entries its ports read and write, where known.
 * @typedef {{ nodes: Array<{ reads: string[] | null, entries_read?: string[], entries_written?: string[] }> }} Flow
 */

/**
 * One node's row of the data-flow table.
 * @typedef {{ id: number, label: string, kind: string, reads: string[] | null, entriesRead: string[], entriesWritten: string[] }} FlowRow
 */

/**
 * A recorded wake: the tick it started, its cause, and for a change the
 * inputs named (and whether some had no name the tree reads).
 * @typedef {{ tick: number, cause: string, inputs: string[], unnamed: boolean }} Wake
 */

/**
 * The rows of the data-flow table: every node whose reads matter (it reads
 * something, or what it reads is unknown, or its ports name blackboard
 * entries); nodes that read nothing of their own (composites, decorators,
 * `success`) are left out. `null` when the
 * game declared no data flow or it does not fit the node table.
 * @param {Flow | null | undefined} flow
 * @param {Array<{ id: number, label: string, kind: string }>} nodes
 * @returns {FlowRow[] | null}
 */
export function flowRows(flow, nodes) {
  if (!flow || !Array.isArray(flow.nodes) || flow.nodes.length !== nodes.length) return null;
  const rows = [];
  for (const n of nodes) {
    const f = flow.nodes[n.id];
    const known = Array.isArray(f.reads);
    const entriesRead = Array.isArray(f.entries_read) ? f.entries_read : [];
    const entriesWritten = Array.isArray(f.entries_written) ? f.entries_written : [];
    if (known && f.reads.length === 0 && entriesRead.length === 0) continue;
    rows.push({ id: n.id, label: n.label, kind: n.kind, reads: known ? f.reads : null, entriesRead, entriesWritten });
  }
  return rows;
}

/**
 * Every field some node reads, sorted.
 * @param {Flow | null | undefined} flow
 * @returns {string[]}
 */
export function fieldsOf(flow) {
  if (!flow || !Array.isArray(flow.nodes)) return [];
  const set = new Set();
  for (const n of flow.nodes) for (const f of n.reads || []) set.add(f);
  return [...set].sort();
}

/**
 * The ids of the nodes that read `field`.
 * @param {Flow | null | undefined} flow
 * @param {string} field
 * @returns {number[]}
 */
export function readersOf(flow, field) {
  if (!flow || !Array.isArray(flow.nodes)) return [];
  const out = [];
  flow.nodes.forEach((n, id) => {
    if (n.reads && n.reads.includes(field)) out.push(id);
  });
  return out;
}

/**
 * The wakes recorded in a trace's context entries (`{tick, values}`), in tick order.
 * @param {Array<{ tick: number, values: any }> | null | undefined} context
 * @returns {Wake[]}
 */
export function wakesOf(context) {
  const out = [];
  for (const entry of context || []) {
    const w = entry && entry.values && typeof entry.values === 'object' ? entry.values[WOKE_KEY] : undefined;
    if (!w || typeof w.cause !== 'string') continue;
    out.push({
      tick: entry.tick,
      cause: w.cause,
      inputs: Array.isArray(w.inputs) ? w.inputs.filter((i) => typeof i === 'string') : [],
      unnamed: w.unnamed === true,
    });
  }
  return out;
}

/**
 * The wake that started tick `tick`, if one was recorded.
 * @param {Wake[]} wakes (in tick order)
 * @param {number} tick
 * @returns {Wake | undefined}
 */
export function wakeAt(wakes, tick) {
  let lo = 0, hi = wakes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (wakes[mid].tick < tick) lo = mid + 1;
    else hi = mid;
  }
  return wakes[lo] && wakes[lo].tick === tick ? wakes[lo] : undefined;
}

/**
 * A wake in words, as the panel shows it.
 * @param {Wake} w
 * @returns {string}
 */
export function describeWake(w) {
  switch (w.cause) {
    case 'start': return 'its first tick (nothing to wait for)';
    case 'every_tick': return 'every tick (something it runs has unknown inputs or runs on)';
    case 'timer': return 'its timer';
    case 'asked': return 'the game (ticked before its wake, with no change it watches)';
    case 'changed': {
      const names = w.inputs.join(', ');
      const more = w.unnamed ? (names ? ' and inputs no node names' : 'inputs no node names') : '';
      return `a change of ${names}${more}`;
    }
    default: return w.cause;
  }
}

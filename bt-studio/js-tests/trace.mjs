// Hand-written traces in behaved-observe's JSON form, for the trace model's tests.

/**
 * A trace of `nodes` (`[kind, label, line]`, the first the root and the others
 * its children), every node idle at the start, then `events`.
 * @param {number} version the trace format's version
 * @param {[string, string, number][]} nodes
 * @param {object[]} events
 */
export function traceOf(version, nodes, events) {
  return {
    format: 'bt-trace',
    version,
    nodes: nodes.map(([kind, label, line], id) => ({ id, parent: id === 0 ? null : 0, kind, label, line })),
    start: { tick: 0, now: null, dropped_events: 0, statuses: nodes.map(() => 'idle') },
    events,
  };
}

// behaved-studio's limits, checked in the page too: the largest trace it
// shows, in the server's words (behaved_studio::limits; the numbers come
// with /catalogue.js as `limits`), so that a file too big for the page is
// refused before it is read or drawn. Pure: unit-tested with node --test
// (bt-studio/js-tests/limits.test.mjs).
// @ts-check

/**
 * Why the studio does not show a trace file of `bytes` bytes, or null within `limits`.
 * @param {number} bytes
 * @param {import('./catalogue.js').Limits} limits
 * @returns {string | null}
 */
function traceBytesPastLimit(bytes, limits) {
  if (bytes <= limits.traceBytes) return null;
  return `a trace of ${bytes} bytes is past the studio's limit of ${limits.traceBytes} bytes (${limits.traceBytes / 2 ** 20} MiB)`;
}

/**
 * Why the studio does not show `trace` (behaved-observe's JSON form), or null within `limits`.
 * @param {{ nodes: ArrayLike<unknown>, events: ArrayLike<unknown> }} trace
 * @param {import('./catalogue.js').Limits} limits
 * @returns {string | null}
 */
function tracePastLimits(trace, limits) {
  if (trace.nodes.length > limits.traceNodes) {
    return `a trace of ${trace.nodes.length} nodes is past the studio's limit of ${limits.traceNodes} nodes`;
  }
  if (trace.events.length > limits.traceEvents) {
    return `a trace of ${trace.events.length} events is past the studio's limit of ${limits.traceEvents} events`;
  }
  return null;
}

export { traceBytesPastLimit, tracePastLimits };
